"""Long ideal rankings (issue 25 item 1): a query whose judged documents are mostly relevant
makes ndeval's greedy ideal ranking as long as the judged list, and nNRBP sums its gains to
the last rank (beta^rank: tiny terms that still count when beta is near 1). With 60 to 300
judged documents, 1 to 7 subtopics and betas from 0 to 1, nNRBP, NRBP and alpha-nDCG@20
equal pyndeval's bit for bit, and the native core equals the reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalcore
from common import run_all

pyndeval = pytest.importorskip("pyndeval")


def many_relevant(seed: int, documents: int, subtopics: int):
    """One query whose judged documents are mostly relevant to some subtopic: the ideal
    ranking is as long as the judged list."""
    rng = random.Random(seed)
    docs = [f"doc-{rng.randrange(10 ** 6):06d}-{i}" for i in range(documents)]
    qrels = {"q": {str(s): {d: rng.choice((0, 1, 1, 2)) for d in docs} for s in range(1, subtopics + 1)}}
    run = {"q": {d: float(rng.randrange(50)) for d in docs[: documents // 2]}}
    return qrels, run


# Each example builds pyndeval's qrels once and scores one query of up to 300 judged
# documents (2 to 14 ms): 30 examples cover the betas and the lengths.
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(60, 300), st.integers(1, 7),
       st.sampled_from([0.0, 0.1, 0.5, 0.8, 0.95, 0.99, 1.0]), st.sampled_from([0.0, 0.5, 0.9]))
def test_long_ideal_rankings_equal_pyndeval(seed, documents, subtopics, beta, alpha):
    qrels, run = many_relevant(seed, documents, subtopics)
    names = [f"nNRBP(alpha={alpha}, beta={beta})", f"NRBP(alpha={alpha}, beta={beta})", f"alpha_nDCG(alpha={alpha})@20"]
    result = evalcore.evaluate_run(qrels, run, names, qrels_format="subtopics")
    tuples = [(q, s, d, g) for q, subs in qrels.items() for s, docs in subs.items() for d, g in docs.items()]
    ranked = [(q, d, v) for q, docs in run.items() for d, v in docs.items()]
    expected = pyndeval.RelevanceEvaluator(tuples, ["nNRBP", "NRBP", "alpha-nDCG@20"], alpha=alpha,
                                           beta=beta).evaluate(ranked)["q"]
    got = [float(result.values(n)[0]) for n in names]
    assert [repr(v) for v in got] == [repr(expected[m]) for m in ("nNRBP", "NRBP", "alpha-nDCG@20")]
    outcome = run_all("evaluate_run", qrels, run, names, qrels_format="subtopics")
    assert outcome[0] == "ok"
