"""evalcore as an ir_measures provider (issue 25 item 5): :class:`EvalcoreProvider` and
its evaluator, over ir_measures' own classes (this module imports ir_measures: the package
imports it only when asked for, see ``evalcore/ir_measures/__init__.py``).

How the numbers are made, as ir_measures' default (pytrec_eval) provider makes them:

- The queries reported are the run's judged queries (in the run, with judgments), each
  measure's value per query as evaluate_run computes it; where evalcore's value is undefined
  (NaN: no relevant document for AP, R, RR, ...) the value is 0, as trec_eval and pytrec_eval
  report it (but nNRBP's is NaN, as pyndeval's, and Accuracy's is not reported, as ir_measures'
  accuracy provider: ``Translation.undefined``).
- The measures of ir_measures' other providers are computed on the inputs as those read them
  (translation.py): the diversity measures on the qrels with their subtopics, the C/W/L
  family, Compat and Accuracy on the run ranked with those providers' order of tied scores
  (orders.py), through evaluate_run's ``ties="input"``.
- Judged queries the run lacks (every key of a qrels dict, empty ones too) are reported, as
  ir_measures' Evaluator reports them, with the measure's ``DEFAULT``, 0, after the others
  (not for Accuracy): evaluate_run is called with ``missing="skip"`` and its warning that
  they were left out is not issued, because they are not left out here.
- ``calc_aggregate`` and ``calc`` give, for each measure, the exact sum of the reported
  values rounded once (``SumAgg`` measures: NumRet, NumRel) or that divided by the number of
  reported queries (``MeanAgg``: the others), evaluate_run's rule (docs/contract.md §5);
  ir_measures' aggregators add the values one by one in the order reported, which can
  differ from it in the last bits. ``iter_calc``'s per-query values are bit for bit those
  of evaluate_run.
"""

from __future__ import annotations

import math
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
from .orders import gdeval_refusals, ranked_as_ir_measures, subtopic_qrels
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
    """Scores runs against one set of qrels with evaluate_run: one call per kind of qrels,
    value of ``judged_only``, order of tied scores and ``relevant_at_least`` among the
    measures (usually one)."""

    def __init__(self, measures: List[Any], qrels: Any) -> None:
        self._qrels = _reread(qrels)
        query_ids = _qrel_query_ids(self._qrels)
        self._judged_count = len(query_ids)  # the queries every measure is reported for
        super().__init__(measures, query_ids)
        # (qrels_format, judged_only, ties, relevant_at_least, gain) -> evalcore name -> the
        # ir_measures measures it stands for (P@10 and P(rel=1)@10 are one)
        self._groups: Dict[Tuple[str, bool, str, float, str], Dict[str, List[Any]]] = {}
        gdeval = []  # (h25-irm3) the measures of ir_measures' gdeval provider
        self._undefined: Dict[Any, str] = {}  # measure -> Translation.undefined
        for measure in measures:
            found = translate(measure)
            if found is None:
                raise ValueError(f"evalcore does not compute {measure} as ir_measures defines it "
                                 "(EvalcoreProvider.supports says which it does)")
            key = (found.qrels_format, found.judged_only, found.ties, found.relevant_at_least, found.gain)
            self._groups.setdefault(key, {}).setdefault(found.name, []).append(measure)
            self._undefined[measure] = found.undefined
            if measure.NAME == "ERR" or found.gain == "exponential":
                gdeval.append(str(measure))
        self._gdeval_warning = gdeval_refusals(self._qrels, gdeval) if gdeval else None

    def _evaluations(self, run: Any) -> Iterator[Tuple[Dict[str, List[Any]], Any]]:
        if len(self._groups) > 1:
            run = _reread(run)
        if self._gdeval_warning is not None:  # (what gdeval would refuse, said: h25-irm3)
            warnings.warn(self._gdeval_warning, EvaluationWarning, stacklevel=4)
        for (qrels_format, judged_only, ties, level, gain), names in self._groups.items():
            qrels = self._qrels if qrels_format == "qrels" else subtopic_qrels(self._qrels)
            ranked = run if ties == "evalcore" else ranked_as_ir_measures(run, ties)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EvaluationWarning)
                result = evaluate_run(qrels, ranked, list(names), missing="skip", judged_only=judged_only,
                                      qrels_format=qrels_format, ties="score" if ties == "evalcore" else "input",
                                      relevant_at_least=level, gain=gain)
            judged = len(result.query_ids) + len(result.missing_query_ids)
            for text in result.warnings:  # the others say what is likely a mistake: issue them
                if not (result.missing_query_ids and text == dropped_warning(result.missing_query_ids, judged)):
                    warnings.warn(text, EvaluationWarning, stacklevel=4)
            yield names, result

    def _reported(self, measure: Any, values: Any) -> List[Any]:
        """`values` (evaluate_run's, NaN where undefined) as ir_measures' provider of `measure`
        reports them: NaN as 0, as NaN, or not at all (None)."""
        policy = self._undefined[measure]
        if policy == "nan":
            return list(values.tolist())
        if policy == "omit":
            return [None if math.isnan(v) else v for v in values.tolist()]
        return list(np.nan_to_num(values, nan=0.0).tolist())

    def _iter_calc(self, run: Any) -> Iterator[Any]:
        for names, result in run if isinstance(run, _Evaluated) else self._evaluations(run):
            columns = [(measure, self._reported(measure, result.values(name)))
                       for name, measures in names.items() for measure in measures]
            for row, query_id in enumerate(result.query_ids):
                for measure, values in columns:
                    if values[row] is not None:
                        yield Metric(query_id=query_id, measure=measure, value=values[row])

    def iter_calc(self, run: Any) -> Iterator[Any]:
        """Per-query metrics, as ir_measures' Evaluator reports them: the judged queries the
        run lacks at the measure's default, after the others (not for Accuracy, which ir_measures'
        provider reports only where it is defined)."""
        expected = {(m, q) for m in self.measures if self._undefined[m] != "omit" for q in self.qrel_qids}
        for metric in self._iter_calc(run):
            expected.discard((metric.measure, metric.query_id))
            yield metric
        for measure, query_id in sorted(expected, key=lambda pair: (str(pair[0]), pair[1])):
            yield Metric(query_id=query_id, measure=measure, value=measure.DEFAULT)

    def calc_aggregate(self, run: Any) -> Dict[Any, Any]:
        """Each measure's aggregate over the queries ``iter_calc`` reports: the exact sum of
        their values rounded once, divided by their number for ir_measures' mean measures."""
        aggregates: Dict[Any, Any] = {}
        for names, result in run if isinstance(run, _Evaluated) else self._evaluations(run):
            for name, measures in names.items():
                values = result.values(name)
                for measure in measures:
                    policy = self._undefined[measure]
                    if policy == "nan" and bool(np.isnan(values).any()):
                        aggregates[measure] = math.nan  # ir_measures' mean of a NaN
                        continue
                    defined = values[~np.isnan(values)]
                    count = len(defined) if policy == "omit" else self._judged_count
                    aggregates[measure] = _aggregate(measure, float(ExactSum(defined)), count)
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

