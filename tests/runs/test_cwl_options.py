"""The C/W/L family's policies and options past its first round (issue 25 item 2, cwl2): graded
grades clipped into [min_rel, max_rel] said by a warning and the options (no silent
differences from cwl_eval, which refuses such gains)."""

from __future__ import annotations

import math
import re
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import expect_result, slow_examples
from evalcore.testing import runs

import evalcore

CLIPPING = ["INST(T=2,max_rel=1)", "NERR8(min_rel=1,max_rel=2)@5", "RBP(p=0.5,rel=2)", "P@5"]


def _ranked(scores):
    """evalcore's order (score, then document ID, descending)."""
    return sorted(scores, key=lambda d: (scores[d], d), reverse=True)


def _clipped(value, low, high):
    """The oracle: per query, the ranked judged documents (first 1000) whose grade is outside
    [max(low, 0), high]."""
    counts = {}
    for query, scores in value["run"].items():
        judged = value["qrels"].get(query, {})
        if not judged:
            continue
        grades = [judged[d] for d in _ranked(scores)[:1000] if d in judged]
        counts[query] = sum(1 for g in grades if g < max(low, 0) or g > high)
    return counts


# 100 examples: the reference twin walks cwl_eval's 1000 ranks in Python for each of the two
# graded measures (about 0.02 s an example), so this stays near 2 s in the dev profile.
@slow_examples(100)
@given(value=runs(max_docs=8, ties=False, ranked_lists=False, grades=("integer", "fractional", "negative")))
def test_clipped_grades_are_counted_and_said(value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = expect_result("evaluate_run", value["qrels"], value["run"], CLIPPING)
    assert result.options["cwlGrades"] == "clip"
    assert list(result.measures) == CLIPPING  # the hidden counts are taken out
    said = {}
    for text in result.policy_warnings:
        total, low, high = re.match(r"([0-9,]+) judged documents .*? outside \[([^,]+), ([^\]]+)\]", text).groups()
        said[(float(low), float(high))] = int(total.replace(",", ""))
    for low, high in ((0, 1), (1, 2)):
        want = sum(_clipped(value, low, high).values())
        assert said.get((float(max(low, 0)), float(high)), 0) == want
    assert result.warnings[-len(result.policy_warnings) or len(result.warnings):] == result.policy_warnings


def test_the_warning_names_the_count_range_measures_and_queries():
    qrels = {"q1": {"a": 3, "b": 1, "c": 2}, "q2": {"a": 1, "z": 5}, "q3": {"a": -1}}
    run = {"q1": ["a", "b", "c"], "q2": ["a"], "q3": ["a"]}
    with pytest.warns(evalcore.EvaluationWarning) as caught:
        result = evalcore.evaluate_run(qrels, run, ["INST(T=2,max_rel=1)", "INSQ(max_rel=1)", "P@1"])
    expected = ("3 judged documents ranked in the first 1,000 of 2 queries have grades outside [0, 1] and were "
                "clipped into it for INST(T=2,max_rel=1), INSQ(max_rel=1) (options['cwlGrades'] == 'clip', as "
                "ir_measures' cwl_eval provider does; cwl_eval itself refuses gains outside [--min_gain, "
                "--max_gain]): 'q1', 'q3'; raise max_rel (or lower min_rel) to score those grades as they are")
    assert result.warnings == result.policy_warnings == [expected]
    assert [str(w.message) for w in caught] == [expected]
    assert result.to_dict()["options"]["cwlGrades"] == "clip" and result.to_dict()["warnings"] == [expected]
    # (z, unranked, is not counted: only the grades the measures read)


@pytest.mark.parametrize("measures", [["P@5", "nDCG"], ["RBP(p=0.8,rel=1)"], ["INST(T=2,max_rel=3)"]])
def test_no_warning_when_nothing_is_clipped(measures):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = expect_result("evaluate_run", {"q": {"a": 3, "b": 0}}, {"q": ["a", "b"]}, measures)
    assert result.warnings == []
    graded = any("max_rel" in m for m in measures)
    assert ("cwlGrades" in result.options) == graded  # said whenever a graded C/W/L measure is asked for


def test_clipping_survives_text_measures_and_missing_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = expect_result("evaluate_run", {"q": {"a": 4}, "r": {"a": 9}}, {"q": ["a"]},
                               ["relstring", "INST(T=2,max_rel=2)"], missing="zero")
    assert result.texts["relstring"] == {"q": "4", "r": ""}
    assert len(result.policy_warnings) == 1 and "1 judged documents" in result.policy_warnings[0]
    assert math.isfinite(result.mean["INST(T=2,max_rel=2)"])
