"""Issue 26, gap 3: the Tukey HSD as a call of its own (evalcore.tukey_hsd and
tukey_hsd_values): the same numbers as compare(..., tukey=...), native equal to the reference
bit for bit, the classic kind equal to statsmodels' pairwise_tukeyhsd, and its displays."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import expect_result, run_all, slow_examples
from evalcore.testing import per_query_values

ROOT = pathlib.Path(__file__).resolve().parents[2] / "examples" / "compare"
RUNS = {name: str(ROOT / f"{name}.txt") for name in ("bm25", "rm3", "dense", "splade")}
QRELS = str(ROOT / "qrels.txt")


@pytest.mark.filterwarnings("ignore::evalcore.EvaluationWarning")  # splade lacks query 417 (missing="skip")
@pytest.mark.parametrize("kind", ["randomized", "classic"])
def test_equals_compare_s_tukey_results(kind):
    pytest.importorskip("scipy")
    # the classic kind is the same Python code in both cores (scipy's studentized range, about
    # 2 s a call here): the differential comparison is the randomized kind's
    result = (expect_result("tukey_hsd", QRELS, RUNS, "nDCG@10", kind=kind, resamples=300, seed=5) if
              kind == "randomized" else evalcore.tukey_hsd(QRELS, RUNS, "nDCG@10", kind=kind))
    comparison = evalcore.compare(QRELS, RUNS, ["nDCG@10"], tukey=kind, resamples=300, seed=5, tests="t")
    theirs = comparison.tukey["nDCG@10"]
    assert (result.queries, result.dropped) == (theirs["queries"], theirs["dropped"]) == (29, 1)
    assert result.pairs == theirs[kind]["pairs"] and result.groups == theirs[kind]["groups"]
    assert result.means == {r["run"]: r["sharedMean"] for r in comparison.to_dict()["summary"]
                            if r["measure"] == "nDCG@10"}
    assert comparison.to_dict()["tukeyHsd"]["nDCG@10"][kind]["pairs"] == result.to_dict()["pairs"]
    if kind == "classic":
        return
    # the same on the per-query values the comparison holds
    values = evalcore.tukey_hsd_values(comparison.per_query("nDCG@10"), kind=kind, resamples=300, seed=5)
    assert values.pairs == result.pairs and values.groups == result.groups and values.measure is None
    assert (values.queries, values.dropped) == (29, 1)


@pytest.mark.filterwarnings("ignore::evalcore.EvaluationWarning")
def test_evaluations_given_and_the_displays():
    evaluations = {name: evalcore.evaluate_run(QRELS, path, ["nDCG@10"]) for name, path in RUNS.items()}
    result = evalcore.tukey_hsd(None, evaluations, "nDCG@10", resamples=200)
    assert result == evalcore.tukey_hsd(QRELS, RUNS, "nDCG@10", resamples=200)
    data = json.loads(result.to_json())
    assert data["kind"] == "randomized" and data["resamples"] == 200 and data["seed"] == 0 and data["alpha"] == 0.05
    assert [p["run"] for p in data["pairs"]] == ["rm3", "dense", "splade", "dense", "splade", "splade"]
    assert all(p["p"] == (p["count"] + 1) / 201 for p in data["pairs"])
    html, markdown = result._repr_html_(), result._repr_markdown_()
    for pair in result.pairs:
        row = [pair["run"], pair["baseline"], f"{result.means[pair['run']]:.4f}",
               f"{result.means[pair['baseline']]:.4f}", f"{pair['delta']:.4f}", f"{pair['p']:.4f}",
               "yes" if pair["significant"] else "no"]
        assert "<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" in html
        assert "| " + " | ".join(row) + " |" in markdown
    assert "29 queries every run has (1 dropped)" in html and "<script" not in html
    assert f"runs not significantly different: {result.group_text()}" in html
    assert result.group_text() in repr(result) and result.group_text().startswith("{dense")


# The reference's randomized kernel costs m·n·resamples Python steps (up to 8·12·40 here,
# about 30 ms an example with the evaluation-free path): 100 examples keep it near 3 s.
@slow_examples(100)
@given(per_query_values(max_systems=8, max_queries=12, gaps=True), st.integers(0, 2**64 - 1), st.integers(1, 40),
       st.sampled_from([0.01, 0.05, 0.5]))
def test_values_native_equal_reference_and_groups_follow_decisions(values, seed, resamples, alpha):
    outcome = run_all("tukey_hsd_values", values, resamples=resamples, seed=seed, alpha=alpha)
    if outcome[0] == "error":  # only when no query is left is nothing testable: never an error
        raise AssertionError(outcome)
    result = outcome[1]
    assert result.runs == list(values) and len(result.pairs) == len(values) * (len(values) - 1) // 2
    significant = {frozenset((p["run"], p["baseline"])) for p in result.pairs if p["significant"]}
    for group in result.groups:  # no significant pair inside a group; every run in some group
        assert not any(frozenset((a, b)) in significant for a in group for b in group if a != b)
    assert {r for g in result.groups for r in g} == set(values)
    for p in result.pairs:
        assert (math.isnan(p["p"]) and result.queries == 0) or 1 / (resamples + 1) <= p["p"] <= 1
        assert p["significant"] == (p["p"] <= alpha)


# statsmodels and scipy's studentized range: about 1.5 s an example on this loaded machine;
# test_tukey.py compares the kernel with 25 examples, this the public call with 5.
@slow_examples(5)
@given(per_query_values(min_systems=3, max_systems=8, min_queries=2, max_queries=25), st.sampled_from([0.01, 0.05]))
def test_classic_equals_statsmodels_pairwise_tukeyhsd(values, alpha):
    multicomp = pytest.importorskip("statsmodels.stats.multicomp")
    result = evalcore.tukey_hsd_values(values, kind="classic", alpha=alpha)
    names = sorted(values)  # statsmodels orders the groups by name: the names given are in that order
    assert names == list(values)
    queries = sorted(values[names[0]])
    matrix = np.array([[values[n][q] for q in queries] for n in names])
    with np.errstate(divide="ignore", invalid="ignore"):  # no variance at all: both give NaN p-values
        theirs = multicomp.pairwise_tukeyhsd(matrix.ravel(), np.repeat(names, len(queries)), alpha=alpha)
    # exactly equal, NaN equal to NaN (assert_array_equal)
    np.testing.assert_array_equal([p["p"] for p in result.pairs], theirs.pvalues)
    np.testing.assert_array_equal([(p["low"], p["high"]) for p in result.pairs], theirs.confint)
    assert [p["significant"] for p in result.pairs] == theirs.reject.tolist()
    # delta is the exact means' difference; statsmodels' bincount means may differ in the last bits
    np.testing.assert_allclose([p["delta"] for p in result.pairs], theirs.meandiffs, rtol=0, atol=1e-12)


def test_arguments_are_checked_and_named():
    good = {"a": {"q": 0.5}, "b": {"q": 0.25}}
    for values, kwargs, kind, text in [
            ({"a": {"q": 0.5}}, {}, ValueError, "tukey_hsd_values needs at least two runs in values, got 1"),
            ([("a", {"q": 0.5})], {}, TypeError, "values must be a mapping of run names to runs, got list"),
            (good, {"kind": "hsd"}, ValueError, "kind: unknown 'hsd'"),
            (good, {"kind": ["classic"]}, TypeError, "kind must be 'randomized' or 'classic'"),
            (good, {"alpha": 1.5}, ValueError, "alpha must be a number"),
            (good, {"resamples": 0}, ValueError, "resamples must be an int"),
            ({"a": [0.5], "b": {"q": 0.25}}, {}, TypeError, "values['a'] must be a mapping"),
            ({"a": {"q": math.inf}, "b": {"q": 0.25}}, {}, ValueError, "values['a']['q'] must be a finite number"),
            ({"a": {"q": "x"}, "b": {"q": 0.25}}, {}, ValueError, "values['a']['q'] must be a finite number")]:
        outcome = run_all("tukey_hsd_values", values, **kwargs)
        assert outcome[0] == "error" and outcome[1][0] == kind.__name__ and text in outcome[1][1], outcome
    outcome = run_all("tukey_hsd", QRELS, RUNS, ["nDCG@10"])
    assert outcome[1][:2] == ("TypeError", "measure must be one measure's name (a str), got list")
