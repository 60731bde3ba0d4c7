"""Issue 25 item 4, the remaining common names: ir_measures' ``Compat`` (Clarke, Vtyurina and
Smucker's compatibility with an ideal ranking: ``Compat``, ``Compat(p=0.8)``,
``Compat(p=0.95,normalize=False)``). docs/measures.md defines it."""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Optional

from .measures import KIND, MeasureSpec, _ir_params

#: ir_measures' defaults for Compat (measures/compat.py).
COMPAT_PERSISTENCE = 0.95
COMPAT_NORMALIZE = True

_COMPAT_NAME = re.compile(r"^Compat(?:\((.*)\))?(@.*)?$", re.S)


def compat_spec(text: str) -> Optional[MeasureSpec]:
    """The MeasureSpec of ``Compat[(p=x, normalize=b)]``, None for another name; ValueError for a
    parameter Compat does not take or out of range, or a cutoff (Compat reads the whole ranking)."""
    match = _COMPAT_NAME.match(text)
    if match is None:
        return None
    if match.group(2) is not None:
        raise ValueError(f"measure {text!r}: Compat takes no cutoff (it reads the whole ranking and the ideal one)")
    params: Dict[str, Any] = _ir_params(match.group(1), text) if match.group(1) else {}
    unknown = sorted(set(params) - {"p", "normalize"})
    if unknown:
        raise ValueError(f"measure {text!r}: Compat takes no parameter {', '.join(unknown)} (it takes p, normalize)")
    p = params.get("p", COMPAT_PERSISTENCE)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not (0 < p <= 1 and math.isfinite(p)):
        raise ValueError(f"measure {text!r}: the persistence p must be a number with 0 < p <= 1, e.g. "
                         f"Compat(p=0.95), got {p!r}")
    normalize = params.get("normalize", COMPAT_NORMALIZE)
    if not isinstance(normalize, bool):
        raise ValueError(f"measure {text!r}: normalize must be True or False, got {normalize!r}")
    return MeasureSpec(text, KIND["Compat"], parameter=float(p), parameters=(1.0 if normalize else 0.0,))
