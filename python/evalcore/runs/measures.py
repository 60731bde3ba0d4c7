"""The measures of :func:`evalcore.evaluate_run`: one table of kinds, and the three name
families that map onto it — ir_measures (``nDCG@10``, ``P(rel=2)@10``,
``nDCG(gains={0:0,1:1,2:3})@10``), trec_eval / pytrec_eval (``map``, ``P_10``, ``P.5,10``,
``ndcg_cut.10``, ``official``) and ranx (``ndcg@10``, ``mrr@10``, ``precision@10-l2``).

docs/measures.md defines every kind. Nothing here imports the compiled core.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from .cwl_names import CWL_KINDS, cwl_measure
from .gain_names import PAIR_MEASURES, gain_pairs
from .ir_params import _gain_pairs as _gain_pairs, _ir_params as _ir_params  # (issue 25 item 5: moved out)
from .trec_numbers import c_atof, c_atol

#: Kinds in the order the native core numbers them (cpp/runs/measures.hpp MeasureKind).
MEASURE_KINDS = (
    "P", "R", "RR", "AP", "nDCG", "NumRet", "NumRel", "NumRelRet", "Rprec", "Bpref", "IPrec", "Success",
    "SetP", "SetR", "SetF", "Judged", "ERR",
    # trec_eval 10's gain measures (cpp/runs/gain_measures.hpp): binG, G, dcg, ideal_dcg, ndcg
    # with gain parameters, ndcg_rel, Rndcg; MeasureSpec.gains holds their level=gain pairs.
    "trec_binG", "trec_G", "trec_dcg", "trec_ideal_dcg", "trec_ndcg", "trec_ndcg_rel", "trec_Rndcg",
    # trec_eval's measures derived from the others (cpp/runs/derived_measures.cpp):
    "GMAP", "GMBpref", "Utility", "IPrecAvg", "RelP", "SetRelP", "SetMAP", "NumQ", "RunId",
    # issue 23, judgment groups (trec_eval -R qrels_jg; runs/judgment_groups.py): trec_eval names only
    "MapAvgJG", "PAvgJG", "RprecMultAvgJG",
    # trec_eval 10's rank-based measures (cpp/runs/rank_measures.hpp):
    "NumNonrelJudgedRet", "RprecMult", "Unjudged", "RBP", "RBPResid", "YAAP", "infAP",
    "RankGrade",  # the grade at rank k (NaN: unjudged or past N), which `evalcore trec` prints as relstring
    # issue 23, preferences (trec_eval -R prefs / qrels_prefs; runs/preferences.py): trec_eval names only
    "PrefsNumPoss", "PrefsNumFul", "PrefsNumFulRet", "PrefsSimp", "PrefsPair", "PrefsAvgJG", "PrefsAvgJGRnonrel",
    "PrefsSimpRet", "PrefsPairRet", "PrefsAvgJGRet", "PrefsAvgJGRnonrelRet", "PrefsSimpImp", "PrefsPairImp",
    "PrefsAvgJGImp",
    # issue 25 item 2, the C/W/L family (cwl_eval's; runs/cwl_names.py, cpp/runs/cwl_measures.hpp):
    *CWL_KINDS,
    # issue 25 item 1, diversity (ndeval's measures with subtopic qrels; runs/diversity.py):
    "AlphaDCG", "AlphaNDCG", "ERRIA", "NERRIA", "NRBP", "NNRBP", "PIA", "APIA", "StRecall",
    # issue 25 item 4, the remaining common names (runs/common_names.py, cpp/runs/compat_measure.hpp):
    "Compat", "Accuracy", "Hits", "F1", "RanxRBP", "NCG",  # NCG (h25-ncg): nDCG's gains undiscounted
)
KIND = {name: i for i, name in enumerate(MEASURE_KINDS)}
#: The kinds that read subtopic judgments (evaluate_run's qrels_format="subtopics"), and only those.
DIVERSITY_KINDS = frozenset(range(KIND["AlphaDCG"], KIND["StRecall"] + 1))
#: The kinds that read qrels_jg judgments (evaluate_run's qrels_format="qrels_jg"), and only those.
JUDGMENT_GROUP_KINDS = frozenset(KIND[k] for k in ("MapAvgJG", "PAvgJG", "RprecMultAvgJG"))
#: trec_eval's preference measures, in its table order, and their kinds: they read prefs or
#: qrels_prefs judgments (evaluate_run's qrels_format="prefs" or "qrels_prefs"), and only those.
PREFERENCE_MEASURES = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
                       "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                       "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                       "prefs_avgjg_imp")
PREFERENCE_KINDS = frozenset(range(KIND["PrefsNumPoss"], KIND["PrefsAvgJGImp"] + 1))

# Cutoffs: required, optional (none = the whole ranking) or not taken. IPrec's "@x" is its
# recall point, not a cutoff.
_CUTOFF_REQUIRED = {"P", "R", "Success", "Unjudged"}
_CUTOFF_OPTIONAL = {"RR", "AP", "nDCG", "Judged", "ERR", "Accuracy", "NCG"}  # Accuracy, NCG: issue 25 item 4
# Kinds whose relevance level can be set (rel=...): all but these.
_NO_LEVEL = {"nDCG", "NumRet", "Judged", "ERR", "Unjudged", "RBP", "RBPResid", "NCG"}

#: trec_eval's default cutoffs and recall points for a bare name (trec_eval 10, m_*.c).
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
SUCCESS_CUTOFFS = (1, 5, 10)
RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
#: Rprec_mult_avgjg's default multiples of R (trec_eval 10, m_Rprec_mult_avgjg.c).
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
UNJ_CUTOFFS = (5, 10, 20)
RBP_PERSISTENCE = 0.9  # trec_eval's rbp and rbp_resid without rbp.p=


class MeasureSpec(NamedTuple):
    """One measure: its name in results, kind index, cutoff (0: none), relevance level
    (None: the run's ``relevant_at_least``), nDCG gain mapping, a parameter (IPrec's
    recall point, SetF's x) and a list of numbers for the measures that take several
    (trec_eval's ``-m NAME.x,y,...``)."""

    name: str
    kind: int
    cutoff: int = 0
    rel: Optional[float] = None
    gains: Tuple[Tuple[float, float], ...] = ()
    parameter: float = 0.0
    parameters: Tuple[float, ...] = ()

    def native(self) -> Tuple[int, int, float, List[Tuple[float, float]], float, List[float]]:
        """The tuple the native core takes."""
        return (self.kind, self.cutoff, math.nan if self.rel is None else float(self.rel), list(self.gains), self.parameter,
                list(self.parameters))


# ---- trec_eval / pytrec_eval names -------------------------------------------------------

# trec_eval base name -> (kind, default parameters: cutoffs or recall points, or None)
_TREC_BASES: Dict[str, Tuple[str, Optional[Tuple[Any, ...]]]] = {
    "num_ret": ("NumRet", None), "num_rel": ("NumRel", None), "num_rel_ret": ("NumRelRet", None),
    "map": ("AP", None), "Rprec": ("Rprec", None), "bpref": ("Bpref", None), "recip_rank": ("RR", None),
    "iprec_at_recall": ("IPrec", RECALL_POINTS), "P": ("P", TREC_CUTOFFS), "recall": ("R", TREC_CUTOFFS),
    "ndcg": ("nDCG", None), "ndcg_cut": ("nDCG", TREC_CUTOFFS), "map_cut": ("AP", TREC_CUTOFFS),
    "success": ("Success", SUCCESS_CUTOFFS), "set_P": ("SetP", None), "set_recall": ("SetR", None),
    "set_F": ("SetF", None),
    # trec_eval's gain measures (gain_names.py reads their LEVEL=GAIN parameters)
    "binG": ("trec_binG", None), "G": ("trec_G", None), "dcg": ("trec_dcg", None), "ideal_dcg": ("trec_ideal_dcg", None),
    "ndcg_rel": ("trec_ndcg_rel", None), "Rndcg": ("trec_Rndcg", None),
    # derived measures (utility's and 11pt_avg's parameters are lists of numbers)
    "gm_map": ("GMAP", None), "gm_bpref": ("GMBpref", None), "utility": ("Utility", None),
    "11pt_avg": ("IPrecAvg", None), "relative_P": ("RelP", TREC_CUTOFFS), "set_relative_P": ("SetRelP", None),
    "set_map": ("SetMAP", None), "num_q": ("NumQ", None), "runid": ("RunId", None),
    "map_avgjg": ("MapAvgJG", None), "P_avgjg": ("PAvgJG", TREC_CUTOFFS),
    "Rprec_mult_avgjg": ("RprecMultAvgJG", RPREC_MULTIPLES),
    "infAP": ("infAP", None), "Rprec_mult": ("RprecMult", RPREC_MULTIPLES), "num_nonrel_judged_ret": ("NumNonrelJudgedRet", None),
    "yaap": ("YAAP", None), "rbp": ("RBP", None), "rbp_resid": ("RBPResid", None), "unj": ("Unjudged", UNJ_CUTOFFS),
    **{name: (MEASURE_KINDS[KIND["PrefsNumPoss"] + i], None) for i, name in enumerate(PREFERENCE_MEASURES)},
}
# utility's coefficients times counts below 2^64, four of them, summed over up to 2^64 queries,
# stay within the exact sum's range (docs/contract.md §5) and finite per query.
_MAX_COEFFICIENT = 1e270
# Measures whose parameters are a list of numbers, and their defaults.
_TREC_NUMBER_LISTS: Dict[str, Tuple[float, ...]] = {"utility": (1.0, -1.0, 0.0, 0.0), "11pt_avg": RECALL_POINTS}
#: Kinds whose summary (RunEvaluation.mean) is not the mean of the per-query values:
#: the geometric means (exp of the mean of the logarithms) and num_q (the number of queries).
GEOMETRIC_MEAN_KINDS = frozenset({"GMAP", "GMBpref"})
COUNT_KINDS = frozenset({"NumQ"})
# Kinds only trec_eval names reach (not ir_measures' or ranx's).
_TREC_ONLY_KINDS = frozenset({"GMAP", "GMBpref", "Utility", "IPrecAvg", "RelP", "SetRelP", "SetMAP", "RunId"})
# trec_eval's measure table order (its print order), for the bases evalcore has.
TREC_ORDER = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
              "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility",
              "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
              "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
              "num_nonrel_judged_ret", "yaap", "rbp", "rbp_resid", "unj")
#: trec_eval's nicknames, as far as evalcore has their measures, in trec_eval's order. runid
#: and num_q, which trec_eval's nicknames begin with, are left out (they are the CLI's
#: summary lines; name them to have them).
TREC_NICKNAMES: Dict[str, Tuple[str, ...]] = {
    "official": ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P"),
    "set": ("num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_relative_P", "set_recall", "set_map",
            "set_F"),
    "all_trec": ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
                 "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success",
                 "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp",
                 "rbp_resid", "unj"),
    "qrels_jg": ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),  # with qrels_format="qrels_jg"
    # with qrels_format="prefs" or "qrels_prefs"
    "all_prefs": PREFERENCE_MEASURES,
    "prefs": PREFERENCE_MEASURES[:6],
}
# Kinds whose trec_eval parameters are numbers (atof), one measure each: recall points, R multiples.
_POINT_KINDS = frozenset({"IPrec", "RprecMult", "RprecMultAvgJG"})
_TREC_NAME = re.compile(r"^([A-Za-z_]+?)(?:[._]([0-9][0-9.,]*))?$")
_TREC_PAIRS_NAME = re.compile(r"^(ndcg_rel|ideal_dcg|Rndcg|ndcg|dcg|G)[._](.*=.*)$", re.S)  # longest first
# trec_eval's rbp.p=0.5 (printed rbp_p=0.5), rbp.1=2,p=0.8 (gains for levels; rbp_resid has none)
_TREC_RBP = re.compile(r"^(rbp_resid|rbp)[._](.*=.*)$", re.S)  # longest first


