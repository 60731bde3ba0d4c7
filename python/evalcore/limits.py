"""Per-request limits (SPEC §1.4). The defaults are the contract's; callers may change them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, Tuple, Union


@dataclass(frozen=True)
class Limits:
    """Limits applied to one request. Every field is a positive integer.

    ``input_bytes`` applies to the raw body, or for a ``dict`` to the length of its
    canonical JSON; ``output_bytes`` to the compact serialization of ``result``.
    """

    input_bytes: int = 100_000
    output_bytes: int = 400_000
    json_depth: int = 20
    json_nodes: int = 12_000
    queries: int = 50
    retrieved_per_query: int = 100
    judgments_per_query: int = 100
    max_k: int = 100
    text_utf16_units: int = 50_000
    references: int = 100
    predictions: int = 100
    matching_steps: int = 2_000_000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Limits.{f.name} must be an int, got {type(value).__name__}")
            if not 1 <= value <= 2**53 - 1:
                raise ValueError(f"Limits.{f.name} must be between 1 and 2**53-1, got {value}")
        # The native core takes the values as one tuple; build it once.
        object.__setattr__(self, "_as_tuple", tuple(getattr(self, f.name) for f in fields(self)))

    def as_tuple(self) -> Tuple[int, ...]:
        """The values in field order (the order the native core expects)."""
        return self._as_tuple  # type: ignore[attr-defined,no-any-return]

    def as_dict(self) -> dict:
        """The limits as a plain dict keyed by field name."""
        return asdict(self)


DEFAULT_LIMITS = Limits()

_UNBOUNDED = 2**53 - 1
#: score has no per-request size limits in the contract; these are its defaults.
SCORE_LIMITS = Limits(input_bytes=_UNBOUNDED, output_bytes=_UNBOUNDED, json_nodes=_UNBOUNDED)

LimitsLike = Union[Limits, Mapping[str, Any], None]


def resolve_limits(limits: LimitsLike) -> Limits:
    """Accept ``None`` (the contract's defaults), a :class:`Limits`, or a mapping of overrides."""
    if limits is None:
        return DEFAULT_LIMITS
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, Mapping):
        known = {f.name for f in fields(Limits)}
        unknown = sorted(set(limits) - known)
        if unknown:
            raise TypeError(f"unknown limit(s) {unknown}; known: {sorted(known)}")
        return Limits(**limits)
    raise TypeError(f"limits must be None, a Limits or a mapping, got {type(limits).__name__}")

