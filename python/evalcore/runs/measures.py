"""The measures of :func:`evalcore.evaluate_run`: one table of kinds, and the three name
families that map onto it — ir_measures (``nDCG@10``, ``P(rel=2)@10``,
``nDCG(gains={0:0,1:1,2:3})@10``), trec_eval / pytrec_eval (``map``, ``P_10``, ``P.5,10``,
``ndcg_cut.10``, ``official``) and ranx (``ndcg@10``, ``mrr@10``, ``precision@10-l2``).

docs/measures.md defines every kind. Nothing here imports the compiled core.
"""

from __future__ import annotations

import ast
import difflib
import math
import re
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

#: Kinds in the order the native core numbers them (cpp/runs/measures.hpp MeasureKind).
MEASURE_KINDS = (
    "P", "R", "RR", "AP", "nDCG", "NumRet", "NumRel", "NumRelRet", "Rprec", "Bpref", "IPrec", "Success",
    "SetP", "SetR", "SetF", "Judged", "ERR",
)
KIND = {name: i for i, name in enumerate(MEASURE_KINDS)}

# Cutoffs: required, optional (none = the whole ranking) or not taken. IPrec's "@x" is its
# recall point, not a cutoff.
_CUTOFF_REQUIRED = {"P", "R", "Success"}
_CUTOFF_OPTIONAL = {"RR", "AP", "nDCG", "Judged", "ERR"}
# Kinds whose relevance level can be set (rel=...): all but these.
_NO_LEVEL = {"nDCG", "NumRet", "Judged", "ERR"}

#: trec_eval's default cutoffs and recall points for a bare name (trec_eval 10, m_*.c).
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
SUCCESS_CUTOFFS = (1, 5, 10)
RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


class MeasureSpec(NamedTuple):
    """One measure: its name in results, kind index, cutoff (0: none), relevance level
    (None: the run's ``relevant_at_least``), nDCG gain mapping and a parameter (IPrec's
    recall point, SetF's x)."""

    name: str
    kind: int
    cutoff: int = 0
    rel: Optional[float] = None
    gains: Tuple[Tuple[float, float], ...] = ()
    parameter: float = 0.0

    def native(self) -> Tuple[int, int, float, List[Tuple[float, float]], float]:
        """The tuple the native core takes."""
        return (self.kind, self.cutoff, math.nan if self.rel is None else float(self.rel), list(self.gains), self.parameter)


# ---- trec_eval / pytrec_eval names -------------------------------------------------------

# trec_eval base name -> (kind, default parameters: cutoffs or recall points, or None)
_TREC_BASES: Dict[str, Tuple[str, Optional[Tuple[Any, ...]]]] = {
    "num_ret": ("NumRet", None), "num_rel": ("NumRel", None), "num_rel_ret": ("NumRelRet", None),
    "map": ("AP", None), "Rprec": ("Rprec", None), "bpref": ("Bpref", None), "recip_rank": ("RR", None),
    "iprec_at_recall": ("IPrec", RECALL_POINTS), "P": ("P", TREC_CUTOFFS), "recall": ("R", TREC_CUTOFFS),
    "ndcg": ("nDCG", None), "ndcg_cut": ("nDCG", TREC_CUTOFFS), "map_cut": ("AP", TREC_CUTOFFS),
    "success": ("Success", SUCCESS_CUTOFFS), "set_P": ("SetP", None), "set_recall": ("SetR", None),
    "set_F": ("SetF", None),
}
# trec_eval's measure table order (its print order), for the bases evalcore has.
TREC_ORDER = ("num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P",
              "recall", "ndcg", "ndcg_cut", "map_cut", "success", "set_P", "set_recall", "set_F")
#: trec_eval's nicknames, as far as evalcore has their measures (num_q, runid and gm_map are
#: summary lines of the CLI's trec_eval output, not per-query measures).
TREC_NICKNAMES: Dict[str, Tuple[str, ...]] = {
    "official": ("num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P",
                 "recall", "ndcg", "ndcg_cut", "map_cut", "success", "set_P", "set_recall", "set_F"),
}
_TREC_NAME = re.compile(r"^([A-Za-z_]+?)(?:[._]([0-9][0-9.,]*))?$")


def trec_measure_name(base: str, value: Any = None) -> str:
    """The name trec_eval prints: ``P_10``, ``iprec_at_recall_0.10``, ``set_F_0.5``."""
    if value is None:
        return base
    if base == "iprec_at_recall":
        return f"{base}_{value:3.2f}"
    return f"{base}_{value}"


def _trec_specs(text: str) -> Optional[List[MeasureSpec]]:
    nickname = TREC_NICKNAMES.get(text)
    if nickname is not None:
        return [s for base in nickname for s in _trec_base_specs(base, None)]
    match = _TREC_NAME.match(text)
    if match is None or match.group(1) not in _TREC_BASES:
        return None
    return _trec_base_specs(match.group(1), match.group(2), text)


