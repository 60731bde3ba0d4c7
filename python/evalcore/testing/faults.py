"""Hypothesis strategies for broken requests: valid ones with faults put in anywhere, and
small limits. For checking that your validation rejects what evalcore rejects, by
comparing outcomes; :mod:`evalcore.testing.invalid` gives requests whose exact error
code and pointer are known in advance."""

from __future__ import annotations

import copy
from typing import Any, Callable, List, Optional, Tuple

from hypothesis import strategies as st

from ..limits import Limits
from ._text import utf16_length
from .strategies import ranking_requests, score_requests, span_documents, span_requests

__all__ = ["OPERATIONS", "arbitrary_requests", "mutated", "request_limits", "shifted_offsets"]

Draw = Callable[..., Any]

#: The operations, by the names evaluate_json and the CLI use.
OPERATIONS = ("ranking-evaluate", "span-evaluate", "score")

# Values that break some rule wherever they land (copied on every draw: mutations must never
# touch the shared originals, or generation would depend on earlier examples).
_ODD_VALUES = st.sampled_from(
    [
        None, True, False, 0, -1, 11, 101, 1.5, -0.0, 2**53 + 1, 1e308, 10**400, -(10**400),
        float("nan"), float("inf"), float("-inf"), "", "x", "\ud800", "a\udfffb", "\ud83d\ude00",
        "😀" * 40, "😀" * 41, "y" * 81, "exponential", "nonrelevant", [], {}, {"__proto__": 1},
        {"id": "a", "grade": 1}, [[[[[[["deep"]]]]]]], (1, 2), b"bytes", {1, 2},
    ]
).map(copy.deepcopy)
_ODD_KEYS = st.sampled_from(["extra", "__proto__", "constructor", "prototype", "Queries", "k", "id", "grade", "a/b~"])


def _locations(value: Any) -> List[Tuple[Any, Any]]:
    """Every (container, key-or-index) in the value."""
    out: List[Tuple[Any, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                out.append((node, key))
                stack.append(item)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                out.append((node, i))
                stack.append(item)
    return out


@st.composite
def mutated(draw: Draw, base: st.SearchStrategy[Any]) -> Any:
    """A value of `base` with one to three faults put in anywhere: a part replaced by an odd
    value (wrong types, out-of-range numbers, NaN, 10**400, lone surrogates, unsafe keys,
    deep nesting, sets and bytes), removed, added, repeated, reordered, or a lone surrogate
    inserted into a string. The result may still be valid."""
    value = copy.deepcopy(draw(base))
    for _ in range(draw(st.integers(1, 3))):
        places = _locations(value)
        if not places:
            break
        container, key = draw(st.sampled_from(places))
        action = draw(st.sampled_from(["replace", "replace", "remove", "add", "repeat", "reorder", "surrogate"]))
        if action == "replace":
            container[key] = draw(_ODD_VALUES)
        elif action == "remove":
            del container[key]
        elif action == "add":
            if isinstance(container, dict):
                container[draw(_ODD_KEYS)] = draw(_ODD_VALUES)
            else:
                container.insert(draw(st.integers(0, len(container))), draw(_ODD_VALUES))
        elif action == "repeat":
            if isinstance(container, list):
                container.insert(draw(st.integers(0, len(container))), copy.deepcopy(container[key]))
        elif action == "reorder":
            if isinstance(container, dict):
                items = draw(st.permutations(list(container.items())))
                container.clear()
                container.update(items)
        elif isinstance(container[key], str) and container[key]:
            text = container[key]
            cut = draw(st.integers(0, len(text)))
            container[key] = text[:cut] + draw(st.sampled_from(["\ud800", "\udc00", "\ud83d\ude00"])) + text[cut:]
    return value


@st.composite
def shifted_offsets(draw: Draw, base: st.SearchStrategy[Any]) -> Any:
    """A span request of `base` with one span's start or end moved anywhere in or just past
    the text (reversed, empty, past the end, inside a surrogate pair), and sometimes made
    a duplicate of another span's label and offsets."""
    request = copy.deepcopy(draw(base))
    spans = request["references"] + request["predictions"]
    if spans:
        span = draw(st.sampled_from(spans))
        span[draw(st.sampled_from(["start", "end"]))] = draw(st.integers(0, utf16_length(request["text"]) + 2))
        if len(spans) > 1 and draw(st.booleans()):
            other = draw(st.sampled_from(spans))
            span.update(label=other["label"], start=other["start"], end=other["end"])
    return request


def arbitrary_requests(operation: str) -> st.SearchStrategy[Any]:
    """Valid and broken requests of one operation mixed: the valid strategy, :func:`mutated`
    of it, and (span-evaluate) :func:`shifted_offsets`. Compare outcomes, not results."""
    if operation == "ranking-evaluate":
        return st.one_of(ranking_requests(), mutated(ranking_requests()))
    if operation == "span-evaluate":
        return st.one_of(span_requests(), mutated(span_requests()), shifted_offsets(span_requests()))
    if operation == "score":
        return st.one_of(score_requests(), mutated(score_requests()))
    if operation == "span-document":
        return st.one_of(span_documents(), span_documents(), mutated(span_documents()))
    raise ValueError(f"operation must be one of {', '.join(OPERATIONS)} (or 'span-document'); got {operation!r}")


def _small_or_default(name: str, low: int, high: int) -> st.SearchStrategy[int]:
    return st.one_of(st.just(getattr(Limits(), name)), st.integers(low, high))


def request_limits(operation: str) -> st.SearchStrategy[Optional[Limits]]:
    """None (the defaults) or :class:`evalcore.Limits` with some limits small enough to be
    reached by generated requests: input and output bytes, nesting, value counts, and the
    operation's own (queries, retrieved, judgments and k; or text length, span counts and
    matching steps)."""
    if operation == "span-evaluate":
        return st.one_of(st.none(), st.builds(
            Limits,
            matching_steps=st.integers(1, 40),
            text_utf16_units=_small_or_default("text_utf16_units", 1, 20),
            references=_small_or_default("references", 1, 6),
            predictions=_small_or_default("predictions", 1, 6),
            output_bytes=_small_or_default("output_bytes", 200, 3000),
            json_nodes=_small_or_default("json_nodes", 5, 120),
        ))
    if operation in ("ranking-evaluate", "score"):
        return st.one_of(st.none(), st.builds(
            Limits,
            input_bytes=_small_or_default("input_bytes", 20, 3000),
            output_bytes=_small_or_default("output_bytes", 50, 20000),
            json_depth=_small_or_default("json_depth", 1, 6),
            json_nodes=_small_or_default("json_nodes", 3, 80),
            queries=_small_or_default("queries", 1, 5),
            retrieved_per_query=_small_or_default("retrieved_per_query", 1, 10),
            judgments_per_query=_small_or_default("judgments_per_query", 1, 10),
            max_k=_small_or_default("max_k", 1, 12),
        ))
    raise ValueError(f"operation must be one of {', '.join(OPERATIONS)}; got {operation!r}")