def trec_measure_name(base: str, value: Any = None) -> str:
    """The name trec_eval prints: ``P_10``, ``iprec_at_recall_0.10``, ``set_F_0.5``."""
    if value is None:
        return base
    if base in ("iprec_at_recall", "Rprec_mult_avgjg", "Rprec_mult"):
        return f"{base}_{value:3.2f}"
    return f"{base}_{value}"


def _trec_specs(text: str) -> Optional[List[MeasureSpec]]:
    if _RANX_RBP.match(text):
        return None  # ranx's rbp.95 (trec_eval's rbp takes p=... pairs only)
    nickname = TREC_NICKNAMES.get(text)
    if nickname is not None:
        return [s for base in nickname for s in _trec_base_specs(base, None)]
    pairs = _TREC_PAIRS_NAME.match(text)
    if pairs is not None:  # G.1=3,2=7: level=gain pairs
        return [MeasureSpec(trec_measure_name(pairs.group(1), pairs.group(2)), KIND[PAIR_MEASURES[pairs.group(1)]],
                            gains=gain_pairs(pairs.group(2), text))]
    rbp = _TREC_RBP.match(text)
    if rbp is not None:
        return [_rbp_spec(rbp.group(1), rbp.group(2), text)]
    if text in _TREC_BASES:
        return _trec_base_specs(text, None, text)
    base, dot, params = text.partition(".")
    if dot and base in _TREC_BASES:  # the command line's NAME.PARAMS, read as trec_eval reads it
        return _trec_dotted_specs(base, params, text)
    match = _TREC_NAME.match(text)
    if match is None or match.group(1) not in _TREC_BASES:
        return None
    return _trec_base_specs(match.group(1), match.group(2), text)


