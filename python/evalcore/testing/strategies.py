"""Hypothesis strategies for valid requests of evalcore's three operations.

Each function returns a strategy of JSON-typed Python values that evalcore accepts with its
default limits. The defaults aim at the cases metric code gets wrong: equal grades,
unjudged documents, judged documents that were not retrieved, k both smaller and larger
than the ranking, astral characters (two UTF-16 units) in IDs and texts, overlapping and
nearly overlapping spans, repeated IDs in score's lists, empty lists. Parameters narrow
the inputs to what your code supports (``grades=("integer",)``, ``astral=False``, ...).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from hypothesis import strategies as st

from ._text import SURROGATES, boundaries
from .contested import CONTEST_IOU, contest_shape, contested_spans, extent

__all__ = [
    "ids",
    "ranking_requests",
    "score_requests",
    "shuffled_dict",
    "span_documents",
    "span_requests",
    "span_texts",
]

Draw = Callable[..., Any]

GRADE_KINDS = ("integer", "fractional", "negative")
_SIMPLE_IDS = ["a", "b", "c", "d", "e", "f", "g", "h"]
_ODD_IDS = ["x" * 80, "~/", "a/b~c", "é\u0301", '"\\\n']
_ASTRAL_IDS = ["😀" * 40]
_BMP = st.characters(max_codepoint=0xFFFF, blacklist_categories=SURROGATES)


def _checked_kinds(grades: Sequence[str], allowed: Sequence[str], where: str) -> Set[str]:
    kinds = set(grades)
    unknown = kinds - set(GRADE_KINDS)
    if unknown or not kinds:
        raise ValueError(f"grades must be a non-empty choice of {', '.join(GRADE_KINDS)}; got {list(grades)!r}")
    refused = kinds - set(allowed)
    if refused:
        raise ValueError(f"{where} takes grades of kinds {', '.join(allowed)} only (the contract's range); got {sorted(refused)!r}")
    return kinds


def ids(*, astral: bool = True, max_size: int = 6) -> st.SearchStrategy[str]:
    """Query and document IDs: short letters, arbitrary well-formed text (combining marks,
    controls, and with `astral` characters outside the BMP), and edge cases: 80 UTF-16
    units (the contract's longest ID), JSON Pointer escapes ``~`` and ``/``, quotes."""
    text = st.text(min_size=1, max_size=max_size) if astral else st.text(_BMP, min_size=1, max_size=max_size)
    return st.one_of(st.sampled_from(_SIMPLE_IDS), text, st.sampled_from((_ASTRAL_IDS if astral else []) + _ODD_IDS))


def _ranking_grades(kinds: Set[str]) -> st.SearchStrategy[Any]:
    if kinds == {"integer"}:
        return st.one_of(st.integers(0, 10), st.sampled_from([0, 10, 1, 3]))
    if kinds == {"fractional"}:
        return st.one_of(st.floats(0, 10, allow_nan=False), st.sampled_from([0.0, -0.0, 10.0, 0.5, 2.25]))
    return st.one_of(st.integers(0, 10), st.floats(0, 10, allow_nan=False),
                     st.sampled_from([0.0, -0.0, 10.0, 0.5, 1, 3, 2.25]))


_INDEXES = [st.integers(0, i) for i in range(128)]
_BOOLEANS = st.booleans()


def _first(entry: Tuple[Any, ...]) -> Any:
    return entry[0]


def _query_id(query: Dict[str, Any]) -> Any:
    return query["id"]


def _option(draw: Draw, items: List[Tuple[str, Any]], key: str, fixed: Any, drawn: st.SearchStrategy[Any]) -> None:
    """An optional request field: the fixed value when there is one, else drawn or left out."""
    if fixed is not None:
        items.append((key, fixed))
    elif draw(_BOOLEANS):
        items.append((key, draw(drawn)))


def _shuffled(draw: Draw, items: Sequence[Any]) -> List[Any]:
    """`items` in a drawn order (Fisher-Yates on drawn indexes; shrinks to the order given)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = i - draw(_INDEXES[i] if i < len(_INDEXES) else st.integers(0, i))
        out[i], out[j] = out[j], out[i]
    return out


@st.composite
def shuffled_dict(draw: Draw, items: List[Tuple[str, Any]]) -> Dict[str, Any]:
    """A dict of `items` whose key order (the JSON document order) is drawn too."""
    return dict(_shuffled(draw, items))


def ranking_requests(
    *,
    max_queries: int = 4,
    max_docs: int = 10,
    grades: Sequence[str] = ("integer", "fractional"),
    unjudged: Optional[bool] = None,
    astral: bool = True,
    empty: bool = True,
    k: Optional[int] = None,
    gain: Optional[str] = None,
    relevant_at_least: Optional[float] = None,
) -> st.SearchStrategy[Dict[str, Any]]:
    """Valid ranking-evaluate requests (contract §2).

    Args:
        max_queries: at most this many queries (1..50).
        max_docs: at most this many retrieved documents per query (0..100).
        grades: the kinds of grades drawn, ``"integer"`` and/or ``"fractional"`` (the
            contract's grades are 0..10: ``"negative"`` is refused here; runs() has them).
        unjudged: True: ``unjudged: "nonrelevant"`` and some retrieved documents without a
            judgment; False: every retrieved document judged; None: both.
        astral: IDs may hold characters outside the BMP.
        empty: queries may retrieve nothing or have no judgments.
        k: a fixed k; None draws it (1..12, often below and above the ranking's length,
            sometimes absent: the default 10, or given as a float such as ``3.0``).
        gain: a fixed ``"linear"`` or ``"exponential"``; None draws it or leaves it out.
        relevant_at_least: a fixed threshold; None draws it or leaves it out.

    Judgments include documents that were not retrieved (so R exceeds the relevant
    documents found), grades repeat often, and every key order is drawn.
    """
    kinds = _checked_kinds(grades, ("integer", "fractional"), "ranking_requests")
    if not 1 <= max_queries <= 50 or not 0 <= max_docs <= 100:
        raise ValueError(f"max_queries must be 1..50 and max_docs 0..100 (the contract's limits); got {max_queries}, {max_docs}")
    id_strategy = ids(astral=astral)
    grade_strategy = _ranking_grades(kinds)
    policies = st.sampled_from(["error", "nonrelevant", None] if unjudged is None else
                               ["nonrelevant"] if unjudged else ["error", None])
    min_docs = min(0 if empty else 1, max_docs)
    # (document, judged?, grade) drawn together, so that shrinking removes a document with its judgment
    retrieved_lists = st.lists(st.tuples(id_strategy, _BOOLEANS, grade_strategy), min_size=min_docs, max_size=max_docs,
                               unique_by=_first)
    extra_lists = st.lists(st.tuples(id_strategy, grade_strategy), max_size=3, unique_by=_first)
    ks = st.one_of(st.none(), st.integers(1, 12), st.sampled_from([3.0, 1.0, 100])) if k is None else st.just(k)
    thresholds = st.one_of(st.floats(0, 10, exclude_min=True, allow_nan=False), st.sampled_from([1, 2, 0.5, 10, 3.0]))
    gains = st.sampled_from(["linear", "exponential"])

    @st.composite
    def draw_query(draw: Draw, policy: Optional[str]) -> Dict[str, Any]:
        query_id = draw(id_strategy)
        entries = draw(retrieved_lists)
        retrieved = [d for d, _, _ in entries]
        # "error": everything in the top k must be judged
        judged = [(d, g) for d, flag, g in entries if flag or policy != "nonrelevant"]
        extra = [(d, g) for d, g in draw(extra_lists) if d not in retrieved]
        pairs = _shuffled(draw, judged + extra)
        if not empty and not pairs:
            pairs = [(retrieved[0], entries[0][2])] if retrieved else [(draw(id_strategy), draw(grade_strategy))]
        judgments = [dict(_shuffled(draw, [("id", d), ("grade", g)])) for d, g in pairs]
        return dict(_shuffled(draw, [("id", query_id), ("retrieved", retrieved), ("judgments", judgments)]))

    query_lists = {policy: st.lists(draw_query(policy), min_size=1, max_size=max_queries, unique_by=_query_id)
                   for policy in ("error", "nonrelevant", None)}

    @st.composite
    def draw_request(draw: Draw) -> Dict[str, Any]:
        policy = draw(policies)
        queries = draw(query_lists[policy])
        items: List[Tuple[str, Any]] = [("queries", queries)]
        chosen_k = draw(ks)
        if chosen_k is not None:
            items.append(("k", chosen_k))
        if policy is not None:
            items.append(("unjudged", policy))
        _option(draw, items, "relevantAtLeast", relevant_at_least, thresholds)
        _option(draw, items, "gain", gain, gains)
        return dict(_shuffled(draw, items))

    return draw_request()


# ---- span-evaluate ------------------------------------------------------------------------

_SPAN_ALPHABET = list("ab c") + ["😀", "\u0301", "é", "𝒳", "\n"]
_LABELS = ["PER", "LOC", "ORG", "é", "😀"]


def _bmp_only(values: List[str], astral: bool) -> List[str]:
    return [v for v in values if astral or all(ord(ch) <= 0xFFFF for ch in v)]


def span_texts(*, astral: bool = True, max_size: int = 24, min_size: int = 0) -> st.SearchStrategy[str]:
    """Texts of letters, spaces, newlines, a combining mark, ``é`` and, with `astral`,
    characters of two UTF-16 units (``😀``, ``𝒳``), where UTF-16, UTF-8 and code point
    offsets all differ."""
    return st.text(alphabet=st.sampled_from(_bmp_only(_SPAN_ALPHABET, astral)), min_size=min_size, max_size=max_size)


def _labels(astral: bool) -> st.SearchStrategy[str]:
    return st.sampled_from(_bmp_only(_LABELS, astral))


_SPAN_COUNTS = [st.integers(low, high) for high in range(0, 9) for low in (0, 1)]
_MOVES = st.sampled_from([1, -1, 2, -2, 0])
_SHORT = st.integers(1, 3)
_TENTHS = st.integers(0, 9)


def _span_list(draw: Draw, text: str, prefix: str, max_spans: int, labels: st.SearchStrategy[str],
               min_spans: int = 0) -> List[Dict[str, Any]]:
    """Up to `max_spans` valid spans of `text` with distinct (label, start, end), IDs
    ``prefix + number`` in a drawn order; half of them one to three characters long."""
    places = boundaries(text)
    spans: List[Dict[str, Any]] = []
    shapes: Set[Tuple[str, int, int]] = set()
    low = min(min_spans, max_spans)
    count = draw(_SPAN_COUNTS[2 * max_spans + low] if max_spans <= 8 and low <= 1 else st.integers(low, max_spans))
    if len(places) < 2:
        return spans
    place = st.sampled_from(places)
    pairs = st.lists(place, min_size=2, max_size=2, unique=True)
    starts = st.integers(0, len(places) - 2)
    for i in _shuffled(draw, range(count)):
        if draw(_BOOLEANS):  # a short span, one to three characters: IoUs near any threshold
            first = draw(starts)
            start, end = places[first], places[min(first + draw(_SHORT), len(places) - 1)]
        else:
            start, end = sorted(draw(pairs))
        label = draw(labels)
        if (label, start, end) in shapes:
            continue
        shapes.add((label, start, end))
        spans.append(dict(_shuffled(draw, [("id", f"{prefix}{i}"), ("label", label), ("start", start), ("end", end)])))
    return spans


def _nudged(draw: Draw, span: Dict[str, Any], places: List[int]) -> Optional[Tuple[int, int]]:
    """The span shifted, or its boundaries each moved, by up to two places (valid offsets
    only: a place is a character, one or two UTF-16 units), or None."""
    i, j = places.index(span["start"]), places.index(span["end"])
    move = draw(_MOVES)
    i = min(max(i + move, 0), len(places) - 1)
    j = min(max(j + (move if draw(_BOOLEANS) else draw(_MOVES)), 0), len(places) - 1)
    if i >= j:
        return None
    return places[i], places[j]


def _document_drawer(max_spans: int, max_text: int, astral: bool, overlap: float, empty: bool,
                     contested: float) -> Callable[[Draw, Optional[float]], Dict[str, Any]]:
    """What span_documents draws, as ``draw_document(draw, threshold)``: `threshold` is the
    minimumIou the document will be matched at (None: exact matching), what the contested
    group is made for."""
    if not 0.0 <= overlap <= 1.0:
        raise ValueError(f"overlap must be between 0 and 1; got {overlap!r}")
    if not 0.0 <= contested <= 1.0:
        raise ValueError(f"contested must be between 0 and 1; got {contested!r}")
    if max_spans < 0 or max_text < 0:
        raise ValueError(f"max_spans and max_text must be >= 0; got {max_spans}, {max_text}")
    labels = _labels(astral)
    low = 0 if empty else 1
    texts: Dict[int, st.SearchStrategy[str]] = {}  # by their least length: a contested group's
    tenths = round(overlap * 10)
    percent = round(contested * 100)

    def draw_document(draw: Draw, threshold: Optional[float]) -> Dict[str, Any]:
        shape = contest_shape(draw, threshold, percent, max_text)
        least = max(low, extent(shape) if shape else 0)
        if least not in texts:
            texts[least] = span_texts(astral=astral, max_size=max_text, min_size=least)
        text = draw(texts[least])
        references = _span_list(draw, text, "r", max_spans, labels, low)
        predictions = _span_list(draw, text, "p", max_spans, labels, low)
        shapes = {(p["label"], p["start"], p["end"]) for p in predictions}
        places = boundaries(text)
        for i, ref in enumerate(references):
            copies: List[Tuple[str, int, int]] = []
            if draw(_BOOLEANS):
                copies.append((f"c{i}", ref["start"], ref["end"]))
            if tenths and draw(_TENTHS) < tenths:
                moved = _nudged(draw, ref, places)
                if moved is not None:
                    copies.append((f"n{i}", *moved))
            for span_id, start, end in copies:
                if (ref["label"], start, end) not in shapes:
                    shapes.add((ref["label"], start, end))
                    predictions.append({"id": span_id, "label": ref["label"], "start": start, "end": end})
        if shape is not None:  # after the copies: a copy of A would give A an uncontested match
            contested_spans(draw, shape, places, draw(labels), references, predictions, shapes)
        return dict(_shuffled(draw, [("text", text), ("references", references), ("predictions", predictions)]))

    return draw_document


def span_documents(
    *,
    max_spans: int = 8,
    max_text: int = 24,
    astral: bool = True,
    overlap: float = 0.75,
    empty: bool = True,
    contested: float = 0.25,
) -> st.SearchStrategy[Dict[str, Any]]:
    """Valid span documents ``{text, references, predictions}`` (contract §3).

    Args:
        max_spans: at most this many random spans per side (copies come on top).
        max_text: the longest text, in characters.
        astral: texts and labels may hold characters of two UTF-16 units.
        overlap: the density of predictions near a reference: each reference gets an exact
            copy half the time, and a copy shifted or with its boundaries moved by one or
            two characters with about this probability (0 to 1), so IoUs fall on both
            sides of any threshold.
        empty: texts and span lists may be empty (False: at least one span per side).
        contested: the probability (0 to 1) that a document also gets a contested group
            (:mod:`evalcore.testing.contested`): two references and two predictions of one
            label on which a greedy matching, best IoU first or predictions in order,
            matches one pair where the maximum matching of the contract matches two, at
            minimumIou 0.5 (span_requests makes it for the minimumIou it draws).

    Random spans of both sides overlap often in such short texts.
    """
    draw_document = _document_drawer(max_spans, max_text, astral, overlap, empty, contested)
    return st.composite(lambda draw: draw_document(draw, CONTEST_IOU))()


def span_requests(
    *,
    max_spans: int = 8,
    max_text: int = 24,
    astral: bool = True,
    overlap: float = 0.75,
    empty: bool = True,
    contested: float = 0.25,
    match: Optional[str] = None,
    minimum_iou: Optional[float] = None,
) -> st.SearchStrategy[Dict[str, Any]]:
    """Valid span-evaluate requests: a span document (see :func:`span_documents`, same
    parameters) with ``match`` and ``minimumIou`` fixed, or drawn (and sometimes left
    out: the defaults ``"exact"`` and 0.5) when None. A contested group is made for the
    request's minimumIou, and only with overlap matching (exact matching gives every
    prediction one candidate at most: no greedy matching falls short there)."""
    if match not in (None, "exact", "overlap"):
        raise ValueError(f"match must be 'exact', 'overlap' or None; got {match!r}")
    if minimum_iou is not None and not 0 < minimum_iou <= 1:
        raise ValueError(f"minimum_iou must be in (0, 1] (the contract's minimumIou); got {minimum_iou!r}")
    draw_document = _document_drawer(max_spans, max_text, astral, overlap, empty, contested)
    matches = st.sampled_from(["exact", "overlap"])
    thresholds = st.sampled_from([0.5, 1, 1.0, 0.1, 1e-9, 0.75]) | st.floats(0, 1, exclude_min=True)

    @st.composite
    def draw_request(draw: Draw) -> Dict[str, Any]:
        items: List[Tuple[str, Any]] = []
        _option(draw, items, "match", match, matches)
        _option(draw, items, "minimumIou", minimum_iou, thresholds)
        chosen = dict(items)
        threshold = chosen.get("minimumIou", 0.5) if chosen.get("match", "exact") == "overlap" else None
        items += list(draw_document(draw, threshold).items())
        return dict(_shuffled(draw, items))

    return draw_request()


# ---- score ----------------------------------------------------------------------------------

_SCORE_IDS = ["a", "b", "c", "d", "", " a", "A"]
_METRIC_NAMES = ["precision", "recall", "f1", "f2"]


def _score_lists(duplicates: bool, empty: bool, astral: bool, max_ids: int) -> st.SearchStrategy[List[str]]:
    text = st.text(max_size=4) if astral else st.text(_BMP, max_size=4)
    return st.lists(st.one_of(st.sampled_from(_SCORE_IDS), text), min_size=0 if empty else 1, max_size=max_ids,
                    unique=not duplicates)


def score_requests(
    *,
    max_ids: int = 8,
    max_items: int = 6,
    duplicates: bool = True,
    empty: bool = True,
    astral: bool = True,
    form: Optional[str] = None,
    k: Any = "draw",
    metrics: Optional[Sequence[str]] = None,
) -> st.SearchStrategy[Dict[str, Any]]:
    """Valid score requests (contract §4).

    Args:
        max_ids: at most this many IDs per predicted or ground-truth list.
        max_items: at most this many items in the batch form.
        duplicates: lists may repeat an ID (evalcore scores sets: the first is kept).
        empty: lists may be empty (both empty: every metric is 1; one empty: 0).
        astral: IDs may hold characters outside the BMP.
        form: ``"pair"`` (predicted + ground_truth), ``"items"`` (a batch), or None for both.
        k: a fixed k (an int, or None for all), or ``"draw"`` to draw it or leave it out.
        metrics: a fixed metrics list; None draws a subset in any order, or leaves it out.

    The small ID pool makes shared, repeated and case-differing IDs common.
    """
    if form not in (None, "pair", "items"):
        raise ValueError(f"form must be 'pair', 'items' or None; got {form!r}")
    id_lists = _score_lists(duplicates, empty, astral, max_ids)
    batches = st.lists(st.tuples(id_lists, id_lists), min_size=1, max_size=max_items)
    forms = _BOOLEANS if form is None else st.just(form == "pair")
    sides = st.sampled_from(["predicted", "ground_truth"])
    metric_counts = st.integers(1, 4)
    ks = st.one_of(st.none(), st.integers(1, 6), st.sampled_from([2.0, 2**53 - 1]))

    @st.composite
    def draw_request(draw: Draw) -> Dict[str, Any]:
        items: List[Tuple[str, Any]] = []
        if draw(forms):
            items += [("predicted", draw(id_lists)), ("ground_truth", draw(id_lists))]
            if form is None and draw(_BOOLEANS):
                items.append(("items", None))
        else:
            pairs = draw(batches)
            items.append(("items", [dict(_shuffled(draw, [("predicted", p), ("ground_truth", g)])) for p, g in pairs]))
            if form is None and draw(_BOOLEANS):
                items.append((draw(sides), None))
        if metrics is not None:
            items.append(("metrics", list(metrics)))
        elif draw(_BOOLEANS):
            items.append(("metrics", _shuffled(draw, _METRIC_NAMES)[: draw(metric_counts)]))
        if k != "draw":
            items.append(("k", k))
        elif draw(_BOOLEANS):
            items.append(("k", draw(ks)))
        return dict(_shuffled(draw, items))

    return draw_request()
