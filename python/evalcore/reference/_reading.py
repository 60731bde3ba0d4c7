"""Phase 1 of docs/validation-order.md: reading a Python value as JSON (parse-level codes)."""

from __future__ import annotations

import math
from typing import Any, List

from ..errors import EvaluationError
from ..limits import Limits
from ._json import ecma_number, json_string, json_string_size

UNSAFE_KEYS = frozenset({"__proto__", "constructor", "prototype"})


def child_pointer(pointer: str, key: Any) -> str:
    """RFC 6901: append one reference token."""
    return pointer + "/" + str(key).replace("~", "~0").replace("/", "~1")


def shown(value: Any) -> str:
    """A value as it appears in messages: JSON-like, at most 80 characters."""
    text = json_string(value) if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def read_request(value: Any, limits: Limits) -> None:
    """Check the parse-level rules in document order; raise on the first fault."""
    nodes = 0
    size = 0
    stack: List[list] = []  # [is_object, iterator, pointer, depth, index]

    def grow(n: int) -> None:
        nonlocal size
        size += n
        if size > limits.input_bytes:
            raise EvaluationError(
                "INPUT_LIMIT", "", f"the request's canonical JSON is longer than inputBytes = {limits.input_bytes} bytes"
            )

    def enter(v: Any, pointer: str, depth: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > limits.json_nodes:
            raise EvaluationError("INPUT_LIMIT", "", f"the request has more than jsonNodes = {limits.json_nodes} JSON values")
        if isinstance(v, (dict, list, tuple)):
            if depth > limits.json_depth:
                raise EvaluationError(
                    "INPUT_LIMIT", pointer, f"containers are nested deeper than jsonDepth = {limits.json_depth}"
                )
            grow(2)
            stack.append([isinstance(v, dict), iter(v.items() if isinstance(v, dict) else v), pointer, depth, 0])
        elif isinstance(v, str):
            grow(json_string_size(v))
        elif v is True:
            grow(4)
        elif v is False:
            grow(5)
        elif v is None:
            grow(4)
        elif isinstance(v, int):
            try:
                number = float(v)
            except OverflowError:
                raise EvaluationError(
                    "NUMERIC_OVERFLOW", pointer, f"an integer of {v.bit_length()} bits is too large for a binary64 number"
                ) from None
            grow(len(ecma_number(number)))
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise EvaluationError("INVALID_NUMBER", pointer, f"{v!r} is not a JSON number; use a finite number")
            grow(len(ecma_number(v)))
        else:
            raise EvaluationError(
                "SCHEMA_VIOLATION", pointer, f"a {type(v).__name__} has no JSON form; use dict, list, str, int, float, bool or None"
            )

    enter(value, "", 1)
    while stack:
        frame = stack[-1]
        is_object, iterator, pointer, depth, index = frame
        try:
            item = next(iterator)
        except StopIteration:
            stack.pop()
            continue
        frame[4] = index + 1
        if is_object:
            key, child = item
            if not isinstance(key, str):
                raise EvaluationError(
                    "SCHEMA_VIOLATION", pointer, f"object keys must be strings, got the {type(key).__name__} {shown(key)}"
                )
            child_ptr = child_pointer(pointer, key)
            if key in UNSAFE_KEYS:
                raise EvaluationError("UNSAFE_KEY", child_ptr, f"the key {shown(key)} is not allowed anywhere in a request")
            grow(json_string_size(key) + 1 + (1 if index else 0))
            enter(child, child_ptr, depth + 1)
        else:
            if index:
                grow(1)
            enter(item, child_pointer(pointer, index), depth + 1)
