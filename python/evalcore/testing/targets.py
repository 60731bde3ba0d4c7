"""What your function is compared with: one of evalcore's operations, or one measure of
:func:`evalcore.evaluate_run`. A target knows its default inputs, evalcore's value for an
input, how to compare, and evalcore's evidence for a difference."""

from __future__ import annotations

import copy
import inspect
import math
from typing import Any, Callable, Collection, Dict, List, Mapping, Optional, Tuple

from hypothesis import strategies as st

import evalcore

from ..runs.cwl_clipping import with_cwl_policies
from ..runs.evaluate import _evaluate_run
from ..runs.measures import MeasureSpec, parse_measures
from ..runs.result import RunOptions, check_options
from . import evidence
from .differences import Difference, Path, first_difference, format_path, per_key_difference
from .faults import OPERATIONS
from .runs import runs
from .strategies import ranking_requests, score_requests, span_requests

__all__ = ["MeasureTarget", "OperationTarget", "Target", "target_for"]

_FUNCTIONS = {"ranking-evaluate": "ranking_evaluate", "span-evaluate": "span_evaluate", "score": "score"}
_STRATEGIES: Dict[str, Callable[..., st.SearchStrategy[Dict[str, Any]]]] = {
    "ranking-evaluate": ranking_requests, "span-evaluate": span_requests, "score": score_requests}


class Target:
    """Base of the two kinds of target."""

    #: the operation or measure name, as given
    name: str

    def strategy(self, **parameters: Any) -> st.SearchStrategy[Any]:
        """The default inputs (the operation's or runs() strategy with `parameters`)."""
        raise NotImplementedError

    def expected(self, example: Any) -> Any:
        """evalcore's value for `example` (raises evalcore's error for an invalid one)."""
        raise NotImplementedError

    def difference(self, theirs: Any, expected: Any, *, tolerance: float, fields: Optional[Collection[str]],
                   undefined: Any, counted: List[int]) -> Optional[Difference]:
        """The first difference between your value and evalcore's, or None."""
        raise NotImplementedError

    def describe(self, path: Path) -> str:
        """What the value at `path` is, in words."""
        raise NotImplementedError

    def evidence(self, example: Any, expected: Any, path: Path) -> str:
        """evalcore's evidence for the value at `path`."""
        raise NotImplementedError


class OperationTarget(Target):
    """ranking-evaluate, span-evaluate or score: your function returns (part of) the
    result, shaped as evalcore's: ``{"queries": [{"ndcgAtK": ...}], "macro": {...}}``,
    the span result's ``{"precision", "recall", "f1", "matches": [...]}``, score's
    ``{"per_item": [...], "aggregate": {...}}``. A value with ``"result"`` and
    ``"operation"`` keys is compared with the whole envelope (provenance included)."""

    def __init__(self, operation: str) -> None:
        self.name = operation
        self._function = getattr(evalcore, _FUNCTIONS[operation])

    def strategy(self, **parameters: Any) -> st.SearchStrategy[Any]:
        if self.name == "ranking-evaluate":
            # Per-query bugs show about as often with 2 queries; smaller inputs shrink faster.
            parameters.setdefault("max_queries", 2)
        return _STRATEGIES[self.name](**parameters)

    def expected(self, example: Any) -> Any:
        return self._function(copy.deepcopy(example))

    def _result(self, expected: Any) -> Any:
        return expected if self.name == "score" else expected["result"]

    def difference(self, theirs: Any, expected: Any, *, tolerance: float, fields: Optional[Collection[str]],
                   undefined: Any, counted: List[int]) -> Optional[Difference]:
        if not isinstance(theirs, Mapping):
            return Difference((), theirs, self._result(expected),
                              f"yours is a {type(theirs).__name__}; return a dict shaped like evalcore's result")
        envelope = self.name != "score" and "result" in theirs and "operation" in theirs
        target = expected if envelope else self._result(expected)
        return first_difference(dict(theirs), target, tolerance=tolerance, fields=fields, counted=counted)

    def describe(self, path: Path) -> str:
        return f"{self.name}'s {format_path(path)}"

    def evidence(self, example: Any, expected: Any, path: Path) -> str:
        if path[:1] == ("result",):
            path = path[1:]
        result = self._result(expected)
        if self.name == "ranking-evaluate":
            if len(path) >= 2 and path[0] == "queries" and isinstance(path[1], int):
                return evidence.ranking_evidence(example, result, path[1])
            metric = next((key for key in path[1:] if isinstance(key, str)), None)
            if path[:1] in (("macro",), ("definedQueryCounts",)) and metric:
                return evidence.ranking_macro_evidence(result, metric)
            return "\n\n".join(evidence.ranking_evidence(example, result, i) for i in range(len(result["queries"])))
        if self.name == "span-evaluate":
            return evidence.span_evidence(example, result)
        item = path[1] if len(path) >= 2 and path[0] == "per_item" and isinstance(path[1], int) else None
        return evidence.score_evidence(example, result, item)


