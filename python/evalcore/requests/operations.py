"""The public operations, run by the native core. Each returns exactly what its twin in
:mod:`evalcore.reference` returns."""

from __future__ import annotations

import os
from typing import Any, Mapping

from .. import _core
from ._arguments import request_body
from .._version import __version__
from .conventions import RANKING_CONVENTIONS_TABLE, SPAN_CONVENTIONS_TABLE
from .envelope import make_envelope
from ..limits import DEFAULT_LIMITS, SCORE_LIMITS, LimitsLike, resolve_limits
from ..result_types import RankingEnvelope, ScoreResponse, SpanEnvelope


def _as_dict(request: Any) -> Any:
    # Any Mapping is accepted at the top (read through its items(), as a dict subclass is);
    # nested objects must be dicts.
    if isinstance(request, Mapping) and not isinstance(request, dict):
        return dict(request.items())
    return request


def ranking_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> RankingEnvelope:
    """Score ranked document IDs against caller-supplied graded judgments (docs/contract.md §2).

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


def span_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> SpanEnvelope:
    """Match labeled text spans exactly or by IoU and score them (docs/contract.md §3).

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


def score(request: Mapping[str, Any], *, limits: LimitsLike = None) -> ScoreResponse:
    """Score predicted vs ground-truth ID sets, Mixpeek-compatible (docs/contract.md §4).

    Args:
        request: the single-pair form ``{"predicted": [...], "ground_truth": [...]}`` or the
            batch form ``{"items": [{"predicted", "ground_truth"}, ...]}``, plus optional
            ``"metrics"`` (subset of precision, recall, f1, f2; default all four) and ``"k"``.
        limits: :data:`evalcore.limits.SCORE_LIMITS` by default: at most 10,000,000 JSON
            values (``json_nodes``), 1 GiB of canonical JSON (``input_bytes``) and nesting 20
            deep (``json_depth``), no output limit. Pass a :class:`evalcore.Limits` or a
            mapping of fields to change them; INPUT_LIMIT names the limit it hit.

    Returns:
        Mixpeek's response ``{"metrics", "k", "count", "per_item", "aggregate"}`` (no envelope).
        Large batches are scored in parallel with the GIL released.

    Raises:
        EvaluationError: with ``code``, ``status``, ``pointer`` and ``message``.
    """
    lim = resolve_limits(limits, SCORE_LIMITS)
    return _core.score(_as_dict(request), lim.as_tuple(), os.cpu_count() or 1)


OPERATIONS = ("ranking-evaluate", "span-evaluate", "score")
_CONVENTIONS = {"ranking-evaluate": RANKING_CONVENTIONS_TABLE, "span-evaluate": SPAN_CONVENTIONS_TABLE, "score": ()}


def evaluate_json(operation: str, body: Any, *, limits: LimitsLike = None) -> bytes:
    """Evaluate a raw JSON request body and return the response body, all in C++.

    The body is parsed by a strict RFC 8259 parser over UTF-8 (invalid UTF-8 or malformed
    JSON is INVALID_JSON; repeated keys DUPLICATE_FIELD; NaN/Infinity INVALID_NUMBER;
    literals past binary64 NUMERIC_OVERFLOW; ``\\ud800``-style lone surrogates
    INVALID_UNICODE), the byte limit is checked before parsing and the depth and node
    limits while parsing. Nothing per element becomes a Python object and the GIL is
    released throughout.

    Args:
        operation: ``"ranking-evaluate"``, ``"span-evaluate"`` or ``"score"``.
        body: the request's UTF-8 JSON text: bytes, bytearray, a memoryview of bytes
            (C-contiguous, itemsize 1) or a str (encoded as UTF-8).
        limits: as for the dict functions (score: :data:`evalcore.SCORE_LIMITS`).

    Returns:
        The compact UTF-8 JSON response: the envelope for the first two operations,
        Mixpeek's response for score. Equal, once loaded, to the dict function's output.

    Raises:
        EvaluationError: ``.body`` is the docs/contract.md §1.3 error object and ``.mixpeek_body``
            Mixpeek's error shape.
        ValueError: for an unknown operation; TypeError for a body of another type.
    """
    if operation not in OPERATIONS:
        raise ValueError(f"operation must be one of {', '.join(OPERATIONS)}, got {operation!r}")
    data = request_body(body)
    lim = resolve_limits(limits, SCORE_LIMITS if operation == "score" else DEFAULT_LIMITS)
    return _core.evaluate_json(operation, data, lim.as_tuple(), _CONVENTIONS[operation], __version__, os.cpu_count() or 1)
