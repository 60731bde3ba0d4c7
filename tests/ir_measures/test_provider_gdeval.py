"""evalcore's ir_measures provider for the measures of ir_measures' gdeval provider (issue 25
item 5, h25-irm3): ERR@k and nDCG(dcg='exp-log2')@k, against gdeval itself (the perl script
ir_measures ships, run by its gdeval provider) within gdeval's printed precision (it prints 5
decimals), and against evaluate_run (``==``); NumQ against ir_measures' pytrec_eval provider
is in test_provider.py. Every test that runs ir_measures' evaluation has ir_measures in its
name (tests/test_sanitizer_stage.py)."""

from __future__ import annotations

import math
import shutil
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

ir_measures = pytest.importorskip("ir_measures.providers").__name__ and __import__("ir_measures")
import evalcore  # noqa: E402 (after the skip)
import evalcore.ir_measures  # noqa: E402
from common import slow_examples  # noqa: E402
from evalcore.ir_measures import EvalcoreEvaluator, EvalcoreProvider, translate  # noqa: E402
from evalcore.testing import runs  # noqa: E402
from ir_measures import ERR, nDCG  # noqa: E402

needs_perl = pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval is a perl script: perl is not on PATH")
GDEVAL = [ERR @ 1, ERR @ 5, ERR @ 20, nDCG(dcg="exp-log2") @ 1, nDCG(dcg="exp-log2") @ 5, nDCG(dcg="exp-log2") @ 20]
# gdeval prints each value with printf's %.5f: within half a unit of the 5th decimal of its
# double, which differs from evalcore's by the rounding of a few operations (its DCG and ideal
# DCG divide by natural logarithms, evalcore's by log2): 1e-12 covers those.
PRINTED = 0.5e-5 + 1e-12
# gdeval reads numeric query IDs only (its qrels and run checks): the generated ones renamed
NUMERIC = {"q1": "1", "q2": "2", "q3": "3", "q4": "4", "q5": "5", "10": "10", "ü": "7"}
# Scores exact in decimal and binary (gdeval compares them as perl reads them), tying often
SCORES = st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.0, 2.25, 3.0, -1.5])


pytestmark = pytest.mark.usefixtures("evalcore_registered")  # (conftest.py)


def _as_gdeval_reads(value):
    """A generated case as gdeval can take it: numeric query IDs, document IDs without a space
    (it splits lines at whitespace), no query judged with nothing (its provider reads the qrels
    as records, so it would not know that query)."""
    def doc(doc_id):
        return doc_id.replace(" ", "_")  # ("a b": no "a_b" in the pool)

    qrels = {NUMERIC[q]: {doc(d): g for d, g in grades.items()} for q, grades in value["qrels"].items() if grades}
    run = {NUMERIC[q]: {doc(d): s for d, s in docs.items()} for q, docs in value["run"].items()}
    return qrels, run


def _per_query(metrics):
    return {(metric.query_id, metric.measure): metric.value for metric in metrics}


@needs_perl
@slow_examples(60)  # gdeval's perl runs three times (a cutoff each) per call, two calls: ~50 ms an example
@given(value=runs(grades=("integer", "negative"), scores=SCORES, ranked_lists=False, astral=False))
def test_gdeval_measures_through_ir_measures_equal_gdeval_within_its_printed_decimals(value):
    qrels, run = _as_gdeval_reads(value)
    evaluator = ir_measures.evaluator(GDEVAL, qrels)
    assert isinstance(evaluator, EvalcoreEvaluator)  # served by evalcore
    ours = _per_query(evaluator.iter_calc(run))
    theirs = _per_query(ir_measures.gdeval.iter_calc(GDEVAL, qrels, run))
    assert ours.keys() == theirs.keys()
    assert all(abs(ours[key] - theirs[key]) <= PRINTED for key in ours), \
        [(key, ours[key], theirs[key]) for key in ours if abs(ours[key] - theirs[key]) > PRINTED]
    # bit for bit evaluate_run's (NaN, no positive grade, reported 0 as by gdeval's provider)
    for measure in GDEVAL:
        found = translate(measure)
        result = evalcore.evaluate_run(qrels, run, [found.name], gain=found.gain, missing="skip")
        for query_id, mine in zip(result.query_ids, result.values(found.name).tolist()):
            assert ours[query_id, measure] == (0.0 if math.isnan(mine) else mine)
    # means: ours exact, ir_measures' the running mean of gdeval's printed values
    our_means = ir_measures.calc_aggregate(GDEVAL, qrels, run)
    their_means = ir_measures.gdeval.calc_aggregate(GDEVAL, qrels, run)
    for measure in GDEVAL:
        if math.isnan(their_means[measure]):
            assert math.isnan(our_means[measure]) and not qrels
        else:
            assert abs(our_means[measure] - their_means[measure]) <= PRINTED + len(qrels) * 2.0**-52, measure


def test_gdeval_measures_served_and_not():
    provider = EvalcoreProvider()
    for measure in GDEVAL:
        assert provider.supports(measure)
        assert translate(measure).gain == ("exponential" if measure.NAME == "nDCG" else "linear")
    # as gdeval takes them: with a cutoff, and nDCG without gains or judged_only
    for measure in [ERR, nDCG(dcg="exp-log2"), nDCG(dcg="exp-log2", gains={0: 0, 1: 1}) @ 5,
                    nDCG(dcg="exp-log2", judged_only=True) @ 5]:
        assert not provider.supports(measure) and translate(measure) is None


@needs_perl
def test_gdeval_refuses_grades_above_4_where_ir_measures_through_evalcore_warns():
    qrels = {"1": {"a": 5, "b": 1}, "2": {"c": 2}}
    run = {"1": {"a": 2.0, "b": 1.0}, "2": {"c": 1.0}}
    with pytest.raises(Exception):  # gdeval's perl stops: ir_measures raises CalledProcessError
        ir_measures.gdeval.calc_aggregate([ERR @ 5], qrels, run)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        means = ir_measures.calc_aggregate([ERR @ 5, nDCG(dcg="exp-log2") @ 5], qrels, run)
    said = [str(w.message) for w in caught if issubclass(w.category, evalcore.EvaluationWarning)]
    assert len(said) == 1 and "1 judgment(s) with a grade gdeval" in said[0] and "grade 5" in said[0]
    assert "evalcore's ERR reads a grade above 4 as 4" in said[0]
    # ERR reads 5 as 4: q1's first document stops 15/16 of the users, as a 4 would
    assert means[ERR @ 5] == pytest.approx(((15 / 16 + (1 / 16) * (1 / 16) / 2) + 3 / 16) / 2, rel=1e-15)
    capped = ir_measures.calc_aggregate([ERR @ 5], {"1": {"a": 4, "b": 1}, "2": {"c": 2}}, run)
    assert means[ERR @ 5] == capped[ERR @ 5]
    with warnings.catch_warnings(record=True) as caught:  # grades gdeval reads: nothing said
        warnings.simplefilter("always")
        ir_measures.calc_aggregate([ERR @ 5], {"1": {"a": 4, "b": -1}}, run)
    assert not [w for w in caught if issubclass(w.category, evalcore.EvaluationWarning)]
