"""Tukey's honestly significant difference over all pairs of a call's runs (issue 26), one
family for the whole set of systems, shared by the native API and the reference (each
brings its own ``randomized_tukey`` kernel).

- ``"randomized"``: the randomized Tukey HSD (Carterette 2012, "Multiple testing in
  statistical analysis of systems-based information retrieval experiments"; Sakai's
  recommended practice for IR): per resample, each query's values are shuffled among the
  systems, and the range of the systems' means is recorded; a pair's p-value is
  (count + 1) / (resamples + 1), count the resamples whose range is at least the pair's
  observed |difference|. The shuffles come from the counter-based generator of
  docs/compare.md (domain ``"tukeyhsd"``), so the reference reproduces them bit for bit.
- ``"classic"``: Tukey's HSD of a one-way analysis of variance with the runs as groups and
  the queries as observations, as statsmodels' ``pairwise_tukeyhsd`` computes it (the
  studentized range distribution from scipy, which this kind imports when it is asked for).

Both use the queries where every run of the call has the measure; the others are dropped
and counted.
"""

from __future__ import annotations

import importlib
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

KINDS = ("randomized", "classic")


def _classic(matrix: np.ndarray, alpha: float) -> Tuple[List[float], List[float], List[Tuple[float, float]], List[bool]]:
    """(q statistics, p-values, intervals) per pair (i < j), as statsmodels' tukeyhsd: the
    pooled within-run variance with m·n − m degrees of freedom, the pair's standard error
    sqrt(var/2 · (1/n + 1/n)), p = studentized_range.sf(|q|, m, df), the interval
    difference ± studentized_range.ppf(1 − alpha, m, df) · standard error, and the
    decision q > that quantile (statsmodels' reject)."""
    try:  # (by name: scipy is optional and untyped)
        studentized_range: Any = importlib.import_module("scipy.stats").studentized_range
    except ImportError:
        raise ImportError("tukey='classic' needs scipy (pip install scipy); tukey='randomized' does not") from None
    m, n = matrix.shape
    # statsmodels' order of operations (MultiComparison.tukeyhsd over GroupsStats): sums by
    # np.bincount, deviations from the group means, np.var with ddof = m, the pairs' variance
    # var · ((1/n + 1/n) / 2), differences mean_j − mean_i.
    values, labels = matrix.ravel(), np.repeat(np.arange(m), n)
    means = np.bincount(labels, weights=values) / np.bincount(labels)
    df = m * n - m
    variance = float(np.var(values - means[labels], ddof=m))
    rows, cols = np.triu_indices(m, 1)
    differences = means[cols] - means[rows]
    std_pairs = np.sqrt(variance * ((1.0 / n + 1.0 / n) / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        statistics = np.abs(differences) / std_pairs
    q_crit = float(studentized_range.ppf(1 - alpha, m, df))
    pvalues = [float(p) for p in studentized_range.sf(statistics, m, df)]
    half = std_pairs * q_crit
    return ([float(x) for x in statistics], pvalues, [(float(d - half), float(d + half)) for d in differences],
            [bool(x > q_crit) for x in statistics])


def groups(names: Sequence[str], means: Sequence[float], significant: Dict[Tuple[int, int], bool]) -> List[List[str]]:
    """The groups of runs that are not significantly different from each other: with the
    runs sorted by mean (highest first, ties in the given order), each maximal stretch of
    consecutive runs of which no two differ significantly (the bars of the usual
    display); a run in no stretch with another is a group of its own."""
    order = sorted(range(len(names)), key=lambda i: (-means[i] if not math.isnan(means[i]) else math.inf, i))
    stretches: List[Tuple[int, int]] = []
    for start in range(len(order)):
        end = start
        while end + 1 < len(order) and not any(
                significant[tuple(sorted((order[k], order[end + 1])))] for k in range(start, end + 1)):  # type: ignore[index]
            end += 1
        if not stretches or end > stretches[-1][1]:
            stretches.append((start, end))
    return [[names[order[k]] for k in range(a, b + 1)] for a, b in stretches]


def tukey_hsd(backend: Any, names: List[str], matrix: np.ndarray, kinds: Sequence[str], options: Any, dropped: int,
              means: List[float]) -> Dict[str, Any]:
    """One measure's Tukey HSD results: queries used and dropped, and per kind each pair
    (baseline the earlier run, as compare's pairs) with its difference of means, p-value and
    decision at the call's alpha, and the groups."""
    m, n = matrix.shape
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    out: Dict[str, Any] = {"queries": n, "dropped": dropped}
    for kind in kinds:
        extra: List[Dict[str, Any]] = [{} for _ in pairs]
        reject: Optional[List[bool]] = None
        if n == 0 or (kind == "classic" and n < 2):
            pvalues = [math.nan] * len(pairs)
        elif kind == "randomized":
            counts = backend.randomized_tukey(matrix, options.seed, options.resamples, options.threads)
            pvalues = [(c + 1) / (options.resamples + 1.0) for c in counts]
            extra = [{"count": c} for c in counts]
        else:
            statistics, pvalues, intervals, reject = _classic(matrix, options.alpha)
            extra = [{"statistic": s, "low": lo, "high": hi} for s, (lo, hi) in zip(statistics, intervals)]
        significant = {pair: (reject[k] if reject is not None else (not math.isnan(p)) and p <= options.alpha)
                       for k, (pair, p) in enumerate(zip(pairs, pvalues))}
        out[kind] = {
            "pairs": [{"run": names[j], "baseline": names[i], "delta": means[j] - means[i], "p": p,
                       "significant": significant[(i, j)], **e} for (i, j), p, e in zip(pairs, pvalues, extra)],
            "groups": groups(names, means, significant),
        }
    return out
