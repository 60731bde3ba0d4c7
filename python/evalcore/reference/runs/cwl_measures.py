"""Twin of cpp/runs/cwl_measures.cpp: the C/W/L family (cwl_eval 1.0.12's RBP, INST, INSQ,
BPM, SDCG, NERR8-11) and its five figures with their residuals, in the native core's order
of operations (so the floats are equal)."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

from ...runs.cwl_names import CWL_CLIPPED_FIGURE, CWL_DEPTH


def _judged_gain(grade: float, min_rel: float, max_rel: float, rel: float) -> float:
    g = max(grade, 0.0)
    if rel > 0:
        return 1.0 if g >= rel else 0.0
    return (min(max(g, min_rel), max_rel) - min_rel) / (max_rel - min_rel)


def _squared(v: float) -> float:
    """v * v, as the core squares: ``v ** 2.0`` is the C library's pow, which glibc rounds to
    within 0.52 ulp, not always to v * v's double (INST(T=2) on grades 3, 2.25: 1 ulp apart)."""
    return v * v


def _continuation(kind: str, x: float, k: int, gains: List[float]) -> List[float]:
    c = []
    cumulative = 0.0
    gain_open = cost_open = True
    for i, gain in enumerate(gains):
        rank = float(i) + 1.0
        cumulative += gain
        if kind == "CwlRBP":
            ci = x
        elif kind == "CwlINST":
            remaining = x - cumulative
            ci = _squared((rank + x + remaining - 1.0) / (rank + x + remaining))
        elif kind == "CwlINSQ":
            ci = _squared((rank + 2.0 * x - 1.0) / (rank + 2.0 * x))
        elif kind == "CwlBPM":
            gain_open = gain_open and cumulative < x
            cost_open = cost_open and rank < float(k)
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


def _figures(kind: str, x: float, k: int, params: Sequence[float], rank_grades: Sequence[Optional[float]],
             unjudged_gain: float) -> Tuple[float, float, float, float, float]:
    _, min_rel, max_rel, rel = params
    gains = []
    for r in range(CWL_DEPTH):
        grade = rank_grades[r] if r < len(rank_grades) else None
        gains.append(unjudged_gain if grade is None else _judged_gain(grade, min_rel, max_rel, rel))
    c = _continuation(kind, x, k, gains)
    total, reach = 0.0, 1.0
    for ci in c:
        total += reach
        reach *= ci
    first = 1.0 / total
    eu = etu = ec = etc = cumulative = 0.0
    reach = 1.0
    for i, (gain, ci) in enumerate(zip(gains, c)):
        w = first if i == 0 else reach * first
        stop = reach * (1.0 - ci)
        cumulative += gain
        eu += w * gain
        etu += stop * cumulative
        ec += w
        etc += stop * (float(i) + 1.0)
        reach *= ci
    return eu, etu, ec, etc, 1.0 / first


def _clipped_grades(params: Sequence[float], rank_grades: Sequence[Optional[float]]) -> float:
    """The ranks (of the first CWL_DEPTH) whose judged grade graded gains clip."""
    _, min_rel, max_rel, rel = params
    if rel > 0:
        return 0.0
    low = max(min_rel, 0.0)
    count = 0.0
    for grade in rank_grades[:CWL_DEPTH]:
        if grade is not None and (grade < low or grade > max_rel):
            count += 1
    return count


def cwl_value(kind: str, x: float, k: int, params: Sequence[float], rank_grades: Sequence[Optional[float]]) -> float:
    """One figure (params[0]: 0-4 EU, ETU, EC, ETC, ED; 5-9 their residuals; 10 the count
    of clipped grades) of one query."""
    if len(params) != 4:
        return math.nan
    figure = params[0]
    index = int(figure) if 0 <= figure <= CWL_CLIPPED_FIGURE else 0
    if index == CWL_CLIPPED_FIGURE:
        return _clipped_grades(params, rank_grades)
    lower = _figures(kind, x, k, params, rank_grades, 0.0)
    if index < 5:
        return lower[index]
    upper = _figures(kind, x, k, params, rank_grades, 1.0)
    return upper[index - 5] - lower[index - 5]
