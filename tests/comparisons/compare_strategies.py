"""Hypothesis strategies of the evalcore.compare tests (runs to compare, and a cap on the
examples of costly properties)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st


def at_most(examples: int) -> settings:
    """@settings for a property too costly an example for the ci profile's 2,500: at most
    `examples` (the profile's own count where that is lower, as in dev)."""
    return settings(max_examples=min(examples, settings.default.max_examples))


COMPARE_DOCS = [f"d{i}" for i in range(8)]
_RANKINGS = 7 * 8 * 7 * 6 * 5 * 4 * 3  # codes of the rankings of 0..6 distinct documents of COMPARE_DOCS


def compare_ranking(code: int, shortest: int = 0) -> list:
    """The ranking a code stands for: its base-7 low digit is the length (shortest up to 6),
    the rest picks the documents one at a time (mixed radix 8, 7, 6, ...). Small codes are
    short rankings of the first documents, where hypothesis shrinks to."""
    length, code = shortest + code % (7 - shortest), code // (7 - shortest)
    pool, out = list(COMPARE_DOCS), []
    for _ in range(length):
        code, i = divmod(code, len(pool))
        out.append(pool.pop(i))
    return out


@st.composite
def compare_inputs(draw: Any, max_queries: int = 24, max_runs: int = 4) -> dict:
    """{"qrels", "runs": {name: {q: [doc, ...]}}}: 2..max_runs runs ranking a small pool per
    query, so that measures tie across runs and between queries (zero differences, tied
    |differences|), some queries have no relevant document (undefined measures) and some
    runs lack queries (dropped, or zeros with missing="zero"). A run often repeats the
    previous run's ranking of a query (a zero difference), and lists its queries in an order
    of its own. Few queries are common.

    Each query's judgments, each run's query order and each (run, query) entry are one
    integer draw (compare_ranking decodes them): an example costs few draws, so that the
    differential test can run thousands."""
    n = draw(st.integers(1, max_queries))
    queries = [f"q{i:02d}" for i in range(n)]
    qrels = {}
    for q in queries:
        code, grades = divmod(draw(st.integers(0, _RANKINGS * 4096 - 1)), 4096)  # 6 grades of 2 bits
        qrels[q] = {d: (grades >> (2 * i)) & 3 for i, d in enumerate(compare_ranking(code, shortest=1))}
    names = draw(st.lists(st.sampled_from(["bm25", "dense", "rm3", "splade", "x y", "é"]), min_size=2,
                          max_size=max_runs, unique=True))
    runs: dict = {}
    previous: dict = {}
    for name in names:
        order = list(queries)
        shuffle = draw(st.integers(0, 2**32 - 1))
        if shuffle:  # 0: the qrels' order
            random.Random(shuffle).shuffle(order)
        run = {}
        for q in order:
            code, kind = divmod(draw(st.integers(0, 10 * _RANKINGS - 1)), 10)
            if kind == 0:
                continue  # this run lacks the query
            run[q] = list(previous[q]) if kind <= 3 and q in previous else compare_ranking(code)
        runs[name] = previous = run
    return {"qrels": qrels, "runs": runs}
