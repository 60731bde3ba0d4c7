"""The public operations, run by the native core. Each returns exactly what its twin in
:mod:`evalcore.reference` returns."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Mapping, Optional

from . import _core
from ._arguments import check_corpus_options
from .conventions import RANKING_CONVENTIONS_TABLE, SPAN_CONVENTIONS_TABLE
from .envelope import make_envelope
from .limits import DEFAULT_LIMITS, SCORE_LIMITS, LimitsLike, resolve_limits


def _as_dict(request: Any) -> Any:
    # Any Mapping is accepted at the top; nested objects must be dicts.
    if isinstance(request, Mapping) and not isinstance(request, dict):
        return dict(request)
    return request


def ranking_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> Dict[str, Any]:
    """Score ranked document IDs against caller-supplied graded judgments (SPEC §2).

    Args:
        request: ``{"queries": [{"id", "retrieved": [...], "judgments": [{"id", "grade"}]}],
            "k": 10, "relevantAtLeast": 1, "gain": "linear"|"exponential",
            "unjudged": "error"|"nonrelevant"}`` as Python values (JSON types only).
        limits: :class:`evalcore.Limits` (or a mapping of overrides); the contract's by default.

    Returns:
        The envelope ``{"operation", "version", "result", "provenance"}``; ``result`` has
        per-query metrics and evidence, macro averages and conventions.

    Raises:
        EvaluationError: with ``code``, ``status``, ``pointer`` and ``message``.
    """
    lim = resolve_limits(limits)
    result, input_sha256, output_sha256 = _core.ranking_evaluate(
        _as_dict(request), lim.as_tuple(), RANKING_CONVENTIONS_TABLE
    )
    return make_envelope("ranking-evaluate", result, input_sha256, output_sha256)


def span_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> Dict[str, Any]:
    """Match labeled text spans exactly or by IoU and score them (SPEC §3).

    Args:
        request: ``{"text", "references": [{"id", "label", "start", "end"}], "predictions": [...],
            "match": "exact"|"overlap", "minimumIou": 0.5}``; offsets are UTF-16 code units.
        limits: :class:`evalcore.Limits` (or a mapping of overrides), e.g. a lower
            ``matching_steps``.

    Returns:
        The envelope ``{"operation", "version", "result", "provenance"}`` with matches,
        unmatched IDs, per-label scores and conventions in ``result``.

    Raises:
        EvaluationError: with ``code``, ``status``, ``pointer`` and ``message``.
    """
    lim = resolve_limits(limits)
    result, input_sha256, output_sha256 = _core.span_evaluate(_as_dict(request), lim.as_tuple(), SPAN_CONVENTIONS_TABLE)
    return make_envelope("span-evaluate", result, input_sha256, output_sha256)


def span_evaluate_corpus(
    documents: Iterable[Mapping[str, Any]],
    *,
    match: str = "exact",
    minimum_iou: float = 0.5,
    threads: Optional[int] = None,
    per_document: bool = False,
) -> Dict[str, Any]:
    """Micro-averaged span scores over many documents, matched in parallel.

    Each document is ``{"text", "references", "predictions"}`` and is validated and matched
    exactly as :func:`span_evaluate` would (without the per-request size limits; the
    matching step bound still applies per document). Results do not depend on `threads`.

    Returns:
        ``{"documentCount", "match", "minimumIou", "overall", "perLabel"}`` (plus
        ``"perDocument"``: each document's span-evaluate ``result``, when asked), where
        ``overall`` and each ``perLabel`` entry hold ``matched``, ``predictions``,
        ``references``, ``precision``, ``recall``, ``f1`` and ``meanMatchedIou``.

    Raises:
        EvaluationError: for the first faulty document; ``pointer`` starts with its index
            (``/3/references/0/id``) and ``message`` with ``document 3:``.
        ValueError: for a bad keyword argument.
    """
    check_corpus_options(match, minimum_iou, threads)
    docs = documents if type(documents) is list else list(documents)
    return _core.span_evaluate_corpus(
        docs,
        match == "overlap",
        float(minimum_iou),
        threads or os.cpu_count() or 1,
        bool(per_document),
        SPAN_CONVENTIONS_TABLE,
        DEFAULT_LIMITS.matching_steps,
    )


def score(request: Mapping[str, Any], *, limits: LimitsLike = None) -> Dict[str, Any]:
    """Score predicted vs ground-truth ID sets, Mixpeek-compatible (SPEC §4).

    Args:
        request: the single-pair form ``{"predicted": [...], "ground_truth": [...]}`` or the
            batch form ``{"items": [{"predicted", "ground_truth"}, ...]}``, plus optional
            ``"metrics"`` (subset of precision, recall, f1, f2; default all four) and ``"k"``.
        limits: none by default (the contract sets none for score); pass
            :class:`evalcore.Limits` to bound input and output size.

    Returns:
        Mixpeek's response ``{"metrics", "k", "count", "per_item", "aggregate"}`` (no envelope).
        Large batches are scored in parallel with the GIL released.

    Raises:
        EvaluationError: with ``code``, ``status``, ``pointer`` and ``message``.
    """
    lim = SCORE_LIMITS if limits is None else resolve_limits(limits)
    return _core.score(_as_dict(request), lim.as_tuple(), os.cpu_count() or 1)
