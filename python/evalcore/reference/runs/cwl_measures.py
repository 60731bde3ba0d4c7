"""Twin of cpp/runs/cwl_measures.cpp: the C/W/L family (cwl_eval 1.0.12's RBP, INST, INSQ,
BPM static and dynamic, SDCG, NERR8-11) and its five figures with their residuals, in the
native core's order of operations (so the floats are equal)."""

from __future__ import annotations

import math
from typing import List, NamedTuple, Optional, Sequence, Tuple

#: The C/W/L kinds whose continuation reads no gain: ties="average" takes them (cwl_measures.hpp's
#: is_cwl_linear_in_gains; issue 25 item 3, h25-ties3).
CWL_LINEAR_KINDS = frozenset({"CwlRBP", "CwlINSQ", "CwlSDCG"})

from ...runs.cwl_names import CWL_CLIPPED_FIGURE, CWL_MAX_DEPTH, CWL_PARAMETER_COUNT


class _Model(NamedTuple):
    min_rel: float
    max_rel: float
    rel: float
    depth: int
    raw: bool  # cwl_eval's reading of gains (max_gain=): clipped to [0, max_rel], not scaled
    cost: float  # NaN: the ranked items' cost is unknown
    max_cost: float
    min_cost: float
    hb: float
    hc: float
    gain_med: float


def _model(params: Sequence[float]) -> _Model:
    return _Model(params[1], params[2], params[3], int(params[4]), params[5] > 0, *params[6:12])


def _judged_gain(grade: float, m: _Model) -> float:
    g = max(grade, 0.0)
    if m.rel > 0:
        return 1.0 if g >= m.rel else 0.0
    clipped = min(max(g, m.min_rel), m.max_rel)
    return clipped if m.raw else (clipped - m.min_rel) / (m.max_rel - m.min_rel)


def _squared(v: float) -> float:
    """v * v, as the core squares: ``v ** 2.0`` is the C library's pow, which glibc rounds to
    within 0.52 ulp, not always to v * v's double (INST(T=2) on grades 3, 2.25: 1 ulp apart)."""
    return v * v


def _continuation(kind: str, x: float, k: int, m: _Model, gains: List[float], costs: List[float]) -> List[float]:
    c = []
    cumulative = cumulative_cost = 0.0
    target = x  # the dynamic BPM's T, moved by each gain read while under it
    gain_open = cost_open = True
    for i, gain in enumerate(gains):
        rank = float(i) + 1.0
        cumulative += gain
        cumulative_cost += costs[i]
        if kind == "CwlRBP":
            ci = x
        elif kind == "CwlINST":
            remaining = x - cumulative
            ci = _squared((rank + x + remaining - 1.0) / (rank + x + remaining))
        elif kind == "CwlINSQ":
            ci = _squared((rank + 2.0 * x - 1.0) / (rank + 2.0 * x))
        elif kind in ("CwlBPM", "CwlBPMD"):
            gain_open = gain_open and cumulative < target
            if gain_open and kind == "CwlBPMD":
                target = target + m.hb * (gain - m.gain_med)
            cost_open = cost_open and cumulative_cost < float(k)  # K stays (cwl_eval's hc moves T)
            ci = 1.0 if gain_open and cost_open else 0.0
        elif kind == "CwlSDCG":
            ci = (math.log(rank + 1.0) / math.log(2.0)) / (math.log(rank + 2.0) / math.log(2.0)) if i + 1 < k else 0.0
        elif kind == "CwlNERR8":
            ci = 1.0 - gain if i + 1 < k else 0.0
        elif kind == "CwlNERR9":
            ci = (rank / (rank + 1.0)) * (1.0 - gain) if i + 1 < k else 0.0
        elif kind == "CwlNERR10":
            ci = x * (1.0 - gain)
        else:  # CwlNERR11
            ci = _squared((rank + 2.0 * x - 1.0) / (rank + 2.0 * x)) * (1.0 - gain)
        c.append(ci)
    return c


