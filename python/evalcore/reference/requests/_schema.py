"""Phase 2 of docs/validation-order.md: schema checks that raise SCHEMA_VIOLATION.

Each helper checks one value and returns it in the form the operation uses. A container's
own faults (type, missing field, size) are raised before anything inside it is looked at.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ...errors import EvaluationError
from ...limits import raise_hint
from ._reading import child_pointer, shown

def type_name(value: Any) -> str:
    """How a value's JSON type is named in messages."""
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return "a number"


def violation(pointer: str, message: str) -> EvaluationError:
    return EvaluationError("SCHEMA_VIOLATION", pointer, message)


def utf16_length(s: str) -> int:
    """Length in UTF-16 code units, as JavaScript counts it."""
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


def expect_object(value: Any, pointer: str, what: str, required: Sequence[str]) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise violation(pointer, f"{what} must be an object, got {type_name(value)}")
    for name in required:
        if name not in value:
            raise violation(pointer, f"{what} is missing the required field {name!r}")
    return value


def members(value: Dict[str, Any], pointer: str, what: str, known: Sequence[str]) -> Iterator[Tuple[str, Any, str]]:
    """The object's members in document order; an unknown key is a fault at its pointer."""
    for key, item in value.items():
        member_pointer = child_pointer(pointer, key)
        if key not in known:
            raise violation(member_pointer, f"{what} has no field {shown(key)}; allowed: {', '.join(known)}")
        yield key, item, member_pointer


def expect_array(value: Any, pointer: str, what: str, min_items: int, max_items: int, limit_name: str) -> List[Any]:
    if not isinstance(value, (list, tuple)):
        raise violation(pointer, f"{what} must be an array, got {type_name(value)}")
    if len(value) < min_items:
        raise violation(pointer, f"{what} needs at least {min_items} item(s), got {len(value)}")
    if len(value) > max_items:
        raise violation(pointer, f"{what} has {len(value)} items; the limit {limit_name} is {max_items}"
                                 f"{raise_hint(limit_name)}")
    return list(value)


def expect_string(value: Any, pointer: str, what: str, min_units: int = 1, max_units: int = 80,
                  limit_name: Optional[str] = None) -> str:
    """`limit_name`: the limit the maximum comes from, named with how to raise it when the
    value is over it (None: the contract fixes the maximum). So for expect_number."""
    if not isinstance(value, str):
        raise violation(pointer, f"{what} must be a string, got {type_name(value)}")
    units = utf16_length(value)
    if not min_units <= units <= max_units:
        raise violation(
            pointer, f"{what} must be {min_units} to {max_units} UTF-16 code units long, got {units}: {shown(value)}"
            + (f"; {max_units} is the {limit_name} limit{raise_hint(limit_name)}"
               if limit_name is not None and units > max_units else "")
        )
    return value


def expect_number(
    value: Any,
    pointer: str,
    what: str,
    minimum: float,
    maximum: float,
    *,
    exclusive_minimum: bool = False,
    integer: bool = False,
    limit_name: Optional[str] = None,
) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise violation(pointer, f"{what} must be {'an integer' if integer else 'a number'}, got {type_name(value)}")
    number = float(value)
    if integer and not number.is_integer():
        raise violation(pointer, f"{what} must be an integer, got {shown(value)}")
    low_ok = number > minimum if exclusive_minimum else number >= minimum
    if not (low_ok and number <= maximum):
        low = f"greater than {minimum:g}" if exclusive_minimum else f"at least {minimum:g}"
        over = f"; {maximum:g} is the {limit_name} limit{raise_hint(limit_name)}" if (
            limit_name is not None and not number <= maximum) else ""
        raise violation(pointer, f"{what} must be {low} and at most {maximum:g}, got {shown(value)}{over}")
    return number


def expect_enum(value: Any, pointer: str, what: str, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise violation(pointer, f"{what} must be one of {', '.join(map(repr, allowed))}, got {shown(value)}")
    return value
