"""Twin of cpp/runs/derived_measures.cpp: trec_eval 10's measures derived from the counts and
rankings the others read (gm_map, gm_bpref, utility, 11pt_avg, relative_P, set_relative_P,
set_map, num_q, runid), with trec_eval's operations in its order; NaN where trec_eval prints 0
for a query without a relevant judgment (or, for the set measures, an empty ranking)."""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Sequence

from ...runs.measures import MeasureSpec

#: The kinds (MEASURE_KINDS names) computed here.
DERIVED_KINDS = frozenset({"GMAP", "GMBpref", "Utility", "IPrecAvg", "RelP", "SetRelP", "SetMAP", "NumQ", "RunId"})

MIN_GEO_MEAN = 0.00001  # trec_eval's floor under the logarithm


def _lround(x: float) -> int:
    """C's lround: to the nearest integer, halves away from zero (x >= 0 here)."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole  # x - whole is exact


def derived_value(kind: str, spec: MeasureSpec, level: Any, rank_grades: List[Optional[float]],
                  bpref: Callable[[Any, List[Optional[float]]], float]) -> float:
    """One query's value of a derived kind; `level` is the reference's _Level of the
    measure's relevance level, `rank_grades` the ranking's grades (None: unjudged)."""
    n = len(rank_grades)
    r: int = level.relevant
    rr: int = level.hits[n]
    if kind == "NumQ":
        return 1.0
    if kind == "RunId":
        return 0.0
    if kind == "Utility":
        p = spec.parameters
        if len(p) != 4:
            return math.nan
        collection = 0  # trec_eval's -N, which evalcore does not take
        return p[0] * float(rr) + p[1] * float(n - rr) + p[2] * float(r - rr) + p[3] * float(collection + rr - n - r)
    if r == 0:
        return math.nan
    if kind == "GMAP":
        return math.log(max(level.ap_sum[n] / r, MIN_GEO_MEAN))
    if kind == "GMBpref":
        return math.log(max(bpref(level, rank_grades), MIN_GEO_MEAN))
    if kind == "IPrecAvg":
        return eleven_point_average(level, spec.parameters, n) if spec.parameters else math.nan
    if kind == "RelP":
        k = spec.cutoff
        hits: int = level.hits[min(n, k)]
        return hits / float(r if k > r else k)
    if n == 0:
        return math.nan
    if kind == "SetRelP":
        return rr / float(min(n, r))
    return (float(rr) * float(rr)) / (float(n) * float(r))  # SetMAP


def eleven_point_average(level: Any, points: Sequence[float], n: int) -> float:
    """trec_eval's 11pt_avg (m_11pt_avg.c): from the bottom of the ranking with the running
    maximum of precision, each point's value taken when its lround(x R)-th relevant document
    is reached, points from the last given down; the sum in that order over their number."""
    r: int = level.relevant
    rr: int = level.hits[n]
    cutoffs = [r + 1 if x * r > r + 1.0 else _lround(x * r) for x in points]
    current = len(points) - 1
    while current >= 0 and cutoffs[current] > rr:
        current -= 1
    precision = rr / n if n else math.nan  # trec_eval's 0 / 0 for an empty ranking
    interpolated = precision
    so_far = rr
    total = 0.0
    i = n
    while i > 0 and so_far > 0:
        precision = so_far / i
        if interpolated < precision:
            interpolated = precision
        if level.hits[i] != level.hits[i - 1]:
            while current >= 0 and so_far == cutoffs[current]:
                total += interpolated
                current -= 1
            so_far -= 1
        i -= 1
    while current >= 0:
        total += interpolated
        current -= 1
    return total / len(points)