def _average_tied_gains(m: _Model, rank_grades: Sequence[Optional[float]], unjudged_gain: float, bounds: List[int],
                        gains: List[float]) -> None:
    """ties="average": each of the first depth ranks' gain replaced by its tied group's mean
    gain, the group summed whole in rank order (cwl_measures.cpp's average_tied_gains)."""
    depth = len(gains)
    for g in range(len(bounds) - 1):
        start, end = bounds[g], bounds[g + 1]
        if start >= depth:
            break
        total = 0.0
        for r in range(start, end):
            grade = rank_grades[r]
            total += unjudged_gain if grade is None else _judged_gain(grade, m)
        mean = total / float(end - start)
        for r in range(start, min(end, depth)):
            gains[r] = mean


def _figures(kind: str, x: float, k: int, m: _Model, rank_grades: Sequence[Optional[float]],
             upper: bool, bounds: List[int]) -> Tuple[float, float, float, float, float]:
    unjudged_gain = (m.max_rel if m.raw else 1.0) if upper else 0.0
    unknown_cost = m.min_cost if upper else m.max_cost
    ranked_cost = unknown_cost if math.isnan(m.cost) else m.cost
    gains, costs = [], []
    for r in range(m.depth):
        grade = rank_grades[r] if r < len(rank_grades) else None
        gains.append(unjudged_gain if grade is None else _judged_gain(grade, m))
        costs.append(ranked_cost if r < len(rank_grades) else unknown_cost)
    if bounds:
        _average_tied_gains(m, rank_grades, unjudged_gain, bounds, gains)
    c = _continuation(kind, x, k, m, gains, costs)
    total, reach = 0.0, 1.0
    for ci in c:
        total += reach
        reach *= ci
    first = 1.0 / total
    eu = etu = ec = etc = cumulative = cumulative_cost = 0.0
    reach = 1.0
    for i, (gain, cost, ci) in enumerate(zip(gains, costs, c)):
        w = first if i == 0 else reach * first
        stop = reach * (1.0 - ci)
        cumulative += gain
        cumulative_cost += cost
        eu += w * gain
        etu += stop * cumulative
        ec += w * cost
        etc += stop * cumulative_cost
        reach *= ci
    return eu, etu, ec, etc, 1.0 / first


def _clipped_grades(m: _Model, rank_grades: Sequence[Optional[float]], bounds: List[int]) -> float:
    """The ranks (of the first `depth`, and with ties the rest of the group it cuts) whose
    judged grade graded gains clip."""
    if m.rel > 0:
        return 0.0
    low = max(m.min_rel, 0.0)
    read = min(len(rank_grades), m.depth)
    for g in range(len(bounds) - 1):
        if bounds[g] < read < bounds[g + 1]:
            read = min(len(rank_grades), bounds[g + 1])
    count = 0.0
    for grade in rank_grades[:read]:
        if grade is not None and (grade < low or grade > m.max_rel):
            count += 1
    return count


def cwl_value(kind: str, x: float, k: int, params: Sequence[float], rank_grades: Sequence[Optional[float]],
              bounds: Optional[List[int]] = None) -> float:
    """One figure (params[0]: 0-4 EU, ETU, EC, ETC, ED; 5-9 their residuals; 10 the count
    of clipped grades) of one query; with `bounds` (ties="average"'s tied groups, for a kind of
    CWL_LINEAR_KINDS), its expectation over the orders of each group."""
    bounds = bounds or []
    if len(params) != CWL_PARAMETER_COUNT:
        return math.nan
    if not 1 <= params[4] <= CWL_MAX_DEPTH:  # (as the core: NaN fails too)
        return math.nan
    m = _model(params)
    figure = params[0]
    index = int(figure) if 0 <= figure <= CWL_CLIPPED_FIGURE else 0
    if index == CWL_CLIPPED_FIGURE:
        return _clipped_grades(m, rank_grades, bounds)
    lower = _figures(kind, x, k, m, rank_grades, False, bounds)
    if index < 5:
        return lower[index]
    upper = _figures(kind, x, k, m, rank_grades, True, bounds)
    return upper[index - 5] - lower[index - 5]
