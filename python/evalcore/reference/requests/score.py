"""score (docs/contract.md §4, Mixpeek-compatible set scoring) in pure Python: the reference the native core must equal."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, cast

from ...errors import EvaluationError
from ...limits import SCORE_LIMITS, LimitsLike, raise_hint, resolve_limits
from ...result_types import ScoreMetrics, ScoreResponse
from ._json import compact_json
from ._reading import child_pointer, read_request, shown
from ._schema import expect_array, expect_number, expect_object, members, violation

METRICS = ("precision", "recall", "f1", "f2")
FIELDS = ("predicted", "ground_truth", "items", "metrics", "k")
MAX_INTEGER = 9007199254740991


def _id_list(value: Any, pointer: str, what: str) -> List[Any]:
    items = expect_array(value, pointer, what, 0, MAX_INTEGER, what)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise violation(child_pointer(pointer, i), f"{what} items must be strings, got {shown(item)}")
    return items


def _validate_schema(request: Any) -> None:
    expect_object(request, "", "the request", ())
    for key, value, pointer in members(request, "", "the request", FIELDS):
        if key in ("predicted", "ground_truth"):
            if value is not None:
                _id_list(value, pointer, key)
        elif key == "items":
            if value is None:
                continue
            for i, item in enumerate(expect_array(value, pointer, "items", 1, MAX_INTEGER, "items")):
                item_pointer = child_pointer(pointer, i)
                expect_object(item, item_pointer, "an item", ("predicted", "ground_truth"))
                for item_key, item_value, member_pointer in members(item, item_pointer, "an item", ("predicted", "ground_truth")):
                    _id_list(item_value, member_pointer, item_key)
        elif key == "metrics":
            names = expect_array(value, pointer, "metrics", 1, len(METRICS), "metrics")
            seen = set()
            for i, name in enumerate(names):
                at = child_pointer(pointer, i)
                if not isinstance(name, str) or name not in METRICS:
                    raise violation(at, f"metrics items must be one of {', '.join(METRICS)}, got {shown(name)}")
                if name in seen:
                    raise violation(at, f"the metric {shown(name)} is listed twice")
                seen.add(name)
        elif value is not None:
            expect_number(value, pointer, "k", 1, MAX_INTEGER, integer=True)
    single = request.get("predicted") is not None or request.get("ground_truth") is not None
    batch = request.get("items") is not None
    if single and batch:
        raise violation("", "send either predicted + ground_truth or items, not both")
    if not batch and (request.get("predicted") is None or request.get("ground_truth") is None):
        raise violation("", "send predicted together with ground_truth, or a non-empty items list")


def _check_semantics(request: Mapping[str, Any]) -> None:
    """The first string holding a lone surrogate, in document order."""
    def check(values: List[str], pointer: str) -> None:
        for i, value in enumerate(values):
            if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
                raise EvaluationError("INVALID_UNICODE", f"{pointer}/{i}", f"{shown(value)} contains a lone surrogate; send well-formed Unicode")

    for key, value in request.items():
        if key in ("predicted", "ground_truth") and value is not None:
            check(value, "/" + key)
        elif key == "items" and value is not None:
            for i, item in enumerate(value):
                for item_key, item_value in item.items():
                    check(item_value, f"/items/{i}/{item_key}")


def _scores(predicted: List[str], ground_truth: List[str], k: Optional[int]) -> Dict[str, float]:
    kept: List[str] = []
    seen = set()
    for value in predicted:  # drop repeats (the first stays), then keep the first k
        if value not in seen:
            seen.add(value)
            kept.append(value)
    if k is not None:
        kept = kept[:k]
    p_set, g_set = set(kept), set(ground_truth)
    if not p_set and not g_set:
        return {m: 1.0 for m in METRICS}
    if not p_set or not g_set:
        return {m: 0.0 for m in METRICS}
    hits = len(p_set & g_set)
    precision, recall = hits / len(p_set), hits / len(g_set)

    def f_beta(b2: float) -> float:
        return (1.0 + b2) * precision * recall / (b2 * precision + recall) if precision + recall != 0 else 0.0

    return {"precision": precision, "recall": recall, "f1": f_beta(1.0), "f2": f_beta(4.0)}


def score(request: Mapping[str, Any], *, limits: LimitsLike = None) -> ScoreResponse:
    """Score predicted vs ground-truth ID sets (docs/contract.md §4, Mixpeek's response shape); pure Python.

    Same signature, output and errors as :func:`evalcore.score`.
    """
    lim = resolve_limits(limits, SCORE_LIMITS)
    if isinstance(request, Mapping) and not isinstance(request, dict):
        request = dict(request.items())
    request = read_request(request, lim)
    _validate_schema(request)
    _check_semantics(request)
    metrics: List[str] = list(request.get("metrics") or METRICS)
    k_value = request.get("k")
    k = None if k_value is None else int(k_value)
    if request.get("items") is not None:
        pairs = [(item["predicted"], item["ground_truth"]) for item in request["items"]]
    else:
        pairs = [(request["predicted"], request["ground_truth"])]
    per_item: List[ScoreMetrics] = []
    totals = [0.0] * len(metrics)
    for predicted, ground_truth in pairs:
        values = _scores(predicted, ground_truth, k)
        entry: Dict[str, float] = {}
        for i, metric in enumerate(metrics):
            entry[metric] = values[metric]
            totals[i] += values[metric]
        per_item.append(cast(ScoreMetrics, entry))  # (its keys are the metrics asked for)
    response: ScoreResponse = {
        "metrics": metrics,
        "k": k,
        "count": len(pairs),
        "per_item": per_item,
        "aggregate": cast(ScoreMetrics, {metric: totals[i] / len(pairs) for i, metric in enumerate(metrics)}),
    }
    if lim.output_bytes < MAX_INTEGER and len(compact_json(response)) > lim.output_bytes:
        raise EvaluationError("OUTPUT_LIMIT", "", f"the response would be over outputBytes = {lim.output_bytes}; send fewer items"
                                               f"{raise_hint('outputBytes')}")
    return response
