"""Pure-Python twins of cpp/runs/rank_measures.cpp: trec_eval 10's rank-based measures that read
the grade at each rank (num_nonrel_judged_ret, Rprec_mult, unj, rbp, rbp_resid, yaap, infAP),
with trec_eval's operations in its order, so the doubles are the native core's.

``rank_grades[r - 1]`` is the grade at rank r: None when the qrels do not list the document
(trec_eval's RELVALUE_NONPOOL), a negative grade when they list it unjudged (RELVALUE_UNJUDGED).
docs/measures.md defines each measure."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence

from .tie_average import group_means

INFAP_EPSILON = .00001  # trec_eval's


def _unjudged(grade: Optional[float]) -> bool:
    return grade is None or grade < 0


def num_nonrel_judged_ret(rank_grades: Sequence[Optional[float]], threshold: float) -> float:
    return float(sum(1 for g in rank_grades if g is not None and 0 <= g < threshold))


def rprec_mult(hits: List[int], n: int, relevant: int, multiple: float) -> float:
    """hits(min(c, n)) / c at c = (long)(multiple * R + 0.9); NaN when c is 0."""
    at = multiple * relevant + 0.9
    if not at >= 1:
        return math.nan
    cut = int(at)  # C's truncation (at >= 1)
    return hits[min(n, cut)] / cut


def unjudged_at(rank_grades: Sequence[Optional[float]], k: int) -> float:
    return sum(1 for g in rank_grades[:k] if _unjudged(g)) / k


def rbp_residual(rank_grades: Sequence[Optional[float]], p: float) -> float:
    total, weight, any_unjudged = 0.0, 1.0, False
    for grade in rank_grades:
        if _unjudged(grade):
            any_unjudged = True
            total += weight
        weight *= p
    return weight + (1 - p) * total if any_unjudged else 0.0


def rank_grade(rank_grades: Sequence[Optional[float]], k: int) -> float:
    """The grade at rank k; NaN if that document is unjudged or the ranking is shorter."""
    grade = rank_grades[k - 1] if k <= len(rank_grades) else None
    return math.nan if grade is None else float(grade)


def yaap(ap_sum: float, relevant: int) -> float:
    if relevant == 0:
        return math.nan
    return math.log((1.0 + ap_sum) / (1.0 + relevant - ap_sum))


def inferred_ap(rank_grades: Sequence[Optional[float]], threshold: float, relevant: int) -> float:
    if relevant == 0:
        return math.nan
    nonrelevant = relevant_so_far = pool_unjudged = 0
    total = 0.0
    for j, grade in enumerate(rank_grades):
        if grade is None:
            continue  # not in the pool
        if grade < 0:
            pool_unjudged += 1
            continue
        if grade < threshold:
            nonrelevant += 1
            continue
        relevant_so_far += 1
        if j == 0:
            total += 1.0
            continue
        fj = float(j)
        above = relevant_so_far - 1
        total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((above + nonrelevant + pool_unjudged) / fj) * (
            (above + INFAP_EPSILON) / (above + nonrelevant + 2 * INFAP_EPSILON))
    return total / relevant


def accuracy(rank_grades: Sequence[Optional[float]], depth: int, threshold: float) -> float:
    """Issue 25 item 4, ir_measures' Accuracy over the first ``depth`` ranks: 1 - S / (M A), A the
    relevant documents, M the others (unjudged ones among them), S the others above each relevant
    one, summed; NaN when A or M is 0."""
    relevant = others = others_above = 0
    for grade in rank_grades[:depth]:
        if grade is not None and grade >= threshold:
            relevant += 1
            others_above += others
        else:
            others += 1
    if relevant == 0 or others == 0:
        return math.nan
    return 1.0 - float(others_above) / (float(others) * float(relevant))


def f1(found: float, k: int, relevant: int) -> float:
    """Issue 25 item 4, ranx's f1 with ``found`` relevant documents in the top ``k`` (k: the
    cutoff, or N without one): 2 P R / (P + R), ranx's operations in its order; 0 when k or
    P + R is 0; NaN without relevant judgments (ranx: 0). ties="average" gives it the expected
    count (f1 is 2 found / (k + R), linear in it)."""
    if relevant == 0:
        return math.nan
    if k == 0:
        return 0.0
    p, rc = float(found) / float(k), float(found) / float(relevant)
    if p + rc == 0:
        return 0.0
    return 2 * ((p * rc) / (p + rc))


def ranx_rbp(rank_grades: Sequence[Optional[float]], threshold: float, p: float,
             bounds: Optional[List[int]] = None) -> float:
    """Issue 25 item 4, ranx's graded RBP: (1 - p) times the sum, in rank order, of each grade of
    at least ``threshold`` (others 0) times p ** (rank - 1). ``bounds``: ties="average"'s tied
    groups, each rank's term then its group's mean."""
    terms: List[float] = [grade if grade is not None and grade >= threshold else 0.0 for grade in rank_grades]
    if bounds is not None:
        terms = group_means(terms, bounds)
    total = 0.0
    for i, term in enumerate(terms):
        total += term * _power_by_squaring(p, i)
    return (1 - p) * total


def _power_by_squaring(base: float, exponent: int) -> float:
    """p ** i as ranx's numba-compiled ``p ** np.arange(n)`` computes it (not libm's pow)."""
    result = 1.0
    while True:
        if exponent & 1:
            result *= base
        exponent >>= 1
        if not exponent:
            return result
        base *= base
