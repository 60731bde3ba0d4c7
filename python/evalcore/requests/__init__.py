"""The three requests of the contract (docs/contract.md §2-4) and the raw-JSON front door:
:func:`ranking_evaluate`, :func:`span_evaluate`, :func:`score`, :func:`evaluate_json`.

- :mod:`~evalcore.requests.operations`: the functions, on the native core;
- :mod:`~evalcore.requests.envelope`: the envelope and its SHA-256 provenance;
- :mod:`~evalcore.requests.conventions`: the conventions tables the results carry.
"""

from .operations import evaluate_json, ranking_evaluate, score, span_evaluate

__all__ = ["evaluate_json", "ranking_evaluate", "score", "span_evaluate"]