def _trec_dotted_specs(base: str, params: str, text: str) -> List[MeasureSpec]:
    """``NAME.PARAMS`` as ``evalcore trec`` reads it (trec_eval 10's rules): cutoffs with C's
    atol, numbers with atof (``P.23.4`` is P_23, ``iprec_at_recall..10,.20`` the points 0.1
    and 0.2), sorted; the names the command line prints."""
    kind, defaults = _TREC_BASES[base]
    if not params:
        raise ValueError(f"measure {text!r}: name the parameters after the '.', e.g. {base}.10, or drop the '.'")
    parts = params.split(",")
    if base in _TREC_NUMBER_LISTS or base == "set_F" or kind in _POINT_KINDS:
        numbers = [c_atof(p) for p in parts]
        if not all(math.isfinite(x) and x >= 0 for x in numbers) and base != "utility":
            raise ValueError(f"measure {text!r}: the parameters must be finite numbers >= 0")
        if not all(math.isfinite(x) and abs(x) <= _MAX_COEFFICIENT for x in numbers):
            raise ValueError(f"measure {text!r}: the coefficients must be finite numbers of magnitude at most 1e270 "
                             "(so that every value, and the sum of them all, stays finite)")
        if base == "set_F":  # trec_eval reads the first number
            return [MeasureSpec(f"set_F_{params}", KIND["SetF"], parameter=numbers[0])]
        if base == "utility" and len(numbers) != 4:
            raise ValueError(f"measure {text!r}: utility takes 4 coefficients (a,b,c,d), got {len(numbers)}")
        if base in _TREC_NUMBER_LISTS:
            return [MeasureSpec(f"{base}_{params}", KIND[kind], parameters=tuple(numbers))]
        values: List[Any] = sorted(numbers)
    elif base in ("rbp", "rbp_resid"):  # (rbp.95@8: neither trec_eval's form nor ranx's)
        raise ValueError(f"measure {text!r}: {base}'s persistence is named as in {base}.p=0.95 (trec_eval's form)"
                         + _RANX_P * (base == "rbp"))
    elif defaults is None:
        raise ValueError(f"measure {text!r}: {base} takes no parameters (trec_eval ignores them): name it {base!r}")
    else:
        values = sorted(c_atol(p) for p in parts)
        if values[0] <= 0:
            raise ValueError(f"measure {text!r}: cutoffs must be positive integers (read as C's atol reads them)")
    if len(set(values)) != len(values):
        raise ValueError(f"measure {text!r} lists a cutoff twice")
    if kind in _POINT_KINDS:
        return [MeasureSpec(trec_measure_name(base, x), KIND[kind], parameter=float(x)) for x in values]
    return [MeasureSpec(trec_measure_name(base, k), KIND[kind], cutoff=int(k)) for k in values]


