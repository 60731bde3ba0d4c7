"""evalcore as an ir_measures provider (issue 25 item 5): :class:`EvalcoreProvider` and
its evaluator, over ir_measures' own classes (this module imports ir_measures: the package
imports it only when asked for, see ``evalcore/ir_measures/__init__.py``).

How the numbers are made, as ir_measures' default (pytrec_eval) provider makes them:

- The queries reported are the run's judged queries (in the run, with judgments), each
  measure's value per query as evaluate_run computes it; where evalcore's value is undefined
  (NaN: no relevant document for AP, R, RR, ...) the value is 0, as trec_eval and pytrec_eval
  report it.
- Judged queries the run lacks (every key of a qrels dict, empty ones too) are reported by
  ir_measures' Evaluator with the measure's ``DEFAULT``, 0, after the others: evaluate_run
  is called with ``missing="skip"`` and its warning that they were left out is not issued,
  because they are not left out here.
- ``calc_aggregate`` and ``calc`` give, for each measure, the exact sum of the reported
  values rounded once (``SumAgg`` measures: NumRet, NumRel) or that divided by the number of
  reported queries (``MeanAgg``: the others), evaluate_run's rule (docs/contract.md §5);
  ir_measures' aggregators add the values one by one in the order reported, which can
  differ from it in the last bits. ``iter_calc``'s per-query values are bit for bit those
  of evaluate_run.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Iterator, List, Set, Tuple

try:
    import ir_measures
    from ir_measures import Metric
    from ir_measures.providers import Evaluator, Provider
except ImportError as error:  # pragma: no cover (the test extra installs it)
    raise ImportError("evalcore.ir_measures needs ir_measures: pip install ir-measures") from error

from ..runs.evaluate import evaluate_run
from ..runs.exact_sums import ExactSum
from ..runs.result import EvaluationWarning, dropped_warning
from .translation import translate
from .._lazy_numpy import lazy_numpy

np = lazy_numpy(__name__)


def _reread(value: Any) -> Any:
    """`value` (qrels or a run in one of ir_measures' three shapes: a dict of dicts, a pandas
    DataFrame, an iterable of records) as something that can be read more than once: dicts
    and DataFrames as they are, an iterable of records (often a generator) as a list."""
    if isinstance(value, dict) or hasattr(value, "itertuples"):
        return value
    return list(value)


def _qrel_query_ids(qrels: Any) -> Set[Any]:
    """The judged query IDs ir_measures' Evaluator fills in: a dict's keys (as the pytrec_eval
    provider takes them, empty ones too), a table's query_id column, the records' query IDs."""
    if isinstance(qrels, dict):
        return set(qrels)
    if hasattr(qrels, "itertuples"):
        return set(qrels["query_id"].unique())
    return {record.query_id for record in qrels}


class _Evaluated(List[Tuple[Dict[str, List[Any]], Any]]):
    """A run already evaluated: (names, RunEvaluation) pairs, which ``calc`` hands to both
    the aggregates and ir_measures' iter_calc, so that the run is evaluated once."""


# (the ignores: ir_measures' classes are Any where it is not installed, as in the typing stage)
class EvalcoreEvaluator(Evaluator):  # type: ignore[misc, unused-ignore]
    """Scores runs against one set of qrels with evaluate_run: one call per value of
    ``judged_only`` among the measures (usually one), each reading the run once."""

    def __init__(self, measures: List[Any], qrels: Any) -> None:
        self._qrels = _reread(qrels)
        query_ids = _qrel_query_ids(self._qrels)
        self._judged_count = len(query_ids)  # the queries every measure is reported for
        super().__init__(measures, query_ids)
        # evalcore name -> the ir_measures measures it stands for (P@10 and P(rel=1)@10 are one)
        self._groups: Dict[bool, Dict[str, List[Any]]] = {}
        for measure in measures:
            found = translate(measure)
            if found is None:
                raise ValueError(f"evalcore does not compute {measure} as ir_measures defines it "
                                 "(EvalcoreProvider.supports says which it does)")
            self._groups.setdefault(found.judged_only, {}).setdefault(found.name, []).append(measure)

    def _evaluations(self, run: Any) -> Iterator[Tuple[Dict[str, List[Any]], Any]]:
        if len(self._groups) > 1:
            run = _reread(run)
        for judged_only, names in self._groups.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EvaluationWarning)
                result = evaluate_run(self._qrels, run, list(names), missing="skip", judged_only=judged_only)
            judged = len(result.query_ids) + len(result.missing_query_ids)
            for text in result.warnings:  # the others say what is likely a mistake: issue them
                if not (result.missing_query_ids and text == dropped_warning(result.missing_query_ids, judged)):
                    warnings.warn(text, EvaluationWarning, stacklevel=4)
            yield names, result

    def _iter_calc(self, run: Any) -> Iterator[Any]:
        for names, result in run if isinstance(run, _Evaluated) else self._evaluations(run):
            columns = [(measures, np.nan_to_num(result.values(name), nan=0.0).tolist())
                       for name, measures in names.items()]
            for row, query_id in enumerate(result.query_ids):
                for measures, values in columns:
                    for measure in measures:
                        yield Metric(query_id=query_id, measure=measure, value=values[row])

    def calc_aggregate(self, run: Any) -> Dict[Any, Any]:
        """Each measure's aggregate over the queries ``iter_calc`` reports: the exact sum of
        their values rounded once, divided by their number for ir_measures' mean measures."""
        aggregates: Dict[Any, Any] = {}
        for names, result in run if isinstance(run, _Evaluated) else self._evaluations(run):
            for name, measures in names.items():
                total = float(ExactSum(np.nan_to_num(result.values(name), nan=0.0)))
                for measure in measures:
                    aggregates[measure] = _aggregate(measure, total, self._judged_count)
        return {measure: aggregates[measure] for measure in self.measures}

    def calc(self, run: Any) -> Any:
        """Aggregates (as :meth:`calc_aggregate`) and per-query metrics (as ``iter_calc``)."""
        evaluated = _Evaluated(self._evaluations(run))  # one evaluation for both
        return ir_measures.CalcResults(self.calc_aggregate(evaluated), list(self.iter_calc(evaluated)))


def _aggregate(measure: Any, total: float, count: int) -> Any:
    """ir_measures' aggregate of `count` reported values summing to `total` (exactly, rounded once)."""
    empty = measure.aggregator()
    if count == 0:
        return empty.result()  # ir_measures' own: NaN for a mean, 0 for a sum
    if type(empty).__name__ == "SumAgg":
        return total
    return total / count


class EvalcoreProvider(Provider):  # type: ignore[misc, unused-ignore]
    """ir_measures' measures computed by :func:`evalcore.evaluate_run`, for the measures
    evalcore computes as ir_measures defines them (``supports``); put it first in
    ir_measures' pipeline with :func:`evalcore.ir_measures.register`."""

    NAME = "evalcore"

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call, unused-ignore]

    def supports(self, measure: Any) -> bool:
        """Whether evalcore computes `measure` (an ir_measures measure) as ir_measures defines it."""
        measure.validate_params()
        return translate(measure) is not None

    def _evaluator(self, measures: Any, qrels: Any) -> EvalcoreEvaluator:
        return EvalcoreEvaluator(list(measures), qrels)

    def install_instructions(self) -> str:
        """How to install evalcore (ir_measures shows it when a measure needs a provider)."""
        return "pip install evalcore-exact"

