"""The response envelope of docs/contract.md §1.5, shared by the native API and the reference."""

from __future__ import annotations

from typing import Any, Dict

from ._version import __version__


def make_envelope(operation: str, result: Dict[str, Any], input_sha256: str, output_sha256: str) -> Dict[str, Any]:
    """Wrap `result` as ``{operation, version, result, provenance}`` in that key order."""
    return {
        "operation": operation,
        "version": __version__,
        "result": result,
        "provenance": {
            "inputSha256": input_sha256,
            "outputSha256": output_sha256,
            "deterministic": True,
            "externalRequests": 0,
        },
    }
