"""The measure names of the pytrec_eval drop-in: ``supported_measures``,
``supported_nicknames`` and ``unsupported_measures``, and how a set of pytrec_eval names
becomes the measures to compute.

The sets are derived from evalcore's own table of trec_eval names
(:mod:`evalcore.runs.measures`: ``_TREC_BASES``), so a trec_eval measure added there is
supported here too, with no list to keep in step. What this module holds itself is
trec_eval 10's own vocabulary, names only: its measure table in print order and its
nicknames' members (trec_eval's measures.c), which say where a measure's keys go and what
``official``, ``set`` and ``all_trec`` stand for.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from ..runs.measures import _TREC_BASES, KIND, TREC_NICKNAMES, MeasureSpec, parse_measures

#: trec_eval 10's measure table, in its order: the order of each query's keys, as in
#: pytrec_eval (whose trec_eval 9.0.8 lacks dcg, ideal_dcg, yaap, rbp, rbp_resid and unj).
TREC_EVAL_TABLE: Tuple[str, ...] = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
    "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success",
    "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg",
    "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj",
)
# trec_eval 10's nicknames and their members. The last three need preference or
# judgment-group qrels (trec_eval's -R), which a dict of grades is not.
_TREC_EVAL_NICKNAMES: Dict[str, Tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
                 "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map",
                 "set_F", "num_nonrel_judged_ret"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
                  "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
                  "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
              "prefs_simp", "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}
#: pytrec_eval's per-query values of the measures whose trec_eval value is no number of the
#: query: runid and num_q are summary lines, relstring a string (its dict holds 0.0).
CONSTANTS: Dict[str, float] = {"runid": 0.0, "num_q": 1.0, "relstring": 0.0}
# What the drop-in computes itself while evalcore's table lacks it: those constants, and
# gm_map as ln(max(AP, GM_FLOOR)) of evalcore's AP.
_OWN = ("runid", "num_q", "gm_map", "relstring")
# trec_eval's MIN_GEO_MEAN: a geometric-mean measure's per-query value is ln(max(x, this)).
GM_FLOOR: float = 0.00001


def _needs_other_qrels(base: str) -> bool:
    """The preference and judgment-group measures: their judgments are not grades."""
    return base.startswith("prefs_") or base.endswith("_avgjg")


#: The measure names the drop-in's RelevanceEvaluator takes: every trec_eval measure
#: evalcore has (pytrec_eval's supported_measures where it has them, and trec_eval 10's it
#: lacks), except the preference ones, whose judgments a dict of grades cannot hold.
supported_measures: Set[str] = {
    base for base in (*_TREC_BASES, *_OWN) if base in TREC_EVAL_TABLE and not _needs_other_qrels(base)
}
#: trec_eval's nicknames, each naming the supported measures among its members
#: (``official``, ``set``, ``all_trec``; the preference ones are left out).
# trec_eval 10's measures pytrec-eval-terrier's trec_eval 9.0.8 lacks: taken when named, but
# left out of the nicknames, so that {"all_trec"} gives pytrec_eval's keys and no others.
NEW_IN_TREC_EVAL_10: FrozenSet[str] = frozenset({"dcg", "ideal_dcg", "yaap", "rbp", "rbp_resid", "unj"})
supported_nicknames: Dict[str, Set[str]] = {
    nickname: ({m for m in members if m in supported_measures}
               | (set(TREC_NICKNAMES.get(nickname, ())) & supported_measures)) - NEW_IN_TREC_EVAL_10
    for nickname, members in _TREC_EVAL_NICKNAMES.items()
    if any(m in supported_measures for m in members if m not in ("runid", "num_q"))
}
#: trec_eval 10's measures the drop-in does not take (yet): ``infAP`` and the others evalcore
#: has no kernel for, and the preference measures.
unsupported_measures: FrozenSet[str] = frozenset(TREC_EVAL_TABLE) - supported_measures

# pytrec_eval's grammar: BASE, then "." or "_" and numbers separated by commas.
_PARAMETERS = re.compile(r"[._]([0-9]+(?:\.[0-9]+)?(?:,[0-9]+(?:\.[0-9]+)?)*)")


def requested_measures(measures: Iterable[str]) -> Dict[str, Optional[Set[str]]]:
    """base -> its parameters as given (None: the defaults), pytrec_eval's way: nicknames
    expanded, every parameter set of a base united, a bare name dropped for a parameterised
    one, the parameters matched at the start of what follows the base."""
    wanted: Dict[str, Optional[Set[str]]] = {}
    for name in measures:
        if not isinstance(name, str):
            raise TypeError(f"a measure name must be a str, got {type(name).__name__}")
        for base in supported_nicknames.get(name, {name}):
            if base in supported_measures:
                wanted.setdefault(base, None)
                continue
            for candidate in sorted(supported_measures, key=len, reverse=True):
                match = _PARAMETERS.match(base, len(candidate)) if base.startswith(candidate) else None
                if match is not None:
                    params = wanted.get(candidate) or set()
                    params.update(match.group(1).split(","))
                    wanted[candidate] = params
                    break
            else:
                raise ValueError(_unsupported(name))
    return wanted


def _unsupported(name: str) -> str:
    base = re.split(r"[._][0-9]", name, maxsplit=1)[0]
    if base in unsupported_measures:
        why = ("it needs preference or judgment-group qrels (trec_eval's -R), which a dict of grades is not"
               if _needs_other_qrels(base) else "evalcore has no such measure yet")
        return f"unsupported measure {name}: {why}; evalcore.trec_eval.supported_measures lists those it takes"
    return (f"unsupported measure {name}: not a trec_eval measure name; give one of "
            f"evalcore.trec_eval.supported_measures (e.g. map, P_10, ndcg_cut.10) or a nickname "
            f"({', '.join(sorted(supported_nicknames))})")


def own_geometric_mean(base: str) -> bool:
    """Whether the drop-in takes this base's logarithm itself (gm_map while evalcore's table
    lacks it; once there, evalcore's value is the logarithm already)."""
    return base == "gm_map" and base not in _TREC_BASES


