"""How a RunInputError raised in a Spark task reaches the user of :mod:`evalcore.spark`: as
the RunInputError itself, from ``mean``, ``defined_counts`` and every action on ``per_query``,
and without Spark's log of the failed task (the worker's traceback and a ~50-line Java stack
trace, printed on stderr before the exception arrives).

A task's exception always fails its job (a ``per_query.write`` must not leave half an output
behind as if it were whole), and Spark logs every task failure twice where the user sees it:
the executor's ``ERROR Executor: Exception in task ...`` (with the trace; in local mode the
executors run in the driver's JVM) and the driver's ``WARN TaskSetManager: Lost task ...``
(the trace in the message). So evalcore adds two log4j2 filters to the driver JVM's logging,
each hiding only evalcore's own errors:

- a message holding evalcore's error marker (``task_error``) is dropped: the driver's "Lost
  task" line of an evalcore error, from any action, also one on a DataFrame derived from
  ``per_query``;
- the executor's ERROR events of tasks whose job evalcore started (inside
  :func:`run_input_errors`) are dropped: that log line's message has no marker (the trace is
  its throwable, which no log4j2 filter reads), so the job is marked instead, by a local
  property Spark copies into the task thread's MDC (``mdc.*``). A task of such a job
  failing for another reason is still logged by the driver's "Lost task" line, and its
  exception still reaches the caller unchanged.

A Python warning holding the marker (pyspark's toPandas repeats the worker's traceback in
one) is not shown either.

Not filtered yet: a write logs the trace once more on the driver (``ERROR FileFormatWriter:
Aborting job ...``, from a thread the MDC mark does not reach). Spark's one-line ``ERROR TaskSetManager: Task 0 in stage 2.0 failed 1 times; aborting job``
stays. With Spark Connect (no JVM on the client) or a logging backend other than log4j2 core,
nothing is filtered; the errors are still translated.
"""

from __future__ import annotations

import contextlib
import functools
import re
import warnings
from typing import Any, Callable, Dict, Iterator, Optional

from ..errors import RunInputError
from ..runs.partitioned import TASK_ERROR_MARK, input_error_in

#: A local property whose ``mdc.`` prefix makes Spark's executors put it into the MDC of the
#: task threads of the jobs started while it is set.
QUIET_PROPERTY = "mdc.evalcore"
_QUIET_VALUE = "quiet"


@contextlib.contextmanager
def run_input_errors() -> Iterator[None]:
    """Around an action on a DataFrame derived from ``per_query`` (``per_query`` itself and
    ``mean`` need none): a RunInputError raised in a task, which reaches the driver as a
    Spark exception with a Java stack trace, is raised as the :class:`evalcore.RunInputError`
    itself (its message and source), the Spark exception hidden, and Spark's log of the
    failed task is not printed; any other exception passes unchanged."""
    with _quiet_task_failures(_active_context()), _translated_errors(), warnings.catch_warnings():
        # pyspark's toPandas warns with the task's exception text (the worker's traceback)
        # before it raises the exception: a warning holding evalcore's error is not shown.
        warnings.filterwarnings("ignore", message=f"(?s).*{re.escape(TASK_ERROR_MARK)}")
        yield


@contextlib.contextmanager
def _translated_errors() -> Iterator[None]:
    try:
        yield
    except RunInputError:
        raise
    except Exception as exc:
        error = input_error_in(exc)
        if error is None:
            raise
        raise error from None


# ---- per_query: a DataFrame whose actions raise evalcore's errors ---------------------------

#: The actions of a DataFrame (methods that run a job), wrapped in run_input_errors.
_ACTIONS = ("collect", "count", "toPandas", "toArrow", "take", "tail", "head", "first", "show", "isEmpty",
            "foreach", "foreachPartition", "checkpoint", "localCheckpoint")
_CLEAN_CLASSES: Dict[type, type] = {}


def clean_actions(frame: Any) -> Any:
    """`frame` (its plan and session) as an instance of a subclass of its own class whose
    actions (:data:`_ACTIONS`, ``toLocalIterator``, the calls of ``write`` and ``writeTo``) run in
    :func:`run_input_errors`. What its transformations return is a plain DataFrame."""
    base = type(frame)
    cls = _CLEAN_CLASSES.get(base)
    if cls is None:
        namespace: Dict[str, Any] = {name: _action(getattr(base, name)) for name in _ACTIONS if hasattr(base, name)}
        if hasattr(base, "toLocalIterator"):
            namespace["toLocalIterator"] = _iterator_action(base.toLocalIterator)
        namespace["write"] = property(functools.partial(_clean_writer, getattr(base, "write")))
        if hasattr(base, "writeTo"):
            namespace["writeTo"] = _writer_action(base.writeTo)
        namespace["__doc__"] = f"A {base.__name__} whose actions raise evalcore.RunInputError (evalcore.spark)."
        cls = _CLEAN_CLASSES[base] = type("PerQueryDataFrame", (base,), namespace)
    clean: Any = object.__new__(cls)
    clean.__dict__.update(vars(frame))
    return clean


