"""trec_eval 10's gain measures (binG, G, dcg, ideal_dcg, ndcg with gain parameters, ndcg_rel,
Rndcg): the native core equals the reference twin on drawn runs with every kind of grade and
gain parameters (fractional gains exercise trec_eval's truncating sort), and their names.
tests/trec_eval/test_trec_eval_golden.py compares them with the real trec_eval 10."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from common import differential, expect_result, run_all
from evalcore import evaluate_run
from evalcore.runs.measures import parse_measures
from evalcore.testing import runs

PLAIN = ["binG", "G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg"]
PAIR_BASES = ["G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg"]
# Gains: integers, fractions below 1 apart (trec_eval's (int)(a - b) comparator takes them as
# equal), zero and negative ones; levels -2 (negative grades), -1 (unjudged) to 4, repeated.
gain_values = st.sampled_from([0.0, 0.5, 0.7, 1.0, 1.4, 2.0, 3.5, 7.0, -1.0, -0.3, 9.0, 2.5e9])
pair_lists = st.lists(st.tuples(st.integers(-2, 4), gain_values), min_size=1, max_size=5)


def pair_text(pairs):
    return ",".join(f"{level}={gain!r}" for level, gain in pairs)


@differential
@given(value=runs(), pairs=pair_lists, base=st.sampled_from(PAIR_BASES), level=st.sampled_from([1, 2, 1.5]),
       judged_only=st.booleans(), max_retrieved=st.sampled_from([None, 0, 3]))
def test_native_equals_reference(value, pairs, base, level, judged_only, max_retrieved):
    names = PLAIN + ["ndcg", f"{base}.{pair_text(pairs)}"]
    if base == "ndcg":
        names.remove("ndcg")
    expect_result("evaluate_run", value["qrels"], value["run"], names, relevant_at_least=level,
                  judged_only=judged_only, max_retrieved=max_retrieved)


@differential
@given(value=runs(grades=("integer", "negative")))
def test_default_gains_ndcg_equals_evalcores_ndcg(value):
    # With trec_eval's default gains (each level its own number), ndcg with a parameter list
    # that changes nothing is evalcore's nDCG, and ndcg = dcg / ideal_dcg.
    result = expect_result("evaluate_run", value["qrels"], value["run"], ["ndcg", "ndcg.1=1", "dcg", "ideal_dcg"])
    for a, b, d, i in zip(*(result.values(n) for n in ("ndcg", "ndcg_1=1", "dcg", "ideal_dcg"))):
        assert (math.isnan(a) and math.isnan(b)) or a == b
        assert math.isnan(b) == (i == 0) and (i == 0 or b == d / i)


def test_hand_worked_values():
    qrels = {"q": {"a": 2, "b": 1, "c": 0, "d": 1}}
    run = {"q": {"x": 5.0, "a": 4.0, "c": 3.0, "b": 2.0}}  # ranks: x (unjudged), a, c, b
    result = evaluate_run(qrels, run, ["binG", "dcg", "ideal_dcg", "ndcg.2=4", "G"])
    # binG: rel docs a (1 nonrel before) and b (2 before): (1/log2(3) + 1/log2(4)) / R=3
    assert result.values("binG")[0] == (1 / math.log2(3) + 1 / math.log2(4)) / 3
    assert result.values("dcg")[0] == 2 / math.log2(3) + 1 / math.log2(5)
    assert result.values("ideal_dcg")[0] == 2 + 1 / math.log2(3) + 1 / math.log2(4)
    assert result.values("ndcg_2=4")[0] == (4 / math.log2(3) + 1 / math.log2(5)) / (4 + 1 / math.log2(3) + 1 / math.log2(4))
    assert 0 < result.values("G")[0] < 1


def test_undefined_where_trec_eval_leaves_its_zero():
    qrels = {"q": {"a": 0}}
    run = {"q": {"a": 1.0}}
    result = evaluate_run(qrels, run, PLAIN + ["ndcg.0=0"])
    for name in ("binG", "G", "ndcg_rel", "Rndcg", "ndcg_0=0"):
        assert math.isnan(result.values(name)[0]), name
    assert result.values("dcg")[0] == 0.0 and result.values("ideal_dcg")[0] == 0.0


def test_names():
    spec, = parse_measures("G.1=3,x=2,2=7.5")
    assert spec.name == "G_1=3,x=2,2=7.5" and spec.gains == ((1.0, 3.0), (2.0, 7.5))  # x: ignored, as trec_eval does
    assert parse_measures("ndcg_rel_1=2")[0].name == "ndcg_rel_1=2"
    assert [s.name for s in parse_measures("all_trec") if s.name in PLAIN] == ["binG", "G", "ndcg_rel", "Rndcg"]
    for bad in ("G.1=3,2", "G.=", "G.1=inf", "binG.1=2"):
        with pytest.raises(ValueError):
            parse_measures(bad)


def test_an_infinite_ndcg_rel_is_undefined_in_both_cores():
    # (found by CI's profile) a retrieved document of positive gain while the ideal dcg is 0
    # (level -1, unjudged, given gain -1): trec_eval prints inf; evalcore's is undefined
    outcome = run_all("evaluate_run", {"q1": {"d1": 1}}, {"q1": {"d0": 0.0, "d1": 0.0}}, ["ndcg_rel.1=0.5,-1=-1"])
    assert outcome[0] == "ok" and outcome[1].mean == {"ndcg_rel_1=0.5,-1=-1": None}


@pytest.mark.parametrize("grade, retrieved, mean", [
    (9007199254740993, True, None),  # found by CI's profile: 2**grade - 1 is inf; inf / inf
    (1030, True, None),
    (1030, False, 0.0),  # the ideal's gain is inf, the ranking's finite
    (1023, True, 1.0),  # the largest grade whose exponential gain is finite
])
def test_an_exponential_gain_past_the_largest_double_is_inf_in_both_cores(grade, retrieved, mean):
    run = {"q1": {"d0": 1.0, "big": 2.0} if retrieved else {"d0": 1.0}}
    outcome = run_all("evaluate_run", {"q1": {"d0": 0, "big": grade}}, run, ["nDCG@3"], gain="exponential")
    assert outcome[0] == "ok" and outcome[1].mean == {"nDCG@3": mean}
