"""Contested span groups: where a greedy matching falls short of the maximum one.

Two references A and B and two predictions P1 and P2 of one label: P1 is a candidate of
both references (an IoU of at least minimumIou), P2 of A only, and A is P1's best match
(the highest IoU of the group). A greedy matching, the pair of highest IoU first or each
prediction in order taking its best free reference (P1 before P2), pairs P1 with A and
leaves P2 without a candidate: one match. The maximum one-to-one matching of contract §3
pairs P1 with B and P2 with A: two.

Random spans in short texts seldom have this shape (about 1 % of the span inputs of
``span_prf(f, match="overlap")`` had it; docs/oracle.md), so span_documents and
span_requests put such a group into a share of the documents, on purpose.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from hypothesis import strategies as st

__all__ = ["CONTEST_IOU", "Shape", "contest_shape", "contested_spans", "extent", "shapes_for"]

Range = Tuple[int, int]
#: A, B, P1, P2 as (start, end) in character places from the group's first place.
Shape = Tuple[Range, Range, Range, Range]
Draw = Callable[..., Any]

#: The threshold the groups of span_documents are made for: the contract's default minimumIou.
CONTEST_IOU = 0.5
# The longest group, in characters: half the default texts (24 characters) and less.
_LONGEST = 12


def _iou(a: Range, b: Range) -> float:
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    return inter / ((a[1] - a[0]) + (b[1] - b[0]) - inter)  # one division, as the contract's


def _window(shape: Shape) -> Tuple[float, float]:
    """The thresholds t with low < t <= high at which the shape is contested: P1's
    candidates are A and B, P2's only A, and IoU(P1, A) is the group's highest (so that
    best-IoU-first takes it first, and P1 in order takes A)."""
    a, b, p1, p2 = shape
    best = _iou(p1, a)
    if not best > max(_iou(p1, b), _iou(p2, a)):
        raise AssertionError(f"not a contested shape: {shape}")  # the table below is wrong
    return _iou(p2, b), min(_iou(p1, b), _iou(p2, a))


def extent(shape: Shape) -> int:
    """How many characters the shape covers."""
    return max(e for _, e in shape)


def _shapes() -> List[Tuple[Shape, float, float]]:
    shapes: List[Shape] = []
    # nested: B is A less its last place, P1 a copy of A, P2 A less its first place;
    # contested at (n-2)/n < t <= (n-1)/n: up to 0.5 (n = 2), 0.75 (n = 4), 0.9 (n = 10)
    shapes += [((0, n), (0, n - 1), (0, n), (1, n)) for n in range(2, 13)]
    # crossing: A and B overlap by a part, P2 lies in A outside B (so it misses B at any t),
    # as they are and twice as long (the same IoUs, other lengths)
    for base in (((0, 4), (2, 4), (1, 4), (0, 2)), ((0, 5), (3, 6), (1, 6), (0, 3)),
                 ((0, 7), (4, 8), (1, 8), (0, 4))):
        for factor in (1, 2):
            a, b, p1, p2 = ((start * factor, end * factor) for start, end in base)
            if extent((a, b, p1, p2)) <= _LONGEST:
                shapes.append((a, b, p1, p2))
    return [(shape, *_window(shape)) for shape in shapes]


_SHAPES = _shapes()


def shapes_for(threshold: float, max_extent: int) -> List[Shape]:
    """The shapes contested at `threshold` that fit in `max_extent` characters."""
    return [shape for shape, low, high in _SHAPES if low < threshold <= high and extent(shape) <= max_extent]


_BOOLEANS = st.booleans()
_PERCENT = st.integers(0, 99)


def contested_spans(draw: Draw, shape: Shape, places: List[int], label: str, references: List[Dict[str, Any]],
                    predictions: List[Dict[str, Any]], shapes: Set[Tuple[str, int, int]]) -> None:
    """Appends the group of `shape` to the two span lists: placed at a drawn character of
    the text (`places`: its offsets, as boundaries() gives them), mirrored or not, its
    sides swapped or not (then two predictions overlap one reference...), each side in a
    drawn order (P1 before P2 half the time: what fails predictions-in-order matching).
    IDs ``x0``, ``x1`` (references) and ``y0``, ``y1`` (predictions), in list order. A
    span whose label and offsets its side has already is left out (`shapes`: the
    predictions' (label, start, end), updated)."""
    width = extent(shape)
    first = draw(st.integers(0, len(places) - 1 - width))
    mirrored = draw(_BOOLEANS)

    def placed(span: Range) -> Tuple[int, int]:
        start, end = (width - span[1], width - span[0]) if mirrored else span
        return places[first + start], places[first + end]

    a, b, p1, p2 = shape
    sides = [[placed(a), placed(b)], [placed(p1), placed(p2)]]
    if draw(_BOOLEANS):
        sides.reverse()
    taken_references = {(r["label"], r["start"], r["end"]) for r in references}
    for spans, prefix, taken in ((sides[0], "x", taken_references), (sides[1], "y", shapes)):
        if draw(_BOOLEANS):
            spans.reverse()
        for i, (start, end) in enumerate(spans):
            if (label, start, end) not in taken:
                taken.add((label, start, end))
                (references if prefix == "x" else predictions).append(
                    {"id": f"{prefix}{i}", "label": label, "start": start, "end": end})


def contest_shape(draw: Draw, threshold: Optional[float], percent: int, max_text: int) -> Optional[Shape]:
    """The shape of this document's contested group, or None: drawn with probability
    `percent` / 100 among the shapes contested at `threshold` (None: no matching by IoU,
    no group) that fit in `max_text` characters."""
    if threshold is None or not percent or draw(_PERCENT) < 100 - percent:  # shrinks to no group
        return None
    fitting = shapes_for(threshold, max_text)
    if not fitting:
        return None
    return fitting[draw(st.integers(0, len(fitting) - 1))]
