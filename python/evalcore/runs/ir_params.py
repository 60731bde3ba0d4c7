"""The parameters of ir_measures' names as evalcore reads them (``P(rel=2)@10``,
``nDCG(gains={0:0,1:1,2:3})@10``): literals only, nothing evaluated. Moved out of
measures.py (issue 25 item 5, h25-irm3), which re-exports both for the name modules."""

from __future__ import annotations

import math
from typing import Any, Dict, Tuple


def _ir_params(text: str, name: str) -> Dict[str, Any]:
    """``rel=2, gains={0:0,1:1}`` as a dict of literals (nothing is evaluated)."""
    import ast  # here: about 2 ms of every `evalcore trec` start, which never needs it

    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg is not None}
    except (SyntaxError, ValueError):
        raise ValueError(f"measure {name!r}: parameters must be name=literal pairs, e.g. P(rel=2)@10") from None


def _gain_pairs(gains: Any, name: str) -> Tuple[Tuple[float, float], ...]:
    """nDCG's and NCG's ``gains=`` as (grade, gain) pairs of finite numbers."""
    if not isinstance(gains, dict) or not gains:
        raise ValueError(f"measure {name!r}: gains must be a non-empty dict {{grade: gain}}")
    pairs = []
    for grade, gain in gains.items():
        for value in (grade, gain):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"measure {name!r}: gains must map numbers to numbers, got {value!r}")
        pairs.append((float(grade), float(gain)))
    return tuple(pairs)

