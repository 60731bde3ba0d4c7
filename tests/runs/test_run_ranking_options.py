"""evaluate_run's max_retrieved and judged_only (trec_eval -M and -J): they change the
ranking every measure reads. Both cores agree (test_differential.py draws them too); here:
each equals evaluating the ranking it describes, hand-worked cases, agreement with
pytrec_eval's judged_docs_only_flag (trec_eval -J), and the checks of the options."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import assert_identical, expect_result, run_all, slow_examples
from evalcore.testing import MEASURES, float32_scores, runs

MEASURES = ["NumRet", "num_rel_ret", "P@2", "AP", "RR", "nDCG", "Rprec", "Bpref", "IPrec@0", "SetP", "Judged@3"]


def ranked(scores: dict) -> list:
    """A {doc: score} ranking in evalcore's (trec_eval's) order: score, then doc ID, descending."""
    return sorted(scores, key=lambda d: (scores[d], d.encode("utf-8")), reverse=True)


def described(value: dict, keep) -> dict:
    """The run of runs() with each ranking replaced by keep(query, ranked docs), as a list."""
    out = {}
    for query, entries in value["run"].items():
        docs = list(entries) if isinstance(entries, list) else ranked(entries)
        out[query] = keep(query, docs)
    return out


@given(value=runs(), k=st.integers(0, 8), measures=st.lists(st.sampled_from(MEASURES), min_size=1,
                                                                   max_size=5, unique=True))
def test_max_retrieved_equals_the_ranking_cut_at_k(value, k, measures):
    cut = expect_result("evaluate_run", value["qrels"], value["run"], measures, max_retrieved=k)
    truncated = expect_result("evaluate_run", value["qrels"], described(value, lambda q, docs: docs[:k]), measures)
    assert_identical(cut.to_dict(), truncated.to_dict() | {"options": cut.to_dict()["options"]})


@given(value=runs(), k=st.one_of(st.none(), st.integers(0, 8)),
       measures=st.lists(st.sampled_from(MEASURES), min_size=1, max_size=5, unique=True))
def test_judged_only_equals_the_ranking_without_unjudged_documents(value, k, measures):
    def judged(query, docs):
        grades = value["qrels"].get(query, {})
        return [d for d in (docs if k is None else docs[:k]) if d in grades and grades[d] >= 0]

    dropped = expect_result("evaluate_run", value["qrels"], value["run"], measures, max_retrieved=k, judged_only=True)
    filtered = expect_result("evaluate_run", value["qrels"], described(value, judged), measures)
    assert_identical(dropped.to_dict(), filtered.to_dict() | {"options": dropped.to_dict()["options"]})


def test_max_retrieved_keeps_the_first_of_the_order_not_of_the_lines():
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run = {"q": {"c": 1.0, "a": 3.0, "x": 2.0, "b": 3.0}}  # ranked b, a, x, c (ties: doc ID descending)
    result = expect_result("evaluate_run", qrels, run, MEASURES, max_retrieved=2)
    values = dict(zip(MEASURES, (float(result.values(m)[0]) for m in MEASURES)))
    assert values["NumRet"] == 2.0 and values["num_rel_ret"] == 2.0 and values["P@2"] == 1.0
    assert values["AP"] == 1.0 and values["SetP"] == 1.0 and values["Judged@3"] == 1.0  # top min(3, N = 2)
    assert result.options["maxRetrieved"] == 2 and result.options["judgedOnly"] is False
    nothing = expect_result("evaluate_run", qrels, run, MEASURES, max_retrieved=0)
    values = dict(zip(MEASURES, (float(nothing.values(m)[0]) for m in MEASURES)))
    assert values["NumRet"] == 0.0 and values["AP"] == 0.0 and math.isnan(values["SetP"])
    assert math.isnan(values["IPrec@0"])  # trec_eval's 0 / 0 (it prints -nan)


def test_judged_only_drops_unjudged_and_negative_grades_after_the_cut():
    qrels = {"q": {"a": 1, "spam": -2, "n": 0}}
    run = {"q": {"x": 5.0, "spam": 4.0, "a": 3.0, "y": 2.0, "n": 1.0}}  # x spam a y n
    result = expect_result("evaluate_run", qrels, run, MEASURES, judged_only=True)
    values = dict(zip(MEASURES, (float(result.values(m)[0]) for m in MEASURES)))
    # The ranking is a, n: the ranks close up.
    assert values["NumRet"] == 2.0 and values["RR"] == 1.0 and values["P@2"] == 0.5 and values["Judged@3"] == 1.0
    cut_first = expect_result("evaluate_run", qrels, run, MEASURES, judged_only=True, max_retrieved=3)
    values = dict(zip(MEASURES, (float(cut_first.values(m)[0]) for m in MEASURES)))
    assert values["NumRet"] == 1.0 and values["P@2"] == 0.5  # -M first (x spam a), then -J: a


@slow_examples(500)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores))
def test_judged_only_matches_pytrec_eval(value):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # As in test_run_measures: pytrec_eval crashes on empty rankings and all-negative topics.
    run = {q: docs for q, docs in value["run"].items() if docs}
    qrels = {q: grades for q, grades in value["qrels"].items() if any(g >= 0 for g in grades.values())}
    ours = expect_result("evaluate_run", qrels, run, ["NumRet", "num_rel_ret", "P_5", "map", "ndcg"], judged_only=True)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"num_ret", "num_rel_ret", "P.5", "map", "ndcg"},
                                            judged_docs_only_flag=True).evaluate(run)
    assert set(ours.query_ids) == set(theirs)
    for at, query in enumerate(ours.query_ids):
        relevant = sum(1 for g in qrels[query].values() if g >= 1)
        for mine, key in (("NumRet", "num_ret"), ("num_rel_ret", "num_rel_ret"), ("P_5", "P_5"), ("map", "map"),
                          ("ndcg", "ndcg")):
            here = float(ours.values(mine)[at])
            if relevant == 0 and key in ("map", "ndcg"):
                assert math.isnan(here) and theirs[query][key] == 0.0  # undefined here, 0 in trec_eval
            else:
                assert here == theirs[query][key], (query, key, here, theirs[query][key])


@pytest.mark.parametrize("option", [{"max_retrieved": -1}, {"max_retrieved": 1.5}, {"max_retrieved": True},
                                    {"max_retrieved": "10"}, {"max_retrieved": 1 << 63}, {"judged_only": 1},
                                    {"judged_only": None}])
def test_bad_ranking_options(option):
    outcome = run_all("evaluate_run", {"q": {"a": 1}}, {"q": ["a"]}, ["P@1"], **option)
    assert outcome[0] == "error" and outcome[1][0] in ("ValueError", "TypeError"), outcome
    assert next(iter(option)) in outcome[1][1]


def test_off_means_every_rank():
    qrels, run = {"q": {"a": 1}}, {"q": ["x", "y", "a"]}
    plain = expect_result("evaluate_run", qrels, run, MEASURES)
    explicit = expect_result("evaluate_run", qrels, run, MEASURES, max_retrieved=None, judged_only=False)
    assert_identical(plain, explicit)
    assert plain.options["maxRetrieved"] is None and plain.options["judgedOnly"] is False
