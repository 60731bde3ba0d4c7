"""Pure-Python twin of cpp/runs/tie_average.hpp and tie_measures.cpp (issue 25 item 3): the
grade orders of ties="optimistic" / "pessimistic", and ties="average", each measure's exact
expectation over every order of each tied group, with the same double operations in the
same order. docs/measures.md ("Ties") derives the formulas."""

from __future__ import annotations

import math
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

Grades = Sequence[Optional[float]]


def grade_order(order: List[int], scores: Sequence[float], docs: Sequence[bytes], grades: Sequence[Optional[float]],
                optimistic: bool) -> List[int]:
    """Score descending, then grade (unjudged below every grade) descending (optimistic) or
    ascending, then doc ID descending."""
    def key(i: int) -> Tuple[float, float, bytes]:
        grade = grades[i]
        g = -math.inf if grade is None or math.isnan(grade) else grade
        return (scores[i], g if optimistic else -g, docs[i])
    return sorted(order, key=key, reverse=True)


def tie_bounds(scores: Optional[Sequence[float]], ranked: Sequence[int]) -> List[int]:
    """Where each group of equal scores begins among the ranks, and their number."""
    n = len(ranked)
    bounds = [0]
    for r in range(1, n):
        if scores is None or scores[ranked[r]] != scores[ranked[r - 1]]:
            bounds.append(r)
    if n:
        bounds.append(n)
    return bounds


def _groups(bounds: List[int], depth: int) -> Iterator[Tuple[int, int]]:
    for g in range(len(bounds) - 1):
        start, end = bounds[g], bounds[g + 1]
        if start >= depth:
            return
        yield start, end


def _count(grades: Grades, start: int, end: int, counted: Callable[[Optional[float]], bool]) -> int:
    return sum(1 for r in range(start, end) if counted(grades[r]))


def relevant(threshold: float) -> Callable[[Optional[float]], bool]:
    """The predicate of a relevant grade at this level (unjudged: never)."""
    return lambda grade: grade is not None and grade >= threshold


def judged(grade: Optional[float]) -> bool:
    """Whether a rank holds a judged document."""
    return grade is not None


def expected_count(grades: Grades, bounds: List[int], depth: int, counted: Callable[[Optional[float]], bool]) -> float:
    """E[counted documents in the first `depth` ranks]: the hypergeometric mean j c / m in the
    group the cutoff falls in."""
    before = 0
    for start, end in _groups(bounds, depth):
        c = _count(grades, start, end, counted)
        if end <= depth:
            before += c
            continue
        j, m = depth - start, end - start
        return before + j * c / m
    return float(before)


def expected_success(grades: Grades, bounds: List[int], depth: int, threshold: float) -> float:
    """P(a relevant document in the first `depth` ranks)."""
    before = 0
    for start, end in _groups(bounds, depth):
        if before > 0:
            return 1.0
        c = _count(grades, start, end, relevant(threshold))
        if end <= depth:
            before += c
            continue
        if c == 0:
            return 0.0
        j, m = depth - start, end - start
        none = 1.0
        for i in range(j):
            if m - c - i <= 0:
                none = 0.0
                break
            none *= (m - c - i) / (m - i)
        return 1.0 - none
    return 1.0 if before > 0 else 0.0


def expected_reciprocal_rank(grades: Grades, bounds: List[int], depth: int, threshold: float) -> float:
    """E[1 / rank of the first relevant document, 0 past `depth`]."""
    for start, end in _groups(bounds, depth):
        c = _count(grades, start, end, relevant(threshold))
        if c == 0:
            continue
        m, j = end - start, min(end, depth) - start
        value, none = 0.0, 1.0
        for x in range(1, j + 1):
            probability = none * c / (m - x + 1)
            value += probability / (start + x)
            if m - c - x + 1 <= 0:
                break
            none *= (m - c - x + 1) / (m - x + 1)
        return value
    return 0.0


def expected_ap_sum(grades: Grades, bounds: List[int], depth: int, threshold: float) -> float:
    """E[sum over relevant ranks r <= depth of hits(r) / r]."""
    before, total = 0, 0.0
    for start, end in _groups(bounds, depth):
        c = _count(grades, start, end, relevant(threshold))
        m, j = end - start, min(end, depth) - start
        if c > 0:
            share = c / m
            for i in range(1, j + 1):
                inner = float(before + 1)
                if m > 1:
                    inner += (i - 1) * (c - 1) / (m - 1)
                total += share * inner / (start + i)
        before += c
    return total


def expected_dcg(bounds: List[int], depth: int, gains: Sequence[float], discounted: bool = True) -> float:
    """E[DCG at `depth`]: each rank's gain is its group's mean gain; without `discounted`, every
    discount is 1 (NCG's cumulated gain, issue 25 item 4)."""
    dcg = 0.0
    for start, end in _groups(bounds, depth):
        group_sum = 0.0
        for r in range(start, end):
            group_sum += gains[r]
        mean = group_sum / (end - start)
        for r in range(start, min(end, depth)):
            dcg += mean / math.log2(r + 2) if discounted else mean
    return dcg


def _satisfaction(grade: Optional[float]) -> float:
    if grade is None or not grade > 0:
        return 0.0
    return (math.pow(2.0, min(grade, 4.0)) - 1.0) / 16.0