def _trec_base_specs(base: str, params: Optional[str], text: str = "") -> List[MeasureSpec]:
    kind, defaults = _TREC_BASES[base]
    if base in _TREC_NUMBER_LISTS and params is None:
        return [MeasureSpec(base, KIND[kind], parameters=_TREC_NUMBER_LISTS[base])]
    if base == "set_F":
        if params is None:
            return [MeasureSpec("set_F", KIND["SetF"], parameter=1.0)]
        return [MeasureSpec(trec_measure_name(base, params), KIND["SetF"], parameter=_number(params, text))]
    if base in ("rbp", "rbp_resid") and params is None:
        return [MeasureSpec(base, KIND[kind], parameter=RBP_PERSISTENCE)]
    if defaults is None:
        if params is not None:
            raise ValueError(f"measure {text!r}: {base} takes no parameters")
        return [MeasureSpec(base, KIND[kind])]
    if params is None:
        values: Sequence[Any] = defaults
    else:
        parts = params.split(",")
        values = [_number(p, text) for p in parts] if kind in _POINT_KINDS else [_cutoff(p, text) for p in parts]
        if len(set(values)) != len(values):
            raise ValueError(f"measure {text!r} lists a cutoff twice")
        values = sorted(values)
    if kind in _POINT_KINDS:
        return [MeasureSpec(trec_measure_name(base, x), KIND[kind], parameter=float(x)) for x in values]
    return [MeasureSpec(trec_measure_name(base, k), KIND[kind], cutoff=int(k)) for k in values]


