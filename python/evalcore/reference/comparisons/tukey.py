"""Pure-Python twin of cpp/stats/tukey.cpp, the randomized Tukey HSD's counts (issue 26),
from its definition in docs/compare.md: exact sums as Python integers and the counter-based
generator as Python arithmetic, so the counts agree with the native ones bit for bit."""

from __future__ import annotations

from typing import Iterator, List

import numpy as np

from .compare_runs import resample_key, splitmix64, units

TUKEY_DOMAIN = int.from_bytes(b"tukeyhsd", "big")  # 0x74756B6579687364


def _halves(key: int) -> Iterator[int]:
    """The stream's words as 32-bit halves, low half first."""
    k = 0
    while True:
        word = splitmix64(key, k)
        yield word & 0xFFFFFFFF
        yield word >> 32
        k += 1


def _below(halves: Iterator[int], bound: int) -> int:
    """An index in [0, bound) by Lemire's multiply-shift with rejection (as the bootstrap)."""
    threshold = (1 << 32) % bound
    while True:
        product = next(halves) * bound
        if (product & 0xFFFFFFFF) >= threshold:
            return product >> 32


def randomized_tukey(values: np.ndarray, seed: int, resamples: int, threads: int) -> List[int]:
    """Per pair (i < j), the resamples whose range of shuffled sums is at least |S_i − S_j|
    (threads is accepted and ignored)."""
    rows = [[units(x) for x in row] for row in values.tolist()]
    m, n = len(rows), len(rows[0]) if rows else 0
    if m < 2 or n < 1:
        raise ValueError("the randomized Tukey HSD needs two systems and a query")
    totals = [sum(row) for row in rows]
    observed = [abs(totals[i] - totals[j]) for i in range(m) for j in range(i + 1, m)]
    counts = [0] * len(observed)
    for r in range(resamples):
        halves = _halves(resample_key(seed, TUKEY_DOMAIN, r))
        sums = [0] * m
        for q in range(n):
            perm = list(range(m))
            for i in range(m - 1, 0, -1):  # Fisher–Yates: system s takes system perm[s]'s value
                j = _below(halves, i + 1)
                perm[i], perm[j] = perm[j], perm[i]
            for s in range(m):
                sums[s] += rows[perm[s]][q]
        spread = max(sums) - min(sums)
        for k, o in enumerate(observed):
            if spread >= o:
                counts[k] += 1
    return counts
