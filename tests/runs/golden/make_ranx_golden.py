"""Writes ranx_hits_f1.json, ranx 0.3.21's hits, f1 and graded rbp on evalcore's own seeded inputs (issue 25
item 4). ranx compiles its metrics with numba on first use (37 s here), too slow for the default
suite, so tests/runs/test_common_measures.py compares against these committed values instead.
Run: pip install --only-binary=:all: ranx==0.3.21 && python tests/runs/golden/make_ranx_golden.py"""

from __future__ import annotations

import json
import os
import random
from typing import Dict, List, Tuple

from ranx import Qrels, Run, evaluate

METRICS = ["hits", "hits@3", "hits@10-l2", "f1", "f1@3", "f1@10-l2", "rbp.95", "rbp.8", "rbp.5-l2"]


def seeded_queries(seed: int = 25, count: int = 40):
    """Queries of up to 12 ranked documents, distinct scores, grades -1..3, some unjudged."""
    rng = random.Random(seed)
    queries = []
    for q in range(count):
        pool = [f"d{i}" for i in range(16)]
        judged = {d: rng.randint(-1, 3) for d in rng.sample(pool, rng.randint(1, 8))}
        ranked = rng.sample(pool, rng.randint(1, 12))
        scores = {d: float(len(ranked) - i) + rng.random() / 2 for i, d in enumerate(ranked)}
        queries.append((f"q{q}", judged, scores))
    return queries


def write_golden(filename: str, metrics: List[str], queries: List[Tuple[str, Dict[str, int], Dict[str, float]]]) -> None:
    """ranx's values of `metrics` for each query alone, with its inputs, into `filename` here."""
    out = []
    for query, judged, scores in queries:
        values = evaluate(Qrels({query: judged}), Run({query: scores}), metrics, make_comparable=True)
        out.append({"query": query, "qrels": judged, "run": scores, "ranx": {m: float(v) for m, v in values.items()}})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


def main() -> None:
    write_golden("ranx_hits_f1.json", METRICS, seeded_queries())


if __name__ == "__main__":
    main()
