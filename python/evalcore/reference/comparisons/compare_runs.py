"""Pure-Python twin of :func:`evalcore.compare`: the same kernels as cpp/stats/, written
from their definitions in docs/compare.md (exact sums as Python integers, the counter-based
generator as Python arithmetic), so the results agree bit for bit. Slow; for differential
tests and for reading the definitions."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ...comparisons.procedure import GroupOutcome, PairedSummary, compare as _compare
from ...comparisons.comparison import Comparison
from ...comparisons.tukey_hsd import TukeyHsd, tukey_hsd_of_runs, tukey_hsd_of_values
from ..runs.evaluate import evaluate_run

# ---- the counter-based generator ------------------------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
SIGN_FLIP_DOMAIN = int.from_bytes(b"signflip", "big")  # 0x7369676E666C6970
BOOTSTRAP_DOMAIN = int.from_bytes(b"bootstrp", "big")  # 0x626F6F7473747270


def mix64(z: int) -> int:
    """SplitMix64's output function."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix64(key: int, k: int) -> int:
    """The k-th output (k = 0, 1, ...) of SplitMix64 seeded with key."""
    return mix64((key + (k + 1) * GOLDEN_GAMMA) & MASK64)


def resample_key(seed: int, domain: int, r: int) -> int:
    """The key of resample r's stream: the r-th output of SplitMix64 seeded with seed ^ domain."""
    return splitmix64(seed ^ domain, r)


