"""evalcore as an ir_measures provider (issue 25 item 5): what it supports, that
ir_measures' own calc_aggregate / iter_calc through it give evaluate_run's numbers, and
pytrec_eval's (ir_measures' default provider) per query, that the measures it does not
support fall through to ir_measures' other providers, how missing queries are reported, and
registration. Every test that runs ir_measures' evaluation has ir_measures or pytrec_eval in
its name (tests/test_sanitizer_stage.py)."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

ir_measures = pytest.importorskip("ir_measures.providers").__name__ and __import__("ir_measures")
import evalcore  # noqa: E402 (after the skip)
import evalcore.ir_measures  # noqa: E402
from evalcore.ir_measures import EvalcoreEvaluator, EvalcoreProvider, translate  # noqa: E402
from evalcore.testing import float32_scores, runs  # noqa: E402
from ir_measures import (AP, ERR, IPrec, Judged, NumQ, NumRel, NumRet, P, R, RR, SetAP, SetF,  # noqa: E402
                         SetP, SetR, Success, alpha_nDCG, nDCG, Bpref, Rprec, infAP, RBP)

# Every measure the provider serves that pytrec_eval (ir_measures' default provider) also
# computes, with parameters away from the defaults too.
PYTREC_MEASURES = [
    P @ 5, P(rel=2) @ 3, P(judged_only=True) @ 5, R @ 5, R(rel=2) @ 10, AP, AP @ 5, AP(rel=2), AP(judged_only=True),
    RR, RR(rel=2), Rprec, Rprec(rel=2), nDCG, nDCG @ 5, nDCG(gains={0: 0, 1: 1, 2: 5}) @ 10, nDCG(judged_only=True),
    Success @ 1, Success(rel=2) @ 5, SetP, SetP(rel=2), SetR, SetF, SetF(beta=0.5), Bpref, Bpref(rel=2), infAP,
    NumRet, NumRet(rel=1), NumRet(rel=2), NumRel, IPrec @ 0.0, IPrec @ 0.5, IPrec @ 1.0, IPrec(rel=2) @ 0.5,
    SetAP, SetAP(rel=2), SetP(relative=True), SetP(rel=2, relative=True),  # trec_eval's set_map, set_relative_P
    NumQ,  # h25-irm3: pytrec_eval's num_q, 1 a query reported (and ir_measures' sum)
]
# Served here, computed by another of ir_measures' providers (judged: its own Python).
OTHER_MEASURES = [Judged, NumRel(rel=2)]
SUM_MEASURES = {"NumRet", "NumRel", "NumQ"}  # ir_measures' SumAgg; the others are means


pytestmark = pytest.mark.usefixtures("evalcore_registered")  # (conftest.py)


def _peer_inputs(value):
    """A generated case as pytrec_eval can take it: it crashes on empty rankings, on queries
    whose grades are all negative and on empty judgments (tests/runs/test_run_measures.py)."""
    run = {q: docs for q, docs in value["run"].items() if docs}
    qrels = {q: grades for q, grades in value["qrels"].items() if any(g >= 0 for g in grades.values())}
    return qrels, run


def _ours_by_evaluate_run(qrels, run, measures):
    """What the provider must report: evaluate_run's per-query values (NaN as 0, trec_eval's
    value there), the judged queries the run lacks at 0 (ir_measures' DEFAULT)."""
    expected = {}
    for measure in measures:
        found = translate(measure)
        result = evalcore.evaluate_run(qrels, run, [found.name], judged_only=found.judged_only,
                                       relevant_at_least=found.relevant_at_least)
        for query_id, value in zip(result.query_ids, result.values(found.name).tolist()):
            expected[query_id, measure] = 0.0 if math.isnan(value) else value
        for query_id in qrels:
            expected.setdefault((query_id, measure), 0.0)
    return expected


def _exact_aggregate(measure, values):
    total = math.fsum(values)  # the exact sum, rounded once
    if not values:
        return measure.aggregator().result()
    return total if measure.NAME in SUM_MEASURES else total / len(values)


@given(value=runs(grades=("integer", "negative"), scores=float32_scores), as_records=st.booleans())
def test_ir_measures_calls_through_the_provider_give_evaluate_runs_numbers(value, as_records):
    qrels, run = value["qrels"], value["run"]
    run = {q: (docs if isinstance(docs, dict) else {d: -float(i) for i, d in enumerate(docs)}) for q, docs in run.items()}
    measures = PYTREC_MEASURES + OTHER_MEASURES
    if as_records:  # ir_measures' records, read once (generators): no query without judgments or ranking
        qrels = {q: g for q, g in qrels.items() if g}
        run = {q: docs for q, docs in run.items() if docs}
    expected = _ours_by_evaluate_run(qrels, run, measures)
    if as_records:
        qrel_input = (ir_measures.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items())
        run_input = (ir_measures.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items())
    else:
        qrel_input, run_input = qrels, run
    evaluator = ir_measures.evaluator(measures, qrel_input)
    assert isinstance(evaluator, EvalcoreEvaluator)  # every measure served by evalcore
    reported = list(evaluator.iter_calc(run_input))
    got = {(m.query_id, m.measure): m.value for m in reported}
    assert len(got) == len(reported) and got == expected
    aggregates = ir_measures.calc_aggregate(measures, qrels, run)
    for measure in measures:
        values = [v for (q, m), v in expected.items() if m == measure]
        assert aggregates[measure] == _exact_aggregate(measure, values) or \
            (math.isnan(aggregates[measure]) and not values), measure
        found = translate(measure)
        if measure.NAME == "NumRel":
            continue  # evaluate_run's missing="zero" counts a lacking query's relevant documents; ir_measures 0
        zero = evalcore.evaluate_run(qrels, run, [found.name], missing="zero", judged_only=found.judged_only,
                                     relevant_at_least=found.relevant_at_least)
        if values and zero.defined_counts[found.name] == len(values) and measure.NAME not in SUM_MEASURES:
            assert aggregates[measure] == zero.mean[found.name], measure  # evaluate_run's mean itself


@given(value=runs(grades=("integer", "negative"), scores=float32_scores))
def test_per_query_values_equal_ir_measures_pytrec_eval_provider(value):
    qrels, run = _peer_inputs(value)
    run = {q: (docs if isinstance(docs, dict) else {d: -float(i) for i, d in enumerate(docs)}) for q, docs in run.items()}
    qrels = {q: g for q, g in qrels.items() if g}
    peer = [m for m in PYTREC_MEASURES if m != NumRet(rel=2)]  # (pytrec_eval's num_rel_ret level: see below)
    ours = {(m.query_id, m.measure): m.value for m in ir_measures.iter_calc(peer, qrels, run)}
    theirs = {(m.query_id, m.measure): m.value for m in ir_measures.pytrec_eval.iter_calc(peer, qrels, run)}
    assert ours == theirs
    # Aggregates: ours are exact means; ir_measures' adds pytrec_eval's values one by one in its
    # order, so the two agree to within the rounding of n additions (n ulps of the sum).
    our_means = ir_measures.calc_aggregate(peer, qrels, run)
    their_means = ir_measures.pytrec_eval.calc_aggregate(peer, qrels, run)
    for measure in peer:
        mine, peers = our_means[measure], their_means[measure]
        if math.isnan(peers):
            assert math.isnan(mine)
        else:
            assert abs(mine - peers) <= len(qrels) * 2.0**-52 * max(1.0, abs(peers)), measure
    judged_ours = {(m.query_id, m.measure): m.value for m in ir_measures.iter_calc([Judged], qrels, run)}
    judged_theirs = {(m.query_id, m.measure): m.value for m in ir_measures.judged.iter_calc([Judged], qrels, run)}
    assert judged_ours == judged_theirs


def test_ir_measures_relevance_level_of_num_rel_ret_is_the_measures():
    # NumRet(rel=2) is the relevant documents retrieved at level 2, as ir_measures defines it
    qrels = {"q": {"a": 1, "b": 2, "c": 2}}
    run = {"q": {"a": 3.0, "b": 2.0, "x": 1.0}}
    got = ir_measures.calc_aggregate([NumRet(rel=2), NumRet(rel=1), NumRet, NumRel(rel=2)], qrels, run)
    assert got == {NumRet(rel=2): 1.0, NumRet(rel=1): 2.0, NumRet: 3.0, NumRel(rel=2): 2.0}
    assert got == ir_measures.pytrec_eval.calc_aggregate([NumRet(rel=2), NumRet(rel=1), NumRet], qrels, run) | \
        {NumRel(rel=2): 2.0}


def test_missing_queries_and_unjudged_documents_in_ir_measures_calls():
    # q2 is judged but not run, q3 judged with nothing, q4 run but not judged; x is unjudged
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}, "q3": {}}
    run = {"q1": {"x": 2.0, "a": 1.0, "b": 0.5}, "q4": {"z": 1.0}}
    measures = [P @ 2, AP, NumRel, NumRet, Judged]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        metrics = list(ir_measures.iter_calc(measures, qrels, run))
    assert [w for w in caught if issubclass(w.category, evalcore.EvaluationWarning)] == []  # nothing left out
    got = {(m.query_id, str(m.measure)): m.value for m in metrics}
    assert got == {("q1", "P@2"): 0.5, ("q1", "AP"): 0.5, ("q1", "NumRel"): 1.0, ("q1", "NumRet"): 3.0,
                   ("q1", "Judged"): 2 / 3,
                   # the judged queries the run lacks: ir_measures' DEFAULT, as for its default providers
                   **{(q, str(m)): 0.0 for q in ("q2", "q3") for m in measures}}
    # after the others, in ir_measures' order (by measure name, then query)
    assert [(str(m.measure), m.query_id) for m in metrics[-10:]] == sorted((str(m), q) for m in measures
                                                                          for q in ("q2", "q3"))
    means = ir_measures.calc_aggregate(measures, qrels, run)
    assert means == {P @ 2: 0.5 / 3, AP: 0.5 / 3, NumRel: 1.0, NumRet: 3.0, Judged: (2 / 3) / 3}
    peer = {(m.query_id, str(m.measure)): m.value
            for m in ir_measures.pytrec_eval.iter_calc([P @ 2, AP, NumRel, NumRet], qrels, run)}
    assert peer == {key: value for key, value in got.items() if key[1] != "Judged"}


