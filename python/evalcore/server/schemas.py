"""What GET /v1/operations describes: each operation's input and output JSON Schema, its
limits and its error codes (docs/contract.md §1.4, §2, §3, §4)."""

from __future__ import annotations

from typing import Any, Dict, List

from ..errors import STATUS_BY_CODE
from ..limits import Limits

_MAX = 9007199254740991
_ID = {"type": "string", "minLength": 1, "maxLength": 80}
_COUNT = {"type": "integer", "minimum": 0, "maximum": _MAX}
_METRIC = {"type": ["number", "null"]}
_PROVENANCE = {
    "type": "object",
    "required": ["inputSha256", "outputSha256", "deterministic", "externalRequests"],
    "properties": {
        "inputSha256": {"type": "string", "pattern": "^[a-f0-9]{64}$"},
        "outputSha256": {"type": "string", "pattern": "^[a-f0-9]{64}$"},
        "deterministic": {"const": True},
        "externalRequests": {"const": 0},
    },
}


def _envelope(operation: str, result: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "type": "object",
        "required": ["operation", "version", "result", "provenance"],
        "properties": {"operation": {"const": operation}, "version": {"type": "string"}, "result": result, "provenance": _PROVENANCE},
        "additionalProperties": False,
    }


def _ranking(limits: Limits) -> Dict[str, Any]:
    metrics = ["precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK"]
    query = {
        "type": "object",
        "required": ["id", "retrieved", "judgments"],
        "additionalProperties": False,
        "properties": {
            "id": _ID,
            "retrieved": {"type": "array", "maxItems": limits.retrieved_per_query, "items": _ID},
            "judgments": {
                "type": "array",
                "maxItems": limits.judgments_per_query,
                "items": {
                    "type": "object",
                    "required": ["id", "grade"],
                    "additionalProperties": False,
                    "properties": {"id": _ID, "grade": {"type": "number", "minimum": 0, "maximum": 10}},
                },
            },
        },
    }
    request = {
        "type": "object",
        "required": ["queries"],
        "additionalProperties": False,
        "properties": {
            "queries": {"type": "array", "minItems": 1, "maxItems": limits.queries, "items": query},
            "k": {"type": "integer", "minimum": 1, "maximum": limits.max_k, "default": 10},
            "relevantAtLeast": {"type": "number", "exclusiveMinimum": 0, "maximum": 10, "default": 1},
            "gain": {"enum": ["linear", "exponential"], "default": "linear"},
            "unjudged": {"enum": ["error", "nonrelevant"], "default": "error"},
        },
    }
    per_query = {
        "type": "object",
        "properties": {
            **{m: ({"type": "number"} if m == "precisionAtK" else _METRIC) for m in metrics},
            "id": {"type": "string"},
            "relevantJudgmentCount": _COUNT,
            "retrievedAtKCount": _COUNT,
            "hitsAtK": _COUNT,
            "unjudgedAtKCount": _COUNT,
            "dcgAtK": {"type": "number"},
            "idealDcgAtK": {"type": "number"},
            "missedRelevantIds": {"type": "array", "items": {"type": "string"}},
            "ranking": {"type": "array", "items": {"type": "object", "required": ["rank", "id", "grade", "relevant", "judged"]}},
        },
    }
    result = {
        "type": "object",
        "required": ["profile", "k", "queryCount", "queries", "macro", "definedQueryCounts", "conventions"],
        "properties": {
            "profile": {"const": "supplied-ranking-evaluation-v1"},
            "k": _COUNT,
            "queryCount": _COUNT,
            "queries": {"type": "array", "items": per_query},
            "macro": {"type": "object", "properties": {m: _METRIC for m in metrics}},
            "definedQueryCounts": {"type": "object", "properties": {m: _COUNT for m in metrics}},
            "conventions": {"type": "array", "items": {"type": "string"}},
        },
    }
    return {"input": request, "output": _envelope("ranking-evaluate", result)}


