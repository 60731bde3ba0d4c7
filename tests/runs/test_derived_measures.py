"""trec_eval's derived measures in evaluate_run (issue 23 item 2): gm_map, gm_bpref, utility,
11pt_avg, relative_P, set_relative_P, set_map, num_q and runid in both cores; their summaries
(the geometric means' exp of the exact mean, num_q's count); every spelling ``evalcore trec``
takes, with the names it prints; per-query values equal to pytrec-eval-terrier's."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import differential, expect_result
from evalcore.runs.measures import TREC_NICKNAMES, parse_measures
from evalcore.testing import float32_scores, runs
from evalcore.trec_eval import output_format as te

DERIVED = ["gm_map", "gm_bpref", "utility", "utility.2,-0.5,0.25,3", "11pt_avg", "11pt_avg.0.8,0.2,0.5,1.5,0",
           "relative_P.1,2,3,7", "set_relative_P", "set_map", "num_q", "runid"]


@differential
@given(value=runs(max_docs=8), level=st.sampled_from([1, 2, 0.5]), max_retrieved=st.sampled_from([None, 0, 3]),
       judged_only=st.booleans())
def test_derived_measures_agree_between_cores(value, level, max_retrieved, judged_only):
    """Both cores give the same values and means, at any relevance level, with -M and -J."""
    expect_result("evaluate_run", value["qrels"], value["run"], DERIVED + ["map", "bpref"], relevant_at_least=level,
                  max_retrieved=max_retrieved, judged_only=judged_only)


QRELS = {"q1": {"a": 1, "b": 0, "c": 2, "d": 1}, "q2": {"e": 1, "f": 0}, "q3": {"g": 0}}
RUN = {"q1": {"a": 3.0, "b": 2.0, "x": 1.5, "c": 1.0}, "q2": {"f": 2.0, "e": 1.0}, "q3": {"g": 1.0}}


def test_hand_worked_values_and_summaries():
    result = expect_result("evaluate_run", QRELS, RUN, ["map", "gm_map", "num_q", "runid", "utility", "set_map",
                                                        "set_relative_P", "relative_P.2", "11pt_avg.0.5"])
    ap = {q: float(v) for q, v in zip(result.query_ids, result.values("map"))}
    assert ap == {"q1": (1 + 2 / 4) / 3, "q2": 0.5, "q3": ap["q3"]} and math.isnan(ap["q3"])
    gm = [float(v) for v in result.values("gm_map")]
    assert gm[:2] == [math.log(ap["q1"]), math.log(0.5)] and math.isnan(gm[2])  # q3: no relevant judgment
    assert result.mean["gm_map"] == math.exp((math.log(ap["q1"]) + math.log(0.5)) / 2)
    assert result.defined_counts["gm_map"] == 2
    assert list(result.values("num_q")) == [1.0, 1.0, 1.0] and result.mean["num_q"] == 3.0
    assert list(result.values("runid")) == [0.0, 0.0, 0.0] and result.mean["runid"] == 0.0
    # q1: N = 4, R = 3, rr = 2: utility 2 - 2 = 0; set_map 4 / 12; set_relative_P 2 / 3.
    assert [float(result.values(m)[0]) for m in ("utility", "set_map", "set_relative_P", "relative_P_2")] == [
        0.0, 4 / 12, 2 / 3, 1 / 2]
    # 11pt_avg at 0.5: lround(1.5) = 2 relevant documents, the best precision at or below rank 4: 2/4.
    assert float(result.values("11pt_avg_0.5")[0]) == 0.5
    json_mean = evalcore.evaluate_run(QRELS, RUN, ["gm_map", "num_q"]).to_dict(per_query=False)["mean"]
    assert json_mean == {"gm_map": result.mean["gm_map"], "num_q": 3.0}


def test_the_geometric_mean_does_not_depend_on_query_order():
    qrels = {f"q{i}": {"a": 1, "b": 1, "c": 1} for i in range(40)}
    run = {f"q{i}": {d: float((i * 7 + j * 3) % 5) for j, d in enumerate("abcxyz")} for i in range(40)}
    forward = evalcore.evaluate_run(qrels, run, ["gm_map"]).mean
    backward = evalcore.evaluate_run(qrels, dict(reversed(list(run.items()))), ["gm_map"]).mean
    assert forward == backward


# ---- names: the command line's spellings ----------------------------------------------------

SPELLINGS = [["gm_map"], ["gm_bpref"], ["utility"], ["utility.1,-1,0.5,0"], ["11pt_avg"], ["11pt_avg.0.2,0.5,0.8"],
             ["relative_P"], ["relative_P.3,1"], ["set_relative_P"], ["set_map"], ["num_q"], ["runid"],
             ["iprec_at_recall..10,.20"], ["P.23.4"], ["ndcg_cut.10,20,23.4"], ["recall.5x,2"], ["set_F.0.5"],
             ["success.1,5"], ["map_cut.7"], ["official"], ["set"], ["all_trec"], ["map", "gm_map", "P.5"]]


@pytest.mark.parametrize("arguments", SPELLINGS, ids=lambda a: " ".join(a))
def test_every_spelling_the_cli_takes_has_its_printed_names(arguments):
    """evaluate_run's names are the lines ``evalcore trec --format trec_eval`` prints (in
    its order, which for several -m is trec_eval's table order), runid and num_q aside for
    nicknames, which evaluate_run leaves out of them."""
    columns = [c.name for c in te.plan(arguments).columns]
    names = [s.name for s in parse_measures(arguments)]
    if any(a in TREC_NICKNAMES for a in arguments):
        # relstring (all_trec's) is text: evaluate_run has it when named (test_relstring.py), not in nicknames
        columns = [c for c in columns if c not in ("runid", "num_q", "relstring")]
    assert sorted(names) == sorted(columns)
    if len(arguments) == 1:
        assert names == columns


def test_official_has_gm_map_and_set_is_a_nickname():
    assert "gm_map" in [s.name for s in parse_measures("official")]
    assert [s.name for s in parse_measures("set")] == ["num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
                                                       "set_relative_P", "set_recall", "set_map", "set_F"]


@pytest.mark.parametrize("name, message", [
    ("utility.1,2", "utility takes 4 coefficients (a,b,c,d), got 2"),
    ("utility.1e300,0,0,0", "magnitude at most 1e270"),  # 2e300 for two relevant retrieved: inf
    ("P.0", "cutoffs must be positive integers"),
    ("11pt_avg.-0.5", "finite numbers >= 0"),
    ("map.5", "map takes no parameters (trec_eval ignores them): name it 'map'"),
    ("gm_map.", "name the parameters after the '.'"),
])
def test_refused_parameters_say_what_to_do(name, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        parse_measures(name)


# ---- pytrec-eval-terrier ---------------------------------------------------------------------

# ours -> pytrec_eval's key. 11pt_avg at 0, 0.5 and 1, the points where trec_eval 9's
# int(x R + 0.9) relevant documents are trec_eval 10's lround(x R) for every R.
PYTREC = {"gm_map": "gm_map", "gm_bpref": "gm_bpref", "utility": "utility", "11pt_avg_0,0.5,1": "11pt_avg",
          "relative_P_5": "relative_P_5", "set_relative_P": "set_relative_P", "set_map": "set_map", "num_q": "num_q",
          "runid": "runid"}
FLOOR = math.log(0.00001)  # trec_eval's value of the geometric means where evalcore's is undefined


@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores, max_docs=8))
def test_per_query_values_equal_pytrec_eval(value):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # pytrec_eval crashes on an empty ranking and on a query whose grades are all negative.
    run = {q: docs for q, docs in value["run"].items() if docs}
    qrels = {q: grades for q, grades in value["qrels"].items() if any(g >= 0 for g in grades.values())}
    names = ["gm_map", "gm_bpref", "utility", "11pt_avg.0,0.5,1", "relative_P.5", "set_relative_P", "set_map", "num_q",
             "runid"]
    result = expect_result("evaluate_run", qrels, run, names)
    trec = pytrec_eval.RelevanceEvaluator(qrels, set(names)).evaluate(run)
    assert set(result.query_ids) == set(trec)
    for at, q in enumerate(result.query_ids):
        for ours, theirs in PYTREC.items():
            here = float(result.values(ours)[at])
            if math.isnan(here):  # no relevant judgment (or, for set_*, nothing retrieved)
                assert trec[q][theirs] == (FLOOR if ours.startswith("gm_") else 0.0), (q, ours)
            else:
                assert here == trec[q][theirs], (q, ours, here, trec[q][theirs])
