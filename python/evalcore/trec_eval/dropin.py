"""A drop-in for pytrec_eval: ``from evalcore import trec_eval as pytrec_eval``.

:class:`RelevanceEvaluator` takes pytrec_eval's arguments and measure names and returns
what ``pytrec_eval.RelevanceEvaluator(...).evaluate(run)`` returns — the same queries, keys,
key order and values — computed by evalcore's core. Two differences, both deliberate:

- scores are compared as binary64, as trec_eval 10 does; pytrec-eval-terrier (trec_eval
  9.0.8 inside) rounds them to float32 first, so scores equal in float32 but not in
  binary64 tie there and not here;
- ``iprec_at_recall`` follows trec_eval 10 (lround(x·R) relevant documents; 9.x took
  int(x·R + 0.9)).

Measures evalcore does not have (infAP, utility, 11pt_avg, ...) are a ValueError, as an
unknown name is in pytrec_eval; ``supported_measures`` lists those it has.
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from ..runs.measures import KIND, RECALL_POINTS, SUCCESS_CUTOFFS, TREC_CUTOFFS, MeasureSpec

# base -> (evalcore kind, default parameters or None); in trec_eval's table order, which is
# the order of each query's keys.
_BASES: Dict[str, Tuple[Optional[str], Optional[Tuple[Any, ...]]]] = {
    "runid": (None, None), "num_q": (None, None), "num_ret": ("NumRet", None), "num_rel": ("NumRel", None),
    "num_rel_ret": ("NumRelRet", None), "map": ("AP", None), "gm_map": ("AP", None), "Rprec": ("Rprec", None),
    "bpref": ("Bpref", None), "recip_rank": ("RR", None), "iprec_at_recall": ("IPrec", RECALL_POINTS),
    "P": ("P", TREC_CUTOFFS), "recall": ("R", TREC_CUTOFFS), "ndcg": ("nDCG", None), "ndcg_cut": ("nDCG", TREC_CUTOFFS),
    "map_cut": ("AP", TREC_CUTOFFS), "success": ("Success", SUCCESS_CUTOFFS), "set_P": ("SetP", None),
    "set_recall": ("SetR", None), "set_F": ("SetF", None),
}
#: The measure names this evaluator takes (pytrec_eval's supported_measures, as far as
#: evalcore has them).
supported_measures: Set[str] = set(_BASES)
#: pytrec_eval's nicknames, restricted to the measures above.
supported_nicknames: Dict[str, Set[str]] = {
    "official": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P"},
    "set": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "set_P", "set_recall", "set_F"},
    "all_trec": set(_BASES),
}
_PARAMETERS = re.compile(r"[._]([0-9]+(?:\.[0-9]+)?(?:,[0-9]+(?:\.[0-9]+)?)*)")
_GM_FLOOR = 0.00001  # trec_eval's gm_map: ln(max(AP, 0.00001))


def _requested(measures: Iterable[str]) -> Dict[str, Optional[Set[str]]]:
    """base -> its parameters as given (None: the defaults), pytrec_eval's way: nicknames
    expanded, every parameter set of a base united, a bare name dropped for a parameterised
    one, the parameters matched at the start of what follows the base."""
    wanted: Dict[str, Optional[Set[str]]] = {}
    for name in measures:
        if not isinstance(name, str):
            raise TypeError(f"a measure name must be a str, got {type(name).__name__}")
        for base in supported_nicknames.get(name, {name}):
            if base in _BASES:
                wanted.setdefault(base, None)
                continue
            for candidate in sorted(_BASES, key=len, reverse=True):
                match = _PARAMETERS.match(base, len(candidate)) if base.startswith(candidate) else None
                if match is not None:
                    params = wanted.get(candidate) or set()
                    params.update(match.group(1).split(","))
                    wanted[candidate] = params
                    break
            else:
                raise ValueError(f"unsupported measure {name}")
    return wanted


def _specs(base: str, params: Optional[Set[str]]) -> List[Tuple[str, MeasureSpec]]:
    """(result key, measure) for one base."""
    kind, defaults = _BASES[base]
    if kind is None:
        return []
    if base == "set_F":
        x = float(sorted(params, key=float)[0]) if params else 1.0  # trec_eval takes one parameter
        return [("set_F", MeasureSpec(f"set_F={x!r}", KIND["SetF"], parameter=x))]
    if defaults is None:
        return [(base, MeasureSpec(base, KIND[kind]))]
    if kind == "IPrec":
        points = sorted({float(p) for p in params}) if params else list(defaults)
        return [(f"{base}_{x:3.2f}", MeasureSpec(f"{base}_{x!r}", KIND["IPrec"], parameter=x)) for x in points]
    cutoffs = sorted({int(float(p)) for p in params}) if params else list(defaults)
    if any(k <= 0 for k in cutoffs):
        raise ValueError(f"{base}: cutoffs must be positive")
    return [(f"{base}_{k}", MeasureSpec(f"{base}_{k}", KIND[kind], cutoff=k)) for k in cutoffs]


class RelevanceEvaluator:
    """pytrec_eval's evaluator: qrels and measures once, then ``evaluate(run)`` per run.

    Args:
        query_relevance: ``{query: {doc: grade}}``; queries without judgments are left out,
            as pytrec_eval does.
        measures: trec_eval names (``map``, ``P_10``, ``P.5,10``, ``ndcg_cut.10``,
            ``iprec_at_recall``) and nicknames (``official``, ``set``, ``all_trec``).
        relevance_level: the grade from which a document is relevant (trec_eval's -l);
            at least 1, as in pytrec_eval.
        judged_docs_only_flag: trec_eval's -J: rank only documents judged with a grade >= 0.
    """

    def __init__(self, query_relevance: Mapping[str, Mapping[str, Any]], measures: Iterable[str],
                 relevance_level: int = 1, judged_docs_only_flag: bool = False) -> None:
        if isinstance(relevance_level, bool) or not isinstance(relevance_level, (int, float)) or relevance_level < 1:
            raise TypeError("Argument relevance_level should be positive.")
        if isinstance(measures, str):
            raise TypeError("measures must be an iterable of measure names, not one str")
        self._qrels = {q: dict(docs) for q, docs in query_relevance.items() if docs}
        self._relevance_level = relevance_level
        self._judged_only = bool(judged_docs_only_flag)
        wanted = _requested(measures)
        self._keys: List[Tuple[str, Optional[int]]] = []  # (key, index into the measures; None: a constant)
        self._specs: List[MeasureSpec] = []
        self._gm: Set[int] = set()
        for base in _BASES:
            if base not in wanted:
                continue
            if base in ("runid", "num_q"):
                self._keys.append((base, None))
                continue
            for key, spec in _specs(base, wanted[base]):
                if base == "gm_map":
                    self._gm.add(len(self._keys))
                self._keys.append((key, len(self._specs)))
                self._specs.append(spec._replace(name=f"{base}:{spec.name}"))
        # trec_eval's value where evalcore's is undefined: 0, except an interpolated precision
        # at a point of 0 relevant documents over an empty ranking (0 / 0 there too).
        self._relevant_index = len(self._specs)
        self._specs.append(MeasureSpec("num_rel:internal", KIND["NumRel"]))

    def evaluate(self, scores: Mapping[str, Mapping[str, Any]]) -> Dict[str, Dict[str, float]]:
        """``{query: {measure key: value}}`` for the queries in both the run and the qrels, in
        the run's order, keys in trec_eval's order, as pytrec_eval returns them."""
        from ..runs.evaluate import evaluate_run

        run = {q: docs for q, docs in scores.items() if q in self._qrels}
        if self._judged_only:
            run = {q: {d: s for d, s in docs.items() if self._qrels[q].get(d, -1) >= 0} for q, docs in run.items()}
        if not self._specs or not run:
            return {q: {key: 0.0 if key == "runid" else 1.0 for key, _ in self._keys} for q in run if q in self._qrels}
        result = evaluate_run(self._qrels, run, self._specs, relevant_at_least=self._relevance_level, missing="skip")
        columns = [result.values(spec.name).tolist() for spec in self._specs]
        relevant = columns[self._relevant_index]
        iprec = KIND["IPrec"]
        out: Dict[str, Dict[str, float]] = {}
        for q, query in enumerate(result.query_ids):
            values: Dict[str, float] = {}
            for position, (key, index) in enumerate(self._keys):
                if index is None:
                    values[key] = 0.0 if key == "runid" else 1.0
                    continue
                value = columns[index][q]
                if value != value:  # undefined here
                    value = math.nan if self._specs[index].kind == iprec and relevant[q] > 0 else 0.0
                if position in self._gm:
                    value = math.log(max(value, _GM_FLOOR))
                values[key] = value
            out[query] = values
        return out
