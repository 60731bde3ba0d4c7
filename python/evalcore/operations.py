"""The public operations, run by the native core. Each returns exactly what its twin in
:mod:`evalcore.reference` returns."""

from __future__ import annotations

from typing import Any, Dict, Mapping

from . import _core
from .conventions import RANKING_CONVENTIONS_TABLE
from .envelope import make_envelope
from .limits import LimitsLike, resolve_limits


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
