"""Phase 1 of docs/validation-order.md: reading a Python value as JSON (parse-level codes)."""

from __future__ import annotations

import math
from typing import Any, List

from ...errors import EvaluationError
from ...limits import Limits, raise_hint
from ._json import ecma_number, json_string, json_string_size

UNSAFE_KEYS = frozenset({"__proto__", "constructor", "prototype"})


def child_pointer(pointer: str, key: Any) -> str:
    """RFC 6901: append one reference token."""
    return pointer + "/" + str(key).replace("~", "~0").replace("/", "~1")


def shown(value: Any) -> str:
    """A value as it appears in messages: JSON-like, at most 80 characters."""
    text = json_string(value) if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def plain_str(value: str) -> str:
    """A str subclass's text as an exact str (its own methods are not called)."""
    return value if type(value) is str else str.__str__(value)


def _entries(value: Any) -> List[Any]:
    """A container's entries as the native reader takes them, as json.dumps does: an exact
    dict's items, a dict subclass's items() (each must be a (key, value) tuple), a list's or
    tuple's stored items (a subclass's methods are not called). Taken once, on entry."""
    if type(value) is dict:
        return list(dict.items(value))
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return list.copy(value)
    return [tuple.__getitem__(value, i) for i in range(tuple.__len__(value))]


def read_request(value: Any, limits: Limits, *, nodes_before: int = 0, whole: str = "the request") -> Any:
    """Check the parse-level rules in document order; raise on the first fault. Returns the
    request as plain dict/list/str/int/float/bool/None (what the later phases read), so
    that no method of a caller's subclass runs after this.

    `nodes_before` values were counted already (by earlier documents of a corpus, whose
    jsonNodes limit is a total); `whole` names what the limit applies to in messages."""
    nodes = nodes_before
    size = 0
    # [is_object, entries, position, pointer, depth, copy, type name, the container as given]
    stack: List[List[Any]] = []
    root: List[Any] = []

    def grow(n: int) -> None:
        nonlocal size
        size += n
        if size > limits.input_bytes:
            raise EvaluationError(
                "INPUT_LIMIT", "", f"{whole}'s canonical JSON is longer than inputBytes = {limits.input_bytes} bytes"
                f"{raise_hint('inputBytes')}"
            )

    def enter(v: Any, pointer: str, depth: int) -> Any:
        nonlocal nodes
        nodes += 1
        if nodes > limits.json_nodes:
            raise EvaluationError("INPUT_LIMIT", "", f"{whole} has more than jsonNodes = {limits.json_nodes} JSON values"
                                  f"{raise_hint('jsonNodes')}")
        if isinstance(v, (dict, list, tuple)):
            if any(frame[7] is v for frame in stack):
                raise EvaluationError(
                    "INPUT_LIMIT", pointer, "this value contains itself (a reference cycle), so it has no JSON form"
                )
            if depth > limits.json_depth:
                raise EvaluationError(
                    "INPUT_LIMIT", pointer, f"containers are nested deeper than jsonDepth = {limits.json_depth}{raise_hint('jsonDepth')}"
                )
            grow(2)
            is_object = isinstance(v, dict)
            copy: Any = {} if is_object else []
            stack.append([is_object, _entries(v), 0, pointer, depth, copy, tp_name(v), v])
            return copy
        if isinstance(v, str):
            text = plain_str(v)
            grow(json_string_size(text))
            return text
        if v is True:
            grow(4)
            return True
        if v is False:
            grow(5)
            return False
        if v is None:
            grow(4)
            return None
        if isinstance(v, int):
            exact = int.__index__(v)
            try:
                number = float(exact)
            except OverflowError:
                raise EvaluationError(
                    "NUMERIC_OVERFLOW", pointer, f"an integer of {exact.bit_length()} bits is too large for a binary64 number"
                ) from None
            grow(len(ecma_number(number)))
            return exact
        if isinstance(v, float):
            exact_float = float.__float__(v)
            if not math.isfinite(exact_float):
                raise EvaluationError("INVALID_NUMBER", pointer, f"{exact_float!r} is not a JSON number; use a finite number")
            grow(len(ecma_number(exact_float)))
            return exact_float
        raise EvaluationError(
            "SCHEMA_VIOLATION", pointer, f"a {tp_name(v)} has no JSON form; use dict, list, str, int, float, bool or None"
        )

    root.append(enter(value, "", 1))
    while stack:
        frame = stack[-1]
        is_object, entries, index, pointer, depth, copy, type_name, origin = frame
        if index == len(entries):
            stack.pop()
            continue
        frame[2] = index + 1
        item = entries[index]
        if is_object:
            if type(origin) is not dict and (not isinstance(item, tuple) or tuple.__len__(item) != 2):
                raise EvaluationError("SCHEMA_VIOLATION", pointer, f"the items() of a {type_name} must give (key, value) tuples")
            key, child = tuple.__getitem__(item, 0), tuple.__getitem__(item, 1)
            if not isinstance(key, str):
                raise EvaluationError("SCHEMA_VIOLATION", pointer, f"object keys must be strings, got a {tp_name(key)}")
            key = plain_str(key)
            child_ptr = child_pointer(pointer, key)
            if key in UNSAFE_KEYS:
                raise EvaluationError("UNSAFE_KEY", child_ptr, f"the key {shown(key)} is not allowed anywhere in a request")
            grow(json_string_size(key) + 1 + (1 if index else 0))
            if key in copy:  # only a dict subclass's items() can give a key twice
                raise EvaluationError("DUPLICATE_FIELD", child_ptr, "this key appears more than once in its object")
            copy[key] = enter(child, child_ptr, depth + 1)
        else:
            if index:
                grow(1)
            copy.append(enter(item, child_pointer(pointer, index), depth + 1))
    return root[0]


def read_nodes(value: Any) -> int:
    """How many JSON values a plain request (one :func:`read_request` returned) holds."""
    count = 0
    stack = [value]
    while stack:
        v = stack.pop()
        count += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return count


def tp_name(value: Any) -> str:
    """The type's name as CPython's tp_name spells it (what the native core quotes)."""
    kind = type(value)
    if kind.__flags__ & (1 << 9) or kind.__module__ == "builtins":  # a heap type (a class) or a builtin
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"
