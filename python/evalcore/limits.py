"""Per-request limits (docs/contract.md §1.4). The defaults are the contract's; callers may change them."""

from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Tuple, Union

#: The fields of :class:`Limits`, in the order the native core takes their values.
_FIELDS = ("input_bytes", "output_bytes", "json_depth", "json_nodes", "queries", "retrieved_per_query",
           "judgments_per_query", "max_k", "text_utf16_units", "references", "predictions", "matching_steps")


class Limits:
    """Limits applied to one request. Every field is a positive integer.

    ``input_bytes`` applies to the raw body, or for a ``dict`` to the length of its
    canonical JSON; ``output_bytes`` to the compact serialization of ``result``.

    Immutable, compared and hashed by value. A plain class rather than a dataclass: the
    ``dataclasses`` module imports ``inspect``, about 7 ms of every ``evalcore trec``
    command (bench/bench_trec_cli.py). :meth:`replace` does what ``dataclasses.replace`` did.
    """

    __slots__ = _FIELDS + ("_as_tuple",)
    #: The field names, in the order :meth:`as_tuple` gives their values.
    FIELDS: Tuple[str, ...] = _FIELDS

    input_bytes: int
    output_bytes: int
    json_depth: int
    json_nodes: int
    queries: int
    retrieved_per_query: int
    judgments_per_query: int
    max_k: int
    text_utf16_units: int
    references: int
    predictions: int
    matching_steps: int
    _as_tuple: Tuple[int, ...]

    def __init__(self, input_bytes: int = 100_000, output_bytes: int = 400_000, json_depth: int = 20,
                 json_nodes: int = 12_000, queries: int = 50, retrieved_per_query: int = 100,
                 judgments_per_query: int = 100, max_k: int = 100, text_utf16_units: int = 50_000,
                 references: int = 100, predictions: int = 100, matching_steps: int = 2_000_000) -> None:
        values = (input_bytes, output_bytes, json_depth, json_nodes, queries, retrieved_per_query,
                  judgments_per_query, max_k, text_utf16_units, references, predictions, matching_steps)
        for name, value in zip(self.FIELDS, values):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Limits.{name} must be an int, got {type(value).__name__}")
            if not 1 <= value <= 2**53 - 1:
                raise ValueError(f"Limits.{name} must be between 1 and 2**53-1, got {value}")
            object.__setattr__(self, name, value)
        # The native core takes the values as one tuple; build it once.
        object.__setattr__(self, "_as_tuple", values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Limits is immutable: cannot set {name!r}; make another with .replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Limits is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._as_tuple == other._as_tuple

    def __hash__(self) -> int:
        return hash(self._as_tuple)

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{name}={value!r}" for name, value in zip(self.FIELDS, self._as_tuple)) + ")"

    def __reduce__(self) -> Tuple[Any, Tuple[int, ...]]:
        return (self.__class__, self._as_tuple)

    def as_tuple(self) -> Tuple[int, ...]:
        """The values in field order (the order the native core expects)."""
        return self._as_tuple

    def as_dict(self) -> Dict[str, int]:
        """The limits as a plain dict keyed by field name."""
        return dict(zip(self.FIELDS, self._as_tuple))

    def replace(self, **changes: int) -> "Limits":
        """A copy with the given fields changed (``DEFAULT_LIMITS.replace(queries=1000)``)."""
        unknown = sorted(set(changes) - set(self.FIELDS))
        if unknown:
            raise TypeError(f"unknown limit(s) {unknown}; known: {sorted(self.FIELDS)}")
        return Limits(**{**self.as_dict(), **changes})


DEFAULT_LIMITS = Limits()

_UNBOUNDED = 2**53 - 1
#: score's defaults. The contract sets no size limits for score, but a library that services
#: embed must bound what a request can cost: nested or shared lists (one list given a
#: million times) are read value by value. 1 GiB of canonical JSON and 10 million values
#: (a batch of 400,000 items of 10 + 10 IDs) bound it; raise them with ``limits=``.
SCORE_LIMITS = Limits(input_bytes=2**30, output_bytes=_UNBOUNDED, json_nodes=10_000_000)

#: span_evaluate_corpus's defaults: ``json_depth`` and ``matching_steps`` apply to each
#: document, ``json_nodes`` to the values of all documents together. No other limit applies
#: to a corpus (its documents' texts and span lists have no length limit).
CORPUS_LIMITS = Limits(json_nodes=10_000_000)
CORPUS_LIMIT_FIELDS = ("json_depth", "json_nodes", "matching_steps")

LimitsLike = Union[Limits, Mapping[str, Any], None]


def raise_hint(name: str) -> str:
    """What a limit's error message ends with: how to raise it. `name` is the contract's
    name (``jsonDepth``); the keyword is its snake_case (``json_depth``), as in Limits."""
    field = re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)
    return f'; raise it with limits={{"{field}": N}}'


def resolve_corpus_limits(limits: LimitsLike) -> Limits:
    """span_evaluate_corpus's limits: ``None`` (:data:`CORPUS_LIMITS`), a :class:`Limits`
    (its corpus fields are used), or a mapping of overrides of the corpus fields."""
    if limits is None:
        return CORPUS_LIMITS
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, Mapping):
        other = sorted(set(limits) - set(CORPUS_LIMIT_FIELDS))
        if other:
            raise TypeError(f"a corpus takes only the limits {list(CORPUS_LIMIT_FIELDS)}; got {other}")
        return Limits(**{**CORPUS_LIMITS.as_dict(), **limits})
    raise TypeError(f"limits must be None, a Limits or a mapping, got {type(limits).__name__}")


def resolve_limits(limits: LimitsLike, base: Limits = DEFAULT_LIMITS) -> Limits:
    """Accept ``None`` (`base`: the contract's defaults unless told), a :class:`Limits`, or a
    mapping of overrides of `base`'s fields."""
    if limits is None:
        return base
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, Mapping):
        known = set(Limits.FIELDS)
        unknown = sorted(set(limits) - known)
        if unknown:
            raise TypeError(f"unknown limit(s) {unknown}; known: {sorted(known)}")
        return Limits(**{**base.as_dict(), **limits})
    raise TypeError(f"limits must be None, a Limits or a mapping, got {type(limits).__name__}")

