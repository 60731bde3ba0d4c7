"""Comparing your function's values with evalcore's: where they first differ.

Values are JSON-like trees. Numbers compare by value within an absolute `tolerance`
(0.0: exactly equal; ``1`` equals ``1.0``, ``-0.0`` equals ``0.0``); None and NaN both
mean "undefined"; booleans are not numbers; strings, lists and dicts compare exactly.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Collection, List, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = ["ABSENT", "Difference", "Path", "differs", "first_difference", "format_path", "per_key_difference"]

Key = Union[str, int]
Path = Tuple[Key, ...]


class _Absent:
    """A value one side does not have."""

    def __repr__(self) -> str:
        return "(absent)"


#: What a side holds at a path it does not have.
ABSENT: Any = _Absent()


class Difference(NamedTuple):
    """The first place where the two values differ."""

    path: Path
    theirs: Any
    evalcore: Any
    reason: str


def format_path(path: Path) -> str:
    """``("queries", 0, "ndcgAtK")`` as ``queries[0].ndcgAtK``; a query key as ``["q1"]``."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        elif key.isidentifier():
            out += f".{key}" if out else key
        else:
            out += f"[{key!r}]"
    return out or "(the whole value)"


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _undefined(value: Any) -> bool:
    return value is None or (_is_number(value) and math.isnan(float(value)))


def differs(theirs: Any, expected: Any, tolerance: float) -> Optional[str]:
    """Why two leaf values differ, or None when they agree."""
    if _undefined(expected) or _undefined(theirs):
        if _undefined(expected) and _undefined(theirs):
            return None
        return "evalcore's value is undefined here" if _undefined(expected) else "yours is undefined, evalcore's is not"
    if _is_number(expected) and _is_number(theirs):
        a, b = float(theirs), float(expected)
        if a == b or (tolerance > 0 and abs(a - b) <= tolerance):
            return None
        if tolerance > 0:
            return f"they differ by {abs(a - b):.3g}, more than the tolerance {tolerance:g}"
        return f"they differ by {abs(a - b):.3g}" if math.isfinite(a - b) else "they differ"
    if type(theirs) is not type(expected) and not (isinstance(theirs, str) and isinstance(expected, str)):
        return f"yours is a {type(theirs).__name__}, evalcore's a {type(expected).__name__}"
    return None if theirs == expected else "they differ"


def _wanted(path: Path, fields: Optional[Collection[str]]) -> bool:
    return fields is None or any(isinstance(key, str) and key in fields for key in path)


def first_difference(theirs: Any, expected: Any, *, tolerance: float = 0.0, fields: Optional[Collection[str]] = None,
                     path: Path = (), counted: Optional[List[int]] = None) -> Optional[Difference]:
    """The first difference, walking what *your* function returned: every field you
    return must be one evalcore has, with the same value; fields you leave out are not
    compared. With `fields`, only leaves with one of those keys on their path are.
    `counted[0]` is increased by the number of leaves compared."""
    if isinstance(theirs, dict):
        if not isinstance(expected, dict):
            return None if not _any_wanted(theirs, path, fields) else Difference(
                path, theirs, expected, f"yours is an object, evalcore's a {type(expected).__name__}")
        for key, value in theirs.items():
            if key not in expected:
                if _any_wanted(value, path + (key,), fields):
                    return Difference(path + (key,), value, ABSENT, "evalcore has no such field")
                continue
            found = first_difference(value, expected[key], tolerance=tolerance, fields=fields, path=path + (key,),
                                     counted=counted)
            if found:
                return found
        return None
    if isinstance(theirs, (list, tuple)):
        if not isinstance(expected, list):
            return None if not _any_wanted(theirs, path, fields) else Difference(
                path, theirs, expected, f"yours is a list, evalcore's a {type(expected).__name__}")
        if len(theirs) != len(expected) and _any_wanted(theirs, path, fields):
            return Difference(path, theirs, expected, f"yours has {len(theirs)} entries, evalcore's {len(expected)}")
        for i, (value, other) in enumerate(zip(theirs, expected)):
            found = first_difference(value, other, tolerance=tolerance, fields=fields, path=path + (i,), counted=counted)
            if found:
                return found
        return None
    if not _wanted(path, fields):
        return None
    if counted is not None:
        counted[0] += 1
    reason = differs(theirs, expected, tolerance)
    return Difference(path, theirs, expected, reason) if reason else None


def _any_wanted(value: Any, path: Path, fields: Optional[Collection[str]]) -> bool:
    """Whether any leaf of `value` (at `path`) is to be compared."""
    if fields is None or _wanted(path, fields):
        return True
    if isinstance(value, dict):
        return any(_any_wanted(v, path + (k,), fields) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_any_wanted(v, path + (i,), fields) for i, v in enumerate(value))
    return False


def per_key_difference(theirs: Any, expected: Sequence[Tuple[str, Any]], *, tolerance: float = 0.0,
                       undefined: Any = None, counted: Optional[List[int]] = None) -> Optional[Difference]:
    """For per-query values: every key evalcore has must be in `theirs` with the same
    value (where evalcore's is undefined, yours may be absent, None, NaN or `undefined`),
    and `theirs` may have no other key with a defined value."""
    if not isinstance(theirs, dict):
        return Difference((), theirs, dict(expected), f"yours is a {type(theirs).__name__}, not a dict of query IDs")
    for key, value in expected:
        mine = theirs.get(key, ABSENT)
        if counted is not None:
            counted[0] += 1
        if _undefined(value):
            if mine is ABSENT or _undefined(mine) or (undefined is not None and differs(mine, undefined, tolerance) is None):
                continue
            return Difference((key,), mine, value, "evalcore's value is undefined here"
                              + ("" if undefined is None else f" (and yours is not {undefined!r})"))
        if mine is ABSENT:
            return Difference((key,), ABSENT, value, "you give no value for this query")
        reason = differs(mine, value, tolerance)
        if reason:
            return Difference((key,), mine, value, reason)
    known = {key for key, _ in expected}
    for key, mine in theirs.items():
        if key not in known and not _undefined(mine):
            return Difference((key,), mine, ABSENT, "evalcore does not score this query")
    return None
