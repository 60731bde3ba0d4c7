"""What a progress= callback costs evaluate_run on a big run file: calls with progress=None
and with a callback that records each call, alternating in one process, medians.

Run from the repository root (the 100,000-query files are generated once into --data, as
bench_runs.py does):
  python bench/bench_progress.py [--repeats 7] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run_generators import write_big_trec  # noqa: E402

MEASURES = ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100"]


def main() -> int:
    import evalcore

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--data", default=os.path.join(tempfile.gettempdir(), "evalcore-bench-runs"))
    args = parser.parse_args()
    qrels, run = write_big_trec(args.data, queries=100_000)
    evalcore.evaluate_run(qrels, run, MEASURES)  # warm the page cache
    off, on, calls = [], [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        evalcore.evaluate_run(qrels, run, MEASURES)
        off.append(time.perf_counter() - start)
        start = time.perf_counter()
        evalcore.evaluate_run(qrels, run, MEASURES, progress=lambda done, total: calls.append(done))
        on.append(time.perf_counter() - start)
    size = os.path.getsize(run) / 1e6
    print(f"evaluate_run on a {size:.0f} MB run file, medians of {args.repeats} calls each, alternating:")
    print(f"  progress=None      {statistics.median(off):.3f} s")
    print(f"  progress=callback  {statistics.median(on):.3f} s  ({len(calls) / args.repeats:.0f} calls a run)")
    print(f"  ratio on / off     {statistics.median(on) / statistics.median(off):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
