"""evaluate_run's measures beyond ranking-evaluate's five: agreement with pytrec_eval
(trec_eval 9.0.8 inside) wherever both define a value, trec_eval 10's rounding where 9.x
differs, hand-worked cases for the measures trec_eval lacks (Judged, ERR), per-measure
relevance levels and gains, and the three name families."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from common import expect_result
from evalcore import evaluate_run
from evalcore.runs.measures import RECALL_POINTS, TREC_CUTOFFS, parse_measures
from evalcore.testing import float32_scores, runs

# ---- pytrec_eval -------------------------------------------------------------------------

# ours -> pytrec_eval's key; each a measure pytrec_eval has with the same definition.
PYTREC = {
    "NumRet": "num_ret", "NumRel": "num_rel", "num_rel_ret": "num_rel_ret", "Rprec": "Rprec", "Bpref": "bpref",
    "Success@1": "success_1", "Success@5": "success_5", "SetP": "set_P", "SetR": "set_recall", "SetF": "set_F",
    "map_cut_5": "map_cut_5", "recall_5": "recall_5", "P_10": "P_10", "ndcg_cut_10": "ndcg_cut_10",
    "recip_rank": "recip_rank", "map": "map", "ndcg": "ndcg",
}
# Defined here only when the query has a relevant judgment (trec_eval: 0 otherwise).
NEEDS_RELEVANT = {"Rprec", "Bpref", "Success@1", "Success@5", "SetR", "SetF", "map_cut_5", "recall_5", "recip_rank", "map",
                  "ndcg_cut_10", "ndcg"}  # (integer grades: a positive one is relevant, so the ideal DCG is not 0)
# Defined here only when the query retrieved something (trec_eval: 0 otherwise).
NEEDS_RETRIEVED = {"SetP", "SetF"}
PYTREC_NAMES = {"num_ret", "num_rel", "num_rel_ret", "Rprec", "bpref", "success.1,5", "set_P", "set_recall", "set_F",
                "map_cut.5", "recall.5", "P.10", "ndcg_cut.10", "recip_rank", "map", "ndcg", "iprec_at_recall"}


def lround(x: float) -> int:
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores))
def test_matches_pytrec_eval_where_both_define_a_value(value):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # pytrec_eval crashes (SIGSEGV) on a query with an empty ranking and on one whose grades
    # are all negative: those are left out (test_edge_cases_trec_eval_cannot_take covers them).
    run = {q: docs for q, docs in value["run"].items() if docs}
    qrels = {q: grades for q, grades in value["qrels"].items() if any(g >= 0 for g in grades.values())}
    iprec = [f"iprec_at_recall_{x:3.2f}" for x in RECALL_POINTS]
    result = expect_result("evaluate_run", qrels, run, list(PYTREC) + iprec)
    trec = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_NAMES).evaluate(run)
    assert set(result.query_ids) == set(trec)
    for q in result.query_ids:
        at = result.query_ids.index(q)
        relevant = sum(1 for g in qrels[q].values() if g >= 1)
        retrieved = len(run[q])
        for ours, theirs in PYTREC.items():
            value_here = float(result.values(ours)[at])
            if (relevant == 0 and ours in NEEDS_RELEVANT) or (retrieved == 0 and ours in NEEDS_RETRIEVED):
                # The documented difference: undefined here, 0 in trec_eval.
                assert math.isnan(value_here) and trec[q][theirs] == 0.0, (q, ours)
            else:
                assert value_here == trec[q][theirs], (q, ours, value_here, trec[q][theirs])
        for x, name in zip(RECALL_POINTS, iprec):
            value_here = float(result.values(name)[at])
            if relevant == 0:
                assert math.isnan(value_here) and trec[q][name] == 0.0
            elif retrieved == 0 and lround(x * relevant) == 0:
                assert math.isnan(value_here) and math.isnan(trec[q][name])  # trec_eval's 0 / 0
            elif lround(x * relevant) == int(x * relevant + 0.9):
                # trec_eval 9.x (pytrec_eval) and 10 take the same number of relevant documents.
                assert value_here == trec[q][name], (q, name, value_here, trec[q][name])


def test_edge_cases_trec_eval_cannot_take():
    # An empty ranking (missing="zero") and a query whose grades are all negative.
    result = expect_result("evaluate_run", {"q": {"a": 1}, "n": {"a": -1}}, {"n": {"a": 1.0}},
                           ["NumRet", "NumRel", "SetP", "SetF", "Rprec", "Bpref", "IPrec@0", "IPrec@1", "Judged"],
                           missing="zero")
    values = {m: result.values(m).tolist() for m in result.measures}
    nan = math.nan
    expected = {"NumRet": [1.0, 0.0], "NumRel": [0.0, 1.0], "SetP": [0.0, nan], "SetF": [nan, nan], "Rprec": [nan, 0.0],
                "Bpref": [nan, 0.0], "IPrec@0": [nan, nan], "IPrec@1": [nan, 0.0], "Judged": [1.0, nan]}
    assert result.query_ids == ["n", "q"]
    for measure, want in expected.items():
        assert [v if v == v else "nan" for v in values[measure]] == [w if w == w else "nan" for w in want], measure


def test_interpolated_precision_follows_trec_eval_10s_rounding():
    # R = 12, recall 0.1: trec_eval 10 takes lround(1.2) = 1 relevant document, 9.x (and so
    # pytrec_eval) int(1.2 + 0.9) = 2.
    qrels = {"q": {f"r{i:02d}": 1 for i in range(12)}}
    ranking = ["x0", "r00", "x1", "x2", "r01"] + [f"r{i:02d}" for i in range(2, 12)]
    run = {"q": {doc: float(100 - i) for i, doc in enumerate(ranking)}}
    result = expect_result("evaluate_run", qrels, run, ["IPrec@0.1", "iprec_at_recall_0.10", "IPrec@0.2"])
    # The best precision at or below rank 2 (the first relevant): 12 of 15 at rank 15.
    assert result.mean["IPrec@0.1"] == result.mean["iprec_at_recall_0.10"] == 12 / 15
    pytrec_eval = pytest.importorskip("pytrec_eval")
    nine = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["q"]["iprec_at_recall_0.10"]
    assert nine == 12 / 15  # here the second relevant (rank 5) gives the same; with it first:
    run2 = {"q": {doc: float(100 - i) for i, doc in enumerate(["r00", "x0", "x1", "x2", "r01", "x3"] + [f"r{i:02d}" for i in range(2, 12)])}}
    ours = expect_result("evaluate_run", qrels, run2, ["IPrec@0.1"]).mean["IPrec@0.1"]
    nine = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run2)["q"]["iprec_at_recall_0.10"]
    assert ours == 1.0 and nine == 12 / 16  # 10: rank 1's precision; 9.x: the best from rank 5 on


def test_relevance_level_per_measure_equals_the_run_option():
    qrels = {"q": {"a": 2, "b": 1, "c": 0, "d": 3}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 0.5}}
    per_measure = expect_result("evaluate_run", qrels, run, ["P(rel=2)@3", "AP(rel=2)", "Rprec(rel=2)", "Bpref(rel=2)",
                                                            "nDCG@3", "precision@3-l2"])
    whole_run = expect_result("evaluate_run", qrels, run, ["P@3", "AP", "Rprec", "Bpref", "nDCG@3"], relevant_at_least=2)
    assert [per_measure.mean[m] for m in ("P(rel=2)@3", "AP(rel=2)", "Rprec(rel=2)", "Bpref(rel=2)", "nDCG@3")] == [
        whole_run.mean[m] for m in ("P@3", "AP", "Rprec", "Bpref", "nDCG@3")]
    assert per_measure.mean["precision@3-l2"] == per_measure.mean["P(rel=2)@3"] == 1 / 3


def test_custom_gains_equal_remapped_grades():
    qrels = {"q": {"a": 2, "b": 1, "c": 0, "d": 3}}
    remapped = {"q": {"a": 3, "b": 1, "c": 0, "d": 3}}  # 2 -> 3, others as they are
    run = {"q": {"b": 4.0, "a": 3.0, "d": 2.0, "c": 1.0}}
    gains = expect_result("evaluate_run", qrels, run, ["nDCG(gains={2:3})@3", "nDCG(gains={2:3})", "nDCG@3"])
    plain = expect_result("evaluate_run", remapped, run, ["nDCG@3", "nDCG"])
    assert gains.mean["nDCG(gains={2:3})@3"] == plain.mean["nDCG@3"]
    assert gains.mean["nDCG(gains={2:3})"] == plain.mean["nDCG"]
    assert gains.mean["nDCG@3"] != plain.mean["nDCG@3"]
    # A gain of 0 or below adds nothing, in the ranking and in the ideal.
    zero = expect_result("evaluate_run", qrels, run, ["nDCG(gains={1:0,3:-2})"]).mean["nDCG(gains={1:0,3:-2})"]
    only_a = expect_result("evaluate_run", {"q": {"a": 2}}, run, ["nDCG"]).mean["nDCG"]
    assert zero == only_a


def test_judged_is_the_share_of_the_top_documents_judged():
    qrels = {"q": {"a": 0, "b": 1, "c": -1}}  # a negative grade is a judgment too
    run = {"q": {"a": 5.0, "x": 4.0, "c": 3.0, "y": 2.0}}
    result = expect_result("evaluate_run", qrels, run, ["Judged@1", "Judged@2", "Judged@10", "Judged"])
    assert result.mean == {"Judged@1": 1.0, "Judged@2": 0.5, "Judged@10": 0.5, "Judged": 0.5}  # top min(k, N)
    empty = expect_result("evaluate_run", qrels, {"q": {}}, ["Judged@5"], missing="zero")
    assert empty.mean == {"Judged@5": None}


def test_err_cascades_with_gdevals_grade_mapping():
    qrels = {"q": {"a": 2, "b": 0, "c": 4, "d": 7}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    result = expect_result("evaluate_run", qrels, run, ["ERR@1", "ERR@3", "ERR"])
    r2, r4 = 3 / 16, 15 / 16  # (2^g - 1) / 2^4
    assert result.mean["ERR@1"] == r2
    assert result.mean["ERR@3"] == r2 + (1 - r2) * r4 / 3
    assert result.mean["ERR"] == r2 + (1 - r2) * r4 / 3 + (1 - r2) * (1 - r4) * r4 / 4  # a grade of 7 counts as 4
    nothing = expect_result("evaluate_run", {"q": {"a": 0}}, run, ["ERR@3"])
    assert nothing.mean == {"ERR@3": None}  # no positive judgment: undefined, as gdeval skips the query


def test_set_measures_and_trec_evals_set_f_parameter():
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 0}}
    run = {"q": {"a": 3.0, "d": 2.0, "x": 1.0}}
    result = expect_result("evaluate_run", qrels, run, ["SetP", "SetR", "SetF", "set_F.0.5", "SetF(beta=2)", "num_rel_ret"])
    p, r = 1 / 3, 1 / 3
    assert result.mean["SetP"] == p and result.mean["SetR"] == r and result.mean["num_rel_ret"] == 1.0
    assert result.mean["SetF"] == 2.0 * p * r / (1.0 * p + r)
    assert result.mean["set_F_0.5"] == 1.5 * p * r / (0.5 * p + r)  # x plays beta squared's part
    assert result.mean["SetF(beta=2)"] == 3.0 * p * r / (2.0 * p + r)


# ---- names -----------------------------------------------------------------------------------

SAME = [
    ("nDCG@10", "ndcg_cut_10"), ("nDCG@10", "ndcg_cut.10"), ("nDCG@10", "ndcg@10"), ("AP@100", "map_cut_100"),
    ("AP@100", "map@100"), ("AP", "map"), ("AP", "MAP"), ("RR", "recip_rank"), ("RR", "MRR"), ("RR@10", "mrr@10"),
    ("P@10", "P_10"), ("P@10", "P.10"), ("P@10", "precision@10"), ("R@100", "recall_100"), ("R@100", "recall@100"),
    ("R@100", "Recall@100"), ("Success@5", "success_5"), ("Success@5", "hit_rate@5"), ("Rprec", "r-precision"),
    ("Bpref", "bpref"), ("nDCG", "ndcg"), ("SetP", "set_P"), ("SetP", "precision"), ("SetR", "set_recall"),
    ("NumRet(rel=1)", "num_rel_ret"), ("P(rel=2)@10", "precision@10-l2"), ("IPrec@0.2", "iprec_at_recall_0.20"),
]


@pytest.mark.parametrize("one, other", SAME)
def test_names_of_one_measure_give_the_same_values(one, other):
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"x": 1, "y": 3}}
    run = {"q1": {"a": 1.0, "c": 3.0, "z": 2.0, "b": 0.5}, "q2": {"y": 1.0, "w": 2.0}}
    result = expect_result("evaluate_run", qrels, run, [one, other])
    assert result.values(one).tobytes() == result.values(parse_measures(other)[0].name).tobytes()


def test_trec_names_with_several_cutoffs_and_nicknames():
    assert [s.name for s in parse_measures("P.5,10")] == ["P_5", "P_10"]
    assert [s.name for s in parse_measures("ndcg_cut.20,10")] == ["ndcg_cut_10", "ndcg_cut_20"]
    assert [s.name for s in parse_measures("P")] == [f"P_{k}" for k in TREC_CUTOFFS]
    assert [s.name for s in parse_measures("iprec_at_recall.0.25,1")] == ["iprec_at_recall_0.25", "iprec_at_recall_1.00"]
    official = [s.name for s in parse_measures("official")]
    assert official == (["num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank"]
                        + [f"iprec_at_recall_{x:3.2f}" for x in RECALL_POINTS] + [f"P_{k}" for k in TREC_CUTOFFS])
    every = [s.name for s in parse_measures("all_trec")]
    assert set(official) < set(every) and "ndcg" in every and "set_F" in every and "success_10" in every
    result = evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["all_trec"])
    assert list(result.mean) == every


def test_an_unknown_name_suggests_the_closest():
    with pytest.raises(ValueError, match="did you mean 'Judged@10'"):
        parse_measures("Judgd@10")
    with pytest.raises(ValueError, match="did you mean 'recip_rank'"):
        parse_measures("recip_rnk")
