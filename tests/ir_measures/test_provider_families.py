"""evalcore's ir_measures provider for the measures of ir_measures' other providers (issue 25
item 5, gap 1): the diversity measures (pyndeval's), the C/W/L family (cwl_eval's), Compat and
Accuracy (ir_measures' own). For each: ir_measures' iter_calc / calc_aggregate through our
provider equal evaluate_run's numbers (``==``) and the numbers of ir_measures' provider for it
(``==`` per query where that provider is exact; cwl_eval within 1e-12, its numpy sums). Every
test that runs ir_measures' evaluation has ir_measures or pyndeval in its name
(tests/test_sanitizer_stage.py)."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

ir_measures = pytest.importorskip("ir_measures.providers").__name__ and __import__("ir_measures")
pytest.importorskip("pyndeval")
pytest.importorskip("cwl")
import evalcore  # noqa: E402 (after the skips)
import evalcore.errors  # noqa: E402
import evalcore.ir_measures  # noqa: E402
from common import slow_examples  # noqa: E402
from evalcore.ir_measures import EvalcoreEvaluator, EvalcoreProvider, translate  # noqa: E402
from evalcore.testing import runs  # noqa: E402
from evalcore.testing.diversity import subtopic_judgments  # noqa: E402
from ir_measures import (AP_IA, BPM, ERR_IA, INSQ, INST, NERR8, NERR9, NERR10, NERR11, NRBP, P_IA, RBP,  # noqa: E402
                         SDCG, Accuracy, Compat, Judged, RR, StRecall, alpha_DCG, alpha_nDCG, nERR_IA, nNRBP)

DIVERSITY = [alpha_nDCG @ 5, alpha_nDCG(alpha=0.8) @ 20, alpha_DCG @ 10, ERR_IA @ 5, nERR_IA @ 20, NRBP,
             NRBP(alpha=0.3, beta=0.8), nNRBP, AP_IA, P_IA @ 5, StRecall @ 10, alpha_nDCG(rel=2) @ 10, AP_IA(rel=2),
             alpha_nDCG(judged_only=True) @ 10, P_IA(judged_only=True) @ 5]  # (the last two: no peer, below)
CWL = [RBP(rel=1), RBP(p=0.5, rel=2), INST(max_rel=3), INST(T=2.0, max_rel=3), INSQ(max_rel=3), BPM(max_rel=3) @ 10,
       SDCG(max_rel=3) @ 5, NERR8(max_rel=3) @ 10, NERR9(max_rel=2) @ 10, NERR10(max_rel=3), NERR11(T=2.0, max_rel=3),
       INST(min_rel=1, max_rel=2)]
OTHERS = [Compat, Compat(p=0.8), Compat(p=0.9, normalize=False), Accuracy, Accuracy @ 3, Accuracy(rel=2) @ 5]
# cwl_eval's numpy sums (pairwise) against evalcore's in rank order: docs/measures.md measured
# about 1e-15 relative; tests/runs/test_cwl_measures.py checks this same bound.
CWL_CLOSE = {"rel_tol": 1e-12, "abs_tol": 1e-12}


pytestmark = pytest.mark.usefixtures("evalcore_registered")  # (conftest.py)


def _per_query(metrics):
    got = {}
    for metric in metrics:
        key = (metric.query_id, metric.measure)
        assert key not in got, key  # each reported once
        got[key] = metric.value
    return got


def _same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def _evaluate_run_values(qrels, run, measures, **options):
    """evaluate_run's values under each measure's translation, keyed as ir_measures reports them."""
    values = {}
    for measure in measures:
        found = translate(measure)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", evalcore.EvaluationWarning)
            result = evalcore.evaluate_run(qrels, run, [found.name], qrels_format=found.qrels_format, **options)
        for query_id, value in zip(result.query_ids, result.values(found.name).tolist()):
            values[query_id, measure] = value
    return values


def _exact_mean(values):
    return math.fsum(values) / len(values) if values else math.nan


# 100 examples: pyndeval builds its evaluator per call, and ir_measures calls it per invocation
# (alpha, beta, rel): about 20 ms an example.
@slow_examples(100)
@given(value=subtopic_judgments(), as_table=st.booleans())
def test_diversity_through_ir_measures_equals_evaluate_run_and_pyndeval(value, as_table):
    qrels = [ir_measures.Qrel(q, d, g, s) for q, subs in value["qrels"].items() for s, docs in subs.items()
             for d, g in docs.items()]
    if as_table:
        qrels = pytest.importorskip("pandas").DataFrame(qrels)
    run = value["run"]
    served = [m for m in DIVERSITY if m.NAME != "nERR_IA" or m["cutoff"] <= 20]
    evaluator = ir_measures.evaluator(served, qrels)
    assert isinstance(evaluator, EvalcoreEvaluator)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", evalcore.EvaluationWarning)
        ours = _per_query(evaluator.iter_calc(run))
    theirs = {}
    for measure in served:  # one at a time: ir_measures' pyndeval provider reads the run once (below)
        if not measure.params.get("judged_only"):  # (which its pyndeval provider fails on: below)
            theirs.update(_per_query(ir_measures.pyndeval.iter_calc([measure], qrels, run)))
    assert {k for k in ours if not k[1].params.get("judged_only")} == theirs.keys()
    assert all(_same(ours[key], theirs[key]) for key in theirs), [(k, ours[k], theirs[k]) for k in theirs
                                                                   if not _same(ours[k], theirs[k])]
    expected = _evaluate_run_values(value["qrels"], run, served)
    for key, value_reported in ours.items():
        assert _same(value_reported, expected.get(key, 0.0)), key  # lacking queries: ir_measures' DEFAULT, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", evalcore.EvaluationWarning)
        means = ir_measures.calc_aggregate(served, qrels, run)
    for measure in served:
        reported = [v for (q, m), v in ours.items() if m == measure]
        want = math.nan if any(math.isnan(v) for v in reported) else _exact_mean(reported)
        assert _same(means[measure], want), measure


def test_diversity_cutoffs_past_20_and_judged_only_are_evalcores_in_ir_measures_calls():
    # pyndeval refuses cutoffs past 20, and ir_measures' pyndeval provider fails on judged_only=True
    qrels = [ir_measures.Qrel("q", "a", 1, "1"), ir_measures.Qrel("q", "b", 1, "2"), ir_measures.Qrel("q", "c", 0, "1")]
    run = {"q": {"x": 4.0, "b": 3.0, "a": 2.0, "c": 1.0}}
    with pytest.raises(AssertionError, match="up to 20"):
        list(ir_measures.pyndeval.iter_calc([alpha_nDCG @ 30], qrels, run))
    with pytest.raises(TypeError):
        list(ir_measures.pyndeval.iter_calc([alpha_nDCG(judged_only=True) @ 5], qrels, run))
    got = ir_measures.calc_aggregate([alpha_nDCG @ 30, alpha_nDCG(judged_only=True) @ 5, StRecall @ 1], qrels, run)
    subtopics = {"q": {"1": {"a": 1, "c": 0}, "2": {"b": 1}}}
    want = evalcore.evaluate_run(subtopics, run, ["alpha_nDCG@30", "alpha_nDCG(judged_only=True)@5", "StRecall@1"],
                                 qrels_format="subtopics").mean
    assert got == {alpha_nDCG @ 30: want["alpha_nDCG@30"], StRecall @ 1: 0.0,
                   alpha_nDCG(judged_only=True) @ 5: want["alpha_nDCG(judged_only=True)@5"]}
    assert got[alpha_nDCG(judged_only=True) @ 5] == 1.0 > got[alpha_nDCG @ 30]  # x (unjudged) dropped first


def test_diversity_parameters_in_one_ir_measures_call_are_each_evalcores():
    # ir_measures 0.4.3's pyndeval provider runs pyndeval once per (rel, alpha, beta) and hands
    # each run the same generator of the run: the second and later find it spent, and their
    # queries are filled in with 0. evalcore's provider reads the run for each.
    qrels = [ir_measures.Qrel("q", "a", 1, "1"), ir_measures.Qrel("q", "b", 1, "2")]
    run = {"q": {"a": 2.0, "b": 1.0}}
    measures = [alpha_nDCG @ 5, alpha_nDCG(alpha=0.8) @ 5]
    theirs = {m: ir_measures.pyndeval.calc_aggregate(measures, qrels, run)[m] for m in measures}
    assert theirs[alpha_nDCG @ 5] == 1.0 and theirs[alpha_nDCG(alpha=0.8) @ 5] == 0.0  # (spent)
    alone = ir_measures.pyndeval.calc_aggregate([alpha_nDCG(alpha=0.8) @ 5], qrels, run)
    assert ir_measures.calc_aggregate(measures, qrels, run) == {alpha_nDCG @ 5: 1.0, **alone}
    assert alone[alpha_nDCG(alpha=0.8) @ 5] == 1.0


def test_diversity_qrels_without_subtopics_read_as_pyndeval_reads_them_in_ir_measures_calls():
    # a dict {query: {doc: grade}} has none: one subtopic, "0", as ir_measures' Qrel's default
    qrels = {"q": {"a": 1, "b": 0}, "r": {"c": 1}}
    run = {"q": {"b": 2.0, "a": 1.0}, "r": {"c": 1.0}}
    measures = [alpha_nDCG @ 5, P_IA @ 2, nNRBP]
    ours = _per_query(ir_measures.iter_calc(measures, qrels, run))
    records = [ir_measures.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    assert ours == _per_query(ir_measures.pyndeval.iter_calc(measures, records, run))
    assert ours[("q", P_IA @ 2)] == 0.5


def test_subtopic_qrels_for_other_measures_are_refused_in_ir_measures_calls():
    # a document judged for two subtopics is judged twice for AP: evaluate_run refuses that,
    # where ir_measures' pytrec_eval provider keeps the last grade (here 0) without a word
    qrels = [ir_measures.Qrel("q", "a", 1, "1"), ir_measures.Qrel("q", "a", 0, "2"), ir_measures.Qrel("q", "b", 1, "2")]
    run = {"q": {"a": 2.0, "b": 1.0}}
    with pytest.raises(evalcore.errors.RunInputError, match="lists document 'a' twice"):
        ir_measures.calc_aggregate([alpha_nDCG @ 5, ir_measures.AP], qrels, run)
    assert ir_measures.calc_aggregate([alpha_nDCG @ 5], qrels, run) == {alpha_nDCG @ 5: 1.0}
    assert ir_measures.pytrec_eval.calc_aggregate([ir_measures.AP], qrels, run) == {ir_measures.AP: 0.5}

def test_a_query_judged_with_nothing_is_reported_at_0_in_ir_measures_calls():
    # {"q2": {}}: reported at 0, as ir_measures' pytrec_eval, compat and judged providers report
    # it; its cwl_eval and msmarco providers read the qrels as records and never see q2
    qrels = {"q1": {"a": 1}, "q2": {}}
    run = {"q1": {"a": 1.0}}
    measures = [Compat, Judged @ 5, RR @ 5, INST(max_rel=1)]
    ours = _per_query(ir_measures.iter_calc(measures, qrels, run))
    assert {k: v for k, v in ours.items() if k[0] == "q2"} == {("q2", m): 0.0 for m in measures}
    theirs = _per_query(ir_measures.compat.iter_calc(measures[:1], qrels, run))
    theirs.update(_per_query(ir_measures.judged.iter_calc(measures[1:2], qrels, run)))
    assert theirs == {k: v for k, v in ours.items() if k[1] in measures[:2]}
    assert _per_query(ir_measures.msmarco.iter_calc(measures[2:3], qrels, run)) == {("q1", RR @ 5): 1.0}
    cwl = _per_query(ir_measures.cwl_eval.iter_calc(measures[3:], qrels, run))
    assert list(cwl) == [("q1", INST(max_rel=1))]
    assert math.isclose(cwl["q1", INST(max_rel=1)], ours["q1", INST(max_rel=1)], **CWL_CLOSE)


# 40 examples: ir_measures' cwl_eval provider runs cwl_eval once per measure and query (numpy
# over 1000 ranks), about 0.15 s an example.
@slow_examples(40)
@given(value=runs(max_docs=10, max_queries=3, grades=("integer", "negative"), ranked_lists=False))
def test_cwl_measures_through_ir_measures_equal_evaluate_run_and_cwl_eval(value):
    qrels = {q: docs for q, docs in value["qrels"].items() if docs}  # (cwl_eval's provider: no empty judgments)
    run = value["run"]
    evaluator = ir_measures.evaluator(CWL, qrels)
    assert isinstance(evaluator, EvalcoreEvaluator)
    ours = _per_query(evaluator.iter_calc(run))
    # evaluate_run's own numbers on the run ranked as the provider ranks (ties in the run's order)
    ranked = [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items()
              for d, s in sorted(docs.items(), key=lambda i: i[1], reverse=True)]
    expected = _evaluate_run_values(qrels, ranked, CWL, ties="input")
    assert ours == {key: expected.get(key, 0.0) for key in ours}
    if not any(len(set(docs.values())) < len(docs) for docs in run.values()):
        direct = _evaluate_run_values(qrels, run, CWL)  # evaluate_run's own tie rule: no ties to break
        assert ours == {key: direct.get(key, 0.0) for key in ours}
    theirs = _per_query(ir_measures.cwl_eval.iter_calc(CWL, qrels, run))
    assert ours.keys() == theirs.keys()
    for key, mine in ours.items():
        assert math.isclose(mine, theirs[key], **CWL_CLOSE), (key, mine, theirs[key])
    means = ir_measures.calc_aggregate(CWL, qrels, run)
    for measure in CWL:
        assert _same(means[measure], _exact_mean([v for (q, m), v in ours.items() if m == measure])), measure


# 300 examples: each runs ir_measures' compat and accuracy providers (Python) once per query and
# measure, about 25 ms an example on this machine; CI's 1,000 would add some 20 s for little more.
@slow_examples(300)
@given(value=runs(max_docs=10, grades=("integer", "negative"), ranked_lists=False))
def test_compat_and_accuracy_through_ir_measures_equal_their_providers(value):
    qrels, run = value["qrels"], {q: docs for q, docs in value["run"].items() if docs}
    ours = _per_query(ir_measures.iter_calc(OTHERS, qrels, run))
    theirs = {}
    for query_id, docs in run.items():  # one query at a time: Accuracy's provider raises on M = 0
        if query_id not in qrels:
            continue
        one = {query_id: qrels[query_id]}
        for measure in OTHERS:
            provider = ir_measures.compat if measure.NAME == "Compat" else ir_measures.accuracy
            try:
                theirs.update(_per_query(provider.iter_calc([measure], one, {query_id: docs})))
            except ZeroDivisionError:  # Accuracy without a non-relevant document read: evalcore's NaN, not reported
                assert (query_id, measure) not in ours
    theirs.update({(q, m): 0.0 for q in qrels if q not in run for m in OTHERS if m.NAME == "Compat"})  # DEFAULT
    assert ours == theirs
    means = ir_measures.calc_aggregate(OTHERS, qrels, run)
    for measure in OTHERS:
        reported = [v for (q, m), v in ours.items() if m == measure]
        assert _same(means[measure], _exact_mean(reported)), measure
    # evaluate_run's numbers where no scores tie (the providers' tie orders are theirs: below)
    if not any(len(set(docs.values())) < len(docs) for docs in run.values()):
        expected = _evaluate_run_values(qrels, run, OTHERS)
        assert ours == {key: expected.get(key, 0.0) for key in ours}


def test_tied_scores_ranked_as_each_ir_measures_provider_ranks_them():
    qrels = {"q": {"a": 1, "b": 0, "c": 2}}
    run = {"q": {"c": 1.0, "b": 1.0, "a": 1.0}}  # all tied: compat ranks a, b, c; cwl_eval and Accuracy c, b, a
    measures = [Compat(p=0.5), Accuracy, RBP(p=0.5, rel=1)]
    got = ir_measures.calc_aggregate(measures, qrels, run)
    assert got[Compat(p=0.5)] == ir_measures.compat.calc_aggregate([Compat(p=0.5)], qrels, run)[Compat(p=0.5)]
    assert got[Accuracy] == ir_measures.accuracy.calc_aggregate([Accuracy], qrels, run)[Accuracy] == 0.5
    assert math.isclose(got[RBP(p=0.5, rel=1)], ir_measures.cwl_eval.calc_aggregate(
        [RBP(p=0.5, rel=1)], qrels, run)[RBP(p=0.5, rel=1)], **CWL_CLOSE)
    by_id = evalcore.evaluate_run(qrels, run, ["Compat(p=0.5)", "Accuracy"]).mean  # evalcore's own: c, b, a
    in_order = evalcore.evaluate_run(qrels, {"q": ["a", "b", "c"]}, ["Compat(p=0.5)"]).mean
    assert got[Compat(p=0.5)] == in_order["Compat(p=0.5)"] != by_id["Compat(p=0.5)"]
    assert got[Accuracy] == by_id["Accuracy"]


# 100 examples: each runs ir_measures.calc four times (a DataFrame among the inputs), about 35 ms
@slow_examples(100)
@given(value=runs(max_docs=8, max_queries=3, grades=("integer",), ranked_lists=False, empty=False))
def test_runs_of_every_shape_are_ranked_alike_in_ir_measures_calls(value):
    # a dict is reordered as a dict, records and tables as records: the same numbers
    pandas = pytest.importorskip("pandas")
    qrels, run = value["qrels"], value["run"]
    measures = [Compat, Accuracy, RR @ 3, Judged @ 2, RBP(p=0.5, rel=1)]
    records = [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    expected = ir_measures.calc(measures, qrels, run)
    for shape in (records, iter(records), pandas.DataFrame(records)):
        got = ir_measures.calc(measures, qrels, shape)
        assert got.aggregated == expected.aggregated or all(
            _same(got.aggregated[m], expected.aggregated[m]) for m in measures)
        assert _per_query(got.per_query) == _per_query(expected.per_query)

def test_accuracy_reports_only_where_defined_in_ir_measures_calls():
    # q1: a relevant above b; q2: nothing relevant read; q3 judged, not run: not reported either
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 0}, "q3": {"d": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    assert [(m.query_id, m.value) for m in ir_measures.iter_calc([Accuracy], qrels, run)] == [("q1", 1.0)]
    assert ir_measures.calc_aggregate([Accuracy], qrels, run) == {Accuracy: 1.0} == \
        ir_measures.accuracy.calc_aggregate([Accuracy], qrels, run)
    assert math.isnan(ir_measures.calc_aggregate([Accuracy], qrels, {"q2": {"c": 1.0}})[Accuracy])


# 300 examples: each evaluates four times (ours, msmarco, judged, evaluate_run), about 25 ms an
# example on this machine; CI's 1,000 would add some 20 s for little more.
@slow_examples(300)
@given(value=runs(max_docs=12, grades=("integer", "negative"), ranked_lists=False), cutoff=st.sampled_from([1, 3, 10]))
def test_rr_and_judged_at_k_through_ir_measures_equal_msmarco_and_judged_providers(value, cutoff):
    qrels = {q: docs for q, docs in value["qrels"].items() if docs}  # (those providers read records: see docs)
    run = {q: docs for q, docs in value["run"].items() if docs}
    measures = [RR @ cutoff, RR(rel=2) @ cutoff, Judged @ cutoff]
    ours = _per_query(ir_measures.iter_calc(measures, qrels, run))
    theirs = _per_query(ir_measures.msmarco.iter_calc(measures[:2], qrels, run))
    theirs.update(_per_query(ir_measures.judged.iter_calc(measures[2:], qrels, run)))
    assert ours == theirs
    # evaluate_run's own numbers on the run ranked as they rank it (ties by document ID ascending)
    ranked = [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in sorted(docs.items(),
                                                                                           key=lambda i: (-i[1], i[0]))]
    expected = _evaluate_run_values(qrels, ranked, measures, ties="input")
    assert ours == {key: 0.0 if math.isnan(expected.get(key, 0.0)) else expected.get(key, 0.0) for key in ours}
    means = ir_measures.calc_aggregate(measures, qrels, run)
    assert all(_same(means[m], _exact_mean([v for (q, k), v in ours.items() if k == m])) for m in measures)


@pytest.mark.parametrize("measure", DIVERSITY + CWL + OTHERS + [nERR_IA @ 30, RR @ 10, RR(rel=2) @ 5, Judged @ 10])
def test_served(measure):
    assert EvalcoreProvider().supports(measure)


@pytest.mark.parametrize("measure", [
    alpha_nDCG, ERR_IA, StRecall,  # no cutoff: ndeval's need one
    RBP, RBP(p=0.9), RBP(rel=1) @ 10,  # graded RBP, or a cutoff: not cwl_eval's provider's
    alpha_nDCG(rel=0) @ 5, alpha_nDCG(alpha=2.0) @ 5, INST(min_rel=3, max_rel=3), Compat(p=0.0),  # refused by evalcore
])
def test_not_served(measure):
    assert translate(measure) is None


def test_measures_not_served_fall_through_in_ir_measures_calls():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    evaluator = ir_measures.evaluator([alpha_nDCG @ 5, RBP(rel=1), ir_measures.IPrec @ 0.2, NRBP(alpha=2.0)], qrels)
    kinds = sorted(type(e).__name__ for e in evaluator.evaluators)
    assert "EvalcoreEvaluator" in kinds and "PyNdEvalEvaluator" in kinds  # NRBP(alpha=2.0): pyndeval's
    mine = [e for e in evaluator.evaluators if isinstance(e, EvalcoreEvaluator)][0]
    assert set(mine.measures) == {alpha_nDCG @ 5, RBP(rel=1)}
    got = ir_measures.calc_aggregate([alpha_nDCG @ 5, RBP(rel=1), ir_measures.IPrec @ 0.2], qrels, run)
    assert got[ir_measures.IPrec @ 0.2] == ir_measures.pytrec_eval.calc_aggregate([ir_measures.IPrec @ 0.2], qrels,
                                                                                    run)[ir_measures.IPrec @ 0.2]
