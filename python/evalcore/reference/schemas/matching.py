"""The matching of one document's entities, pure Python: the twin of cpp/schemas/matching.cpp,
step for step (the two count the same steps, so both refuse the same documents).

Two entities overlap as nervaluate's strategies see it (min_overlap_percentage=1): their
inclusive ranges meet and the common part is at least 1 % of the true entity's length,
``(common / true_length) * 100.0 >= 1.0`` in floating point. Each schema calls some
overlapping pairs correct (strict: same bounds and label; exact and partial: same bounds;
ent_type: same label) and the others incorrect (partial: partial). The matching is a set of
disjoint overlapping pairs with the most correct pairs and, among those, the most pairs: the
counts are the same for every such matching, whatever the order of the entities
(docs/schemas.md, "The matching")."""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from .reading import Entity

#: (correct, other) pairs of the strict, the bounds (exact and partial) and the ent_type matchings.
Pairs = List[List[int]]


class TooManySteps(Exception):
    """A document needs more than its step budget."""


class Steps:
    """The steps a document has taken, against its budget."""

    def __init__(self, limit: int) -> None:
        self.limit, self.taken = limit, 0

    def take(self, count: int = 1) -> None:
        self.taken += count
        if self.taken > self.limit:
            raise TooManySteps()


def _overlaps(p: Entity, t: Entity) -> bool:
    common = min(p[1], t[1]) - max(p[0], t[0]) + 1
    return (common / (t[1] - t[0] + 1)) * 100.0 >= 1.0


def overlapping_pairs(preds: Sequence[Entity], trues: Sequence[Entity], steps: Steps) -> List[Tuple[int, int, bool, bool]]:
    """Every overlapping (pred, true) pair as (pred, true, same bounds, same label), by pred
    then true position in start order; both lists sorted by (start, end, position). A sweep
    in start order (a pred before a true at the same start); one step per pair of ranges
    that meet."""
    edges = []
    active_p: List[int] = []
    active_t: List[int] = []
    i = j = 0
    while i < len(preds) or j < len(trues):
        if j == len(trues) or (i < len(preds) and preds[i][0] <= trues[j][0]):
            p = preds[i]
            active_t = [t for t in active_t if trues[t][1] >= p[0]]
            for t in active_t:
                steps.take()
                if _overlaps(p, trues[t]):
                    edges.append((i, t, p[0] == trues[t][0] and p[1] == trues[t][1], p[2] == trues[t][2]))
            active_p.append(i)
            i += 1
        else:
            t_entity = trues[j]
            active_p = [k for k in active_p if preds[k][1] >= t_entity[0]]
            for k in active_p:
                steps.take()
                if _overlaps(preds[k], t_entity):
                    edges.append((k, j, preds[k][0] == t_entity[0] and preds[k][1] == t_entity[1],
                                  preds[k][2] == t_entity[2]))
            active_t.append(j)
            j += 1
    edges.sort()
    return edges


def _best_matching(pairs: Sequence[Tuple[int, int]], correct: Sequence[bool], steps: Steps) -> Tuple[int, int]:
    """(correct, other) pairs of a maximum-weight matching of one component, a correct pair
    weighing more than all other pairs together: successive longest augmenting paths, each
    found by Bellman-Ford rounds over the pairs in order (one step a pair a round)."""
    preds = sorted({p for p, _ in pairs})
    trues = sorted({t for _, t in pairs})
    local_p = {p: k for k, p in enumerate(preds)}
    local_t = {t: k for k, t in enumerate(trues)}
    edges = [(local_p[p], local_t[t]) for p, t in pairs]
    heavy = min(len(preds), len(trues)) + 1
    weights = [heavy if c else 1 for c in correct]
    match_p, match_t = [-1] * len(preds), [-1] * len(trues)
    while True:
        gain_p = [0 if m < 0 else None for m in match_p]
        gain_t: List[object] = [None] * len(trues)
        via_t = [-1] * len(trues)
        changed = True
        while changed:
            changed = False
            for (p, t), w in zip(edges, weights):
                steps.take()
                if match_p[p] == t:  # back along the matched pair
                    g = gain_t[t]
                    if g is not None and (gain_p[p] is None or g - w > gain_p[p]):  # type: ignore[operator]
                        gain_p[p] = g - w  # type: ignore[operator]
                        changed = True
                else:
                    g = gain_p[p]
                    if g is not None and (gain_t[t] is None or g + w > gain_t[t]):  # type: ignore[operator]
                        gain_t[t], via_t[t] = g + w, p
                        changed = True
        best, gain = -1, 0
        for t, g in enumerate(gain_t):
            if match_t[t] < 0 and g is not None and g > gain:  # type: ignore[operator]
                best, gain = t, g  # type: ignore[assignment]
        if best < 0:
            break
        t = best
        for _ in range(len(preds) + len(trues)):
            p = via_t[t]
            previous = match_p[p]
            match_p[p], match_t[t] = t, p
            if previous < 0:
                break
            t = previous
        else:  # pragma: no cover - a longest path never revisits a vertex
            raise AssertionError("augmenting path did not end")
    heavy_pairs = sum(1 for (p, t), w in zip(edges, weights) if match_p[p] == t and w == heavy)
    all_pairs = sum(1 for p in match_p if p >= 0)
    return heavy_pairs, all_pairs - heavy_pairs


def _find(parent: List[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def match_scope(preds: List[Entity], trues: List[Entity], steps: Steps) -> Pairs:
    """(correct, other) pairs of the strict, bounds and ent_type matchings of these entities."""
    preds = sorted(preds, key=lambda e: (e[0], e[1], e[3]))
    trues = sorted(trues, key=lambda e: (e[0], e[1], e[3]))
    edges = overlapping_pairs(preds, trues, steps)
    parent = list(range(len(preds) + len(trues)))
    for p, t, _, _ in edges:
        a, b = _find(parent, p), _find(parent, len(preds) + t)
        if a != b:
            parent[max(a, b)] = min(a, b)
    components: Dict[int, List[Tuple[int, int, bool, bool]]] = {}
    for edge in edges:
        components.setdefault(_find(parent, edge[0]), []).append(edge)
    totals = [[0, 0], [0, 0], [0, 0]]
    for component in components.values():
        pairs = [(p, t) for p, t, _, _ in component]
        kinds = ([b and s for _, _, b, s in component], [b for _, _, b, _ in component], [s for _, _, _, s in component])
        for total, correct in zip(totals, kinds):
            if len(component) == 1:  # one pair: matched, nothing to choose
                steps.take()
                total[0 if correct[0] else 1] += 1
            else:
                c, o = _best_matching(pairs, correct, steps)
                total[0] += c
                total[1] += o
    return totals