def _number(text: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"measure {name!r}: {text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"measure {name!r}: {text!r} must be a finite number >= 0")
    return value


def _persistence(text: str, name: str) -> float:
    try:
        p = float(text)
    except ValueError:
        p = math.nan
    if not 0 < p < 1:
        raise ValueError(f"measure {name!r}: the persistence p must be a number between 0 and 1 (exclusive), "
                         f"e.g. rbp.p=0.8, got {text!r}")
    return p


def _rbp_spec(base: str, text: str, name: str) -> MeasureSpec:
    """rbp.PAIRS: the last pair named p is the persistence (default 0.9), pairs named by an
    integer are rbp's gains for those levels (gain_names.gain_pairs, as trec_eval's setup_gains
    reads them; rbp_resid ignores them, as trec_eval does), others are ignored."""
    persistence = [value for key, _, value in (part.partition("=") for part in text.split(",")) if key == "p"]
    p = _persistence(persistence[-1], name) if persistence else RBP_PERSISTENCE
    gains = gain_pairs(text, name)  # (also the pairs' syntax check)
    return MeasureSpec(f"{base}_{text}", KIND[_TREC_BASES[base][0]], parameter=p,
                       gains=gains if base == "rbp" else ())


def _cutoff(text: str, name: str) -> int:
    if not re.fullmatch(r"[1-9][0-9]{0,17}", text):
        raise ValueError(f"measure {name!r}: the cutoff {text!r} must be a positive integer")
    return int(text)


def summaries(kinds: Sequence[int], mean: Sequence[Optional[float]], defined: Sequence[int]) -> List[Optional[float]]:
    """RunEvaluation.mean from the exact means of the per-query values (docs/contract.md §5):
    the same, except for the geometric means (gm_map, gm_bpref: exp of the exact mean of
    the per-query logarithms) and num_q (the number of queries, as trec_eval's summary)."""
    out: List[Optional[float]] = []
    for kind, value, count in zip(kinds, mean, defined):
        name = MEASURE_KINDS[kind]
        if value is not None and name in GEOMETRIC_MEAN_KINDS:
            value = math.exp(value)
        elif value is not None and name in COUNT_KINDS:
            value = float(count)
        out.append(value)
    return out


# ---- ranx names -----------------------------------------------------------------------------

_RANX = {"ndcg": "nDCG", "map": "AP", "mrr": "RR", "precision": "P", "recall": "R", "hit_rate": "Success",
         "r-precision": "Rprec", "bpref": "Bpref", "hits": "Hits", "f1": "F1"}  # hits, f1: issue 25 item 4
# Without a cutoff: ranx's whole-ranking forms.
_RANX_WHOLE = {"precision": "SetP", "recall": "SetR", "ndcg": "nDCG", "map": "AP", "mrr": "RR"}
_RANX_NAME = re.compile(r"^(ndcg|map|mrr|precision|recall|hit_rate|r-precision|bpref|hits|f1)(?:@([1-9][0-9]{0,17}))?(?:-l([0-9]+))?$")


_RANX_RBP = re.compile(r"^rbp[.@]([0-9]{1,17})(?:-l([0-9]+))?$")  # issue 25 item 4: rbp.95 is p = 0.95
_RANX_P = ", or rbp.95 (ranx's RBP, p = 0.95: the digits after '0.'); neither takes a cutoff"


def _ranx_spec(text: str) -> Optional[MeasureSpec]:
    rbp = _RANX_RBP.match(text)
    if rbp is not None:  # ranx's graded RBP (ranx reads p as float("0." + digits))
        level = rbp.group(2)
        return MeasureSpec(text, KIND["RanxRBP"], rel=None if level is None else float(level),
                           parameter=float(f"0.{rbp.group(1)}"))
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
               "SetAP": None}
