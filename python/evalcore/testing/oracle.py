"""assert_matches and check_against_evalcore: your function against evalcore on inputs
hypothesis generates, shrunk to a minimal input on the first difference."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Collection, List, Mapping, Optional, Union

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as fixed_seed, settings
from hypothesis import strategies as st

from .._version import __version__
from ..errors import EvaluationError, RunInputError
from .adapters import Adapter, adapter_for, described
from .differences import ABSENT, Path, format_path
from .targets import MeasureTarget, Target, target_for

__all__ = ["DEFAULT_EXAMPLES", "Mismatch", "assert_matches", "check_against_evalcore"]

#: The default example budget: enough for the kit's strategies to expose the planted bugs
#: of tests/planted/ (ties, astral characters, repeats, k below the ranking's length) with
#: a wide margin, small enough to run in a few seconds.
DEFAULT_EXAMPLES = 200

StrategyLike = Union[st.SearchStrategy[Any], Mapping[str, Any], None]


def _shown(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
        text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        return repr(value)
    return text


def _input_text(target: Target, example: Any) -> str:
    if isinstance(target, MeasureTarget) and isinstance(example, Mapping) and set(example) == {"qrels", "run"}:
        return f"  qrels = {_shown(example['qrels'])}\n  run = {_shown(example['run'])}"
    return "  " + _shown(example)


class Mismatch(AssertionError):
    """Your function and evalcore differ on `example` (the minimal one hypothesis found).

    Attributes:
        function: the name of your function.
        target: the operation or measure.
        example: the input: a request, or ``{"qrels", "run"}``.
        path: where the values differ (``()``: the whole value).
        theirs: your value there (ABSENT: you have none).
        evalcore: evalcore's value there (ABSENT: evalcore has none).
        reason: what the difference is.
    """

    def __init__(self, function: str, target: Target, example: Any, path: Path, theirs: Any, evalcore: Any,
                 reason: str, expected: Any = None) -> None:
        super().__init__(reason)
        self.function = function
        self.target: str = target.name
        self.example = example
        self.path = path
        self.theirs = theirs
        self.evalcore = evalcore
        self.reason = reason
        self._target = target
        self._expected = expected

    @property
    def evidence(self) -> str:
        """evalcore's evidence for the value that differs (empty when evalcore rejected the input)."""
        if self._expected is None:
            return ""
        try:
            return self._target.evidence(self.example, self._expected, self.path)
        except Exception as exc:  # the message must still show the rest
            return f"(evalcore's evidence could not be shown: {type(exc).__name__}: {exc})"

    def __str__(self) -> str:
        lines = [
            f"{self.function} does not match evalcore {__version__} on {self.target} "
            "(the minimal input hypothesis found):",
            f"  where:    {format_path(self.path)}  ({self._target.describe(self.path)})",
            f"  yours:    {_shown(self.theirs)}",
            f"  evalcore: {_shown(self.evalcore)}",
            f"  why:      {self.reason}",
            "input:",
            _input_text(self._target, self.example),
        ]
        evidence = self.evidence
        return "\n".join(lines + ([evidence] if evidence else []))


def _strategy(target: Target, adapter: Adapter, strategy: StrategyLike) -> st.SearchStrategy[Any]:
    if isinstance(strategy, st.SearchStrategy):
        return strategy
    parameters = dict(adapter.parameters)
    parameters.update(strategy or {})
    return target.strategy(**parameters)


