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
- RR@k and Judged@k ranked as ir_measures' providers of them (msmarco, judged) rank: tied
  scores by document ID ascending (evalcore's own rule, as trec_eval's, is descending).
- SetAP and SetP(relative=True) as trec_eval's set_map and set_relative_P (their level
  as evaluate_run's ``relevant_at_least``); NumQ as pytrec_eval's num_q (1 a query reported).
- ERR@k and nDCG(dcg='exp-log2')@k as gdeval (ir_measures' gdeval provider, a perl script)
  computes them, within its 5 printed decimals (docs/ir-measures.md): evalcore's ERR@k and
  its nDCG@k with evaluate_run's ``gain="exponential"``; with a cutoff only, as gdeval takes
  them, and without ``gains`` or ``judged_only=True``.

Measures other providers of ir_measures compute (gap 1 of issue 25 item 5), each where
evalcore's definition (docs/measures.md) is that provider's, with its defaults:

- the diversity measures of its pyndeval provider (alpha_DCG, alpha_nDCG, ERR_IA, nERR_IA,
  P_IA and StRecall with a cutoff; NRBP, nNRBP, AP_IA), read with ``qrels_format="subtopics"``
  (the subtopic in ``Qrel.iteration``, as pyndeval's provider reads it);
- the C/W/L measures of its cwl_eval provider (RBP with ``rel``, INST, INSQ, BPM, SDCG, NERR8
  to NERR11), ranked as that provider ranks (by score, tied scores in the run's order);
- Compat (its compat provider: tied scores by document ID ascending) and Accuracy (its
  accuracy provider: tied scores in the run's order; a query without a relevant document
  in the ranking read is not reported).

:class:`Translation` says, for each, how the provider must call evaluate_run.
"""

from __future__ import annotations

import math
from typing import Any, Dict, FrozenSet, NamedTuple, Optional, Tuple

from ..runs.measures import parse_measures

# ir_measures' name -> the parameters evalcore reads (any other given parameter: not supported)
_READS: Dict[str, FrozenSet[str]] = {
    "P": frozenset({"cutoff", "rel", "judged_only"}),
    "R": frozenset({"cutoff", "rel", "judged_only"}),
    "AP": frozenset({"cutoff", "rel", "judged_only"}),
    "Success": frozenset({"cutoff", "rel", "judged_only"}),
    "RR": frozenset({"cutoff", "rel", "judged_only"}),
    "Rprec": frozenset({"rel", "judged_only"}),
    "nDCG": frozenset({"cutoff", "gains", "dcg", "judged_only"}),
    "IPrec": frozenset({"recall", "rel", "judged_only"}),
    "SetP": frozenset({"rel", "relative", "judged_only"}),
    "SetR": frozenset({"rel"}),
    "SetAP": frozenset({"rel", "judged_only"}),
    "SetF": frozenset({"rel", "beta", "judged_only"}),
    "Bpref": frozenset({"rel"}),
    "infAP": frozenset({"rel"}),
    "NumRet": frozenset({"rel"}),
    "NumRel": frozenset({"rel"}),
    "Judged": frozenset({"cutoff"}),
    "NumQ": frozenset(),  # h25-irm3: pytrec_eval's num_q
    "ERR": frozenset({"cutoff"}),  # h25-irm3: gdeval's, a cutoff required
}
# Recall points where trec_eval 9's int(x*R + 0.9) and trec_eval 10's lround(x*R) agree for every R.
IPREC_POINTS = (0.0, 0.5, 1.0)


class Translation(NamedTuple):
    """An ir_measures measure as evalcore computes it: its evalcore name, whether it ranks
    judged documents only (evaluate_run's ``judged_only``, trec_eval -J), the qrels it reads
    (evaluate_run's ``qrels_format``), how the provider it stands in for orders tied scores
    (``"evalcore"``: evaluate_run's own ``ties="score"``; ``"run"``: the run's order;
    ``"id_ascending"``: by document ID ascending) and what it reports where evalcore's value
    is undefined (``"zero"``: 0, as trec_eval; ``"nan"``: NaN, as pyndeval's nNRBP; ``"omit"``:
    nothing, nor the default for judged queries the run lacks, as ir_measures' Accuracy), and
    evaluate_run's ``gain`` (``"exponential"`` for gdeval's nDCG, ``dcg='exp-log2'``)."""

    name: str
    judged_only: bool
    qrels_format: str = "qrels"
    relevant_at_least: float = 1.0  # evaluate_run's, for the trec_eval names that take no rel=
    ties: str = "evalcore"
    undefined: str = "zero"
    gain: str = "linear"  # evaluate_run's gain: "exponential" for nDCG(dcg='exp-log2'), gdeval's


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
    if not isinstance(kind, str):
        return None
    if kind not in _READS:
        return _other_translation(kind, measure)
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
    if kind == "ERR" and cutoff is None:
        return None  # (gdeval's ERR takes a cutoff; no provider of ir_measures computes ERR without one)
    if kind == "SetAP" or (kind == "SetP" and _given(measure, "relative")):
        # trec_eval's set_map and set_relative_P (evalcore names them as trec_eval only), the
        # level as evaluate_run's relevant_at_least, as pytrec_eval takes it (relevance_level)
        level = float(_given(measure, "rel"))
        if not 0 < level < math.inf:
            return None
        return Translation("set_map" if kind == "SetAP" else "set_relative_P", bool(judged_only),
                           relevant_at_least=level)
    gain = "linear"
    if kind == "nDCG":
        if _given(measure, "dcg") == "exp-log2" and cutoff is not None and "gains" not in given and not judged_only:
            gain = "exponential"  # gdeval's nDCG@k: 2**grade - 1 (h25-irm3)
        elif _given(measure, "dcg") != "log2":
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
    ties = "id_ascending" if kind in ("RR", "Judged") and cutoff is not None else "evalcore"
    return Translation(name, bool(judged_only), ties=ties, gain=gain)


# ---- the measures of ir_measures' other providers (issue 25 item 5, gap 1) --------------------

# ndeval's measures as ir_measures' pyndeval provider takes them: the parameters evalcore reads
# and whether a cutoff is required (True) or not taken (False)
_DIVERSITY: Dict[str, Tuple[FrozenSet[str], bool]] = {
    "alpha_DCG": (frozenset({"cutoff", "alpha", "rel", "judged_only"}), True),
    "alpha_nDCG": (frozenset({"cutoff", "alpha", "rel", "judged_only"}), True),
    "ERR_IA": (frozenset({"cutoff", "rel", "judged_only"}), True),
    "nERR_IA": (frozenset({"cutoff", "rel", "judged_only"}), True),
    "NRBP": (frozenset({"alpha", "beta", "rel"}), False),
    "nNRBP": (frozenset({"alpha", "beta", "rel"}), False),
    "AP_IA": (frozenset({"rel", "judged_only"}), False),
    "P_IA": (frozenset({"cutoff", "rel", "judged_only"}), True),
    "StRecall": (frozenset({"cutoff", "rel"}), True),
}
# cwl_eval's measures as ir_measures' cwl_eval provider takes them: the parameters evalcore reads
# and whether a cutoff is required (True) or not taken (False). RBP is binary there (rel required).
_CWL: Dict[str, Tuple[FrozenSet[str], bool]] = {
    "RBP": (frozenset({"p", "rel"}), False),
    "INST": (frozenset({"T", "min_rel", "max_rel"}), False),
    "INSQ": (frozenset({"T", "min_rel", "max_rel"}), False),
    "BPM": (frozenset({"cutoff", "T", "min_rel", "max_rel"}), True),
    "SDCG": (frozenset({"cutoff", "dcg", "min_rel", "max_rel"}), True),
    "NERR8": (frozenset({"cutoff", "min_rel", "max_rel"}), True),
    "NERR9": (frozenset({"cutoff", "min_rel", "max_rel"}), True),
    "NERR10": (frozenset({"p", "min_rel", "max_rel"}), False),
    "NERR11": (frozenset({"T", "min_rel", "max_rel"}), False),
}
_OTHERS: Dict[str, Tuple[FrozenSet[str], Optional[bool]]] = {
    "Compat": (frozenset({"p", "normalize"}), False),
    "Accuracy": (frozenset({"cutoff", "rel"}), None),  # None: a cutoff is optional
}


def _other_translation(kind: str, measure: Any) -> Optional[Translation]:
    """The Translation of a diversity, C/W/L, Compat or Accuracy measure, or None."""
    table = _DIVERSITY if kind in _DIVERSITY else _CWL if kind in _CWL else _OTHERS if kind in _OTHERS else None
    if table is None:
        return None
    reads, cutoff_rule = table[kind]
    given = set(getattr(measure, "params", {}))
    if not given <= reads or (kind == "RBP" and "rel" not in given):
        return None  # (RBP without rel: graded, not cwl_eval's provider's)
    cutoff = measure["cutoff"] if "cutoff" in given else None
    if (cutoff_rule is True and cutoff is None) or (cutoff_rule is False and cutoff is not None):
        return None
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1):
        return None
    params = []
    for param in sorted(reads - {"cutoff", "judged_only"}):  # every parameter stated, defaults too
        value = _given(measure, param)
        if param == "normalize" and isinstance(value, bool):
            params.append(f"normalize={value}")
        elif param == "dcg":
            if value != "log2":
                return None
        elif _number(value) is None:
            return None
        else:
            params.append(f"{param}={_number(value)}")
    judged_only = _given(measure, "judged_only") or False
    if judged_only not in (False, True):
        return None
    if judged_only:
        params.append("judged_only=True")
    name = kind + (f"({','.join(params)})" if params else "") + ("" if cutoff is None else f"@{cutoff}")
    try:
        parse_measures([name])
    except ValueError:  # a parameter evalcore refuses (rel=0, alpha=2, min_rel >= max_rel): another provider's
        return None
    if kind in _DIVERSITY:
        return Translation(name, False, qrels_format="subtopics", undefined="nan" if kind == "nNRBP" else "zero")
    if kind == "Compat":
        return Translation(name, False, ties="id_ascending")
    return Translation(name, False, ties="run", undefined="omit" if kind == "Accuracy" else "zero")