def _action(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def action(self: Any, *args: Any, **kwargs: Any) -> Any:
        with run_input_errors():
            return method(self, *args, **kwargs)
    return action


def _iterator_action(method: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    """toLocalIterator: its jobs are started by a JVM thread made during the call (which
    inherits the local property then); the errors arrive while the rows are read."""
    @functools.wraps(method)
    def action(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        with run_input_errors():
            rows = method(self, *args, **kwargs)
        return _translated_rows(rows)
    return action


def _translated_rows(rows: Iterator[Any]) -> Iterator[Any]:
    with _translated_errors():
        yield from rows


def _clean_writer(write: property, frame: Any) -> "_CleanWriter":
    return _CleanWriter(write.__get__(frame))


def _writer_action(method: Callable[..., Any]) -> Callable[..., Any]:
    """writeTo: the writer it returns runs its actions (``append``, ``create``...) later."""
    @functools.wraps(method)
    def action(self: Any, *args: Any, **kwargs: Any) -> Any:
        return _CleanWriter(method(self, *args, **kwargs))
    return action


class _CleanWriter:
    """A DataFrameWriter (or DataFrameWriterV2) whose calls run in run_input_errors (``save``,
    ``parquet``, ``saveAsTable``, ``append``... are actions); its builder calls (``mode``,
    ``option``...) return this."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._writer, name)
        if not callable(attribute):
            return attribute

        @functools.wraps(attribute)
        def call(*args: Any, **kwargs: Any) -> Any:
            with run_input_errors():
                result = attribute(*args, **kwargs)
            return self if result is self._writer else result
        return call


# ---- the log filters -------------------------------------------------------------------------

def _active_context() -> Any:
    from pyspark import SparkContext

    return SparkContext._active_spark_context  # None with Spark Connect, where there is no JVM here


@contextlib.contextmanager
def _quiet_task_failures(context: Any) -> Iterator[None]:
    """The filters put in place, the jobs started inside marked (QUIET_PROPERTY, which
    Spark's executors put into their task threads' MDC); the property is restored after
    (nested uses and other threads keep theirs: it is per thread)."""
    if context is None or not _filters_installed(context):
        yield
        return
    previous: Optional[str] = context.getLocalProperty(QUIET_PROPERTY)
    context.setLocalProperty(QUIET_PROPERTY, _QUIET_VALUE)
    try:
        yield
    finally:
        context.setLocalProperty(QUIET_PROPERTY, previous)  # None removes it


#: The loggers of the lines that show a failed task's trace ("" is the root, whose
#: configuration the others use unless the user's configuration has their own).
_LOGGERS = ("", "org.apache.spark.scheduler.TaskSetManager", "org.apache.spark.executor.Executor")


def _filters_installed(context: Any) -> bool:
    """Puts the two filters on the configurations of :data:`_LOGGERS`, once per configuration (a
    reconfigured log4j2 has lost them: they are looked for each time). False where that is
    not possible: logging must never be what makes an evaluation fail."""
    try:
        log4j = context._jvm.org.apache.logging.log4j
        result = log4j.core.Filter.Result
        configuration = log4j.LogManager.getContext(False).getConfiguration()
        for name in _LOGGERS:
            config = configuration.getLoggerConfig(name)
            present = str(config.getFilter())
            if TASK_ERROR_MARK not in present:
                marked = log4j.core.filter.RegexFilter.createFilter(
                    f"(?s).*{TASK_ERROR_MARK}.*", None, False, result.DENY, result.NEUTRAL)
                marked.start()
                config.addFilter(marked)
            if f"key={QUIET_PROPERTY}" not in present:
                levels = context._gateway.new_array(log4j.core.util.KeyValuePair, 1)
                levels[0] = log4j.core.util.KeyValuePair(_QUIET_VALUE, "ERROR")
                quiet = log4j.core.filter.DynamicThresholdFilter.createFilter(
                    QUIET_PROPERTY, levels, log4j.Level.ERROR, result.DENY, result.NEUTRAL)
                quiet.start()
                config.addFilter(quiet)
        log4j.LogManager.getContext(False).updateLoggers()
        return True
    except Exception:  # no log4j2 core in this JVM, or a py4j failure: leave the logging alone
        return False
