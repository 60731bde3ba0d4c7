"""Benchmark the randomized Tukey HSD (issue 26): evalcore's native kernel against its
pure-Python reference, and against a numpy loop a user writes (per resample, shuffle each
query's row with rng.permuted, take the range of the column means). Seeded uniform values,
--systems x --queries; each timed --repeats times (the reference and numpy --slow-repeats
times, with --slow-resamples); medians, and ratios per resample from the same run.

Unfavourable input for the native kernel: values spread over many binades (so the fixed
point needs its wide form), --spread.

    python bench/bench_tukey.py [--systems 30] [--queries 250] [--resamples 10000] [--threads 2]
                                [--slow-resamples 100] [--repeats 5] [--slow-repeats 3] [--spread]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import median_time  # noqa: E402

from evalcore.comparisons.compare_runs import _Native
from evalcore.reference.comparisons.compare_runs import _Reference


def _numpy_counts(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    means = values.mean(axis=1)
    observed = np.abs(means[:, None] - means[None, :])
    counts = np.zeros_like(observed, dtype=np.int64)
    for _ in range(resamples):
        shuffled = rng.permuted(values, axis=0)
        column_means = shuffled.mean(axis=1)
        counts += (column_means.max() - column_means.min()) >= observed
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=30)
    parser.add_argument("--queries", type=int, default=250)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--slow-resamples", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--slow-repeats", type=int, default=3)
    parser.add_argument("--spread", action="store_true", help="values over many binades (the wide fixed point)")
    args = parser.parse_args()
    rng = np.random.default_rng(26)
    values = rng.random((args.systems, args.queries))
    if args.spread:
        values *= 2.0 ** rng.integers(-200, 200, size=values.shape)
    native = median_time(lambda: _Native.randomized_tukey(values, 0, args.resamples, args.threads), args.repeats)
    reference = median_time(lambda: _Reference.randomized_tukey(values, 0, args.slow_resamples, 1),
                                args.slow_repeats)
    numpy_loop = median_time(lambda: _numpy_counts(values, args.slow_resamples, 0), args.slow_repeats)
    assert _Native.randomized_tukey(values, 0, 50, 1) == _Reference.randomized_tukey(values, 0, 50, 1)
    per = {"native": native / args.resamples, "reference": reference / args.slow_resamples,
           "numpy loop": numpy_loop / args.slow_resamples}
    print(f"{args.systems} systems x {args.queries} queries, {args.threads} threads"
          f"{', spread values' if args.spread else ''}")
    print(f"native   : {native:.3f} s for {args.resamples} resamples ({per['native'] * 1e6:.1f} us a resample)")
    for name in ("reference", "numpy loop"):
        print(f"{name:9}: {per[name] * 1e6:.1f} us a resample ({per[name] / per['native']:.1f}x native)")


if __name__ == "__main__":
    main()
