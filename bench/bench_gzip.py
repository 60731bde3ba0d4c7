"""Throughput of gzip-compressed runs: evaluate_run on a ~100 MB run file, plain and as
*.gz, and the decompression to a temporary copy alone (evalcore.runs.sources), which is
what a .gz file costs on top of the plain one.

    python bench/bench_gzip.py [--folder DIR] [--repeats N] [--queries N]

The run is bench/run_generators.write_big_trec's (fixed-width lines of 38 bytes, grouped
by query, 100 documents per query); 27,600 queries make 104.9 MB. Reports the median of
N timed calls (default 3) after a warm-up, and MB/s of decompressed (plain) bytes.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import evalcore  # noqa: E402
from evalcore.runs.sources import open_regular, spooled_copy  # noqa: E402
from run_generators import write_big_trec  # noqa: E402

MEASURES = ["P@10", "AP@100", "nDCG@10"]


def timed(function, repeats: int) -> float:
    function()  # warm-up (page cache, imports)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", default=os.path.join(tempfile.gettempdir(), "evalcore-bench-gzip"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--queries", type=int, default=27_600)
    args = parser.parse_args()
    qrels, run = write_big_trec(args.folder, queries=args.queries, retrieved=100, judgments=10)
    packed = run + ".gz"
    if not os.path.exists(packed):
        with open(run, "rb") as source, gzip.open(packed + ".part", "wb", compresslevel=6) as target:
            shutil.copyfileobj(source, target, 1 << 20)
        os.replace(packed + ".part", packed)
    size = os.path.getsize(run) / 1e6
    print(f"run: {size:.1f} MB plain, {os.path.getsize(packed) / 1e6:.1f} MB gzip -6; {args.queries:,} queries")

    def decompress() -> None:
        with open(packed, "rb", opener=open_regular) as handle, spooled_copy(handle, packed, decompress=True):
            pass

    figures = {
        "evaluate_run, plain file": timed(lambda: evalcore.evaluate_run(qrels, run, MEASURES), args.repeats),
        "evaluate_run, .gz file": timed(lambda: evalcore.evaluate_run(qrels, packed, MEASURES), args.repeats),
        "decompression to the temporary copy alone": timed(decompress, args.repeats),
    }
    for what, seconds in figures.items():
        print(f"{what:45s} {seconds:7.3f} s  {size / seconds:7.1f} MB/s of plain text")


if __name__ == "__main__":
    main()
