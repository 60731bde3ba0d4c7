"""Span evaluation over a corpus, pure Python: the twin of :mod:`evalcore.spans.corpus`.
Each document is read, validated and matched as the span-evaluate request's twin does
(:mod:`evalcore.reference.requests.spans`), except that it may leave out its text and its
spans' IDs (numbered here by position)."""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, cast

from ...errors import EvaluationError
from ...limits import Limits, LimitsLike, resolve_corpus_limits
from ...progress import ProgressCallback, check_progress
from ...requests._arguments import check_corpus_options
from ...result_types import SpanCorpusAverages, SpanCorpusLabelTotals, SpanCorpusResult, SpanCorpusTotals, SpanResult
from ...spans.display import span_corpus_result
from ..requests._reading import read_nodes, read_request
from ..requests.spans import MAX_OFFSET, UNLIMITED, _check_semantics, _evaluate, _f1, _ratio, _validate_schema


def _numbered(doc: Dict[str, Any]) -> Dict[str, Any]:
    """The document with the spans of a list that gives no IDs numbered "0", "1", ... by
    position; a list whose spans depart from its first span (an ID given or not) is refused
    at the first such span, in document order."""
    out = dict(doc)
    for key, spans in doc.items():
        if key not in ("references", "predictions") or not spans:
            continue
        given = "id" in spans[0]
        for i, span in enumerate(spans):
            if ("id" in span) != given:
                here = f"{key}/{i}"
                raise EvaluationError(
                    "SCHEMA_VIOLATION", f"/{here}",
                    f"{here} {'has no id but' if given else 'has an id but'} {key}/0 {'has one' if given else 'has none'}; "
                    f"give every span of a document's {key} an id, or none "
                    '(then each is numbered by its position: "0", "1", ...)',
                )
        if not given:
            out[key] = [{"id": str(i), **span} for i, span in enumerate(spans)]
    return out


def _averages(labels: Dict[str, List[Any]]) -> Dict[str, SpanCorpusAverages]:
    """Macro and weighted (by reference support) averages over the labels, from their integer
    counts: exact sums (math.fsum, correctly rounded) divided once; 0 without labels or support."""
    rows = []
    support = 0
    for label in sorted(labels):
        matched, predictions, references = labels[label][:3]
        p, r = _ratio(matched, predictions), _ratio(matched, references)
        rows.append((p, r, _f1(p, r), float(references)))
        support += references

    def mean(values: List[float], count: int) -> float:
        return math.fsum(values) / count if count else 0.0

    macro = [mean([row[k] for row in rows], len(rows)) for k in range(3)]
    weighted = [mean([row[k] * row[3] for row in rows], support) for k in range(3)]
    return {
        "macro": {"precision": macro[0], "recall": macro[1], "f1": macro[2]},
        "weighted": {"precision": weighted[0], "recall": weighted[1], "f1": weighted[2]},
    }


def _totals(label: Optional[str], matched: int, predictions: int, references: int, ious: List[float]) -> Dict[str, Any]:
    precision, recall = _ratio(matched, predictions), _ratio(matched, references)
    out: Dict[str, Any] = {} if label is None else {"label": label}
    out.update(
        matched=matched, predictions=predictions, references=references, precision=precision, recall=recall,
        f1=_f1(precision, recall), meanMatchedIou=math.fsum(ious) / matched if matched else None,
    )
    return out


def span_evaluate_corpus(
    documents: Iterable[Mapping[str, Any]],
    *,
    match: str = "exact",
    minimum_iou: float = 0.5,
    threads: Optional[int] = None,
    per_document: bool = False,
    limits: LimitsLike = None,
    progress: Optional[ProgressCallback] = None,
) -> SpanCorpusResult:
    """Micro-averaged span scores over many documents; pure Python twin of
    :func:`evalcore.span_evaluate_corpus` (`threads` is accepted and has no effect here;
    `progress` is called after each document)."""
    check_corpus_options(match, minimum_iou, threads)
    progress = check_progress(progress)
    lim = resolve_corpus_limits(limits)
    # Each document is read with its own nesting bound; jsonNodes counts all of them.
    reading = Limits(input_bytes=MAX_OFFSET, json_depth=lim.json_depth, json_nodes=lim.json_nodes)
    docs = []
    nodes = 0
    for i, doc in enumerate(list(documents)):
        try:
            plain = read_request(doc, reading, nodes_before=nodes, whole="the corpus")
        except EvaluationError as err:
            raise EvaluationError(err.code, f"/{i}{err.pointer}", f"document {i}: {err.message}") from None
        nodes += read_nodes(plain)
        docs.append(plain)
    results: List[SpanResult] = []
    for i, doc in enumerate(docs):
        try:
            _validate_schema(doc, UNLIMITED, "", with_options=False)
            numbered = _numbered(doc)
            _check_semantics(numbered)
            results.append(_evaluate(numbered, match, float(minimum_iou), lim.matching_steps))
        except EvaluationError as err:
            raise EvaluationError(err.code, f"/{i}{err.pointer}", f"document {i}: {err.message}") from None
        if progress is not None:
            progress(i + 1, len(docs))
    if progress is not None and not docs:
        progress(0, 0)
    matched = predictions = references = 0
    ious: List[float] = []  # summed exactly (math.fsum), as the core's ExactSum: order-independent
    labels: Dict[str, List[Any]] = {}
    for result in results:
        matched += result["matchedCount"]
        predictions += result["predictionCount"]
        references += result["referenceCount"]
        for entry in result["perLabel"]:
            acc = labels.setdefault(entry["label"], [0, 0, 0, []])
            acc[0] += entry["matchedCount"]
            acc[1] += entry["predictionCount"]
            acc[2] += entry["referenceCount"]
        for m in result["matches"]:
            ious.append(m["iou"])
            labels[m["label"]][3].append(m["iou"])
    # (_totals gives the label key exactly when it is given a label)
    averages = _averages(labels)
    out: SpanCorpusResult = {
        "documentCount": len(docs),
        "documentsWithoutText": sum(1 for doc in docs if "text" not in doc),
        "match": match,
        "minimumIou": float(minimum_iou),
        "overall": cast(SpanCorpusTotals, _totals(None, matched, predictions, references, ious)),
        "macro": averages["macro"],
        "weighted": averages["weighted"],
        "perLabel": [cast(SpanCorpusLabelTotals, _totals(label, *labels[label])) for label in sorted(labels)],
    }
    if per_document:
        out["perDocumentTextChecked"] = ["text" in doc for doc in docs]
        out["perDocument"] = results
    return span_corpus_result(out)
