"""Span evaluation over a corpus, pure Python: the twin of :mod:`evalcore.spans.corpus`.
Each document is read, validated and matched as the span-evaluate request's twin does
(:mod:`evalcore.reference.requests.spans`)."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, cast

from ...errors import EvaluationError
from ...limits import Limits, LimitsLike, resolve_corpus_limits
from ...progress import ProgressCallback, check_progress
from ...requests._arguments import check_corpus_options
from ...result_types import SpanCorpusLabelTotals, SpanCorpusResult, SpanCorpusTotals, SpanResult
from ..requests._reading import read_nodes, read_request
from ..requests.spans import MAX_OFFSET, UNLIMITED, _check_semantics, _evaluate, _f1, _ratio, _validate_schema


def _totals(label: Optional[str], matched: int, predictions: int, references: int, iou_sum: float) -> Dict[str, Any]:
    precision, recall = _ratio(matched, predictions), _ratio(matched, references)
    out: Dict[str, Any] = {} if label is None else {"label": label}
    out.update(
        matched=matched, predictions=predictions, references=references, precision=precision, recall=recall,
        f1=_f1(precision, recall), meanMatchedIou=iou_sum / matched if matched else None,
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
            _check_semantics(doc)
            results.append(_evaluate(doc, match, float(minimum_iou), lim.matching_steps))
        except EvaluationError as err:
            raise EvaluationError(err.code, f"/{i}{err.pointer}", f"document {i}: {err.message}") from None
        if progress is not None:
            progress(i + 1, len(docs))
    if progress is not None and not docs:
        progress(0, 0)
    matched = predictions = references = 0
    iou_sum = 0.0
    labels: Dict[str, List[Any]] = {}
    for result in results:
        matched += result["matchedCount"]
        predictions += result["predictionCount"]
        references += result["referenceCount"]
        for entry in result["perLabel"]:
            acc = labels.setdefault(entry["label"], [0, 0, 0, 0.0])
            acc[0] += entry["matchedCount"]
            acc[1] += entry["predictionCount"]
            acc[2] += entry["referenceCount"]
        for m in result["matches"]:
            iou_sum += m["iou"]
            labels[m["label"]][3] += m["iou"]
    # (_totals gives the label key exactly when it is given a label)
    out: SpanCorpusResult = {
        "documentCount": len(docs),
        "match": match,
        "minimumIou": float(minimum_iou),
        "overall": cast(SpanCorpusTotals, _totals(None, matched, predictions, references, iou_sum)),
        "perLabel": [cast(SpanCorpusLabelTotals, _totals(label, *labels[label])) for label in sorted(labels)],
    }
    if per_document:
        out["perDocument"] = results
    return out
