"""trec_eval 10's rank-based measures (num_nonrel_judged_ret, Rprec_mult, unj, rbp, rbp_resid,
yaap, infAP): both cores agree bit for bit on drawn runs (graded, negative and unjudged
grades, ties, -M and -J), hand-worked values, their names in the three families and the
errors. The golden trec_eval 10 outputs are in tests/trec_eval/test_trec_eval_golden.py."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import differential, expect_result, run_all
from evalcore.runs.measures import KIND, MeasureSpec, parse_measures
from evalcore.testing import runs

RANK_NAMES = ["num_nonrel_judged_ret", "Rprec_mult", "Rprec_mult.0,0.3,2.5", "unj", "unj.1,3", "rbp", "rbp.p=0.5",
              "rbp_resid", "rbp_resid.p=0.95", "yaap", "infAP", "infAP(rel=2)", "RBP(p=0.8)",
              # rbp's gains for levels: above 1, below 0, within [0, 1] (rescaled or not)
              "rbp.1=2,p=0.8", "rbp.0=-1,3=0.5", "rbp.1=0.5,2=0.25"]
# The grade at ranks 1, 2, 5 and 13 (past every drawn ranking): what `evalcore trec` prints as relstring.
RANK_GRADES = [MeasureSpec(f"grade@{k}", KIND["RankGrade"], cutoff=k) for k in (1, 2, 5, 13)]


@differential
@given(value=runs(max_docs=12), level=st.sampled_from([1.0, 2.0, 0.5]), max_retrieved=st.sampled_from([None, 0, 3]),
       judged_only=st.booleans(), missing=st.sampled_from(["skip", "zero"]))
def test_both_cores_agree(value, level, max_retrieved, judged_only, missing):
    result = expect_result("evaluate_run", value["qrels"], value["run"], RANK_NAMES + RANK_GRADES,
                           relevant_at_least=level, max_retrieved=max_retrieved, judged_only=judged_only, missing=missing)
    for name in result.measures:
        values = result.values(name)
        if name.startswith(("num_nonrel", "unj", "rbp")):  # defined for every query
            assert not any(math.isnan(v) for v in values), name


QRELS = {"q": {"a": 2, "b": 0, "c": 1, "d": -1, "e": 1}}
RUN = {"q": ["a", "c", "z", "d", "b"]}  # grades 2, 1, not judged, unjudged in the pool, 0


def values(measures, qrels=QRELS, run=RUN, **options):
    result = expect_result("evaluate_run", qrels, run, measures, **options)
    return {m: float(result.values(m)[0]) for m in result.measures}


def test_hand_worked_values():
    got = values(["num_nonrel_judged_ret", "Rprec_mult_1.00", "Rprec_mult_2.00", "unj_5", "unj_10", "rbp.p=0.5",
                  "rbp_resid.p=0.5", "yaap", "infAP"])
    assert got["num_nonrel_judged_ret"] == 1.0
    assert got["Rprec_mult_1.00"] == 2 / 3  # R = 3: rank (long)(3.9) = 3
    assert got["Rprec_mult_2.00"] == 2 / 6  # rank 6, past the 5 retrieved
    assert got["unj_5"] == 2 / 5 and got["unj_10"] == 2 / 10
    assert got["rbp_p=0.5"] == 0.5 * (2 / 2 + (1 / 2) * 0.5)  # grades over the top grade, 2
    assert got["rbp_resid_p=0.5"] == 0.5 ** 5 + 0.5 * (0.25 + 0.125)
    assert got["yaap"] == math.log((1 + 2.0) / (1 + 3 - 2.0))
    assert got["infAP"] == pytest.approx((1.0 + 0.5 + 0.5 * (1 + 0.00001) / (1 + 2 * 0.00001)) / 3, rel=1e-15)


def test_undefined_without_relevant_judgments():
    got = values(["Rprec_mult_1.00", "yaap", "infAP", "rbp", "rbp_resid", "num_nonrel_judged_ret"],
                 qrels={"q": {"a": 0}}, run={"q": ["a", "z"]})
    assert math.isnan(got["Rprec_mult_1.00"]) and math.isnan(got["yaap"]) and math.isnan(got["infAP"])
    assert got["rbp"] == 0.0 and got["num_nonrel_judged_ret"] == 1.0
    assert got["rbp_resid"] == 0.9 * 0.9 + (1 - 0.9) * 0.9


def test_rank_grade():
    got = values(RANK_GRADES)
    assert got["grade@1"] == 2.0 and got["grade@2"] == 1.0 and got["grade@5"] == 0.0 and math.isnan(got["grade@13"])
    assert math.isnan(values(RANK_GRADES[1:2], run={"q": ["a", "z"]})["grade@2"])  # not judged


def test_judged_only_leaves_nothing_unjudged():
    got = values(["unj_5", "rbp_resid"], judged_only=True)
    assert got == {"unj_5": 0.0, "rbp_resid": 0.0}


def test_names():
    specs = parse_measures(["all_trec"])
    names = [s.name for s in specs]
    for name in ["infAP", "Rprec_mult_0.20", "Rprec_mult_2.00", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj_5",
                 "unj_20"]:
        assert name in names
    assert "yaap" not in names  # trec_eval's all_trec leaves yaap out
    assert [s.name for s in parse_measures(["rbp_p=0.5", "Rprec_mult.1,0.5", "unj.7"])] == [
        "rbp_p=0.5", "Rprec_mult_0.50", "Rprec_mult_1.00", "unj_7"]
    assert parse_measures("RBP(p=0.8)")[0].parameter == 0.8
    assert parse_measures("infAP(rel=2)")[0].rel == 2.0


@pytest.mark.parametrize("name, message", [
    ("rbp.p=1", "the persistence p must be a number between 0 and 1"),
    ("rbp.p=x", "the persistence p must be a number between 0 and 1"),
    ("RBP", "RBP needs its persistence, e.g. RBP(p=0.8)"),
    # RBP(rel=2, p=0.5) is the C/W/L family's binary RBP (issue 25 item 2: tests/runs/test_cwl_measures.py)
    ("RBP(rel=2, p=0.5)@5", "RBP (C/W/L) takes no cutoff"),
    ("P(p=0.5)@5", "only RBP takes p"),
    ("yaap.5", "yaap takes no parameters"),
    ("unj.0", "cutoffs must be positive integers (read as C's atol reads them)"),
    ("Rprec_mult.1,1", "lists a cutoff twice"),
    ("YAAP", "unknown measure 'YAAP'"),
])
def test_errors(name, message):
    outcome = run_all("evaluate_run", QRELS, RUN, [name])
    assert outcome[0] == "error" and outcome[1][0] == "ValueError" and message in outcome[1][1], outcome