def test_measures_not_supported_fall_through_to_ir_measures_other_providers():
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2}}
    run = {"q1": {"b": 1.0, "a": 1.0, "x": 0.5}, "q2": {"c": 1.0}}
    mixed = [P @ 2, IPrec @ 0.2]
    evaluator = ir_measures.evaluator(mixed, qrels)
    kinds = [type(e).__name__ for e in evaluator.evaluators]
    assert kinds == ["EvalcoreEvaluator", "PytrecEvalEvaluator"]  # IPrec@0.2: pytrec_eval
    got = ir_measures.calc_aggregate(mixed, qrels, run)
    assert got[IPrec @ 0.2] == ir_measures.pytrec_eval.calc_aggregate([IPrec @ 0.2], qrels, run)[IPrec @ 0.2]
    # a call mixing providers is aggregated by ir_measures itself: its running mean of our values
    ours = [m.value for m in ir_measures.iter_calc([P @ 2], qrels, run)]
    assert got[P @ 2] == sum(ours) / len(ours)
    alone = ir_measures.evaluator([IPrec @ 0.3, IPrec @ 0.1], qrels)  # none of ours: evalcore takes no part
    assert type(alone).__name__ == "PytrecEvalEvaluator"
    assert ir_measures.calc_aggregate([NumQ], qrels, run) == {NumQ: 2}  # (ours, h25-irm3)


