"""PyTerrier's ``pt.Experiment`` on evalcore (issue 25 item 5): with evalcore's provider
registered first in ir_measures' pipeline, ``pt.Experiment`` (which calls
``ir_measures.iter_calc``) gives evaluate_run's per-query numbers for the measures evalcore
serves, and our provider is the one called. PyTerrier 1.x starts Java only when a Terrier
index or retriever is used: these systems are result DataFrames, so no JVM is needed (the
test checks none was started). Every test that runs ir_measures' evaluation has ir_measures
in its name (tests/test_sanitizer_stage.py)."""

from __future__ import annotations

import sys

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")  # (evalcore reads pandas tables through Arrow)
pt = pytest.importorskip("pyterrier")
import ir_measures  # noqa: E402 (a dependency of PyTerrier)
from ir_measures import AP, P, RR, alpha_nDCG, nDCG  # noqa: E402

import evalcore  # noqa: E402
import evalcore.ir_measures  # noqa: E402
from evalcore.ir_measures import EvalcoreEvaluator  # noqa: E402

TOPICS = pd.DataFrame({"qid": ["q1", "q2", "q3"], "query": ["one", "two", "three"]})
QRELS = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2", "q3"], "docno": ["d1", "d2", "d3", "d4", "d7"],
                      "label": [2, 0, 1, 1, 1]})
# Two systems' results (PyTerrier's columns). The second ties d2 and d3: evalcore ranks d3 first
# (document ID descending), which the numbers below depend on.
BM25 = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2", "q2", "q3"], "docno": ["d1", "d2", "d5", "d6", "d4", "d7"],
                     "score": [3.0, 2.0, 1.0, 2.0, 1.0, 5.0], "rank": [0, 1, 2, 0, 1, 0]})
DPH = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2", "q3"], "docno": ["d2", "d3", "d1", "d4", "d8"],
                    "score": [2.0, 2.0, 1.0, 1.0, 1.0], "rank": [0, 1, 2, 0, 0]})
# alpha_nDCG@30: only evalcore computes it (pyndeval, ir_measures' provider, stops at 20)
MEASURES = [AP, P @ 2, nDCG @ 10, RR, alpha_nDCG @ 30]


@pytest.fixture
def evaluations(monkeypatch):
    """evalcore's provider registered first (out again after the test), and a list of the
    measures each of its evaluations scored: the spy on the provider's evaluator."""
    called = []
    real = EvalcoreEvaluator._evaluations

    def spy(self, run):
        called.append(sorted(str(m) for m in self.measures))
        return real(self, run)

    monkeypatch.setattr(EvalcoreEvaluator, "_evaluations", spy)
    evalcore.ir_measures.register()
    try:
        yield called
    finally:
        evalcore.ir_measures.unregister()


def _evalcore_values(run):
    """evaluate_run's per-query values of MEASURES for one system's results."""
    qrels = {q: dict(zip(g.docno, g.label)) for q, g in QRELS.groupby("qid", sort=False)}
    ranked = {q: dict(zip(g.docno, g.score)) for q, g in run.groupby("qid", sort=False)}
    values = {}
    result = evalcore.evaluate_run(qrels, ranked, ["AP", "P@2", "nDCG@10", "RR"])
    subtopics = {q: {"0": docs} for q, docs in qrels.items()}  # PyTerrier's qrels have no subtopics
    diversity = evalcore.evaluate_run(subtopics, ranked, ["alpha_nDCG@30"], qrels_format="subtopics")
    for evaluation, names in ((result, ["AP", "P@2", "nDCG@10", "RR"]), (diversity, ["alpha_nDCG@30"])):
        for name in names:
            for query_id, value in zip(evaluation.query_ids, evaluation.values(name).tolist()):
                values[query_id, name] = value
    return values


def test_pyterrier_experiment_gives_evalcores_numbers_through_ir_measures(evaluations):
    per_query = pt.Experiment([BM25, pt.Transformer.from_df(DPH)], TOPICS, QRELS, eval_metrics=MEASURES,
                              names=["bm25", "dph"], perquery=True)
    assert len(evaluations) == 2 and all(len(e) == len(MEASURES) for e in evaluations)  # ours, for every measure
    for name, run in (("bm25", BM25), ("dph", DPH)):
        rows = per_query[per_query.name == name]
        got = {(q, m): v for q, m, v in zip(rows.qid, rows.measure, rows.value)}
        assert got == _evalcore_values(run), name
    means = pt.Experiment([BM25, DPH], TOPICS, QRELS, eval_metrics=MEASURES, names=["bm25", "dph"])
    for name, run in (("bm25", BM25), ("dph", DPH)):
        row = means[means.name == name].iloc[0]
        expected = _evalcore_values(run)
        for measure in MEASURES:
            values = [expected[q, str(measure)] for q in ("q1", "q2", "q3")]
            # PyTerrier adds our per-query values one at a time in query order (ir_measures'
            # aggregator), as sum() does here: its mean of evaluate_run's values
            assert row[str(measure)] == sum(values) / 3, (name, measure)
    assert means[means.name == "dph"].iloc[0]["P@2"] == (0.5 + 0.5 + 0.0) / 3  # d3 (relevant) ranked above d2
    assert "jnius" not in sys.modules  # no JVM: PyTerrier needs none for results it is given


def test_pyterrier_without_evalcore_uses_ir_measures_own_providers_for_ir_measures_calls():
    # alpha_nDCG@30 is evalcore's alone: without it registered, ir_measures' pyndeval refuses it
    evalcore.ir_measures.unregister()  # (as every test leaves it; whatever ran before)
    assert not any(type(p).__name__ == "EvalcoreProvider" for p in ir_measures.DefaultPipeline.providers)
    with pytest.raises(Exception, match="20"):
        pt.Experiment([BM25], TOPICS, QRELS, eval_metrics=[alpha_nDCG @ 30])
    means = pt.Experiment([BM25], TOPICS, QRELS, eval_metrics=[AP, P @ 2], names=["bm25"])
    expected = _evalcore_values(BM25)
    assert means.iloc[0]["AP"] == sum(expected[q, "AP"] for q in ("q1", "q2", "q3")) / 3  # pytrec_eval's, the same