# Kinds that have trec_eval names only (ir_measures has no such measure).
_NOT_IR = {"NumRelRet", "NumNonrelJudgedRet", "RprecMult", "Unjudged", "RBPResid", "YAAP", "RankGrade", "Hits", "F1",
           "RanxRBP"}
_IR_NAME = re.compile(r"^([A-Za-z]+)(?:\((.*)\))?(?:@([0-9][0-9.]*))?$", re.S)


def _ir_spec(text: str) -> Optional[MeasureSpec]:
    match = _IR_NAME.match(text)
    if match is None:
        return None
    name, params_text, at = match.group(1), match.group(2), match.group(3)
    name = _IR_ALIASES.get(name, name) if name in _IR_ALIASES else name
    if (name is None or name not in KIND or name in _NOT_IR or name in _TREC_ONLY_KINDS
            or KIND[name] in JUDGMENT_GROUP_KINDS
            or KIND[name] in PREFERENCE_KINDS or KIND[name] in DIVERSITY_KINDS):
        return None
    params = _ir_params(params_text, text) if params_text else {}
    rel = params.pop("rel", None)
    gains = params.pop("gains", None)
    beta = params.pop("beta", None)
    persistence = params.pop("p", None)
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
        if kind not in ("nDCG", "NCG"):
            raise ValueError(f"measure {text!r}: only nDCG and NCG take gains")
        gain_pairs = _gain_pairs(gains, text)
    if beta is not None:
        if kind != "SetF":
            raise ValueError(f"measure {text!r}: only SetF takes beta")
        parameter = _number(str(beta), text)
    elif kind == "SetF":
        parameter = 1.0
    if kind == "RBP":
        if persistence is None:
            raise ValueError(f"measure {text!r}: RBP needs its persistence, e.g. RBP(p=0.8)")
        parameter = _persistence(str(persistence), text)
    elif persistence is not None:
        raise ValueError(f"measure {text!r}: only RBP takes p")
    return MeasureSpec(text, KIND[kind], cutoff, None if rel is None else float(rel), gain_pairs, parameter)


# ---- all names --------------------------------------------------------------------------------