def expected_err(grades: Grades, bounds: List[int], depth: int) -> float:
    """E[ERR at `depth`]: per group, (1 / m) sum over documents d of p(d) A(i - 1, others of d),
    A(k, S) the mean over k-subsets of S of the product of (1 - p), by a dynamic program."""
    value, reach = 0.0, 1.0
    for start, end in _groups(bounds, depth):
        m, j = end - start, min(end, depth) - start
        if m == 1:
            p = _satisfaction(grades[start])
            if p > 0:
                value += reach * p / (start + 1)
                reach *= 1.0 - p
            continue
        counts: Dict[float, int] = {}  # in order of first appearance
        for r in range(start, end):
            p = _satisfaction(grades[r])
            if p > 0:
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            continue
        weighted = [0.0] * j
        for value_p, count in counts.items():
            averages = [0.0] * j
            averages[0] = 1.0
            skipped, seen = False, 0
            for r in range(start, end):
                p = _satisfaction(grades[r])
                if not skipped and p == value_p:
                    skipped = True
                    continue
                seen += 1
                a = 1.0 - p
                for k in range(min(seen, j - 1), 0, -1):
                    averages[k] = (seen - k) / seen * averages[k] + k / seen * a * averages[k - 1]
            for i in range(j):
                weighted[i] += count * value_p * averages[i]
        for i in range(j):
            value += reach * (weighted[i] / m) / (start + i + 1)
        for r in range(start, end):
            p = _satisfaction(grades[r])
            if p > 0:
                reach *= 1.0 - p
    return value


# ---- issue 25 item 3, second round: trec_eval's measures (cpp/runs/tie_average_trec.cpp) --------


def unjudged(grade: Optional[float]) -> bool:
    """Whether a rank holds a document trec_eval's unj and rbp_resid count: not in the qrels, or
    a negative grade."""
    return grade is None or grade < 0


def group_means(values: Sequence[float], bounds: List[int]) -> List[float]:
    """Each rank's value replaced by the mean of its tied group's values (summed in rank order):
    E[the value at that rank] over the orders of the group."""
    means = list(values)
    for g in range(len(bounds) - 1):
        start, end = bounds[g], bounds[g + 1]
        total = 0.0
        for r in range(start, end):
            total += values[r]
        mean = total / (end - start)
        for r in range(start, end):
            means[r] = mean
    return means


def expected_bpref(grades: Grades, bounds: List[int], threshold: float, relevant_count: int,
                   judged_nonrelevant: int) -> float:
    """E[bpref]: a relevant document of a group with q judged non-relevant ones has each of 0..q
    of them above it with probability 1 / (q + 1)."""
    denominator = float(min(judged_nonrelevant, relevant_count))
    nonrelevant_above, total = 0, 0.0
    for g in range(len(bounds) - 1):
        c = q = 0
        for r in range(bounds[g], bounds[g + 1]):
            grade = grades[r]
            if grade is None or grade < 0:
                continue
            if grade < threshold:
                q += 1
            else:
                c += 1
        if c > 0:
            inner = 0.0
            for x in range(q + 1):
                above = nonrelevant_above + x
                inner += 1.0 - min(above, relevant_count) / denominator if above > 0 else 1.0
            total += c * inner / (q + 1)
        nonrelevant_above += q
    return total / relevant_count


def expected_rbp_residual(grades: Grades, bounds: List[int], p: float) -> float:
    """E[rbp_resid]: linear in whether each rank is unjudged (whether any is: every order's)."""
    shares = group_means([1.0 if unjudged(g) else 0.0 for g in grades], bounds)
    total, weight, any_unjudged = 0.0, 1.0, False
    for share in shares:
        if share != 0:
            any_unjudged = True
            total += share * weight
        weight *= p
    return weight + (1 - p) * total if any_unjudged else 0.0


def _accuracy_term(twice_s: int, others: int, relevant_count: int) -> float:
    """Accuracy with twice its pair count S (an integer; tie_average_trec.cpp's accuracy_term)."""
    if relevant_count == 0 or others == 0:
        return math.nan
    return 1.0 - (float(twice_s) / 2.0) / (float(others) * float(relevant_count))


def expected_accuracy(grades: Grades, bounds: List[int], depth: int, threshold: float) -> float:
    """Issue 25 item 3 (h25-ties3): ir_measures' Accuracy over the first `depth` ranks in
    expectation: c q / 2 inverted pairs in a whole group, the hypergeometric mixture over x
    (relevant documents above the cutoff) for the group it cuts; NaN where some order leaves no
    relevant or no other document there (tie_average.hpp's expected_accuracy)."""
    is_relevant = relevant(threshold)
    relevant_count = others = twice_s = 0
    for start, end in _groups(bounds, depth):
        c = _count(grades, start, end, is_relevant)
        m = end - start
        q = m - c
        if end <= depth:
            twice_s += 2 * c * others + c * q
            relevant_count += c
            others += q
            continue
        j = depth - start
        low, high = max(0, j - q), min(j, c)
        if relevant_count + low == 0 or others + j - high == 0:
            return math.nan
        mode = min(high, max(low, (j + 1) * (c + 1) // (m + 2)))
        weights = [0.0] * (high - low + 1)
        weights[mode - low] = 1.0
        for x in range(mode, high):
            weights[x + 1 - low] = weights[x - low] * float((c - x) * (j - x)) / float((x + 1) * (q - j + x + 1))
        for x in range(mode, low, -1):
            weights[x - 1 - low] = weights[x - low] * float(x * (q - j + x)) / float((c - x + 1) * (j - x + 1))
        total = value = 0.0
        for x in range(low, high + 1):
            w = weights[x - low]
            total += w
            value += w * _accuracy_term(twice_s + 2 * x * others + x * (j - x), others + j - x, relevant_count + x)
        return value / total
    return _accuracy_term(twice_s, others, relevant_count)
