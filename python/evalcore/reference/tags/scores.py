"""seqeval's numbers, pure Python: the twin of cpp/tags/scores.cpp. Every float is computed
as seqeval's numpy code computes it (seqeval/metrics/v1.py _precision_recall_fscore_support
and _prf_divide; numpy's mean and average), so the results are equal bit for bit."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Set, Tuple


def pairwise_sum(values: Sequence[float], lo: int = 0, n: int = -1) -> float:
    """numpy's pairwise summation of float64 (what ``np.add.reduce`` does on a contiguous
    array): sequential below 8 values, eight running sums up to 128, halves above."""
    if n < 0:
        n = len(values)
    if n < 8:
        total = 0.0
        for k in range(lo, lo + n):
            total += values[k]
        return total
    if n <= 128:
        r = [values[lo + j] for j in range(8)]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += values[lo + i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            total += values[lo + i]
            i += 1
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values, lo, half) + pairwise_sum(values, lo + half, n - half)


def _divide(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0  # zero_division="warn": 0.0


def _f1(p: float, r: float) -> float:
    denominator = p + r
    return 2 * p * r / (denominator if denominator != 0.0 else 1.0)


def _mean(values: List[float]) -> float:
    return (0.0 + pairwise_sum(values)) / len(values) if values else float("nan")


def _row(p: float, r: float, f: float, support: int) -> Dict[str, Any]:
    return {"precision": p, "recall": r, "f1-score": f, "support": support}


def report(types: List[str], tp: List[int], predicted: List[int], supports: List[int]) -> Dict[str, Dict[str, Any]]:
    """seqeval's classification_report(output_dict=True) from the counts, type by type."""
    out: Dict[str, Dict[str, Any]] = {}
    precision = [_divide(t, n) for t, n in zip(tp, predicted)]
    recall = [_divide(t, n) for t, n in zip(tp, supports)]
    f1 = [_f1(p, r) for p, r in zip(precision, recall)]
    for k, name in enumerate(types):
        out[name] = _row(precision[k], recall[k], f1[k], supports[k])
    total_support = sum(supports)
    micro_p, micro_r = _divide(sum(tp), sum(predicted)), _divide(sum(tp), total_support)
    out["micro avg"] = _row(micro_p, micro_r, _f1(micro_p, micro_r), total_support)
    out["macro avg"] = _row(_mean(precision), _mean(recall), _mean(f1), total_support)
    if total_support == 0:  # seqeval's weighted average of no true chunk
        out["weighted avg"] = _row(0.0, 0.0, 0.0, 0)
    else:
        weights = [float(s) for s in supports]
        scale = pairwise_sum(weights)

        def weighted(values: List[float]) -> float:
            return (0.0 + pairwise_sum([v * w for v, w in zip(values, weights)])) / scale

        out["weighted avg"] = _row(weighted(precision), weighted(recall), weighted(f1), total_support)
    return out


def counts(true_chunks: List[Tuple[str, int, int]], pred_chunks: List[Tuple[str, int, int]]
           ) -> Tuple[List[str], List[int], List[int], List[int]]:
    """Types in order, and per type the chunks in both (exact match), predicted, true."""
    true_sets: Dict[str, Set[Tuple[int, int]]] = {}
    pred_sets: Dict[str, Set[Tuple[int, int]]] = {}
    for name, start, end in true_chunks:
        true_sets.setdefault(name, set()).add((start, end))
    for name, start, end in pred_chunks:
        pred_sets.setdefault(name, set()).add((start, end))
    types = sorted(set(true_sets) | set(pred_sets))
    tp = [len(true_sets.get(t, set()) & pred_sets.get(t, set())) for t in types]
    return types, tp, [len(pred_sets.get(t, ())) for t in types], [len(true_sets.get(t, ())) for t in types]