#: Names the suggestions of an unknown name are drawn from.
EXAMPLE_NAMES = (
    "P@10", "R@100", "RR", "RR@10", "AP", "AP@100", "nDCG", "nDCG@10", "P(rel=2)@10", "nDCG(gains={0:0,1:1,2:3})@10",
    "Rprec", "Bpref", "Success@5", "IPrec@0.2", "Judged@10", "ERR@20", "NumRet", "NumRel", "NumRet(rel=1)", "SetP",
    "SetR", "SetF", "infAP", "RBP(p=0.8)", "MAP", "MRR", "map", "P_10", "P.10", "P.5,10", "recall_100", "map_cut_100", "ndcg", "ndcg_cut_10",
    "ndcg_cut.10,20", "recip_rank", "bpref", "iprec_at_recall_0.10", "success_5", "set_P", "set_recall", "set_F",
    "num_ret", "num_rel", "num_rel_ret", "gm_map", "gm_bpref", "utility", "11pt_avg", "relative_P", "set_relative_P",
    "set_map", "num_q", "runid", "official", "set", "all_trec", "ndcg@10", "map@100", "mrr@10", "precision@10",
    "num_nonrel_judged_ret", "Rprec_mult", "unj_10", "rbp", "rbp.p=0.8", "rbp_resid", "yaap", "infAP", "RBP(p=0.8)",
    "recall@100", "hit_rate@5", "r-precision", "precision@10-l2",
    # issue 25 item 2, the C/W/L family
    "RBP(p=0.8,rel=1)", "INST(T=2,max_rel=3)", "INSQ(max_rel=3)", "BPM(T=1,max_rel=3)@10", "SDCG(max_rel=3)@10",
    "NERR8(max_rel=3)@10", "NERR9(max_rel=3)@10", "NERR10(p=0.9,max_rel=3)", "NERR11(T=2,max_rel=3)",
    "INST(max_rel=3).ETU", "RBP(p=0.8,rel=1).ResEU",
    "BPMD(T=1,hb=1,hc=1,gain_med=0.5,max_rel=3)@10", "RBP(p=0.8,max_gain=3,cost=2,depth=100)",  # issue 25 item 2, cwl2
    "Compat", "Compat(p=0.8)", "Compat(p=0.95,normalize=False)", "Accuracy@10", "Accuracy(rel=2)", "hits@10", "f1@10", "rbp.95", "NCG@10", "hit_rate",  # issue 25 item 4
    "NumQ", "alpha_nDCG@20", "ERR_IA@20", "StRecall@10", "strec@10", "NRBP", "AP_IA", "P_IA@10",  # h25-irm3
)
VALID_MEASURES = (
    "ir_measures names (P@k, R@k, RR[@k], AP[@k], nDCG[@k], Rprec, Bpref, Success@k, IPrec@x, Judged[@k], "
    "ERR[@k], NumRet, NumRel, SetP, SetR, SetF, infAP, RBP(p=x); parameters rel=, gains=, beta=, p=; the C/W/L "
    "family RBP(p=x,rel=r), INST(T=t,max_rel=m), INSQ, BPM/BPMD(...)@k, SDCG(...)@k, NERR8-11, depth=, cost=, ..., "
    "optionally .ETU, .EC, .ETC, .ED, .ResEU, ...; Compat(p=x,normalize=b), Accuracy[@k], NCG[@k], NumQ; with "
    "qrels_format='subtopics' the diversity measures alpha_nDCG@k, alpha_DCG@k, ERR_IA@k, nERR_IA@k, P_IA@k, "
    "StRecall@k, NRBP, nNRBP, AP_IA, ndeval's alpha-nDCG@k, strec@k, ...), trec_eval names "
    "(map, P_10, P.5,10, ndcg_cut.10, recip_rank, gm_map, utility.1,-1,0,0, 11pt_avg, Rprec_mult, unj_5, rbp.p=0.8, "
    "yaap, G, ndcg_rel, official, set, all_trec, ...) or ranx names (ndcg@10, mrr@10, precision@10-l2, hits@10, f1@10, rbp.95, hit_rate@10, ...)"
)


