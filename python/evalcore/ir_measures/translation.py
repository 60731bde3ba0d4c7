"""Which ir_measures measures evalcore computes as ir_measures defines them, and their names
in evalcore (issue 25 item 5). Nothing here imports ir_measures: a measure is read through
its ``NAME``, ``params`` (the parameters given), ``SUPPORTED_PARAMS`` and ``[name]`` (a
parameter's value, its default when not given).

A measure is supported only where evalcore's definition (docs/measures.md) is ir_measures'
own, with ir_measures' defaults (``rel=1``, ``judged_only=False``, ``dcg='log2'``), so that
the numbers are those of its default providers:

- IPrec only at the recall points 0, 0.5 and 1: pytrec_eval (trec_eval 9) takes
  int(x·R + 0.9) relevant documents where evalcore (trec_eval 10) takes lround(x·R); the two
  agree for every R only at those points.
- RR and Judged without a cutoff only: ir_measures' providers of RR@k and Judged@k break
  score ties by document ID ascending, evalcore (as trec_eval) descending.
- SetP without ``relative=True``; nDCG with ``dcg='log2'``; not NumQ, SetAP, ERR (gdeval),
  the C/W/L family (cwl_eval's numpy arithmetic) nor the diversity measures (their subtopic
  qrels): those go to ir_measures' other providers.
"""

from __future__ import annotations

import math
from typing import Any, Dict, FrozenSet, NamedTuple, Optional

from ..runs.measures import parse_measures

# ir_measures' name -> the parameters evalcore reads (any other given parameter: not supported)
_READS: Dict[str, FrozenSet[str]] = {
    "P": frozenset({"cutoff", "rel", "judged_only"}),
    "R": frozenset({"cutoff", "rel", "judged_only"}),
    "AP": frozenset({"cutoff", "rel", "judged_only"}),
    "Success": frozenset({"cutoff", "rel", "judged_only"}),
    "RR": frozenset({"rel", "judged_only"}),
    "Rprec": frozenset({"rel", "judged_only"}),
    "nDCG": frozenset({"cutoff", "gains", "dcg", "judged_only"}),
    "IPrec": frozenset({"recall", "rel", "judged_only"}),
    "SetP": frozenset({"rel", "relative", "judged_only"}),
    "SetR": frozenset({"rel"}),
    "SetF": frozenset({"rel", "beta", "judged_only"}),
    "Bpref": frozenset({"rel"}),
    "infAP": frozenset({"rel"}),
    "NumRet": frozenset({"rel"}),
    "NumRel": frozenset({"rel"}),
    "Judged": frozenset(),
}
# Recall points where trec_eval 9's int(x*R + 0.9) and trec_eval 10's lround(x*R) agree for every R.
IPREC_POINTS = (0.0, 0.5, 1.0)


class Translation(NamedTuple):
    """An ir_measures measure as evalcore computes it: its evalcore name and whether it ranks
    judged documents only (evaluate_run's ``judged_only``, trec_eval -J)."""

    name: str
    judged_only: bool


def _given(measure: Any, param: str) -> Any:
    """The value of `param` (its default when not given), or None where the measure has no such parameter."""
    return measure[param] if param in getattr(measure, "SUPPORTED_PARAMS", {}) else None


def _number(value: Any) -> Optional[str]:
    """A finite real number as a literal, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return repr(value)


def translate(measure: Any) -> Optional[Translation]:
    """The evalcore name of an ir_measures measure and its ``judged_only``, or None where
    evalcore does not compute it as ir_measures defines it (the module says which)."""
    kind = getattr(measure, "NAME", None)
    if not isinstance(kind, str) or kind not in _READS:
        return None
    given = set(getattr(measure, "params", {}))
    if not given <= _READS[kind]:
        return None
    judged_only = _given(measure, "judged_only")
    if judged_only not in (None, False, True):
        return None
    cutoff = measure["cutoff"] if "cutoff" in given else None
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1):
        return None
    params = []
    if "rel" in _READS[kind] and (kind != "NumRet" or "rel" in given):
        rel = _number(_given(measure, "rel"))  # ir_measures' default: 1
        if rel is None:
            return None
        params.append(f"rel={rel}")
    at = "" if cutoff is None else f"@{cutoff}"
    if kind == "nDCG":
        if _given(measure, "dcg") != "log2":
            return None
        gains = measure["gains"] if "gains" in given else None
        if gains is not None:
            if not isinstance(gains, dict) or not gains:
                return None
            pairs = [(_number(g), _number(v)) for g, v in gains.items()]
            if any(g is None or v is None for g, v in pairs):
                return None
            params.append("gains={" + ",".join(f"{g}:{v}" for g, v in pairs) + "}")
    elif kind == "IPrec":
        recall = _given(measure, "recall")
        if _number(recall) is None or float(recall) not in IPREC_POINTS:
            return None
        at = f"@{float(recall)}"
    elif kind == "SetP" and _given(measure, "relative"):
        return None
    elif kind == "SetF":
        beta = _number(_given(measure, "beta"))
        if beta is None:
            return None
        params.append(f"beta={beta}")
    name = kind + (f"({','.join(params)})" if params else "") + at
    try:
        parse_measures([name])
    except ValueError:  # a parameter evalcore refuses (rel=0, a negative beta): another provider's
        return None
    return Translation(name, bool(judged_only))
