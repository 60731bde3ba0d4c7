"""Per-call cost of evaluate_run on small TREC files (examples/trec, 5 KB): fixed costs
(buffers, threads), not parsing, decide it.

Three figures, each a median:
  * in one process, --calls calls (default 200) after a warm-up call;
  * the same with MALLOC_MMAP_THRESHOLD_=131072 (glibc then maps every allocation above
    128 KiB afresh instead of raising its threshold after the first free: what a process
    sees whenever a large buffer is not recycled from its heap);
  * the first file call of a fresh process (--processes of them, default 30).

Run from the repository root with evalcore installed:
  python bench/bench_small_trec.py [--calls N] [--processes N] [--evalcore DIR]
--evalcore DIR measures the package in DIR/evalcore (another build, its _core module
beside it) instead of the installed one: before/after comparisons.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QRELS = os.path.join(ROOT, "examples", "trec", "qrels.txt")
RUN = os.path.join(ROOT, "examples", "trec", "run.txt")
MEASURES = ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100"]


def timed_calls(calls: int, threads) -> list:
    import evalcore

    evalcore.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, ["P@1"])  # the module loaded, no file yet
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        evalcore.evaluate_run(QRELS, RUN, MEASURES, threads=threads)
        times.append((time.perf_counter() - start) * 1e3)
    return times


PACKAGE_DIR = None  # --evalcore


def child(calls: int, threads, env=None) -> list:
    code = f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); "
    if PACKAGE_DIR:  # an editable install's finder would win over sys.path: drop it
        code += "sys.meta_path = [f for f in sys.meta_path if 'editable' not in type(f).__module__]; " \
                f"sys.path.insert(0, {PACKAGE_DIR!r}); "
    code += f"import bench_small_trec as b; print(*b.timed_calls({calls}, {threads!r}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, **(env or {})))
    return [float(x) for x in out.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--processes", type=int, default=30)
    parser.add_argument("--evalcore", metavar="DIR", help="measure DIR/evalcore instead of the installed package")
    args = parser.parse_args()
    global PACKAGE_DIR
    PACKAGE_DIR = os.path.abspath(args.evalcore) if args.evalcore else None
    sizes = f"{os.path.getsize(QRELS):,} + {os.path.getsize(RUN):,} bytes"
    print(f"examples/trec ({sizes}); ms per call, median; evalcore from {PACKAGE_DIR or 'the installed package'}")
    fixed = {"MALLOC_MMAP_THRESHOLD_": "131072"}
    for threads in (1, None):
        steady = statistics.median(child(args.calls + 1, threads)[1:])
        mapped = statistics.median(child(args.calls + 1, threads, fixed)[1:])
        first = statistics.median([child(1, threads)[0] for _ in range(args.processes)])
        print(f"  threads={threads}: {steady:.3f} in one process ({args.calls} calls), {mapped:.3f} with "
              f"MALLOC_MMAP_THRESHOLD_=131072, {first:.3f} as a fresh process's first call ({args.processes} processes)")


if __name__ == "__main__":
    main()