def _cwl_specs(text: str) -> Optional[List[MeasureSpec]]:
    found = cwl_measure(text)  # issue 25 item 2, the C/W/L family
    if found is None:
        return None
    kind, cutoff, parameter, parameters = found
    return [MeasureSpec(text, KIND[kind], cutoff, parameter=parameter, parameters=parameters)]


# A name's specs depend on its text alone and are immutable: kept (parsing them again was 1.1 ms
# of a 17 ms evaluation of 21 diversity measures, bench/bench_diversity.py; a refusal is not kept).
@functools.lru_cache(maxsize=4096)
def _one(text: str) -> Tuple[MeasureSpec, ...]:
    from .common_names import compat_spec  # issue 25 item 4 (these read this module's helpers)
    from .diversity_names import diversity_spec
    from .ir_measure_objects import ir_set_name_spec

    for parse in (lambda t: [s] if (s := compat_spec(t) or ir_set_name_spec(t)) is not None else None, _trec_specs, _cwl_specs, lambda t: [s] if (s := _ranx_spec(t)) is not None else None,
                  lambda t: [s] if (s := diversity_spec(t)) is not None else None,
                  lambda t: [s] if (s := _ir_spec(t)) is not None else None):
        specs = parse(text)
        if specs is not None:
            return tuple(specs)
    import difflib  # (only for a name that is refused)

    lowered = {name.lower(): name for name in EXAMPLE_NAMES}  # (then STREC@5 finds strec@10)
    close = difflib.get_close_matches(text, EXAMPLE_NAMES, n=3, cutoff=0.5) or \
        [lowered[n] for n in difflib.get_close_matches(text.lower(), lowered, n=3, cutoff=0.5)]
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown measure {text!r}{hint} Valid: {VALID_MEASURES}")


#: What evaluate_run's `measures` takes: one name, or a sequence of names (a MeasureSpec
#: stands for itself).
MeasureNames = Union[str, Sequence[Union[str, "MeasureSpec"]]]


#: What a measure-name parser says of relstring, whose values are text (runs/text_measures.py).
TEXT_REFUSAL = ("{name!r} is text (trec_eval's relstring: one character a rank), not a number: "
                "evalcore.evaluate_run returns it in RunEvaluation.texts; compare, merged (partitioned) "
                "evaluations and evalcore.spark take numeric measures only")


def _object(name: Any) -> Optional[List[MeasureSpec]]:
    from .ir_measure_objects import ir_measure_spec, is_ir_measure  # (it reads this module's parser)

    return [ir_measure_spec(name)] if not isinstance(name, str) and is_ir_measure(name) else None


def parse_measures(measures: MeasureNames) -> List[MeasureSpec]:
    """Measure names of any of the three families → :class:`MeasureSpec`, in the order
    given (a trec_eval name with several cutoffs, or a nickname, gives several, in trec_eval's
    order). An unknown name is a ValueError that suggests the closest valid ones; a name
    listed twice (also through two names) is a ValueError."""
    from .ir_measure_objects import is_ir_measure  # (it reads this module's parser)

    if isinstance(measures, str) or is_ir_measure(measures):  # one name, or one ir_measures object
        measures = [measures]  # type: ignore[list-item]
    specs: List[MeasureSpec] = []
    for name in measures:
        if isinstance(name, str) and (name == "relstring" or name.startswith("relstring.")):
            raise ValueError(TEXT_REFUSAL.format(name=name))  # evaluate_run takes it first (text_measures.py)
        # A MeasureSpec stands for itself (the pytrec_eval drop-in builds its own names); an
        # ir_measures object is read with its parameters and defaults (issue 25 item 5).
        for spec in [name] if isinstance(name, MeasureSpec) else _object(name) or _one(str(name)):
            if any(s.name == spec.name for s in specs):
                raise ValueError(f"measure {spec.name!r} is listed twice")
            specs.append(spec)
    if not specs:
        raise ValueError(f"name at least one measure: {VALID_MEASURES}")
    return specs
