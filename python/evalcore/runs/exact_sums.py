"""Exact, order-independent sums of floats: what the means of :func:`evalcore.evaluate_run`
are made of (docs/contract.md §5), for code that sums per-query values in parts, on threads,
blocks or machines, and needs the very bits one machine gives.

    total = ExactSum(values_a)
    total.merge(ExactSum.from_bytes(bytes_from_elsewhere))
    float(total)   # the exact sum, rounded once to the nearest float (ties to even)

The serialized form (:meth:`ExactSum.to_bytes`) is the byte 0x01, then the exact sum as an
integer N in units of 2^-1074, two's complement, little-endian, in the fewest bytes that hold
it (at least one); the same bytes on every platform and from the pure-Python twin
:class:`evalcore.reference.ExactSum`.

The range: a sum holds every total in [-2**1133, 2**1133) exactly (what the form's largest
size, 277 bytes, holds: over 10**32 times the largest float), so totals past the largest float
are kept and cancel back exactly; ``float()`` of one is ±inf, as IEEE rounding of the exact
total gives. An add or merge whose total would leave the range is an OverflowError and
changes nothing.
"""

from __future__ import annotations

from typing import Any, Iterable, Union

from .. import _core
from ..requests._arguments import exact_sum_data, exact_sum_form


class ExactSum:
    """The exact sum of finite floats (NaN and infinities are a ValueError), kept without
    rounding; adding or merging in any order gives the same bits. Totals outside
    [-2**1133, 2**1133) are an OverflowError (see the module's documentation)."""

    __slots__ = ("_state",)

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._state = _core.exact_sum_state(_as_values(values))

    def add(self, values: Iterable[float]) -> "ExactSum":
        """Adds floats (a sequence, or a one-dimensional float64 array); returns self.
        OverflowError, and nothing added, if the total would leave the range."""
        self._state = _core.exact_sum_state(_as_values(values), self._state)
        return self

    def merge(self, other: Union["ExactSum", bytes, bytearray, memoryview]) -> "ExactSum":
        """Adds another sum (an ExactSum, or its to_bytes() as bytes, a bytearray or a
        memoryview: anything else is a TypeError); returns self. OverflowError, and nothing
        merged, if the total would leave the range."""
        state = other._state if isinstance(other, ExactSum) else exact_sum_form(other)
        self._state = _core.exact_sum_merge([self._state, state])
        return self

    def to_bytes(self) -> bytes:
        """The serialized form (see the module's documentation)."""
        return self._state

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "ExactSum":
        """The sum `data` (made by to_bytes, here or elsewhere) holds: bytes, a bytearray or a
        memoryview (TypeError for anything else, before any copy); ValueError for bytes that
        are not such a form."""
        total = cls()
        total._state = _core.exact_sum_merge([exact_sum_data(data)])
        return total

    def __float__(self) -> float:
        return _core.exact_sum_value(self._state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExactSum):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return f"ExactSum({float(self)!r})"


def _as_values(values: Any) -> Any:
    if hasattr(values, "__buffer__") or type(values).__module__ == "numpy":
        return values
    return values if isinstance(values, (list, tuple)) else list(values)
