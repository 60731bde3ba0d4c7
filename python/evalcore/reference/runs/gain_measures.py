"""Pure-Python twin of cpp/runs/gain_measures.cpp: trec_eval 10's gain measures binG, G, dcg,
ideal_dcg, ndcg with gain parameters, ndcg_rel and Rndcg, the same operations in the same
order (so the same doubles). IEEE division and log2 are spelled out where C's give inf or
NaN and Python's would raise."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

from .tie_average import group_means, relevant as relevant_at

#: Levels past this one give NaN (cpp/runs/gain_measures.hpp max_trec_level).
MAX_TREC_LEVEL = float(1 << 20)
GAIN_KINDS = ("trec_binG", "trec_G", "trec_dcg", "trec_ideal_dcg", "trec_ndcg", "trec_ndcg_rel", "trec_Rndcg")


def trec_level(grade: Optional[float]) -> float:
    """A grade's level as trec_eval reads it: its integer part; -2 below 0; -1 unjudged (None)."""
    if grade is None or math.isnan(grade):
        return -1.0
    level = float(math.trunc(grade)) if math.isfinite(grade) else grade
    return -2.0 if level < 0 else level + 0.0


def _div(a: float, b: float) -> float:
    """C's a / b on doubles."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _log2(x: float) -> float:
    if x > 0:
        return math.log2(x)
    return -math.inf if x == 0 else math.nan


# An entry of the gain table: [level, count, gain].
Entry = List[float]


def _left_first(a: Entry, b: Entry) -> bool:
    """trec_eval's comparator (int)(a - b) <= 0, x86-64's conversion (INT_MIN out of range)."""
    difference = a[2] - b[2]
    return not (1.0 <= difference < 2147483648.0)


def _merge_sort(items: List[Entry]) -> List[Entry]:
    """glibc's qsort (msort.c): n / 2 and the rest, the left element unless it compares greater."""
    if len(items) <= 1:
        return items
    half = len(items) // 2
    left, right = _merge_sort(items[:half]), _merge_sort(items[half:])
    out: List[Entry] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if _left_first(left[i], right[j]):
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def _table(pairs: Sequence[Tuple[float, float]], grades: Sequence[float]) -> Optional[List[Entry]]:
    """gain_init.c's setup_gains (see the C++ build_table); None past MAX_TREC_LEVEL."""
    levels = [trec_level(g) for g in grades]
    if any(level > MAX_TREC_LEVEL for level in levels):
        return None
    highest = int(max(levels, default=-1.0))
    counts = [0] * (highest + 1)
    for level in levels:
        if level >= 0:
            counts[int(level)] += 1
    entries: List[Entry] = [[level, 0, gain] for level, gain in pairs]
    for i, count in enumerate(counts):
        for entry in entries:
            if entry[0] == i:
                entry[1] = count
                break
        else:
            entries.append([float(i), count, float(i)])
    return _merge_sort(entries)


def _get_gain(table: List[Entry], level: float) -> float:
    for entry in table:
        if entry[0] == level:
            return entry[2]
    return 0.0


class _Ideal:
    """The ideal ranking walked one rank at a time, from the highest gain down."""

    def __init__(self, table: List[Entry]) -> None:
        self.table = table
        self.level = len(table) - 1
        self.at_level = 0
        self.gain = table[-1][2] if table else 0.0

    def step(self) -> None:
        self.at_level += 1
        while self.level >= 0 and self.at_level > self.table[self.level][1]:
            self.at_level = 1
            self.level -= 1
            self.gain = self.table[self.level][2] if self.level >= 0 else 0.0


def _discount(i: int) -> float:
    return math.log2(i + 2)


def _bin_g(rank_grades: Sequence[Optional[float]], threshold: float, relevant: int) -> float:
    if relevant == 0:
        return math.nan
    so_far, total = 0, 0.0
    for i, grade in enumerate(rank_grades):
        if grade is not None and grade >= threshold:
            so_far += 1
            total += 1.0 / math.log2(3 + i - so_far)
    return total / relevant


def _expected_bin_g(rank_grades: Sequence[Optional[float]], threshold: float, relevant: int, bounds: List[int]) -> float:
    """ties="average": a relevant document of a group with `others` non-relevant ones has each of
    0..others of them above it with probability 1 / (others + 1)."""
    if relevant == 0:
        return math.nan
    nonrelevant_above, total, is_relevant = 0, 0.0, relevant_at(threshold)
    for g in range(len(bounds) - 1):
        start, end = bounds[g], bounds[g + 1]
        c = sum(1 for i in range(start, end) if is_relevant(rank_grades[i]))
        others = end - start - c
        if c > 0:
            inner = 0.0
            for x in range(others + 1):
                inner += 1.0 / math.log2(2 + nonrelevant_above + x)
            total += c * inner / (others + 1)
        nonrelevant_above += others
    return total / relevant


