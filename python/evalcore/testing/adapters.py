"""Adapters: your function, with the signature it has, read as one of evalcore's targets.

- :func:`qrels_run`: ``f(qrels, run) -> {query: value}`` (or pytrec_eval's
  ``{query: {measure: value}}``), compared per query with a measure of evaluate_run;
- :func:`span_prf`: ``f(y_true, y_pred) -> (precision, recall, f1)``, span lists of one
  document, compared with span-evaluate;
- :func:`set_scores`: ``f(predicted, ground_truth) -> {"precision": ..., ...}``, compared
  with score's per-item metrics;
- :func:`whole_request`: ``f(request) -> result-shaped dict`` (what a plain function given
  with an operation name is taken as).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence

__all__ = ["Adapter", "qrels_run", "set_scores", "span_prf", "whole_request"]

SCORE_METRICS = ("precision", "recall", "f1", "f2")


class Adapter(NamedTuple):
    """Your function and how to call it on a generated input.

    Attributes:
        function: your function.
        call: ``call(example, target_name)`` -> your value, shaped as evalcore's.
        operation: the operation it stands for, or None for a measure of evaluate_run.
        parameters: what the default strategy is given (e.g. ``{"match": "overlap"}``).
        undefined: what your function gives where evalcore's value is undefined (None:
            None, NaN or no entry).
    """

    function: Callable[..., Any]
    call: Callable[[Any, str], Any]
    operation: Optional[str]
    parameters: Mapping[str, Any]
    undefined: Any = None


def _name(function: Callable[..., Any]) -> str:
    return getattr(function, "__qualname__", None) or repr(function)


def whole_request(function: Callable[[Dict[str, Any]], Any], operation: str) -> Adapter:
    """``function(request)`` returning (part of) evalcore's result for `operation`; it is
    given a copy of each request."""
    return Adapter(function, lambda example, _: function(copy.deepcopy(example)), operation, {})


def _per_query(values: Any, key: Optional[str], measure: str) -> Any:
    if not isinstance(values, Mapping):
        return values  # the comparison says what is wrong
    out: Dict[Any, Any] = {}
    for query, value in values.items():
        if isinstance(value, Mapping):
            if key is not None:
                if key not in value:
                    raise KeyError(f"query {query!r}: your function's values have no key {key!r} (it has {sorted(value)})")
                value = value[key]
            elif measure in value:
                value = value[measure]
            elif len(value) == 1:
                value = next(iter(value.values()))
            else:
                raise KeyError(f"query {query!r}: your function gives several values {sorted(value)}; "
                               "say which one with qrels_run(f, key=...)")
        out[query] = value
    return out


def qrels_run(function: Callable[[Dict[str, Dict[str, Any]], Dict[str, Any]], Any], *, key: Optional[str] = None,
              undefined: Optional[float] = None) -> Adapter:
    """``function(qrels, run)`` returning ``{query_id: value}``, or pytrec_eval's
    ``{query_id: {measure: value}}`` (the entry named `key`, or the measure's name as
    given to assert_matches, or the only entry).

    qrels are ``{query: {doc: grade}}``, the run ``{query: {doc: score}}`` (copies).
    Where evalcore's value is undefined (nDCG with an ideal DCG of 0, AP without a
    relevant judgment...) yours may be absent, None or NaN; pytrec_eval and trec_eval
    give 0 there: say ``undefined=0.0``.
    """
    return Adapter(function,
                   lambda example, measure: _per_query(
                       function(copy.deepcopy(example["qrels"]), copy.deepcopy(example["run"])), key, measure),
                   None, {}, undefined)


def _prf(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (tuple, list)) and len(value) == len(names):
        return dict(zip(names, value))
    return value  # the comparison says what is wrong


def span_prf(function: Callable[..., Any], *, match: str = "exact", minimum_iou: float = 0.5, spans: str = "tuples",
             text: bool = False) -> Adapter:
    """``function(y_true, y_pred)`` of one document's reference and predicted spans,
    returning ``(precision, recall, f1)`` or a dict with those keys.

    Args:
        match: the matching your function does: ``"exact"`` (same label and offsets) or
            ``"overlap"`` (same label, IoU >= `minimum_iou`, one-to-one).
        minimum_iou: your IoU threshold (overlap).
        spans: ``"tuples"``: spans as ``(label, start, end)``; ``"dicts"``: as evalcore's
            ``{"id", "label", "start", "end"}``. Offsets are UTF-16 code units, end
            exclusive.
        text: also pass the document's text, as ``function(y_true, y_pred, text=...)``.

    Where precision or recall is undefined (no predictions, no references) evalcore's
    is 0, and so is F1 when both are 0.
    """
    if match not in ("exact", "overlap"):
        raise ValueError(f"match must be 'exact' or 'overlap'; got {match!r}")
    if spans not in ("tuples", "dicts"):
        raise ValueError(f"spans must be 'tuples' or 'dicts'; got {spans!r}")

    def shaped(span: Mapping[str, Any]) -> Any:
        if spans == "dicts":
            return {"id": span["id"], "label": span["label"], "start": span["start"], "end": span["end"]}
        return (span["label"], span["start"], span["end"])

    def call(request: Any, _: str) -> Any:
        y_true = [shaped(s) for s in request["references"]]
        y_pred = [shaped(s) for s in request["predictions"]]
        value = function(y_true, y_pred, text=request["text"]) if text else function(y_true, y_pred)
        return _prf(value, ("precision", "recall", "f1"))

    return Adapter(function, call, "span-evaluate", {"match": match, "minimum_iou": minimum_iou})


def set_scores(function: Callable[[List[str], List[str]], Any], *, k: Optional[int] = None,
               names: Optional[Mapping[str, str]] = None) -> Adapter:
    """``function(predicted, ground_truth)`` of two ID lists, returning a dict of some of
    ``precision``, ``recall``, ``f1``, ``f2`` (or a tuple of all four in that order),
    compared with score's per-item values.

    Args:
        k: the cutoff your function applies to the predictions (None: all of them).
        names: your keys for evalcore's, e.g. ``{"f1_score": "f1"}``.

    evalcore scores sets: repeated predictions count once (the first kept, then the first
    k kept), both lists empty is 1 for every metric, one empty is 0.
    """
    renames = dict(names or {})
    unknown = set(renames.values()) - set(SCORE_METRICS)
    if unknown:
        raise ValueError(f"names must map your keys to {', '.join(SCORE_METRICS)}; got {sorted(unknown)}")

    def call(request: Any, _: str) -> Any:
        value = _prf(function(list(request["predicted"]), list(request["ground_truth"])), SCORE_METRICS)
        if isinstance(value, dict):
            value = {renames.get(key, key): v for key, v in value.items()}
        return {"per_item": [value]}

    parameters: Dict[str, Any] = {"form": "pair", "k": k, "metrics": list(SCORE_METRICS)}
    return Adapter(function, call, "score", parameters)


def adapter_for(function: Any, operation: Optional[str]) -> Adapter:
    """`function` as an Adapter: itself if it is one, else :func:`whole_request` for an
    operation and :func:`qrels_run` for a measure (`operation` None)."""
    if isinstance(function, Adapter):
        return function
    if not callable(function):
        raise TypeError(f"their_fn must be a function or an evalcore.testing.adapters adapter; got {type(function).__name__}")
    return whole_request(function, operation) if operation is not None else qrels_run(function)


def described(adapter: Adapter) -> str:
    """The adapted function's name, for messages."""
    return _name(adapter.function)
