"""Issue 25 item 3, tie-aware measures: ties="average" (the exact expectation over every order
of each tied group) against brute-force enumeration of the orders and against scikit-learn's
ndcg_score(ignore_ties=False); ties="optimistic" >= "average" >= "pessimistic"; both cores
bit-identical; the refusals."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, differential, expect_result, slow_examples
from evalcore.testing import runs

AVERAGED = ["P@1", "P@3", "R@2", "RR", "RR@2", "AP", "AP@3", "nDCG", "nDCG@3", "Success@2", "ERR", "ERR@3", "Rprec",
            "Judged@3", "P(rel=2)@2", "AP(rel=2)", "nDCG(gains={0:0,1:1,2:5})@4",
            "NCG", "NCG@3", "NCG(gains={0:0,1:1,2:5})@4"]  # NCG: issue 25 item 4 (h25-ncg)
ORDER_FREE = ["NumRet", "NumRel", "num_rel_ret", "SetP", "SetR", "SetF", "set_relative_P", "set_map",
              "num_nonrel_judged_ret", "utility"]
# Measures that grow with relevance: the grade orders bound every order's value.
MONOTONE = ["P@1", "P@3", "R@2", "RR", "RR@2", "AP", "AP@3", "nDCG", "nDCG@3", "Success@2", "ERR", "ERR@3", "Rprec",
            "P(rel=2)@2", "AP(rel=2)", "NCG", "NCG@3"]  # NCG: h25-ncg
# issue 25 item 3, second round: trec_eval's measures ties="average" takes now (tie_average_trec.cpp).
AVERAGED_TREC = ["bpref", "Bpref(rel=2)", "relative_P_3", "Rprec_mult_0.50", "Rprec_mult_2.00", "unj_3", "rbp",
                 "rbp.p=0.5", "rbp.1=3,2=0.5,p=0.8", "RBP(p=0.8)", "rbp_resid", "rbp_resid.p=0.5", "binG", "dcg",
                 "ideal_dcg", "ndcg.1=3,2=7", "ndcg.0=-1,2=3", "Rndcg", "Rndcg.1=2", "ndcg_rel", "ndcg_rel.0=1,2=5",
                 "hits@3", "f1@3", "f1", "rbp.8", "rbp.5-l2"]  # and ranx's
AVERAGED = AVERAGED + AVERAGED_TREC
# h25-ties3: the C/W/L measures linear in the gains (every figure, depth= cutting a group), Accuracy.
AVERAGED_CWL = ["RBP(p=0.8,max_rel=3)", "RBP(p=0.5,rel=2,depth=3)", "INSQ(T=2,max_rel=3,depth=6).ResEU",
                "SDCG(max_rel=2)@4.ETU", "RBP(p=0.5,max_gain=2,depth=4,cost=2).ETC", "Accuracy", "Accuracy@3",
                "Accuracy(rel=2)"]
AVERAGED = AVERAGED + AVERAGED_CWL
# Those that grow with relevance (trec gains unset: a higher grade gains more), and those that
# fall with judged documents (the grade orders put unjudged ones last).
MONOTONE = MONOTONE + ["bpref", "relative_P_3", "Rprec_mult_0.50", "rbp", "RBP(p=0.8)", "binG", "dcg", "Rndcg",
                       "hits@3", "f1@3", "rbp.8",
                       "RBP(p=0.8,max_rel=3)", "SDCG(max_rel=2)@4", "Accuracy"]  # h25-ties3: weights fall with rank
ANTITONE = ["unj_3", "rbp_resid"]
ANY_ORDER = AVERAGED + ORDER_FREE + ["IPrec@0.5", "infAP", "map_cut_5", "relstring"]


@differential
@given(value=runs(max_docs=12), measures=st.lists(st.sampled_from(AVERAGED + ORDER_FREE), min_size=1, max_size=6,
                                                  unique=True), judged_only=st.booleans(),
       gain=st.sampled_from(["linear", "exponential"]))
def test_average_is_identical_in_both_cores(value, measures, judged_only, gain):
    result = expect_result("evaluate_run", value["qrels"], value["run"], measures, ties="average",
                           judged_only=judged_only, gain=gain)
    assert result.options["ties"] == "average" and json.loads(result.to_json())["options"]["ties"] == "average"


@differential
@given(value=runs(max_docs=12), measures=st.lists(st.sampled_from(ANY_ORDER[:-1]), min_size=1, max_size=6, unique=True),
       ties=st.sampled_from(["optimistic", "pessimistic"]), max_retrieved=st.one_of(st.none(), st.integers(0, 8)))
def test_grade_orders_are_identical_in_both_cores(value, measures, ties, max_retrieved):
    result = expect_result("evaluate_run", value["qrels"], value["run"], measures, ties=ties, max_retrieved=max_retrieved)
    assert result.options["ties"] == ties


@given(value=runs(ties=False), measures=st.lists(st.sampled_from(AVERAGED + ORDER_FREE), min_size=1, max_size=6,
                                                 unique=True))
def test_average_without_ties_is_the_plain_value_bit_for_bit(value, measures):
    plain = evalcore.evaluate_run(value["qrels"], value["run"], measures, missing="zero")
    averaged = evalcore.evaluate_run(value["qrels"], value["run"], measures, missing="zero", ties="average")
    for name in measures:  # the per-query values, bit for bit (NaN where undefined)
        assert plain.values(name).tobytes() == averaged.values(name).tobytes(), name
    assert_identical(plain.to_dict() | {"options": None}, averaged.to_dict() | {"options": None})


# Grades of the tied documents: unjudged (None), spam (-2), 0..3.
_GRADE = st.sampled_from([None, -2, 0, 0, 1, 1, 2, 3])
_ARRANGEMENTS = 2000  # at most this many orders of a query are enumerated (one query each)


def _orders(grades):
    """The distinct grade sequences of one group's orders (each as likely as the others: each
    stands for the same number of document orders)."""
    return sorted(set(itertools.permutations(grades)), key=repr)


@st.composite
def tied_queries(draw):
    groups = draw(st.lists(st.lists(_GRADE, min_size=1, max_size=7), min_size=1, max_size=3))
    arrangements = math.prod(len(_orders(g)) for g in groups)
    assume(arrangements <= _ARRANGEMENTS)
    unretrieved = draw(st.lists(st.sampled_from([0, 1, 2, 3]), max_size=3))  # judged, not ranked: R counts them
    return groups, unretrieved


# Each example evaluates up to 2,000 one-query orders natively and a few reference calls: about
# 20-40 ms; 200 examples find the planted slips of the formulas (an off-by-one in the cut group,
# hits counting the document itself) within the first few dozen.
@slow_examples(200)
@given(query=tied_queries(), k=st.integers(1, 12), gain=st.sampled_from(["linear", "exponential"]))
def test_average_equals_the_mean_over_every_order_of_the_tied_groups(query, k, gain):
    names = ["P@{k}", "R@{k}", "RR", "RR@{k}", "AP", "AP@{k}", "nDCG", "nDCG@{k}", "Success@{k}", "ERR", "ERR@{k}",
             "Rprec", "Judged@{k}", "P(rel=2)@{k}", "AP(rel=2)", "num_rel_ret", "SetF", "NCG", "NCG@{k}"]
    _assert_average_is_the_mean_over_every_order(query, [n.format(k=k) for n in names], gain)


# issue 25 item 3, second round: the same enumeration for trec_eval's measures. Each example is
# as slow as the one above (20-40 ms); 150 find the planted slips of these formulas (a bpref or
# binG count of the document itself, a group mean over the cut part only) within a few dozen.
@slow_examples(150)
@given(query=tied_queries(), k=st.integers(1, 12), p=st.sampled_from([0.5, 0.8, 0.95]))
def test_trec_measures_average_equals_the_mean_over_every_order(query, k, p):
    names = ["bpref", "Bpref(rel=2)", "relative_P_{k}", "Rprec_mult_0.50", "Rprec_mult_1.50", "unj_{k}", "rbp.p={p}",
             "rbp.1=3,2=0.5,p={p}", "rbp_resid.p={p}", "binG", "dcg", "ideal_dcg", "ndcg.1=3,2=7",
             "ndcg.0=-1,2=3", "Rndcg", "Rndcg.1=2", "ndcg_rel", "ndcg_rel.0=1,2=5", "ndcg_rel.1=0,3=1",
             "num_nonrel_judged_ret", "hits@{k}", "f1@{k}", "f1", "rbp.8",
             "rbp.5-l2"]
    _assert_average_is_the_mean_over_every_order(query, [n.format(k=k, p=p) for n in names], "linear")


# h25-ties3: the C/W/L measures whose continuation reads no gain (each figure and residual, depth=
# cutting a tied group, unjudged documents at both bounds' gains) and Accuracy (its cutoff cutting a
# group: the hypergeometric mixture). Each example is as slow as those above (the figures read
# depth ranks per order, depth at most 8 but one at cwl_eval's 1000); 150 find a group mean taken
# over the cut part only, or a mixture weight off by one, within a few dozen.
@slow_examples(150)
@given(query=tied_queries(), k=st.integers(1, 12), d=st.integers(1, 8), p=st.sampled_from([0.5, 0.8]))
def test_cwl_and_accuracy_average_equals_the_mean_over_every_order(query, k, d, p):
    names = ["RBP(p={p},max_rel=3)", "RBP(p={p},rel=2,depth={d})", "RBP(p={p},max_rel=3,depth={d}).ETU",
             "RBP(p={p},max_gain=2,depth={d}).ResEU", "RBP(p={p},max_rel=3,depth={d},cost=2).ResETC",
             "INSQ(T=1,max_rel=3,depth={d})", "INSQ(T=2,max_rel=2,min_rel=1,depth={d}).ResETU",
             "INSQ(T=2,max_rel=3,depth={d}).ED", "SDCG(max_rel=3,depth={d})@{k}", "SDCG(max_rel=3,depth={d})@{k}.ResEU",
             "Accuracy", "Accuracy@{k}", "Accuracy(rel=2)@{k}"]
    _assert_average_is_the_mean_over_every_order(query, [n.format(k=k, d=d, p=p) for n in names], "linear")


def test_accuracy_of_a_group_its_cutoff_cuts_worked_by_hand():
    # a (relevant) above c (relevant), d and b (not) tied. Of the 6 orders of the group, the top 3
    # hold a, c and one other in 4 (c above it: 1; below: 1/2) and a and the two others in 2 (1):
    # 5/6. The whole ranking: c has 1 of the 2 others above it on average: 1 - 1/2 / 2 = 3/4.
    qrels = {"q": {"a": 1, "c": 1, "d": 0}}
    run = {"q": {"a": 2.0, "c": 1.0, "d": 1.0, "b": 1.0}}
    result = expect_result("evaluate_run", qrels, run, ["Accuracy@3", "Accuracy", "Accuracy@2"], ties="average")
    values = [float(result.values(m)[0]) for m in result.measures]
    assert values[0] == pytest.approx(5 / 6, rel=1e-15) and values[1] == 0.75
    assert math.isnan(values[2])  # a c above the cut: no other document, undefined in that order


def test_cwl_average_of_one_tied_group_worked_by_hand():
    # RBP(p=0.5, binary at 1) over depth 3: a (relevant) and b (not) tie above c (relevant). EU =
    # sum W_i g_i with W = (4, 2, 1) / 7: each of a and b's ranks gains 1/2 on average, c gains 1.
    qrels = {"q": {"a": 1, "c": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 0.5}}
    names = ["RBP(p=0.5,rel=1,depth=3)", "RBP(p=0.5,rel=1,depth=1)"]
    result = expect_result("evaluate_run", qrels, run, names, ties="average")
    assert float(result.values(names[0])[0]) == pytest.approx((4 * 0.5 + 2 * 0.5 + 1) / 7, rel=1e-15)
    assert float(result.values(names[1])[0]) == 0.5  # depth 1 cuts the group: a or b, each half the time


def test_cwl_clipping_warning_under_average_counts_the_group_its_depth_cuts():
    # a (grade 3, clipped to max_rel=1) ties with b (0); depth 1 cuts the group. trec_eval's
    # order puts b first: nothing clipped is read. Under ties="average" a is at rank 1 in half
    # the orders and its clipped gain counts in the expectation (1/2): the warning says so.
    qrels, run, name = {"q": {"a": 3, "b": 0}}, {"q": {"a": 1.0, "b": 1.0}}, "RBP(p=0.5,max_rel=1,depth=1)"
    by_id = expect_result("evaluate_run", qrels, run, [name])
    averaged = expect_result("evaluate_run", qrels, run, [name], ties="average")
    assert float(by_id.values(name)[0]) == 0.0 and by_id.warnings == []
    assert float(averaged.values(name)[0]) == 0.5
    (warning,) = averaged.warnings
    assert warning.startswith("1 judged documents ranked in the first 1 of 1 queries have grades outside [0, 1]")


def _assert_average_is_the_mean_over_every_order(query, measures, gain):
    groups, unretrieved = query
    docs = [[f"g{g}d{i}" for i in range(len(group))] for g, group in enumerate(groups)]
    judged = {d: grade for group, ids in zip(groups, docs) for d, grade in zip(ids, group) if grade is not None}
    judged.update({f"u{i}": grade for i, grade in enumerate(unretrieved)})
    assume(judged)
    run = {"q": {d: float(len(groups) - g) for g, ids in enumerate(docs) for d in ids}}
    averaged = expect_result("evaluate_run", {"q": judged}, run, measures, ties="average", gain=gain)
    # Every order, as its own query ranked as given: the exact mean over the queries (evalcore's
    # mean is the exact sum, rounded once, over the count) is the expectation.
    qrels, ranked = {}, {}
    for i, choice in enumerate(itertools.product(*(_orders(g) for g in groups))):
        pool = {g: {} for g in range(len(groups))}
        for g, ids in enumerate(docs):
            for d in ids:
                pool[g].setdefault(groups[g][ids.index(d)], []).append(d)
        order = [pool[g][grade].pop() for g, grades in enumerate(choice) for grade in grades]
        qrels[f"o{i}"] = judged
        ranked[f"o{i}"] = order
    every = evalcore.evaluate_run(qrels, ranked, measures, ties="input", gain=gain)
    for name in every.measures:  # the names results give (trec_eval's rbp.p=0.5 is rbp_p=0.5)
        expected, got = every.mean[name], float(averaged.values(name)[0])
        if expected is None or every.defined_counts[name] < len(every.query_ids):
            # Undefined in some order (Accuracy@k: no relevant, or no other, document in the top
            # k): the expectation over every order is not defined either.
            assert math.isnan(got), (name, got, expected)
        else:
            # The formulas round at each of their O(n) steps, the mean once: a few ulps apart.
            assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-15), (name, got, expected)


@given(grades=st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=2, max_size=12),
       scores=st.data(), k=st.one_of(st.none(), st.integers(1, 12)))
def test_ndcg_average_equals_scikit_learn_ndcg_score_with_ties(grades, scores, k):
    from sklearn.metrics import ndcg_score

    assume(any(grades))
    values = scores.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=len(grades), max_size=len(grades)))
    docs = [f"d{i}" for i in range(len(grades))]
    result = evalcore.evaluate_run({"q": dict(zip(docs, grades))}, {"q": dict(zip(docs, values))},
                                   ["nDCG" if k is None else f"nDCG@{k}"], ties="average")
    expected = ndcg_score([grades], [values], k=k, ignore_ties=False)
    # scikit-learn averages each tied group's gains with numpy (sums of the discounts of the
    # group's ranks, then a dot product): another order of the same operations, so a few ulps.
    assert math.isclose(float(result.values(result.measures[0])[0]), expected, rel_tol=1e-12)


@given(value=runs(max_docs=12, ranked_lists=False), measures=st.lists(st.sampled_from(MONOTONE + ANTITONE),
                                                                      min_size=1, max_size=5, unique=True))
def test_optimistic_and_pessimistic_bound_the_average(value, measures):
    results = [evalcore.evaluate_run(value["qrels"], value["run"], measures, ties=ties, missing="zero")
               for ties in ("optimistic", "average", "pessimistic")]
    for name in measures:
        high, mean, low = (r.values(name) for r in results)
        if name in ANTITONE:  # unjudged documents count: the optimistic order puts them last
            high, low = low, high
        for h, m, lo in zip(high, mean, low):
            if math.isnan(m):
                assert math.isnan(h) and math.isnan(lo)
                continue
            slack = 1e-12 * max(1.0, abs(m))  # the expectation is rounded; the bounds are one order's value
            assert h + slack >= m >= lo - slack, (name, h, m, lo)


@given(value=runs(max_docs=12, ranked_lists=False),
       name=st.sampled_from(["iprec_at_recall_0.50", "11pt_avg", "yaap", "gm_map", "gm_bpref"]))
def test_the_grade_orders_bound_the_id_order_for_the_refused_measures_they_bound(value, name):
    # What the refusals offer instead of ties="average": the grade orders, as bounds of any order.
    high, by_id, low = (evalcore.evaluate_run(value["qrels"], value["run"], [name], ties=ties, missing="zero").values(name)
                        for ties in ("optimistic", "score", "pessimistic"))
    for h, m, lo in zip(high, by_id, low):
        if math.isnan(m):
            assert math.isnan(h) and math.isnan(lo)
            continue
        slack = 1e-12 * max(1.0, abs(m))  # sums of other terms in other orders
        assert h + slack >= m >= lo - slack, (name, h, m, lo)


def test_average_precision_of_one_tied_group_worked_by_hand():
    # a, b, c tie, two of them relevant; d below. The three orders R R N, R N R, N R R have AP
    # 1, (1 + 2/3) / 2 and (1/2 + 2/3) / 2: the mean is 29/36, not the AP of averaged gains.
    qrels = {"q": {"a": 1, "c": 1, "d": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5}}
    result = expect_result("evaluate_run", qrels, run, ["AP", "P@1", "RR", "Success@1", "nDCG@2"], ties="average")
    values = {m: float(result.values(m)[0]) for m in result.measures}
    assert values["AP"] == pytest.approx(float(Fraction(29, 36)), rel=1e-15)
    assert values["P@1"] == 2 / 3 and values["Success@1"] == pytest.approx(2 / 3, rel=1e-15)  # 1 - 1/3
    assert values["RR"] == pytest.approx(5 / 6, rel=1e-15)  # first at 1 (2/3) or at 2 (1/3 * 1/2)
    assert values["nDCG@2"] == pytest.approx((2 / 3 + 2 / 3 / math.log2(3)) / (1 + 1 / math.log2(3)), rel=1e-15)
    by_id = expect_result("evaluate_run", qrels, run, ["AP"])  # c b a d
    assert float(by_id.values("AP")[0]) == (1 + 2 / 3) / 2
    best = expect_result("evaluate_run", qrels, run, ["AP", "P@1"], ties="optimistic")
    worst = expect_result("evaluate_run", qrels, run, ["AP", "P@1"], ties="pessimistic")
    assert float(best.values("AP")[0]) == 1.0 and float(worst.values("AP")[0]) == (1 / 2 + 2 / 3) / 2
    assert worst.options["ties"] == "pessimistic"


def test_bpref_bing_and_unj_of_one_tied_group_worked_by_hand():
    # a (relevant) and d (judged non-relevant) tie above c (relevant) and b (unjudged). bpref (b
    # skipped): a d c gives (1 + 0) / 2, d a c gives 0, mean 1/4. binG counts b as non-relevant:
    # a is below 0 or 1 of {d}, c below d and 0 or 1 of {b}: ((1 + 1/log2 3) / 2 + (1/log2 3 +
    # 1/log2 4) / 2) / 2 = (3/2 + 2/log2 3) / 4. unj_3: b is above rank 4 half the time, over 3 ranks.
    qrels = {"q": {"a": 1, "c": 1, "d": 0}}
    run = {"q": {"a": 1.0, "d": 1.0, "c": 0.5, "b": 0.5}}
    result = expect_result("evaluate_run", qrels, run, ["bpref", "binG", "unj_3"], ties="average")
    values = {m: float(result.values(m)[0]) for m in result.measures}
    assert values["bpref"] == 0.25
    assert values["binG"] == pytest.approx((3 / 2 + 2 / math.log2(3)) / 4, rel=1e-15)
    assert values["unj_3"] == pytest.approx(0.5 / 3, rel=1e-15)
    by_id = expect_result("evaluate_run", qrels, run, ["bpref"])  # d a c b
    assert float(by_id.values("bpref")[0]) == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"measures": ["AP", "Compat"]}, r"^ties='average' is not implemented for measure 'Compat' \(Compat\): its "
                                     r"expectation is tractable .* does not compute it yet; evaluate it with ties='score' "),
    ({"measures": ["INST(T=2,max_rel=3)"]}, r"^ties='average' is not implemented for measure 'INST\(T=2,max_rel=3\)' "
                                            r"\(CwlINST\): INST's continuation at each rank reads T minus the gains"),
    ({"measures": ["BPM(T=1,max_rel=3)@5"]}, r"\(CwlBPM\): BPM's continuation stops where the cumulative gain"),
    ({"measures": ["BPMD(T=1,max_rel=3)@5"]}, r"\(CwlBPMD\): the dynamic BPM's continuation \(its T moved"),
    ({"measures": ["NERR10(p=0.9,max_rel=3)"]}, r"\(CwlNERR10\): NERR's continuation at each rank is 1 minus"),
    ({"measures": ["infAP"]}, r"measure 'infAP' \(infAP\): each relevant document's term is a ratio.*O\(m\^3\).*"
                              r"evaluate it with ties='score' \('optimistic' and 'pessimistic' are not bounds of infAP"),
    ({"measures": ["iprec_at_recall_0.50"]}, r"'iprec_at_recall_0.50' \(IPrec\): interpolated precision is a maximum"
                                            r".*; evaluate it with ties='optimistic' and 'pessimistic' bound it"),
    ({"measures": ["11pt_avg"]}, r"'11pt_avg' \(IPrecAvg\): interpolated precision is a maximum"),
    ({"measures": ["yaap"]}, r"'yaap' \(YAAP\): log\(\(1 \+ S\).*combinatorially.*'optimistic' and 'pessimistic' "
                             r"bound it"),
    ({"measures": ["gm_map"]}, r"'gm_map' \(GMAP\): the expectation of ln\(max\(AP, 0.00001\)\) is not a function "
                               r"of E\[AP\]"),
    ({"measures": ["gm_bpref"]}, r"'gm_bpref' \(GMBpref\): the expectation of ln\(max\(bpref, 0.00001\)\) is not"),
    ({"measures": ["relstring"]}, r"^ties='average' is not defined for measure 'relstring' \(RankGrade\): relstring "
                                  r"lists the grade at each rank.*ties='score', 'input', 'optimistic' or 'pessimistic'$"),
    ({"measures": ["G"]}, r"'G' \(trec_G\): each rank's discount .* ties='score' \('optimistic' and 'pessimistic' are "
                          r"one order each, not bounds of it\)$"),
    ({"measures": ["ndcg_rel.1=2,2=-1"]}, r"'ndcg_rel_1=2,2=-1' \(trec_ndcg_rel\): with a negative gain, or a gain "
                                          r"for level -1 .* clamped to 0, .* evaluate it with ties='score'"),
    ({"measures": ["ndcg_rel.-1=2"]}, r"'ndcg_rel_-1=2' \(trec_ndcg_rel\): with a negative gain, or a gain for level -1"),
    ({"measures": ["AP"], "max_retrieved": 5}, r"^ties='average' does not take max_retrieved \(not implemented\): "
                                               r".*give max_retrieved=None"),
    ({"measures": ["AP"], "ties": "random"}, r"^ties must be 'score', 'input', 'average', 'optimistic' or 'pessimistic'"),
])
def test_refusals_name_the_measure_or_option(kwargs, message):
    kwargs = {"ties": "average", **kwargs}
    measures = kwargs.pop("measures")
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError, match=message):
            module.evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, measures, **kwargs)


def test_the_grade_orders_refuse_judgment_groups(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 1 a 1\n")
    run.write_text("q Q0 a 1 1.0 r\n")
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError, match=r"^ties='optimistic' takes qrels_format='qrels'"):
            module.evaluate_run(str(qrels), str(run), ["map_avgjg"], ties="optimistic", qrels_format="qrels_jg")


def test_evalcore_trec_takes_the_tie_rules_except_in_trec_eval_format(tmp_path, capsys):
    from evalcore.cli import main

    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 a 1\nq 0 c 1\nq 0 d 0\n")
    run.write_text("q Q0 a 1 1.0 r\nq Q0 b 2 1.0 r\nq Q0 c 3 1.0 r\nq Q0 d 4 0.5 r\n")
    assert main(["trec", "--format", "json", "--ties", "average", "-m", "map", str(qrels), str(run)]) == 0
    printed = capsys.readouterr().out
    assert '"ties": "average"' in printed and "0.8055" in printed
    with pytest.raises(SystemExit) as exit_code:
        main(["trec", "--format", "trec_eval", "--ties", "average", "-m", "map", str(qrels), str(run)])
    assert exit_code.value.code == 2
    assert "trec_eval breaks ties by document ID" in capsys.readouterr().err


def test_the_evidence_says_which_tie_rule_ordered_the_ranking():
    from evalcore.runs.measures import parse_measures
    from evalcore.runs.result import check_options
    from evalcore.testing.evidence import run_query_evidence

    qrels = {"q": {"a": 1, "c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5}}
    (spec,) = parse_measures(["AP"])

    def evidence(ties):
        options = check_options(1, "linear", ties, "skip", 1)
        return run_query_evidence(qrels, run, "q", spec, options, 0.5)

    assert "score descending, then document ID descending" in evidence("score")
    best, worst = evidence("optimistic"), evidence("pessimistic")
    assert "then grade descending (unjudged last), then document ID descending: ties='optimistic'" in best
    def docs(text):  # the table's doc column, in rank order
        return [line.split()[1] for line in text.splitlines() if line.strip()[:1].isdigit()]

    assert docs(best) == ["a", "c", "b", "d"]  # grade 1, grade 0, unjudged; then the next score
    assert "then grade ascending (unjudged first)" in worst and docs(worst) == ["b", "c", "a", "d"]
    assert "the value is the expectation over every order of each group of equal scores, not this order's value " \
        "(tied groups of 2 or more here: 1)" in evidence("average")
    assert "as given" in evidence("input")