def _trec_base_specs(base: str, params: Optional[str], text: str = "") -> List[MeasureSpec]:
    kind, defaults = _TREC_BASES[base]
    if base == "set_F":
        if params is None:
            return [MeasureSpec("set_F", KIND["SetF"], parameter=1.0)]
        return [MeasureSpec(trec_measure_name(base, params), KIND["SetF"], parameter=_number(params, text))]
    if defaults is None:
        if params is not None:
            raise ValueError(f"measure {text!r}: {base} takes no parameters")
        return [MeasureSpec(base, KIND[kind])]
    if params is None:
        values: Sequence[Any] = defaults
    else:
        parts = params.split(",")
        values = [_number(p, text) for p in parts] if kind == "IPrec" else [_cutoff(p, text) for p in parts]
        if len(set(values)) != len(values):
            raise ValueError(f"measure {text!r} lists a cutoff twice")
        values = sorted(values)
    if kind == "IPrec":
        return [MeasureSpec(trec_measure_name(base, x), KIND["IPrec"], parameter=float(x)) for x in values]
    return [MeasureSpec(trec_measure_name(base, k), KIND[kind], cutoff=int(k)) for k in values]


def _number(text: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"measure {name!r}: {text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"measure {name!r}: {text!r} must be a finite number >= 0")
    return value


def _cutoff(text: str, name: str) -> int:
    if not re.fullmatch(r"[1-9][0-9]{0,17}", text):
        raise ValueError(f"measure {name!r}: the cutoff {text!r} must be a positive integer")
    return int(text)


# ---- ranx names -----------------------------------------------------------------------------

_RANX = {"ndcg": "nDCG", "map": "AP", "mrr": "RR", "precision": "P", "recall": "R", "hit_rate": "Success",
         "r-precision": "Rprec", "bpref": "Bpref"}
# Without a cutoff: ranx's whole-ranking forms.
_RANX_WHOLE = {"precision": "SetP", "recall": "SetR", "ndcg": "nDCG", "map": "AP", "mrr": "RR"}
_RANX_NAME = re.compile(r"^(ndcg|map|mrr|precision|recall|hit_rate|r-precision|bpref)(?:@([1-9][0-9]{0,17}))?(?:-l([0-9]+))?$")


def _ranx_spec(text: str) -> Optional[MeasureSpec]:
    match = _RANX_NAME.match(text)
    if match is None:
        return None
    base, cutoff, level = match.group(1), match.group(2), match.group(3)
    if cutoff is None:
        kind = _RANX_WHOLE.get(base, _RANX[base])
    else:
        kind = _RANX[base]
        if kind in ("Rprec", "Bpref"):
            raise ValueError(f"measure {text!r}: {base} takes no cutoff")
    if level is not None and kind == "nDCG":
        raise ValueError(
            f"measure {text!r}: ranx's ndcg with -l{level} drops grades below {level}; evalcore's nDCG uses every "
            "grade: map grades with nDCG(gains={...}) instead"
        )
    return MeasureSpec(text, KIND[kind], cutoff=int(cutoff or 0), rel=None if level is None else float(level))


# ---- ir_measures names ----------------------------------------------------------------------

_IR_ALIASES = {"MAP": "AP", "MRR": "RR", "Recall": "R", "NDCG": "nDCG", "RPrec": "Rprec", "BPref": "Bpref",
               "SetAP": None, "NumQ": None, "infAP": None}
_IR_NAME = re.compile(r"^([A-Za-z]+)(?:\((.*)\))?(?:@([0-9][0-9.]*))?$", re.S)


def _ir_spec(text: str) -> Optional[MeasureSpec]:
    match = _IR_NAME.match(text)
    if match is None:
        return None
    name, params_text, at = match.group(1), match.group(2), match.group(3)
    name = _IR_ALIASES.get(name, name) if name in _IR_ALIASES else name
    if name is None or name not in KIND or name == "NumRelRet":
        return None
    params = _ir_params(params_text, text) if params_text else {}
    rel = params.pop("rel", None)
    gains = params.pop("gains", None)
    beta = params.pop("beta", None)
    if params:
        raise ValueError(f"measure {text!r}: evalcore has no parameter {', '.join(sorted(params))} for {name}")
    kind = name
    if kind == "NumRet" and rel is not None:
        kind = "NumRelRet"  # ir_measures: NumRet(rel=1) is trec_eval's num_rel_ret
    cutoff, parameter = 0, 0.0
    if kind == "IPrec":
        if at is None:
            raise ValueError(f"measure {text!r}: IPrec needs a recall point, e.g. IPrec@0.2")
        parameter = _number(at, text)
        if parameter > 1:
            raise ValueError(f"measure {text!r}: the recall point must be between 0 and 1")
    elif at is not None:
        if kind not in _CUTOFF_REQUIRED and kind not in _CUTOFF_OPTIONAL:
            raise ValueError(f"measure {text!r}: {name} takes no cutoff")
        cutoff = _cutoff(at, text)
    elif kind in _CUTOFF_REQUIRED:
        raise ValueError(f"measure {text!r}: {name} needs a cutoff, e.g. {name}@10")
    if rel is not None:
        if kind in _NO_LEVEL and kind != "NumRelRet":
            raise ValueError(f"measure {text!r}: {name} takes no relevance level (rel=)")
        if isinstance(rel, bool) or not isinstance(rel, (int, float)) or not 0 < rel < math.inf:
            raise ValueError(f"measure {text!r}: rel must be a finite number > 0, got {rel!r}")
    gain_pairs: Tuple[Tuple[float, float], ...] = ()
    if gains is not None:
        if kind != "nDCG":
            raise ValueError(f"measure {text!r}: only nDCG takes gains")
        gain_pairs = _gain_pairs(gains, text)
    if beta is not None:
        if kind != "SetF":
            raise ValueError(f"measure {text!r}: only SetF takes beta")
        parameter = _number(str(beta), text)
    elif kind == "SetF":
        parameter = 1.0
    return MeasureSpec(text, KIND[kind], cutoff, None if rel is None else float(rel), gain_pairs, parameter)


def _ir_params(text: str, name: str) -> Dict[str, Any]:
    """``rel=2, gains={0:0,1:1}`` as a dict of literals (nothing is evaluated)."""
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg is not None}
    except (SyntaxError, ValueError):
        raise ValueError(f"measure {name!r}: parameters must be name=literal pairs, e.g. P(rel=2)@10") from None