def measure_keys(base: str, params: Optional[Set[str]]) -> List[Tuple[str, Optional[MeasureSpec]]]:
    """(result key, measure) for one base, keys in trec_eval's order; the measure is None
    for the keys of CONSTANTS."""
    if base in CONSTANTS:
        return [(base, None)]
    if own_geometric_mean(base):
        return [(base, MeasureSpec(base, KIND["AP"]))]
    defaults = _TREC_BASES[base][1]
    if base == "set_F":
        # trec_eval takes one parameter, the first; the key stays "set_F"
        x = float(sorted(params, key=float)[0]) if params else 1.0
        return [("set_F", parse_measures([f"set_F.{x!r}"])[0])]
    if not params:
        specs = parse_measures([base])
    elif defaults is not None and all(isinstance(v, int) for v in defaults):
        cutoffs = sorted({int(float(p)) for p in params})  # trec_eval reads cutoffs with atol
        if any(k <= 0 for k in cutoffs):
            raise ValueError(f"{base}: cutoffs must be positive integers, got {','.join(sorted(params))}")
        specs = parse_measures([f"{base}.{','.join(str(k) for k in cutoffs)}"])
    elif defaults is not None:
        specs = parse_measures([f"{base}.{','.join(repr(x) for x in sorted({float(p) for p in params}))}"])
    else:
        specs = parse_measures([f"{base}.{','.join(sorted(params))}"])  # as pytrec_eval hands it to trec_eval
    if defaults is None and len(specs) == 1:
        return [(base, specs[0])]  # one value: trec_eval prints the bare name
    if defaults is not None and not all(isinstance(v, int) for v in defaults):
        # trec_eval prints a point or multiple as %3.2f (iprec_at_recall_0.10, Rprec_mult_0.20)
        return [(f"{base}_{float(spec.name.rsplit('_', 1)[1]):3.2f}", spec) for spec in specs]
    return [(spec.name, spec) for spec in specs]
