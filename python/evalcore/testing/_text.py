"""UTF-16 code units, the contract's offset unit (§1.1): lengths, the offsets that split a
surrogate pair, and slicing by UTF-16 offsets."""

from __future__ import annotations

from typing import List, Set


def utf16_length(text: str) -> int:
    """The length of `text` in UTF-16 code units, as JavaScript counts it (``"😀"`` is 2)."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def inside_pairs(text: str) -> Set[int]:
    """The UTF-16 offsets that fall between the two halves of a surrogate pair."""
    inside: Set[int] = set()
    units = 0
    for ch in text:
        if ord(ch) > 0xFFFF:
            inside.add(units + 1)
            units += 2
        else:
            units += 1
    return inside


def boundaries(text: str) -> List[int]:
    """Every UTF-16 offset a span may start or end at: 0 to the length, none inside a pair."""
    inside = inside_pairs(text)
    return [b for b in range(utf16_length(text) + 1) if b not in inside]


def utf16_slice(text: str, start: int, end: int) -> str:
    """The characters between two UTF-16 offsets (offsets at character boundaries)."""
    return text.encode("utf-16-le")[2 * start:2 * end].decode("utf-16-le", "replace")