@pytest.mark.parametrize("measure", PYTREC_MEASURES + OTHER_MEASURES)
def test_supported(measure):
    assert EvalcoreProvider().supports(measure)


@pytest.mark.parametrize("measure", [
    IPrec @ 0.1, IPrec @ 0.2, IPrec @ 0.9,  # trec_eval 9's int(x*R + 0.9), not lround(x*R)
    nDCG(dcg="exp-log2"), ERR, RBP(p=0.8), alpha_nDCG, SetAP(rel=0),  # (test_provider_families.py, _gdeval.py)
    P(rel=0) @ 5,  # evalcore's levels are > 0
])
def test_not_supported(measure):
    assert not EvalcoreProvider().supports(measure) and translate(measure) is None


def test_ir_measures_evaluator_refuses_what_it_does_not_support():
    with pytest.raises(ValueError, match=r"evalcore does not compute IPrec@0\.2"):
        EvalcoreProvider().evaluator([IPrec @ 0.2], {"q": {"a": 1}})


def test_ir_measures_inputs_of_every_shape_give_the_same_numbers(tmp_path):
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")  # (evalcore reads pandas tables through Arrow)
    qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"d": 1}}
    run = {"q1": {"b": 3.0, "a": 2.0, "x": 1.0}, "q2": {"y": 2.0, "d": 1.0}}
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    (tmp_path / "run").write_text("".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in run.items() for d, s in docs.items()))
    # two values of judged_only: evaluate_run runs twice, and a run read once is kept for it
    measures = [P @ 2, AP, nDCG @ 3, P(judged_only=True) @ 2]
    expected = ir_measures.calc_aggregate(measures, qrels, run)
    shapes = [
        (ir_measures.read_trec_qrels(str(tmp_path / "qrels")), ir_measures.read_trec_run(str(tmp_path / "run"))),
        (pandas.DataFrame(list(ir_measures.read_trec_qrels(str(tmp_path / "qrels")))),
         pandas.DataFrame(list(ir_measures.read_trec_run(str(tmp_path / "run"))))),
        (itertools.tee(ir_measures.read_trec_qrels(str(tmp_path / "qrels")))[0],
         iter(list(ir_measures.read_trec_run(str(tmp_path / "run"))))),
    ]
    for qrel_input, run_input in shapes:
        assert ir_measures.calc_aggregate(measures, qrel_input, run_input) == expected
    evaluator = ir_measures.evaluator(measures, ir_measures.read_trec_qrels(str(tmp_path / "qrels")))
    assert evaluator.calc_aggregate(run) == expected == evaluator.calc_aggregate(run)  # qrels kept for every run
    calc = ir_measures.calc(measures, qrels, ir_measures.read_trec_run(str(tmp_path / "run")))  # (read once)
    assert calc.aggregated == expected and len(calc.per_query) == 8
    assert calc.per_query == list(ir_measures.iter_calc(measures, qrels, run))


