"""Twin of cpp/runs/compat_measure.cpp (issue 25 item 4): Clarke et al.'s compatibility as
ir_measures' compat provider computes it, with the core's operations in its order."""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence


def compatibility(judged_docs: Sequence[bytes], grades: Sequence[float], ranked: Sequence[bytes],
                  score_keys: Dict[bytes, float], unranked_key: float, p: float, normalize: bool) -> float:
    """RBO(p) of ``ranked`` with the ideal ranking (the documents judged above 0: grade descending,
    then ``score_keys`` descending, ``unranked_key`` for those not ranked, then judgment order), to
    the depth max(N, R), divided by the ideal's own when ``normalize``; NaN when the depth is 0."""
    ideal = [j for j in range(len(judged_docs)) if grades[j] > 0]
    ideal.sort(key=lambda j: (-grades[j], -score_keys.get(judged_docs[j], unranked_key), j))
    rank_of: Dict[bytes, int] = {}
    for r, doc in enumerate(ranked):
        rank_of.setdefault(doc, r)
    relevant, n = len(ideal), len(ranked)
    depth = max(n, relevant)
    if depth == 0:
        return math.nan
    settled = [0] * depth  # documents in both prefixes from this depth on
    for i, j in enumerate(ideal):
        rank: Optional[int] = rank_of.get(judged_docs[j])
        if rank is not None:
            settled[max(rank, i)] += 1
    score = best = normalizer = 0.0
    weight, overlap = 1.0, 0
    for i in range(depth):
        overlap += settled[i]
        score += weight * float(overlap) / float(i + 1)
        best += weight * float(min(i + 1, relevant)) / float(i + 1)
        normalizer += weight
        weight *= p
    value = score / normalizer
    if normalize:
        ideal_value = best / normalizer
        if ideal_value > 0.0:
            value = value / ideal_value
    return value


def compat_value(judged_docs: List[bytes], grades: List[float], docs: List[bytes], scores: Optional[List[float]],
                 order: List[int], p: float, normalize: bool) -> float:
    """Compat over the ranks read (``order``: input positions in rank order)."""
    ranked = [docs[i] for i in order]
    if scores is not None:
        keys = {docs[i]: scores[i] for i in order}
        return compatibility(judged_docs, grades, ranked, keys, 0.0, p, normalize)
    keys = {doc: -float(r) for r, doc in enumerate(ranked)}
    return compatibility(judged_docs, grades, ranked, keys, -math.inf, p, normalize)