def _gain_pairs(gains: Any, name: str) -> Tuple[Tuple[float, float], ...]:
    if not isinstance(gains, dict) or not gains:
        raise ValueError(f"measure {name!r}: gains must be a non-empty dict {{grade: gain}}")
    pairs = []
    for grade, gain in gains.items():
        for value in (grade, gain):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"measure {name!r}: gains must map numbers to numbers, got {value!r}")
        pairs.append((float(grade), float(gain)))
    return tuple(pairs)


# ---- all names --------------------------------------------------------------------------------

#: Names the suggestions of an unknown name are drawn from.
EXAMPLE_NAMES = (
    "P@10", "R@100", "RR", "RR@10", "AP", "AP@100", "nDCG", "nDCG@10", "P(rel=2)@10", "nDCG(gains={0:0,1:1,2:3})@10",
    "Rprec", "Bpref", "Success@5", "IPrec@0.2", "Judged@10", "ERR@20", "NumRet", "NumRel", "NumRet(rel=1)", "SetP",
    "SetR", "SetF", "MAP", "MRR", "map", "P_10", "P.10", "P.5,10", "recall_100", "map_cut_100", "ndcg", "ndcg_cut_10",
    "ndcg_cut.10,20", "recip_rank", "bpref", "iprec_at_recall_0.10", "success_5", "set_P", "set_recall", "set_F",
    "num_ret", "num_rel", "num_rel_ret", "official", "all_trec", "ndcg@10", "map@100", "mrr@10", "precision@10",
    "recall@100", "hit_rate@5", "r-precision", "precision@10-l2",
)
VALID_MEASURES = (
    "ir_measures names (P@k, R@k, RR[@k], AP[@k], nDCG[@k], Rprec, Bpref, Success@k, IPrec@x, Judged[@k], "
    "ERR[@k], NumRet, NumRel, SetP, SetR, SetF; parameters rel=, gains=, beta=), trec_eval names (map, P_10, "
    "P.5,10, ndcg_cut.10, recip_rank, official, all_trec, ...) or ranx names (ndcg@10, mrr@10, precision@10-l2, ...)"
)


def _one(text: str) -> List[MeasureSpec]:
    for parse in (_trec_specs, lambda t: [s] if (s := _ranx_spec(t)) is not None else None,
                  lambda t: [s] if (s := _ir_spec(t)) is not None else None):
        specs = parse(text)
        if specs is not None:
            return specs
    close = difflib.get_close_matches(text, EXAMPLE_NAMES, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown measure {text!r}{hint} Valid: {VALID_MEASURES}")


#: What evaluate_run's `measures` takes: one name, or a sequence of names (a MeasureSpec
#: stands for itself).
MeasureNames = Union[str, Sequence[Union[str, "MeasureSpec"]]]


def parse_measures(measures: MeasureNames) -> List[MeasureSpec]:
    """Measure names of any of the three families → :class:`MeasureSpec`, in the order
    given (a trec_eval name with several cutoffs, or a nickname, gives several, in trec_eval's
    order). An unknown name is a ValueError that suggests the closest valid ones; a name
    listed twice (also through two names) is a ValueError."""
    if isinstance(measures, str):
        measures = [measures]
    specs: List[MeasureSpec] = []
    for name in measures:
        # A MeasureSpec stands for itself (the pytrec_eval drop-in builds its own names).
        for spec in [name] if isinstance(name, MeasureSpec) else _one(str(name)):
            if any(s.name == spec.name for s in specs):
                raise ValueError(f"measure {spec.name!r} is listed twice")
            specs.append(spec)
    if not specs:
        raise ValueError(f"name at least one measure: {VALID_MEASURES}")
    return specs
