"""C's number parsing, as trec_eval reads every measure parameter (atol for cutoffs, atof for
numbers): shared by evaluate_run's trec_eval names (runs/measures.py) and ``evalcore trec``
(trec_eval/output_format.py), so that both read ``P.23.4`` or ``iprec_at_recall..10,.20`` alike."""

from __future__ import annotations

import re

_C_SPACE = " \t\n\v\f\r"
_ATOL = re.compile(r"[+-]?[0-9]+")
_ATOF = re.compile(r"[+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
                   r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)", re.I)
_LONG_MAX = (1 << 63) - 1


def c_atol(text: str) -> int:
    """C's atol (glibc's strtol): leading spaces, a sign and digits; the rest ignored; no
    digits: 0; out of range: clamped."""
    match = _ATOL.match(text.lstrip(_C_SPACE))
    if match is None:
        return 0
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(match.group())))


def c_atof(text: str) -> float:
    """C's atof (strtod): the longest number prefix (decimal, hexadecimal, inf, nan); none: 0."""
    match = _ATOF.match(text.lstrip(_C_SPACE))
    if match is None:
        return 0.0
    body = match.group()
    sign = -1.0 if body.startswith("-") else 1.0
    digits = body.lstrip("+-")
    if digits[:2].lower() == "0x":
        return sign * float.fromhex(digits)
    return sign * float(digits)