def test_register_puts_evalcore_first_once_and_unregister_takes_it_out():
    pipeline = ir_measures.DefaultPipeline
    provider = evalcore.ir_measures.register()  # (the fixture registered it already)
    assert pipeline.providers[0] is provider and sum(isinstance(p, EvalcoreProvider) for p in pipeline.providers) == 1
    assert ir_measures.providers.registry["evalcore"] is provider
    evalcore.ir_measures.unregister()
    assert not any(isinstance(p, EvalcoreProvider) for p in pipeline.providers)
    assert "evalcore" not in ir_measures.providers.registry
    assert pipeline.providers[0] is ir_measures.runtime  # ir_measures' own order, as it was
    evalcore.ir_measures.unregister()  # twice: nothing to do
    assert evalcore.ir_measures.register() is not provider  # (a new one; the module's tests go on with it)


def test_register_in_a_pipeline_of_ones_own_for_ir_measures_calls():
    pipeline = ir_measures.providers.FallbackProvider([ir_measures.pytrec_eval])
    provider = evalcore.ir_measures.register(pipeline)
    assert pipeline.providers == [provider, ir_measures.pytrec_eval]
    assert type(pipeline.evaluator([AP, IPrec @ 0.2], {"q": {"a": 1}})).__name__ == "FallbackEvaluator"
    assert pipeline.calc_aggregate([AP, IPrec @ 0.2], {"q": {"a": 1}}, {"q": {"a": 1.0}}) == {AP: 1.0, IPrec @ 0.2: 1.0}
    evalcore.ir_measures.unregister(pipeline)
    assert pipeline.providers == [ir_measures.pytrec_eval]
    # the default pipeline and the registry as they were
    assert ir_measures.DefaultPipeline.providers[0] is provider is ir_measures.providers.registry["evalcore"]


def _python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_import_evalcore_does_not_import_ir_measures():
    done = _python("import sys, evalcore, evalcore.ir_measures; evalcore.evaluate_run({'q': {'a': 1}}, {'q': ['a']}, 'P@1');"
                   "print('ir_measures' in sys.modules)")
    assert done.returncode == 0 and done.stdout == "False\n", done.stderr


def test_without_ir_measures_the_error_says_what_to_install():
    done = _python("import sys; sys.modules['ir_measures'] = None\nimport evalcore.ir_measures as e\n"
                   "for attempt in (e.register, lambda: e.EvalcoreProvider):\n"
                   "    try:\n        attempt()\n    except ImportError as error:\n        print(error)\n")
    assert done.returncode == 0 and done.stdout.splitlines() == \
        ["evalcore.ir_measures needs ir_measures: pip install ir-measures"] * 2, done.stderr
