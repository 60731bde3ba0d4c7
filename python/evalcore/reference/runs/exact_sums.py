"""The pure-Python twin of :class:`evalcore.ExactSum`: the exact sum as a Python integer in
units of 2^-1074, the same serialized bytes, the same rounding."""

from __future__ import annotations

import math
from typing import Any, Iterable, Union, cast

from ...requests._arguments import exact_sum_data, exact_sum_form

# A finite double is an integer multiple of 2^-1074.
_SCALE_BITS = 1074
# The largest serialized form: the version byte and 276 bytes of two's complement, which hold
# the range of an exact sum, -2^2207 <= total < 2^2207 units (docs/contract.md §5).
_MAX_BYTES = 1 + 276
_LIMIT = 1 << (8 * (_MAX_BYTES - 1) - 1)
RANGE_MESSAGE = ("ExactSum: the total would leave [-2**1133, 2**1133), the range an exact sum holds "
                 "(its 277-byte serialized form, over 10**32 times the largest float): "
                 "scale the values down or keep separate sums")


def scaled(value: float) -> int:
    """A finite float as an integer in units of 2^-1074; ValueError for NaN or infinity."""
    if not math.isfinite(value):
        raise ValueError(f"an exact sum takes finite values only, got {value:f}")
    numerator, denominator = float.as_integer_ratio(value)
    return numerator << (_SCALE_BITS - (denominator.bit_length() - 1))


def rounded(total: int) -> float:
    """An integer in units of 2^-1074, rounded once to the nearest float (ties to even;
    ±inf past the largest)."""
    try:
        return total / (1 << _SCALE_BITS)  # int / int is correctly rounded
    except OverflowError:
        return math.inf if total > 0 else -math.inf


def in_range(total: int) -> int:
    """`total`, if an exact sum holds it; OverflowError otherwise (so every total has a form)."""
    if not -_LIMIT <= total < _LIMIT:
        raise OverflowError(RANGE_MESSAGE)
    return total


def to_bytes(total: int) -> bytes:
    """The serialized form: 0x01, then two's complement little-endian in the fewest bytes."""
    length = max(1, ((total if total >= 0 else ~total).bit_length() + 8) // 8)
    return b"\x01" + total.to_bytes(length, "little", signed=True)


def from_bytes(data: bytes) -> int:
    if not 2 <= len(data) <= _MAX_BYTES or data[0] != 1:
        raise ValueError(f"not a serialized exact sum (version 1, 2 to {_MAX_BYTES} bytes)")
    return int.from_bytes(data[1:], "little", signed=True)


class ExactSum:
    """The reference's exact sum (see :class:`evalcore.ExactSum`)."""

    __slots__ = ("_total",)

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._total = 0
        self.add(values)

    def add(self, values: Iterable[float]) -> "ExactSum":
        # The total is checked, not each partial sum: values may cancel back within one add.
        self._total = in_range(self._total + sum(scaled(float(v)) for v in _values(values)))
        return self

    def merge(self, other: Union["ExactSum", bytes, bytearray, memoryview]) -> "ExactSum":
        self._total = in_range(self._total + (other._total if isinstance(other, ExactSum)
                                              else from_bytes(exact_sum_form(other))))
        return self

    def to_bytes(self) -> bytes:
        return to_bytes(self._total)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "ExactSum":
        total = cls()
        total._total = from_bytes(exact_sum_data(data))
        return total

    def __float__(self) -> float:
        return rounded(self._total)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExactSum):
            return NotImplemented
        return self._total == other._total

    def __hash__(self) -> int:
        return hash(self._total)

    def __repr__(self) -> str:
        return f"ExactSum({float(self)!r})"


def _values(values: Any) -> Iterable[Any]:
    return cast("Iterable[Any]", values.tolist() if type(values).__module__ == "numpy" else values)