def _normalized_g(table: List[Entry], gains: List[float]) -> float:
    results_g = sum_results = sum_ideal = sum_cost = 0.0
    ideal = _Ideal(table)
    n, i = len(gains), 0
    while i < n and ideal.gain > 0.0:
        sum_results += gains[i]
        ideal.step()
        if ideal.gain > 0.0:
            sum_ideal += ideal.gain
        sum_cost += ideal.gain if ideal.gain >= 1.0 else 1.0
        if gains[i] != 0:
            results_g += _div(gains[i], _log2(2 + sum_cost - sum_results))
        i += 1
    while i < n:
        sum_results += gains[i]
        sum_cost += 1.0
        if gains[i] != 0:
            results_g += _div(gains[i], _log2(2 + sum_cost - sum_results))
        i += 1
    while ideal.gain > 0.0:
        ideal.step()
        if ideal.gain > 0.0:
            sum_ideal += ideal.gain
    # A discount of log2(x <= 1) (gains given to levels -1 and -2 only) makes the sum inf or
    # NaN: undefined, as a value no mean can take.
    value = results_g / sum_ideal if sum_ideal > 0.0 else math.nan
    return value if math.isfinite(value) else math.nan


def _dcg_family(kind: str, table: List[Entry], gains: List[float]) -> float:
    results_dcg = ideal_dcg = total = 0.0
    num_rel = num_rel_ret = 0
    ideal = _Ideal(table)
    n, i = len(gains), 0

    def add_ideal(at: int) -> None:
        nonlocal num_rel, ideal_dcg
        ideal.step()
        if ideal.gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal.gain / _discount(at)

    while i < n and ideal.gain > 0.0:
        if gains[i] != 0:
            results_dcg += gains[i] / _discount(i)
        add_ideal(i)
        if gains[i] > 0:
            total += _div(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while i < n:
        if gains[i] != 0:
            results_dcg += gains[i] / _discount(i)
        if gains[i] > 0:
            total += _div(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while ideal.gain > 0.0:
        add_ideal(i)
        i += 1
    if kind == "trec_dcg":
        return results_dcg
    if kind == "trec_ideal_dcg":
        return ideal_dcg
    if kind == "trec_ndcg":
        return results_dcg / ideal_dcg if ideal_dcg > 0.0 else math.nan
    return _ndcg_rel_value(total, num_rel, num_rel_ret, results_dcg, ideal_dcg)


def _ndcg_rel_value(total: float, num_rel: int, num_rel_ret: int, results_dcg: float, ideal_dcg: float) -> float:
    """ndcg_rel from its sum: the documents not retrieved count at the final dcg; inf (a document
    of positive gain met while the ideal dcg is 0): undefined, as in C++."""
    total += _div(float(num_rel - num_rel_ret) * results_dcg, ideal_dcg)
    if total > 0.0:
        value = _div(total, float(num_rel))
        return value if math.isfinite(value) else math.nan
    return math.nan if num_rel == 0 else 0.0


def _expected_ndcg_rel(table: List[Entry], gains: List[float], means: List[float], bounds: List[int]) -> float:
    """ties="average" for ndcg_rel with gains of 0 or more (the C++ expected_ndcg_rel): the term
    at rank i is E[[gain > 0] DCG(i)] / ideal(i) = ((P / m) D + S+ / (m d(i)) + (P S - S+) /
    (m (m - 1)) * the sum of 1 / d(k) over the group's ranks above i) / ideal(i)."""
    results_dcg = ideal_dcg = total = 0.0
    num_rel = num_rel_ret = 0
    ideal = _Ideal(table)
    n, i = len(gains), 0
    group = group_end = positive = 0
    share = positive_sum = cross = before = within = 0.0
    size = 1.0

    def add_result(at: int, with_ideal: bool) -> None:
        nonlocal results_dcg, ideal_dcg, total, num_rel, num_rel_ret, group, group_end, positive
        nonlocal share, positive_sum, cross, before, within, size
        if at == group_end:  # a new group: its counts, and the expected DCG above it
            start = bounds[group]
            group += 1
            group_end = bounds[group]
            positive, positive_sum, group_total = 0, 0.0, 0.0
            for r in range(start, group_end):
                group_total += gains[r]
                if gains[r] > 0:
                    positive += 1
                    positive_sum += gains[r]
            size = float(group_end - start)
            share = positive / size
            cross = (positive * group_total - positive_sum) / (size * (size - 1)) if size > 1 else 0.0
            before, within = results_dcg, 0.0
        if means[at] != 0:
            results_dcg += means[at] / _discount(at)
        if with_ideal:
            ideal.step()
            if ideal.gain > 0.0:
                num_rel += 1
                ideal_dcg += ideal.gain / _discount(at)
        if positive > 0:
            expected = share * before + positive_sum / (size * _discount(at))
            if size > 1:
                expected += cross * within
            total += _div(expected, ideal_dcg)
        if gains[at] > 0:
            num_rel_ret += 1
        within += 1.0 / _discount(at)

    while i < n and ideal.gain > 0.0:
        add_result(i, True)
        i += 1
    while i < n:
        add_result(i, False)
        i += 1
    while ideal.gain > 0.0:
        ideal.step()
        if ideal.gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal.gain / _discount(i)
        i += 1
    return _ndcg_rel_value(total, num_rel, num_rel_ret, results_dcg, ideal_dcg)


def _r_ndcg(table: List[Entry], gains: List[float]) -> float:
    results_dcg = ideal_dcg = total = 0.0
    changes = 0
    ideal = _Ideal(table)
    old_gain = ideal.gain
    n, i = len(gains), 0

    def at_change() -> None:
        nonlocal old_gain, total, changes
        if old_gain != ideal.gain:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old_gain = ideal.gain

    while i < n and ideal.gain > 0.0:
        ideal.step()
        at_change()
        if gains[i] != 0:
            results_dcg += gains[i] / _discount(i)
        if ideal.gain > 0.0:
            ideal_dcg += ideal.gain / _discount(i)
        i += 1
    if i < n:
        while i < n:
            if gains[i] != 0:
                results_dcg += gains[i] / _discount(i)
            i += 1
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            changes += 1
    while ideal.gain > 0.0:
        ideal.step()
        at_change()
        if ideal.gain > 0.0:
            ideal_dcg += ideal.gain / _discount(i)
        i += 1
    return _div(total, float(changes))  # trec_eval's 0 / 0 when nothing changed


def gain_measure(kind: str, pairs: Sequence[Tuple[float, float]], rank_grades: Sequence[Optional[float]],
                 grades: Sequence[float], threshold: float, relevant: int, bounds: Optional[List[int]] = None) -> float:
    """One query's value of a gain measure (`kind` one of GAIN_KINDS), NaN where trec_eval leaves
    its initial 0; `rank_grades` after -M and -J (None: unjudged). `bounds`: ties="average"'s
    tied groups (binG, dcg, ideal_dcg, ndcg and Rndcg give their expectation; G and ndcg_rel,
    refused with it, NaN)."""
    if kind == "trec_binG":
        return _bin_g(rank_grades, threshold, relevant) if bounds is None else \
            _expected_bin_g(rank_grades, threshold, relevant, bounds)
    table = _table(pairs, grades)
    if table is None:
        return math.nan
    gains = [_get_gain(table, trec_level(g)) for g in rank_grades]
    if bounds is not None:  # ties="average": each rank's gain is its group's mean gain
        if kind == "trec_G":
            return math.nan
        if kind == "trec_ndcg_rel":
            return _expected_ndcg_rel(table, gains, group_means(gains, bounds), bounds)
        gains = group_means(gains, bounds)
    if kind == "trec_G":
        return _normalized_g(table, gains)
    if kind == "trec_Rndcg":
        return math.nan if relevant == 0 else _r_ndcg(table, gains)
    return _dcg_family(kind, table, gains)


def rbp(pairs: Sequence[Tuple[float, float]], rank_grades: Sequence[Optional[float]], grades: Sequence[float],
        p: float, bounds: Optional[List[int]] = None) -> float:
    """m_rbp.c (see the C++ rbp_with_gains): the gain table rescaled to [0, 1] from a minimum and
    maximum starting at 0 when a gain is outside it; p^i weights multiplied rank by rank.
    `bounds`: ties="average"'s tied groups, each rank's gain then its group's mean gain."""
    table = _table(pairs, grades)
    if table is None:
        return math.nan
    low = high = 0.0
    for entry in table:
        if entry[2] < low:
            low = entry[2]
        if entry[2] > high:
            high = entry[2]
    if low < 0 or high > 1:
        table = [[entry[0], entry[1], (entry[2] - low) / (high - low)] for entry in table]
    total, weight = 0.0, 1.0
    gains = [_get_gain(table, trec_level(grade)) for grade in rank_grades]
    for gain in gains if bounds is None else group_means(gains, bounds):
        if gain != 0:
            total += gain * weight
        weight *= p
    return (1.0 - p) * total