def assert_matches(
    their_fn: Union[Callable[..., Any], Adapter],
    operation_or_measure: str,
    *,
    examples: int = DEFAULT_EXAMPLES,
    tolerance: float = 0.0,
    fields: Optional[Collection[str]] = None,
    strategy: StrategyLike = None,
    run_options: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
) -> int:
    """Run `their_fn` and evalcore on generated inputs; raise :class:`Mismatch` (an
    AssertionError) on the first difference, after hypothesis has shrunk the input.

    Args:
        their_fn: your function, or an adapter of it (:mod:`evalcore.testing.adapters`).
            With an operation name, a plain function takes a request and returns (part
            of) evalcore's result, shaped alike; with a measure name it takes
            ``(qrels, run)`` and returns ``{query_id: value}`` (see adapters.qrels_run).
        operation_or_measure: ``"ranking-evaluate"``, ``"span-evaluate"``, ``"score"``,
            or one measure name evaluate_run knows (``"nDCG@10"``, ``"map"``, ``"P_5"``).
        examples: how many inputs to try at most (hypothesis' ``max_examples``). The run
            is reproducible: the same seed gives the same inputs whatever hypothesis
            profile is loaded (for the same hypothesis version and loaded code: hypothesis
            also draws constants from local modules).
        tolerance: the absolute difference allowed between numbers (0.0: equal).
        fields: compare only the values under these keys (``["ndcgAtK"]``, ``["f1"]``);
            None: every value your function returns.
        strategy: the inputs: a hypothesis strategy, or a dict of parameters for the
            default one (``{"grades": ("integer",), "astral": False}``).
        run_options: evaluate_run's keyword options for a measure (``{"ties": "input"}``).
        seed: hypothesis' seed.

    Returns:
        How many values were compared.

    Raises:
        Mismatch: the values differ, one side rejected an input the other accepted, or
            your function raised.
        AssertionError: no value was compared at all (your function returned nothing
            that evalcore has, or nothing under `fields`).
    """
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 1:
        raise ValueError(f"examples must be a positive int; got {examples!r}")
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0; got {tolerance!r}")
    target = target_for(operation_or_measure, run_options)
    operation = None if isinstance(target, MeasureTarget) else target.name
    adapter = adapter_for(their_fn, operation)
    if adapter.operation != operation:
        wanted = "a measure" if adapter.operation is None else adapter.operation
        raise ValueError(f"this adapter adapts {described(adapter)} to {wanted}, not to {target.name!r}")
    name = described(adapter)
    compared: List[int] = [0]
    chosen = set(fields) if fields is not None else None

    def check(example: Any) -> None:
        try:
            expected = target.expected(example)
        except (EvaluationError, RunInputError) as err:
            try:
                theirs = adapter.call(example, target.name)
            except Exception:
                return  # both reject it
            where = f" at {err.pointer!r}" if isinstance(err, EvaluationError) else ""
            raise Mismatch(name, target, example, (), theirs, ABSENT,
                           f"evalcore rejects this input ({getattr(err, 'code', 'RunInputError')}{where}: {err}) "
                           "but your function returned a value") from None
        try:
            theirs = adapter.call(example, target.name)
        except Exception as exc:
            raise Mismatch(name, target, example, (), ABSENT, ABSENT,
                           f"your function raised {type(exc).__name__}: {exc}", expected) from exc
        found = target.difference(theirs, expected, tolerance=tolerance, fields=chosen, undefined=adapter.undefined,
                                  counted=compared)
        if found is not None:
            raise Mismatch(name, target, example, found.path, found.theirs, found.evalcore, found.reason, expected)

    configured = settings(
        parent=settings.get_profile("default"),
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
        verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.shrink),
    )
    run = fixed_seed(seed)(configured(given(_strategy(target, adapter, strategy))(check)))
    try:
        run()
    except Mismatch as err:
        raise err.with_traceback(None)
    if compared[0] == 0:
        raise AssertionError(
            f"nothing was compared: over {examples} inputs {name} returned no value that evalcore's {target.name} has"
            + (f" under the fields {sorted(chosen)}" if chosen is not None else "")
        )
    return compared[0]


def check_against_evalcore(
    their_fn: Union[Callable[..., Any], Adapter],
    operation_or_measure: str,
    **options: Any,
) -> int:
    """:func:`assert_matches` for a pytest test: on a difference the test fails with the
    message alone (no traceback through the kit and hypothesis). Takes the same keyword
    options; returns how many values were compared. Without pytest it raises Mismatch."""
    try:
        return assert_matches(their_fn, operation_or_measure, **options)
    except Mismatch as err:
        pytest = sys.modules.get("pytest")
        if pytest is None:
            raise
        pytest.fail(str(err), pytrace=False)
        raise  # pytest.fail does not return
