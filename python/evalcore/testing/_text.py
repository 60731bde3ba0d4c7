"""UTF-16 code units, the contract's offset unit (§1.1): lengths, the offsets that split a
surrogate pair, and slicing by UTF-16 offsets."""

from __future__ import annotations

from typing import Any, List, Set

from ..reference.requests._schema import utf16_length
from ..reference.requests.spans import _text_facts

__all__ = ["SURROGATES", "boundaries", "inside_pairs", "utf16_length", "utf16_slice"]

#: The Unicode category of surrogate code points (lone in a Python str; no JSON text holds one).
SURROGATES: Any = ("Cs",)


def inside_pairs(text: str) -> Set[int]:
    """The UTF-16 offsets that fall between the two halves of a surrogate pair."""
    return _text_facts(text)[1]


def boundaries(text: str) -> List[int]:
    """Every UTF-16 offset a span may start or end at: 0 to the length, none inside a pair."""
    inside = inside_pairs(text)
    return [b for b in range(utf16_length(text) + 1) if b not in inside]


def utf16_slice(text: str, start: int, end: int) -> str:
    """The characters between two UTF-16 offsets (offsets at character boundaries)."""
    return text.encode("utf-16-le")[2 * start:2 * end].decode("utf-16-le", "replace")
