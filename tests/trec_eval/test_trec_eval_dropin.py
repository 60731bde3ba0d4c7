"""evalcore.trec_eval.RelevanceEvaluator against pytrec-eval-terrier itself: the same
queries, keys, key order and values, for every measure both have; the two documented
differences (float32 scores, trec_eval 9's iprec_at_recall rounding) tested on both sides."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore import trec_eval
from common import slow_examples
from evalcore.testing import float32_scores, runs

pytrec_eval = pytest.importorskip("pytrec_eval")

MEASURE_SETS = [
    {"official"},
    {"all_trec"},
    {"P.5,10", "P_20", "ndcg_cut.3,10", "map_cut_5", "recall.2", "success_3", "set_F.0.5", "iprec_at_recall.0.25,0.5"},
    {"map", "gm_map", "ndcg", "recip_rank", "bpref", "Rprec", "num_rel_ret"},
]


def lround(x: float) -> int:
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


def rounding_agrees(key: str, relevant: int) -> bool:
    """Whether trec_eval 9 and 10 take the same number of relevant documents for this key
    (each recall point of iprec_at_recall and of 11pt_avg, whose points are the same)."""
    if key.startswith("iprec_at_recall_"):
        points = [float(key.rsplit("_", 1)[1])]
    elif key == "11pt_avg":
        points = [i / 10 for i in range(11)]
    elif key.startswith("11pt_avg_"):
        points = [float(x) for x in key[len("11pt_avg_"):].split(",")]
    else:
        return True
    return all(lround(x * relevant) == int(x * relevant + 0.9) for x in points)


def pytrec_safe(qrels, run):
    """pytrec_eval crashes (SIGSEGV) on an empty ranking and on a query whose grades are all
    negative: those are left out of what both are given."""
    run = {q: docs for q, docs in run.items() if docs}
    qrels = {q: grades for q, grades in qrels.items() if any(g >= 0 for g in grades.values()) or not grades}
    return qrels, run


@slow_examples(500)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores),
       measures=st.sampled_from(MEASURE_SETS), level=st.sampled_from([1, 2]), judged_only=st.booleans())
def test_same_dict_of_dicts_as_pytrec_eval(value, measures, level, judged_only):
    qrels, run = pytrec_safe(value["qrels"], value["run"])
    if judged_only:  # -J can empty a ranking, which pytrec_eval cannot take
        run = {q: docs for q, docs in run.items() if any(qrels.get(q, {}).get(d, -1) >= 0 for d in docs)}
    ours = trec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level, judged_docs_only_flag=judged_only)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level, judged_docs_only_flag=judged_only)
    mine, peer = ours.evaluate(run), theirs.evaluate(run)
    assert list(mine) == list(peer)
    for query in peer:
        if measures == {"all_trec"}:  # the measures of all_trec that evalcore has, in the same order
            peer[query] = {k: v for k, v in peer[query].items() if k in mine[query]}
            assert {k.rsplit("_", 1)[0] if k[-1].isdigit() else k for k in mine[query]} <= trec_eval.supported_measures
        assert list(mine[query]) == list(peer[query]), query
        relevant = sum(1 for g in qrels[query].values() if g >= level)
        for key, theirs_value in peer[query].items():
            # pytrec_eval never sets runid's value (memory's: usually 0.0, seen 6.9e-310)
            if key != "runid" and rounding_agrees(key, relevant):
                assert mine[query][key] == theirs_value or (math.isnan(theirs_value) and math.isnan(mine[query][key])), (
                    query, key, mine[query][key], theirs_value)


def test_scores_are_binary64_here_and_float32_in_pytrec_eval():
    qrels = {"q": {"a": 0, "b": 1}}
    run = {"q": {"b": 1.00000001, "a": 1.00000002}}  # equal as float32: pytrec_eval ties them, b ranks first
    assert pytrec_eval.RelevanceEvaluator(qrels, {"P_1"}).evaluate(run)["q"]["P_1"] == 1.0
    assert trec_eval.RelevanceEvaluator(qrels, {"P_1"}).evaluate(run)["q"]["P_1"] == 0.0  # as trec_eval 10


def test_iprec_at_recall_follows_trec_eval_10():
    qrels = {"q": {f"r{i:02d}": 1 for i in range(12)}}
    ranking = ["r00", "x0", "x1", "x2", "r01", "x3"] + [f"r{i:02d}" for i in range(2, 12)]
    run = {"q": {doc: float(100 - i) for i, doc in enumerate(ranking)}}
    assert trec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["q"]["iprec_at_recall_0.10"] == 1.0
    assert pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["q"]["iprec_at_recall_0.10"] == 12 / 16


def test_unsupported_and_bad_arguments():
    # (a preference measure: the measures evalcore lacks today are being added)
    with pytest.raises(ValueError, match="unsupported measure prefs_simp: it needs preference"):
        trec_eval.RelevanceEvaluator({"q": {"a": 1}}, {"prefs_simp"})
    with pytest.raises(ValueError, match="unsupported measure nope"):
        trec_eval.RelevanceEvaluator({"q": {"a": 1}}, {"nope"})
    with pytest.raises(TypeError, match="relevance_level should be positive"):
        trec_eval.RelevanceEvaluator({"q": {"a": 1}}, {"map"}, relevance_level=0)
    assert "map" in trec_eval.supported_measures and "official" in trec_eval.supported_nicknames
