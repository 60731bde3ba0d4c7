"""Canonical JSON (RFC 8785 / JCS) and compact emission-order JSON, in pure Python.

Numbers are written in ECMAScript ``Number::toString`` form and strings as
``JSON.stringify`` writes them; these are the bytes the provenance hashes cover.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, List

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def ecma_number(x: float) -> str:
    """``Number::toString(x)`` of ECMA-262 for a finite binary64 value."""
    if not math.isfinite(x):
        raise ValueError(f"{x!r} has no JSON form")
    if x == 0:
        return "0"  # both zeros
    if x < 0:
        return "-" + ecma_number(-x)
    text = repr(float(x))  # shortest round-trip digits, as ECMA-262 asks for
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    point = len(whole) + (int(exp) if exp else 0)  # decimal point position within `digits`
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{head}e{sign}{abs(e)}"


def escape_char(ch: str) -> str:
    """One character as ``JSON.stringify`` writes it inside a string."""
    short = _SHORT_ESCAPES.get(ch)
    if short is not None:
        return short
    cp = ord(ch)
    if cp < 0x20 or 0xD800 <= cp <= 0xDFFF:
        return f"\\u{cp:04x}"
    return ch


def json_string(s: str) -> str:
    """``JSON.stringify`` of a string (every surrogate code point is escaped)."""
    return '"' + "".join(escape_char(c) for c in s) + '"'


def json_string_size(s: str) -> int:
    """UTF-8 length of ``json_string(s)``, without building it for plain text."""
    size = 2
    for ch in s:
        cp = ord(ch)
        if ch in _SHORT_ESCAPES:
            size += 2
        elif cp < 0x20 or 0xD800 <= cp <= 0xDFFF:
            size += 6
        elif cp < 0x80:
            size += 1
        elif cp < 0x800:
            size += 2
        elif cp < 0x10000:
            size += 3
        else:
            size += 4
    return size


def _utf16_key(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


def _write(value: Any, out: List[str], sort_keys: bool) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(ecma_number(float(value)))
    elif isinstance(value, float):
        out.append(ecma_number(value))
    elif isinstance(value, str):
        out.append(json_string(value))
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out, sort_keys)
        out.append("]")
    elif isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: _utf16_key(kv[0])) if sort_keys else value.items()
        out.append("{")
        for i, (key, item) in enumerate(items):
            if i:
                out.append(",")
            out.append(json_string(key))
            out.append(":")
            _write(item, out, sort_keys)
        out.append("}")
    else:
        raise TypeError(f"{type(value).__name__} has no JSON form")


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no whitespace."""
    out: List[str] = []
    _write(value, out, sort_keys=True)
    return "".join(out).encode("utf-8")


def compact_json(value: Any) -> bytes:
    """Compact JSON with keys in emission (insertion) order."""
    out: List[str] = []
    _write(value, out, sort_keys=False)
    return "".join(out).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """Lowercase hex SHA-256."""
    return hashlib.sha256(data).hexdigest()
