"""A drop-in for pytrec_eval: ``from evalcore import trec_eval as pytrec_eval``.

:class:`RelevanceEvaluator` takes pytrec_eval's arguments and measure names and returns
what ``pytrec_eval.RelevanceEvaluator(...).evaluate(run)`` returns — the same queries, keys,
key order and values — computed by evalcore's core. Two differences, both deliberate:

- scores are compared as binary64, as trec_eval 10 does; pytrec-eval-terrier (trec_eval
  9.0.8 inside) rounds them to float32 first, so scores equal in float32 but not in
  binary64 tie there and not here;
- ``iprec_at_recall`` follows trec_eval 10 (lround(x·R) relevant documents; 9.x took
  int(x·R + 0.9)).

The names it takes are :mod:`evalcore.trec_eval.pytrec_names`' ``supported_measures`` and
``supported_nicknames``; a trec_eval measure evalcore does not have (``unsupported_measures``)
is a ValueError, as an unknown name is in pytrec_eval. An evaluator keeps its measures for
every run it evaluates (pytrec_eval before pytrec-eval-terrier 0.5.4 kept one cutoff of
each after the first run: cvangysel/pytrec_eval#38).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from ..runs.measures import KIND, MeasureSpec
from .pytrec_names import (CONSTANTS, GM_FLOOR, TREC_EVAL_TABLE, measure_keys, own_geometric_mean,
                           requested_measures, supported_measures, supported_nicknames)

__all__ = ["RelevanceEvaluator", "supported_measures", "supported_nicknames"]


class RelevanceEvaluator:
    """pytrec_eval's evaluator: qrels and measures once, then ``evaluate(run)`` per run.

    Args:
        query_relevance: ``{query: {doc: grade}}``; queries without judgments are left out,
            as pytrec_eval does.
        measures: trec_eval names (``map``, ``P_10``, ``P.5,10``, ``ndcg_cut.10``,
            ``iprec_at_recall``) and nicknames (``official``, ``set``, ``all_trec``): those of
            ``supported_measures`` and ``supported_nicknames``. They are read once, here: every
            ``evaluate`` gives the same keys.
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
        wanted = requested_measures(measures)
        # The keys, fixed here for every run evaluated: (key, index into the measures; None:
        # a constant of CONSTANTS).
        self._keys: List[Tuple[str, Optional[int]]] = []
        self._specs: List[MeasureSpec] = []
        self._gm: Set[int] = set()  # keys whose logarithm the evaluator takes
        self._gm_floor: Set[int] = set()  # keys whose undefined value is ln(GM_FLOOR), not 0
        for base in sorted(wanted, key=TREC_EVAL_TABLE.index):
            for key, spec in measure_keys(base, wanted[base]):
                if spec is None:
                    self._keys.append((key, None))
                    continue
                if own_geometric_mean(base):
                    self._gm.add(len(self._keys))
                elif base.startswith("gm_"):
                    self._gm_floor.add(len(self._keys))
                self._keys.append((key, len(self._specs)))
                self._specs.append(spec._replace(name=f"{base}:{spec.name}"))
        # trec_eval's value where evalcore's is undefined: 0, except an interpolated precision
        # at a point of 0 relevant documents over an empty ranking (0 / 0 there too).
        self._relevant_index = len(self._specs)
        self._specs.append(MeasureSpec("num_rel:internal", KIND["NumRel"]))

    def evaluate(self, scores: Mapping[str, Mapping[str, Any]]) -> Dict[str, Dict[str, float]]:
        """``{query: {measure key: value}}`` for the queries in both the run and the qrels, in
        the run's order, keys in trec_eval's order, as pytrec_eval returns them."""
        from ..runs.evaluate import _evaluate_run

        run = {q: docs for q, docs in scores.items() if q in self._qrels}
        if self._judged_only:
            run = {q: {d: s for d, s in docs.items() if self._qrels[q].get(d, -1) >= 0} for q, docs in run.items()}
        if not self._specs or not run:
            return {q: {key: CONSTANTS[key] for key, _ in self._keys} for q in run if q in self._qrels}
        # pytrec_eval's result has the run's judged queries alone, without a warning: so has
        # this one (evaluate_run's EvaluationWarning on the judged queries the run lacks is
        # not issued; the keys of the result say which queries were evaluated).
        result = _evaluate_run(self._qrels, run, self._specs, self._relevance_level, "linear", "score", "skip", None)
        columns = [result.values(spec.name).tolist() for spec in self._specs]
        relevant = columns[self._relevant_index]
        iprec = KIND["IPrec"]
        out: Dict[str, Dict[str, float]] = {}
        for q, query in enumerate(result.query_ids):
            values: Dict[str, float] = {}
            for position, (key, index) in enumerate(self._keys):
                if index is None:
                    values[key] = CONSTANTS[key]
                    continue
                value = columns[index][q]
                if value != value:  # undefined here
                    if position in self._gm_floor:
                        value = math.log(GM_FLOOR)
                    else:
                        value = math.nan if self._specs[index].kind == iprec and relevant[q] > 0 else 0.0
                if position in self._gm:
                    value = math.log(max(value, GM_FLOOR))
                values[key] = value
            out[query] = values
        return out
