"""Writes ranx_hits_f1.json (ranx's hits, f1 and graded rbp) and ranx_hit_rate.json (its hit_rate):
ranx's own per-query values and means on evalcore's seeded inputs (issue 25 item 4; h25-gaps: cases
of many queries, with ties, unjudged documents, judged queries the run lacks and run queries without
judgments). ranx is not a test dependency: it compiles its metrics with numba on first use (about
40 s) and pulls numba and llvmlite, too heavy for CI's five environments, so the values ranx gives
are committed, with its version and this command, and tests/runs/test_common_measures.py and
test_ncg_hit_rate.py compare evalcore's per-query values and means with them.

Run (from the checkout's root; rewrites both files):
    pip install --only-binary=:all: ranx==0.3.21 && python tests/runs/golden/make_ranx_golden.py
"""

from __future__ import annotations

import json
import os
import random
from importlib.metadata import version
from typing import Any, Dict, List, Tuple

from ranx import Qrels, Run, evaluate

COMMAND = ("pip install --only-binary=:all: ranx==0.3.21 && python tests/runs/golden/make_ranx_golden.py")
HITS_F1_METRICS = ["hits", "hits@3", "hits@10-l2", "f1", "f1@3", "f1@10-l2", "rbp.95", "rbp.8", "rbp.5-l2"]
HIT_RATE_METRICS = ["hit_rate", "hit_rate@1", "hit_rate@3", "hit_rate@10-l2", "hit_rate-l3"]

Queries = Tuple[Dict[str, Dict[str, int]], Dict[str, Dict[str, float]]]


def seeded_queries(seed: int, count: int, prefix: str, ties: bool = False) -> Queries:
    """`count` judged queries of up to 12 ranked documents out of 16, grades -1..3 on 1 to 8 of them
    (some ranked documents unjudged); scores distinct (quarters apart, so exact in JSON), or, with
    `ties`, drawn from 1, 2 and 3 (most documents tied). Every fifth judged query is left out of
    the run (a judged query the run lacks), and one run query in ten has no judgments."""
    rng = random.Random(seed)
    qrels: Dict[str, Dict[str, int]] = {}
    run: Dict[str, Dict[str, float]] = {}
    for q in range(count):
        query = f"{prefix}{q}"
        pool = [f"d{i}" for i in range(16)]
        qrels[query] = {d: rng.randint(-1, 3) for d in rng.sample(pool, rng.randint(1, 8))}
        ranked = rng.sample(pool, rng.randint(1, 12))
        scores = {d: float(rng.randint(1, 3)) if ties else (len(ranked) - i) + rng.randint(0, 1) / 4
                  for i, d in enumerate(ranked)}
        if q % 5 != 4:
            run[query] = scores
        if q % 10 == 3:
            run[f"{prefix}{q}x"] = dict(scores)  # a run query without judgments
    return qrels, run


def ranx_case(name: str, queries: Queries, metrics: List[str]) -> Dict[str, Any]:
    """ranx's per-query values and means of `metrics` on `queries`, as `evaluate` gives them on a
    Qrels and a Run of all the queries (make_comparable: judged queries the run lacks get an
    empty ranking, run queries without judgments are dropped)."""
    qrels, run = queries
    ranx_run = Run(run).make_comparable(Qrels(qrels))
    means = evaluate(Qrels(qrels), ranx_run, metrics)
    per_query = {m: {q: float(v) for q, v in ranx_run.scores[m].items()} for m in metrics}
    return {"name": name, "qrels": qrels, "run": run, "metrics": metrics,
            "ranx_mean": {m: float(means[m]) for m in metrics}, "ranx_per_query": per_query}


def write_golden(filename: str, cases: List[Dict[str, Any]]) -> None:
    """The cases, with ranx's version and the command, into `filename` beside this script."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"ranx_version": version("ranx"), "command": COMMAND, "cases": cases}, f, sort_keys=True,
                  separators=(",", ":"))
        f.write("\n")


def main() -> None:
    hits_f1 = [ranx_case("seeded", seeded_queries(25, 40, "q"), HITS_F1_METRICS),
               ranx_case("ties", seeded_queries(7, 30, "t", ties=True), HITS_F1_METRICS)]
    hit_rate = [ranx_case("seeded", seeded_queries(25, 40, "q"), HIT_RATE_METRICS),
                ranx_case("seeded 19", seeded_queries(19, 40, "s"), HIT_RATE_METRICS),
                ranx_case("ties", seeded_queries(7, 30, "t", ties=True), HIT_RATE_METRICS)]
    write_golden("ranx_hits_f1.json", hits_f1)
    write_golden("ranx_hit_rate.json", hit_rate)


if __name__ == "__main__":
    main()