def sign_flips(seed: int, r: int, n: int) -> List[int]:
    """Resample r's sign bits for positions 0..n-1 (1: the difference is negated): bit
    i mod 64 of word i // 64 of its stream."""
    key = resample_key(seed, SIGN_FLIP_DOMAIN, r)
    words = [splitmix64(key, w) for w in range((n + 63) // 64)]
    return [(words[i >> 6] >> (i & 63)) & 1 for i in range(n)]


def bootstrap_indices(seed: int, r: int, n: int) -> List[int]:
    """Resample r's n draws from 0..n-1 (1 <= n < 2**32): the stream's words as 32-bit
    halves, low half first; a half u gives index (u·n) >> 32 unless (u·n) mod 2**32 is below
    2**32 mod n, when it is rejected and the next half is taken (Lemire)."""
    key = resample_key(seed, BOOTSTRAP_DOMAIN, r)
    threshold = (1 << 32) % n
    out: List[int] = []
    k = 0
    while len(out) < n:
        word = splitmix64(key, k >> 1)
        half = (word >> 32) if k & 1 else (word & 0xFFFFFFFF)
        k += 1
        product = half * n
        if (product & 0xFFFFFFFF) >= threshold:
            out.append(product >> 32)
    return out


# ---- exact sums --------------------------------------------------------------------------

_SCALE_BITS = 1074  # a finite double is an integer multiple of 2**-1074


def units(x: float) -> int:
    """x as an integer number of 2**-1074."""
    numerator, denominator = float.as_integer_ratio(x)
    return numerator << (_SCALE_BITS - (denominator.bit_length() - 1))


def rounded(total: int) -> float:
    """An integer number of 2**-1074 as the nearest double (ties to even; ±inf past the largest)."""
    try:
        return total / (1 << _SCALE_BITS)  # int / int is correctly rounded
    except OverflowError:
        return float("inf") if total > 0 else float("-inf")


# ---- the kernels -------------------------------------------------------------------------


def _signed_ranks(d: List[float], keep: bool) -> Tuple[int, int, int, bool, Tuple[int, ...]]:
    nonzero = [x for x in d if x != 0.0]
    order = sorted(range(len(nonzero)), key=lambda i: abs(nonzero[i]))
    ranks2 = [0] * len(nonzero)
    r_plus2 = tie_term = 0
    has_ties = False
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and abs(nonzero[order[j + 1]]) == abs(nonzero[order[i]]):
            j += 1
        for k in range(i, j + 1):  # average rank (i + 1 + j + 1) / 2, doubled
            ranks2[order[k]] = i + j + 2
            if nonzero[order[k]] > 0:
                r_plus2 += i + j + 2
        t = j - i + 1
        if t > 1:
            has_ties = True
            tie_term += t ** 3 - t
        i = j + 1
    return len(d) - len(nonzero), r_plus2, tie_term, has_ties, tuple(ranks2) if keep else ()


class _Reference:
    """The same kernels in Python."""

    @staticmethod
    def evaluate_run(qrels: Any, run: Any, measures: List[str], threads: int, **options: Any) -> Any:
        return evaluate_run(qrels, run, measures, threads=threads, **options)

    @staticmethod
    def paired_summaries(items: List[Tuple[np.ndarray, Optional[np.ndarray]]], ranks: bool,
                         threads: int) -> List[PairedSummary]:
        out = []
        for a, b in items:
            d = a.tolist() if b is None else [x - y for x, y in zip(a.tolist(), b.tolist())]  # binary64
            n = len(d)
            if n == 0:
                mean = ss = float("nan")
            else:
                mean = rounded(sum(units(x) for x in d)) / n
                squares = [(x - mean) * (x - mean) for x in d]
                ss = float("inf") if any(s == float("inf") for s in squares) else rounded(sum(units(s) for s in squares))
                if all(x == d[0] for x in d):  # no spread: not the squares of the mean's rounding
                    ss = 0.0
            zeros, r_plus2, tie_term, has_ties, ranks2 = _signed_ranks(d, n <= 50) if ranks else (0, 0, 0, False, ())
            out.append(PairedSummary(n, mean, ss, zeros, r_plus2, tie_term, has_ties, ranks2))
        return out

    @staticmethod
    def randomized_tukey(values: np.ndarray, seed: int, resamples: int, threads: int) -> List[int]:
        from .tukey import randomized_tukey  # its own module; it imports this one's generator
        return randomized_tukey(values, seed, resamples, threads)

    @staticmethod
    def resample(groups: List[Tuple[np.ndarray, List[Tuple[int, int]]]], seed: int, resamples: int, threads: int,
                 sign_flip: bool, bootstrap: bool) -> List[GroupOutcome]:
        out = []
        for values, pairs in groups:
            series = [[units(x) for x in row] for row in values.tolist()]
            n = len(series[0])
            totals = [sum(s) for s in series]
            pair_totals = [totals[a] - totals[b] for a, b in pairs]
            means = [rounded(t) / n for t in totals]
            deltas = [rounded(t) / n for t in pair_totals]
            flips: Optional[List[int]] = None
            boots: Optional[List[int]] = None
            boot_means: Optional[List[List[float]]] = None
            boot_deltas: Optional[List[List[float]]] = None
            if sign_flip:
                # Flipping position i negates its difference: the flipped sum is S − 2·F with F
                # the flipped positions' sum of differences, F = F(run) − F(baseline).
                flips = [0] * len(pairs)
                for r in range(resamples):
                    bits = sign_flips(seed, r, n)
                    flipped = [sum(v for v, bit in zip(s, bits) if bit) for s in series]
                    for k, (a, b) in enumerate(pairs):
                        if abs(pair_totals[k] - 2 * (flipped[a] - flipped[b])) >= abs(pair_totals[k]):
                            flips[k] += 1
            if bootstrap:
                boots = [0] * len(pairs)
                means_of: List[List[float]] = [[] for _ in series]
                deltas_of: List[List[float]] = [[] for _ in pairs]
                for r in range(resamples):
                    draws = bootstrap_indices(seed, r, n)
                    sums = [sum(s[i] for i in draws) for s in series]
                    for s, total in enumerate(sums):
                        means_of[s].append(rounded(total) / n)
                    for k, (a, b) in enumerate(pairs):
                        difference = sums[a] - sums[b]
                        deltas_of[k].append(rounded(difference) / n)
                        if abs(difference - pair_totals[k]) >= abs(pair_totals[k]):
                            boots[k] += 1
                boot_means = [sorted(x) for x in means_of]  # stable, as the native sort
                boot_deltas = [sorted(x) for x in deltas_of]
            out.append(GroupOutcome(means, deltas, flips, boots, boot_means, boot_deltas))
        return out


def compare(
    qrels: Any,
    runs: Mapping[str, Any],
    measures: Union[str, Sequence[str]],
    *,
    baseline: Optional[str] = None,
    tests: Union[str, Sequence[str]] = ("t", "randomization"),
    intervals: Union[str, Sequence[str]] = ("t",),
    correction: str = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int = 0,
    threads: Optional[int] = None,
    tukey: Union[str, Sequence[str]] = (),
    **evaluate_run_options: Any,
) -> Comparison:
    """Same signature and result as :func:`evalcore.compare`, bit for bit (threads is
    accepted and ignored by the kernels: the reference runs on one)."""
    return _compare(_Reference, qrels, runs, measures, baseline=baseline, tests=tests, intervals=intervals,
                    correction=correction, alpha=alpha, confidence=confidence, resamples=resamples, seed=seed,
                    threads=threads, evaluation_options=evaluate_run_options, tukey=tukey)


def tukey_hsd(qrels: Any, runs: Mapping[str, Any], measure: str, *, kind: str = "randomized", alpha: float = 0.05,
              resamples: int = 10_000, seed: int = 0, threads: Optional[int] = None,
              **evaluate_run_options: Any) -> TukeyHsd:
    """Same signature and result as :func:`evalcore.tukey_hsd`, bit for bit."""
    return tukey_hsd_of_runs(_Reference, qrels, runs, measure, kind=kind, alpha=alpha, resamples=resamples, seed=seed,
                             threads=threads, evaluation_options=evaluate_run_options)


def tukey_hsd_values(values: Mapping[str, Mapping[str, float]], *, kind: str = "randomized", alpha: float = 0.05,
                     resamples: int = 10_000, seed: int = 0, threads: Optional[int] = None) -> TukeyHsd:
    """Same signature and result as :func:`evalcore.tukey_hsd_values`, bit for bit."""
    return tukey_hsd_of_values(_Reference, values, kind=kind, alpha=alpha, resamples=resamples, seed=seed,
                               threads=threads)
