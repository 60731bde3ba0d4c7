"""evaluate_run over a 1 M-row generator of ScoredDoc-like named tuples (issue 23 item 5):
the native core reading the items in C++ (evaluate_run's iterable path) against reading them
in Python into columns first (getattr per item into lists, then the columns path), medians
over repeats. One command: python bench/bench_iterables.py [--rows N] [--repeats R]"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import namedtuple

import numpy as np

import evalcore
from evalcore import _core
from evalcore.runs.result import measure_specs

ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")


def rows(n: int, per_query: int = 1000):
    for i in range(n):
        yield ScoredDoc(f"q{i // per_query}", f"d{i % per_query}", float(per_query - i % per_query))


def python_columns(qrels, n):
    queries, docs, scores = [], [], []
    for item in rows(n):
        queries.append(item.query_id)
        docs.append(item.doc_id)
        scores.append(item.score)
    specs = [s.native() for s in measure_specs(["AP", "nDCG@10"])]
    return _core.evaluate_run(qrels, (queries, docs, np.asarray(scores, dtype=np.float64)), specs, 1.0, False, True,
                              False, 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    qrels = {f"q{q}": {f"d{d}": 1 for d in range(0, 1000, 10)} for q in range(args.rows // 1000)}
    timings = {"C++ reads the items (evaluate_run)": [], "Python reads them into columns": []}
    for _ in range(args.repeats):
        start = time.perf_counter()
        evalcore.evaluate_run(qrels, rows(args.rows), ["AP", "nDCG@10"], threads=2)
        timings["C++ reads the items (evaluate_run)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        python_columns(qrels, args.rows)
        timings["Python reads them into columns"].append(time.perf_counter() - start)
    for name, values in timings.items():
        print(f"{name}: median {statistics.median(values):.3f} s over {len(values)} runs ({args.rows:,} rows)")


if __name__ == "__main__":
    main()