def _spans(limits: Limits) -> Dict[str, Any]:
    span = {
        "type": "object",
        "required": ["id", "label", "start", "end"],
        "additionalProperties": False,
        "properties": {
            "id": _ID,
            "label": _ID,
            "start": {"type": "integer", "minimum": 0, "maximum": _MAX},
            "end": {"type": "integer", "minimum": 0, "maximum": _MAX},
        },
    }
    request = {
        "type": "object",
        "required": ["text", "references", "predictions"],
        "additionalProperties": False,
        "properties": {
            "text": {"type": "string", "maxLength": limits.text_utf16_units, "description": "length in UTF-16 code units"},
            "references": {"type": "array", "maxItems": limits.references, "items": span},
            "predictions": {"type": "array", "maxItems": limits.predictions, "items": span},
            "match": {"enum": ["exact", "overlap"], "default": "exact"},
            "minimumIou": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.5},
        },
    }
    scores = {"precision": {"type": "number"}, "recall": {"type": "number"}, "f1": {"type": "number"}}
    result = {
        "type": "object",
        "properties": {
            "profile": {"const": "annotation-span-evaluation-v1"},
            "offsetUnit": {"const": "utf16-code-unit"},
            "referenceCount": _COUNT,
            "predictionCount": _COUNT,
            "matchedCount": _COUNT,
            **scores,
            "precisionDefined": {"type": "boolean"},
            "recallDefined": {"type": "boolean"},
            "meanMatchedIou": {"type": ["number", "null"]},
            "matches": {"type": "array", "items": {"type": "object", "required": ["predictionId", "referenceId", "label", "iou", "exactBoundaries"]}},
            "unmatchedPredictionIds": {"type": "array", "items": {"type": "string"}},
            "unmatchedReferenceIds": {"type": "array", "items": {"type": "string"}},
            "perLabel": {"type": "array", "items": {"type": "object", "properties": {"label": {"type": "string"}, **scores}}},
            "conventions": {"type": "array", "items": {"type": "string"}},
        },
    }
    return {"input": request, "output": _envelope("span-evaluate", result)}


def _score() -> Dict[str, Any]:
    ids = {"type": "array", "items": {"type": "string"}}
    metric_names = {"enum": ["precision", "recall", "f1", "f2"]}
    request = {
        "type": "object",
        "additionalProperties": False,
        "description": "Exactly one form: predicted + ground_truth, or items.",
        "properties": {
            "predicted": {"anyOf": [ids, {"type": "null"}]},
            "ground_truth": {"anyOf": [ids, {"type": "null"}]},
            "items": {
                "anyOf": [
                    {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["predicted", "ground_truth"],
                                                               "additionalProperties": False,
                                                               "properties": {"predicted": ids, "ground_truth": ids}}},
                    {"type": "null"},
                ]
            },
            "metrics": {"type": "array", "minItems": 1, "uniqueItems": True, "items": metric_names},
            "k": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        },
    }
    response = {
        "type": "object",
        "required": ["metrics", "count", "per_item", "aggregate"],
        "properties": {
            "metrics": {"type": "array", "items": metric_names},
            "k": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "count": {"type": "integer"},
            "per_item": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "number"}}},
            "aggregate": {"type": "object", "additionalProperties": {"type": "number"}},
        },
    }
    return {"input": request, "output": response}


def _codes(*codes: str) -> List[Dict[str, Any]]:
    return [{"code": code, "status": STATUS_BY_CODE[code]} for code in codes]


_COMMON = ("INVALID_JSON", "INPUT_LIMIT", "SCHEMA_VIOLATION", "DUPLICATE_FIELD", "UNSAFE_KEY", "INVALID_NUMBER",
           "NUMERIC_OVERFLOW", "INVALID_UNICODE")


def operations(limits: Limits) -> Dict[str, Any]:
    """The body of GET /v1/operations."""
    lim = limits.as_dict()
    return {
        "operations": [
            {"operation": "ranking-evaluate", "method": "POST", "path": "/v1/ranking-evaluate", **_ranking(limits),
             "limits": {k: lim[k] for k in ("input_bytes", "output_bytes", "json_depth", "json_nodes", "queries",
                                           "retrieved_per_query", "judgments_per_query", "max_k")},
             "errors": _codes(*_COMMON, "OUTPUT_LIMIT", "DUPLICATE_ID", "UNJUDGED_DOCUMENT")},
            {"operation": "span-evaluate", "method": "POST", "path": "/v1/span-evaluate", **_spans(limits),
             "limits": {k: lim[k] for k in ("input_bytes", "output_bytes", "json_depth", "json_nodes", "text_utf16_units",
                                           "references", "predictions", "matching_steps")},
             "errors": _codes(*_COMMON, "OUTPUT_LIMIT", "DUPLICATE_ID", "INVALID_SPAN", "DUPLICATE_SPAN", "MATCHING_LIMIT")},
            {"operation": "score", "method": "POST", "path": "/v1/evaluations/score", **_score(),
             "limits": {"json_depth": lim["json_depth"]},
             "errors": _codes(*_COMMON)},
        ]
    }
