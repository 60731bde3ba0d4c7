"""The response envelope of docs/contract.md §1.5, shared by the native API and the reference."""

from __future__ import annotations

from typing import Union, cast, overload

from .._version import __version__
from ..result_types import Provenance, RankingEnvelope, RankingResult, SpanEnvelope, SpanResult

_Envelope = Union[RankingEnvelope, SpanEnvelope]


@overload
def make_envelope(operation: str, result: RankingResult, input_sha256: str, output_sha256: str) -> RankingEnvelope: ...
@overload
def make_envelope(operation: str, result: SpanResult, input_sha256: str, output_sha256: str) -> SpanEnvelope: ...
def make_envelope(
    operation: str, result: Union[RankingResult, SpanResult], input_sha256: str, output_sha256: str
) -> _Envelope:
    """Wrap `result` as ``{operation, version, result, provenance}`` in that key order."""
    provenance: Provenance = {
        "inputSha256": input_sha256,
        "outputSha256": output_sha256,
        "deterministic": True,
        "externalRequests": 0,
    }
    # The caller names the operation of its result's kind (checkers cannot tie the str to it).
    return cast(_Envelope, {"operation": operation, "version": __version__, "result": result, "provenance": provenance})
