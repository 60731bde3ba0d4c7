"""Hypothesis strategies for :func:`evalcore.evaluate_schemas` (nervaluate's schemas): corpora
of spans (any, or unambiguous: no entity overlapping two of the other side), of BIO tags
(ill-formed ones included), and the overlap test both use (docs/schemas.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from hypothesis import strategies as st

#: The labels the strategies draw from by default.
SCHEMA_LABELS = ("PER", "LOC", "ORG", "MISC")
#: Tags nervaluate's list loader reads, and some it refuses or reads leniently (E-, S-, a
#: bare type, a lone prefix).
BIO_TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG")
ILL_FORMED_TAGS = ("E-PER", "S-LOC", "B-", "I-", "X-PER", "PER", "")

Spans = List[List[Dict[str, Any]]]


def overlaps(pred: Dict[str, Any], true: Dict[str, Any]) -> bool:
    """nervaluate's overlap (min_overlap_percentage=1): the inclusive ranges meet and the
    common part is at least 1 % of the true entity."""
    if pred["start"] > true["end"] or pred["end"] < true["start"]:
        return False
    common = min(pred["end"], true["end"]) - max(pred["start"], true["start"]) + 1
    return bool((common / (true["end"] - true["start"] + 1)) * 100.0 >= 1.0)


def is_unambiguous(true_doc: Sequence[Dict[str, Any]], pred_doc: Sequence[Dict[str, Any]]) -> bool:
    """No predicted entity overlaps two true ones, and no true one two predicted ones."""
    for pred in pred_doc:
        if sum(overlaps(pred, true) for true in true_doc) > 1:
            return False
    for true in true_doc:
        if sum(overlaps(pred, true) for pred in pred_doc) > 1:
            return False
    return True


@st.composite
def _entity(draw: Any, low: int, high: int, labels: Sequence[str]) -> Dict[str, Any]:
    start = draw(st.integers(low, high))
    end = draw(st.integers(start, high))
    return {"label": draw(st.sampled_from(labels)), "start": start, "end": end}


@st.composite
def schema_spans(draw: Any, *, max_documents: int = 5, max_entities: int = 6, max_offset: int = 30,
                 labels: Sequence[str] = SCHEMA_LABELS) -> Tuple[Spans, Spans]:
    """``(true, pred)``: documents of ``{"label", "start", "end"}`` entities (end inclusive),
    overlapping in every way (ambiguous ones included), at least one document."""
    count = draw(st.integers(1, max_documents))
    side = st.lists(_entity(0, max_offset, labels), max_size=max_entities)
    return [draw(side) for _ in range(count)], [draw(side) for _ in range(count)]


@st.composite
def unambiguous_schema_spans(draw: Any, *, max_documents: int = 5, max_regions: int = 5,
                             labels: Sequence[str] = SCHEMA_LABELS) -> Tuple[Spans, Spans]:
    """``(true, pred)`` where no entity overlaps two of the other side: each document is a
    row of disjoint regions holding true entities only, predicted ones only, or one of each
    (overlapping or not; a region is sometimes over 100 long, where a small overlap is under
    nervaluate's 1 %)."""
    true: Spans = []
    pred: Spans = []
    for _ in range(draw(st.integers(1, max_documents))):
        t_doc: List[Dict[str, Any]] = []
        p_doc: List[Dict[str, Any]] = []
        low = 0
        for _ in range(draw(st.integers(0, max_regions))):
            width = draw(st.one_of(st.integers(1, 8), st.integers(100, 250)))
            high = low + width - 1
            kind = draw(st.sampled_from(("true", "pred", "pair", "pair")))
            if kind == "pair":
                t_doc.append(draw(_entity(low, high, labels)))
                p_doc.append(draw(_entity(low, high, labels)))
            else:
                side = t_doc if kind == "true" else p_doc
                side.extend(draw(st.lists(_entity(low, high, labels), min_size=1, max_size=2)))
            low = high + 1 + draw(st.integers(0, 3))
        true.append(draw(st.permutations(t_doc)))
        pred.append(draw(st.permutations(p_doc)))
    return true, pred


@st.composite
def bio_tag_corpus(draw: Any, *, max_documents: int = 5, max_tokens: int = 12,
                   ill_formed: bool = True) -> Tuple[List[List[str]], List[List[str]]]:
    """``(true, pred)``: documents of tags of equal length in both, BIO with I- after O and
    type changes inside a chunk; with `ill_formed`, now and then a tag nervaluate's list
    loader refuses when it starts an entity (E-PER, S-LOC, PER, "")."""
    pool = st.sampled_from(BIO_TAGS)
    if ill_formed:
        pool = st.one_of(pool, pool, pool, pool, pool, pool, pool, pool, st.sampled_from(ILL_FORMED_TAGS))
    true, pred = [], []
    for _ in range(draw(st.integers(1, max_documents))):
        n = draw(st.integers(0, max_tokens))
        true.append(draw(st.lists(pool, min_size=n, max_size=n)))
        pred.append(draw(st.lists(pool, min_size=n, max_size=n)))
    return true, pred
