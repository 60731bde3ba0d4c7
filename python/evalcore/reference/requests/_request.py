"""The steps every enveloped operation shares: reading and schema checks with defaults
applied (phases 1 and 2), then the output limit and both provenance hashes."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Tuple, Union, overload

from ...requests.envelope import make_envelope
from ...errors import EvaluationError
from ...limits import Limits, LimitsLike, raise_hint, resolve_limits
from ...result_types import RankingEnvelope, RankingResult, SpanEnvelope, SpanResult
from ._json import canonical_json, compact_json, sha256_hex
from ._reading import read_request


def checked_request(
    request: Any, limits: LimitsLike, validate_schema: Callable[[Any, Limits], None], defaults: Mapping[str, Any]
) -> Tuple[Dict[str, Any], Limits]:
    """The request with defaults applied, after the parse-level and schema checks."""
    lim = resolve_limits(limits)
    if isinstance(request, Mapping) and not isinstance(request, dict):
        request = dict(request.items())
    request = read_request(request, lim)
    validate_schema(request, lim)
    full = dict(request)
    for key, value in defaults.items():
        full.setdefault(key, value)
    return full, lim


@overload
def envelope(operation: str, result: RankingResult, full: Mapping[str, Any], lim: Limits, advice: str) -> RankingEnvelope: ...
@overload
def envelope(operation: str, result: SpanResult, full: Mapping[str, Any], lim: Limits, advice: str) -> SpanEnvelope: ...
def envelope(
    operation: str, result: Union[RankingResult, SpanResult], full: Mapping[str, Any], lim: Limits, advice: str
) -> Union[RankingEnvelope, SpanEnvelope]:
    """OUTPUT_LIMIT on the compact result, then the envelope with both hashes."""
    output = compact_json(result)
    if len(output) > lim.output_bytes:
        raise EvaluationError(
            "OUTPUT_LIMIT", "", f"the result would be {len(output)} bytes, over outputBytes = {lim.output_bytes}; {advice}"
            f"{raise_hint('outputBytes')}"
        )
    return make_envelope(operation, result, sha256_hex(canonical_json(full)), sha256_hex(output))