class MeasureTarget(Target):
    """One measure of :func:`evalcore.evaluate_run`, per query: your function takes
    ``(qrels, run)`` and returns ``{query_id: value}`` (adapters.qrels_run reads
    pytrec_eval's ``{query_id: {measure: value}}`` too)."""

    def __init__(self, measure: str, run_options: Optional[Mapping[str, Any]] = None) -> None:
        specs = parse_measures(measure)
        if len(specs) != 1:
            raise ValueError(f"{measure!r} names {len(specs)} measures ({', '.join(s.name for s in specs)}); "
                             "compare one measure at a time")
        self.name = measure
        self.spec: MeasureSpec = specs[0]
        self.run_options: Dict[str, Any] = dict(run_options or {})
        self.run_options.setdefault("threads", 1)
        self.options: RunOptions = check_options(
            self.run_options.get("relevant_at_least", 1), self.run_options.get("gain", "linear"),
            self.run_options.get("ties", "score"), self.run_options.get("missing", "skip"),
            self.run_options["threads"], self.run_options.get("max_retrieved"),
            self.run_options.get("judged_only", False))
        # evaluate_run's options, bound as evaluate_run binds them (its defaults; an unknown
        # option is its TypeError, here rather than at the first input)
        signature = inspect.signature(evalcore.evaluate_run)
        try:
            bound = signature.bind(None, None, None, **self.run_options)
        except TypeError as err:
            options = [name for name in signature.parameters if name not in ("qrels", "run", "measures")]
            raise TypeError(f"run_options: {err}; evaluate_run's options are {', '.join(options)}") from None
        bound.apply_defaults()
        self._arguments = {k: v for k, v in bound.arguments.items() if k not in ("qrels", "run", "measures")}

    def strategy(self, **parameters: Any) -> st.SearchStrategy[Any]:
        # Rankings longer than the cutoff, often, and score dicts (the pytrec_eval shape).
        parameters.setdefault("max_docs", max(10, self.spec.cutoff + 6))
        parameters.setdefault("ranked_lists", False)
        return runs(**parameters)

    def expected(self, example: Any) -> List[Tuple[str, Optional[float]]]:
        # evaluate_run less the issuing of result.warnings as EvaluationWarnings: the kit
        # generates runs that evaluate nothing on purpose, and their warnings are the kit's, not
        # the user's (they failed assert_matches under `pytest -W error`, and were noise
        # otherwise). No warning filter is changed, so nothing else is hidden: not the user's
        # own warnings, nor evalcore's to the user's own calls, in any thread.
        # costs= is read by the C/W/L step around the core's evaluation, as evaluate_run does.
        arguments = dict(self._arguments)
        costs = arguments.pop("costs", None)
        qrels, run = copy.deepcopy(example["qrels"]), copy.deepcopy(example["run"])
        result = with_cwl_policies(lambda specs: _evaluate_run(qrels, run, specs, **arguments), [self.spec], costs, run)
        values = result.values(result.measures[0])
        return [(q, None if math.isnan(v) else float(v)) for q, v in zip(result.query_ids, values.tolist())]

    def difference(self, theirs: Any, expected: Any, *, tolerance: float, fields: Optional[Collection[str]],
                   undefined: Any, counted: List[int]) -> Optional[Difference]:
        return per_key_difference(theirs, expected, tolerance=tolerance, undefined=undefined, counted=counted)

    def describe(self, path: Path) -> str:
        return f"{self.spec.name} of query {path[0]!r}" if path else f"the per-query values of {self.spec.name}"

    def evidence(self, example: Any, expected: Any, path: Path) -> str:
        values = dict(expected)
        if not path:
            return f"evalcore scores the queries {[q for q, _ in expected]!r}"
        query = str(path[0])
        if query not in values:
            judged = query in example["qrels"] and bool(example["qrels"][query])
            return (f"evalcore does not score query {query!r}: "
                    + ("the run lacks it (missing='skip')" if judged else "it has no judgments (as trec_eval)"))
        return evidence.run_query_evidence(example["qrels"], example["run"], query, self.spec, self.options, values[query])


def target_for(operation_or_measure: str, run_options: Optional[Mapping[str, Any]] = None) -> Target:
    """The target an operation name or a measure name stands for."""
    if not isinstance(operation_or_measure, str):
        raise TypeError(f"operation_or_measure must be an operation ({', '.join(OPERATIONS)}) or a measure name "
                        f"such as 'nDCG@10'; got {type(operation_or_measure).__name__}")
    if operation_or_measure in OPERATIONS:
        if run_options:
            raise ValueError("run_options apply to measures (evaluate_run), not to the operation "
                             f"{operation_or_measure!r}")
        return OperationTarget(operation_or_measure)
    return MeasureTarget(operation_or_measure, run_options)
