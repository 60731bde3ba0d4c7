"""evalcore on Apache Spark: runs and qrels as Spark DataFrames, evaluated where they live,
with per-query values and means bit-identical to :func:`evalcore.evaluate_run` on the same
rows collected to one machine.

    import evalcore.spark

    result = evalcore.spark.evaluate_run(qrels_df, run_df, ["nDCG@10", "AP", "RR"])
    result.per_query          # a lazy Spark DataFrame: query_id, nDCG@10, AP, RR (null = undefined)
    result.mean["nDCG@10"]    # one Spark job, then exact (docs/contract.md §5)
    result.warnings           # one Spark job: evaluate_run's warnings (judged queries left out, ...)

How: the judgments and run rows are tagged and put in one DataFrame (``unionByName``),
hash-partitioned on the query (``repartition``) and sorted within partitions, so that each
query's rows are in one task, contiguous; ``mapInArrow`` then hands each task's Arrow record
batches to :func:`evalcore.runs.partitioned.evaluate_partition`, which cuts them at query
boundaries and scores a chunk of many queries per call into the C++ core (which reads the
Arrow buffers directly). Means are the exact partial sums of each task
(:class:`evalcore.ExactSum`, serialized) merged on the driver. A fault in the rows reaches
the caller of ``mean`` or of an action on ``per_query`` as the :class:`evalcore.RunInputError`,
without Spark's log of the failed task (evalcore.spark.task_errors tells how).

Needs ``pip install 'evalcore-exact[spark]'`` (pyspark >= 3.5, pyarrow), and evalcore installed
on every executor's Python. ``import evalcore`` never imports this module nor pyspark.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

try:
    import pyspark.sql.functions as F
    from pyspark.sql import types as T
except ImportError as _error:  # pragma: no cover - exercised where pyspark is absent
    raise ImportError(f"evalcore.spark needs pyspark: pip install 'evalcore-exact[spark]' ({_error})") from _error

from ..errors import RunInputError
from ..runs.measures import MeasureNames
from ..runs.partitioned import (DEFAULT_ROWS_PER_CALL, PARTIAL_COLUMNS, SCORED_COLUMN, PartitionConfig,
                               evaluate_partition, merge_partial_sums, output_names, partition_config, partial_sums,
                               visible_names)
from ..runs.partitioned_warnings import SUMMARY_COLUMNS, Summary, merge_summary, partial_summary
from ..runs.result import EvaluationWarning
from .task_errors import clean_actions, run_input_errors

__all__ = ["SparkRunEvaluation", "evaluate_run", "run_input_errors"]


def evaluate_run(
    qrels: Any,
    run: Any,
    measures: MeasureNames,
    *,
    relevant_at_least: float = 1,
    gain: str = "linear",
    ties: str = "score",
    missing: str = "skip",
    query_col: str = "query_id",
    doc_col: str = "doc_id",
    score_col: str = "score",
    relevance_col: str = "relevance",
    rank_col: Optional[str] = None,
    num_partitions: Optional[int] = None,
    max_retrieved: Optional[int] = None,
    judged_only: bool = False,
    rows_per_call: int = DEFAULT_ROWS_PER_CALL,
) -> "SparkRunEvaluation":
    """Evaluate a run held in a Spark DataFrame against qrels held in another.

    Args:
        qrels: a Spark DataFrame with a query, a document and a grade column (other columns
            are ignored); grades may be fractional or negative, as in evaluate_run.
        run: a Spark DataFrame with a query, a document and a score column.
        measures: measure names, as :func:`evalcore.evaluate_run` takes them (any of the
            three families; docs/measures.md).
        relevant_at_least, gain, missing, max_retrieved, judged_only: as in
            :func:`evalcore.evaluate_run`; ``missing="zero"`` scores the judged queries the
            run lacks as empty rankings (their judgments are in the same task).
        ties: ``"score"`` (default): rank by score descending, then document ID descending,
            so the order of the rows cannot matter. ``"input"``: rank each query's
            documents by ``rank_col`` ascending (a DataFrame's rows have no order of their
            own, so ``"input"`` needs that column; a null or NaN rank, or a rank given twice
            in a query, is a RunInputError).
        query_col, doc_col, score_col, relevance_col, rank_col: the column names, in both
            DataFrames (query and document), or in one. IDs are strings or integers (an
            integer ID is its decimal text, as in evaluate_run); values and ranks are
            integers or floating-point numbers.
        num_partitions: how many tasks score the queries (``repartition(n, query)``); None
            (default) leaves it to ``spark.sql.shuffle.partitions`` (and adaptive query
            execution). The results do not depend on it.
        rows_per_call: each call into the core gets at least this many rows (all of a task's
            rows when it has fewer): per task, memory grows with it and the per-call cost
            shrinks. The results do not depend on it.

    Returns:
        :class:`SparkRunEvaluation`: ``per_query`` (lazy), ``mean`` and ``defined_counts``
        (computed on demand, one job), ``warnings`` and ``policy_warnings`` (on demand, one
        job, issued as :class:`evalcore.EvaluationWarning`), ``options``.

    Raises:
        ValueError: unknown measures or options (the same messages as evaluate_run), a
            missing column (naming it), ``ties="input"`` without ``rank_col``.
        TypeError: a column of a type evalcore cannot read (naming the column and its type);
            `qrels` or `run` not a Spark DataFrame.
        RunInputError: raised by ``mean``, ``defined_counts`` and the actions of ``per_query``
            (``collect``, ``toPandas``, ``count``, ``write.parquet``...; on a DataFrame
            derived from it, such as ``per_query.filter(...)``, only inside
            :func:`run_input_errors`, else Spark's ``PythonException`` with the message in
            its text) for what the rows hold, without Spark's log of the failed task:
            a document listed twice for a query names the query and the document; a null
            or non-finite grade or score names the query, the document, the value and the
            column. When several rows are at fault, which one is reported depends on the
            partitioning (on one machine it is the first).
    """
    config, options = partition_config(
        measures, relevant_at_least=relevant_at_least, gain=gain, ties=ties, missing=missing,
        max_retrieved=max_retrieved, judged_only=judged_only, rows_per_call=rows_per_call, query_col=query_col,
        doc_col=doc_col, score_col=score_col, relevance_col=relevance_col, rank_col=rank_col)
    if num_partitions is not None and (isinstance(num_partitions, bool) or not isinstance(num_partitions, int)
                                       or num_partitions < 1):
        raise ValueError(f"num_partitions must be a positive int or None, got {num_partitions!r}")
    judged = _tagged(qrels, "qrels", 0, query_col, doc_col, relevance_col, None, rank_col is not None)
    ranked = _tagged(run, "run", 1, query_col, doc_col, score_col, rank_col, rank_col is not None)
    judged, ranked = _common_id_types(judged, ranked)
    rows = judged.unionByName(ranked)
    rows = rows.repartition("query_id") if num_partitions is None else rows.repartition(num_partitions, "query_id")
    rows = rows.sortWithinPartitions(*(["query_id", "rank"] if rank_col is not None else ["query_id"]))
    schema = T.StructType([T.StructField(name, T.StringType() if i == 0 else T.DoubleType())
                           for i, name in enumerate(output_names(config))])
    with _udf_context(rows):
        evaluation = rows.mapInArrow(functools.partial(evaluate_partition, config), schema)
    # What the caller sees: the scored queries' measures (the hidden columns tell the warnings).
    per_query = evaluation.filter(F.col(SCORED_COLUMN).isNotNull()).select(*map(_column, visible_names(config)))
    return SparkRunEvaluation([s.name for s in config.specs], clean_actions(per_query), options,
                              [s.kind for s in config.specs], evaluation=evaluation, config=config)


class SparkRunEvaluation:
    """The result of :func:`evalcore.spark.evaluate_run`.

    Attributes:
        measures: the measure names, in the order asked for.
        per_query: a lazy Spark DataFrame: ``query_id`` (string; an integer ID as its
            decimal text) and one double column per measure, named as the measure (quote
            names with backticks in Spark SQL: ``F.col("`nDCG@10`")``), null where the
            measure is undefined; one row per scored query (the run's judged queries,
            and with ``missing="zero"`` the judged queries the run lacks), in no
            particular order. Each action on it runs the evaluation again: ``.cache()``
            it to reuse it (``mean`` then reads the cache too). Its actions raise a fault
            in the rows as :class:`evalcore.RunInputError` (it is an instance of a subclass
            of the session's DataFrame class); the DataFrames its transformations return
            are plain ones, whose actions need :func:`run_input_errors` for that.
        options: the options in force, as :meth:`evalcore.RunEvaluation.to_json` gives them
            (``cwlGrades`` with a graded C/W/L measure).
    """

    def __init__(self, measures: Sequence[str], per_query: Any, options: Dict[str, Any],
                 kinds: Optional[Sequence[int]] = None, *, evaluation: Any = None,
                 config: Optional[PartitionConfig] = None) -> None:
        self.measures: Tuple[str, ...] = tuple(measures)
        self._kinds = None if kinds is None else tuple(kinds)  # for the summaries that are not means (gm_map)
        self.per_query = per_query
        self.options: Dict[str, Any] = dict(options)
        self._summary: Optional[Tuple[Dict[str, Optional[float]], Dict[str, int]]] = None
        # evaluate_partition's rows, hidden columns included, and their config: the warnings' source
        self._evaluation, self._config = evaluation, config
        self._warnings: Optional[Summary] = None

    @property
    def warnings(self) -> List[str]:
        """What :attr:`evalcore.RunEvaluation.warnings` says for the same rows sorted by query
        ID: judged queries the run lacks (left out with ``missing="skip"``, how many and the
        smallest IDs), C/W/L grades clipped (per range: how many, into what, for which
        measures, the smallest query IDs), measures in ranx's spelling undefined on some
        queries. The first access runs one Spark action (one pass over the data, which also
        gives ``mean`` and ``defined_counts`` if they are not yet known) and issues each
        warning as an :class:`evalcore.EvaluationWarning`; the list is kept."""
        return list(self._summarize_warnings().warnings)

    @property
    def policy_warnings(self) -> List[str]:
        """Those of the warnings that a measure's policy made (C/W/L grades clipped), as
        :attr:`evalcore.RunEvaluation.policy_warnings`; computed with ``warnings``."""
        return list(self._summarize_warnings().policy_warnings)

    def _summarize_warnings(self) -> Summary:
        if self._warnings is None:
            if self._evaluation is None or self._config is None:
                raise ValueError("this SparkRunEvaluation has no evaluation to summarize: evalcore.spark.evaluate_run "
                                 "makes them")
            config = self._config
            schema = T.StructType([T.StructField(SUMMARY_COLUMNS[0], T.IntegerType()),
                                   T.StructField(SUMMARY_COLUMNS[1], T.BinaryType()),
                                   T.StructField(SUMMARY_COLUMNS[2], T.LongType()),
                                   T.StructField(SUMMARY_COLUMNS[3], T.ArrayType(T.StringType()))])
            plain = _plain_names(self._evaluation)
            with _udf_context(plain):
                sums = plain.mapInArrow(functools.partial(partial_summary, config), schema)
            with run_input_errors():
                rows = sums.collect()
            summary = merge_summary(config, self.options, ((r[0], r[1], r[2], r[3]) for r in rows))
            if self._summary is None:
                self._summary = (summary.mean, summary.defined_counts)
            for text in summary.warnings:
                warnings.warn(text, EvaluationWarning, stacklevel=3)  # the caller of .warnings
            self._warnings = summary
        return self._warnings

    @property
    def mean(self) -> Dict[str, Optional[float]]:
        """measure → mean over the queries where it is defined (None if none is): the exact
        sum of the defined values rounded once, then one division, as evaluate_run gives it
        bit for bit. The first access of ``mean`` or ``defined_counts`` runs one Spark
        action (one pass over the data) for both."""
        return dict(self._summarize()[0])

    @property
    def defined_counts(self) -> Dict[str, int]:
        """measure → number of queries where it is defined."""
        return dict(self._summarize()[1])

    def _summarize(self) -> Tuple[Dict[str, Optional[float]], Dict[str, int]]:
        if self._summary is None:
            schema = T.StructType([T.StructField(PARTIAL_COLUMNS[0], T.IntegerType()),
                                   T.StructField(PARTIAL_COLUMNS[1], T.BinaryType()),
                                   T.StructField(PARTIAL_COLUMNS[2], T.LongType())])
            plain = _plain_names(self.per_query)
            with _udf_context(plain):
                sums = plain.mapInArrow(functools.partial(partial_sums, len(self.measures)), schema)
            with run_input_errors():
                rows = sums.collect()
            self._summary = merge_partial_sums(self.measures, ((r[0], r[1], r[2]) for r in rows), self._kinds)
        return self._summary

    def __repr__(self) -> str:
        return f"SparkRunEvaluation(measures={list(self.measures)!r})"


# ---- the DataFrames, checked and tagged ----------------------------------------------------

def _column(name: str) -> Any:
    return F.col("`" + name.replace("`", "``") + "`")


def _plain_names(frame: Any) -> Any:
    """`frame` with its columns named c0, c1...: mapInArrow resolves each by name, and a dot
    in one ("iprec_at_recall_0.10") would be read as a field access."""
    return frame.select(*[_column(n).alias(f"c{i}") for i, n in enumerate(frame.columns)])


def _tagged(frame: Any, role: str, tag: int, query_col: str, doc_col: str, value_col: str, rank_col: Optional[str],
            with_rank: bool) -> Any:
    """`frame`'s rows in the tagged columns (evalcore.runs.partitioned.TAGGED_COLUMNS)."""
    if not (hasattr(frame, "mapInArrow") and hasattr(frame, "schema") and hasattr(frame, "unionByName")):
        raise TypeError(f"{role} must be a Spark DataFrame, got {type(frame).__name__}")
    wanted = [query_col, doc_col, value_col] + ([rank_col] if rank_col is not None else [])
    fields = {f.name: f.dataType for f in frame.schema.fields}
    missing = [n for n in wanted if n not in fields]
    if missing:
        raise ValueError(f"{role} DataFrame lacks the column(s) {', '.join(missing)}; it needs {', '.join(wanted)}")
    columns = [_id_column(role, query_col, fields[query_col]).alias("query_id"),
               F.lit(tag).cast(T.ByteType()).alias("tag"),
               _id_column(role, doc_col, fields[doc_col]).alias("doc_id"),
               _value_column(role, value_col, fields[value_col]).alias("value")]
    if rank_col is not None:
        columns.append(_value_column(role, rank_col, fields[rank_col]).alias("rank"))
    elif with_rank:
        columns.append(F.lit(None).cast(T.DoubleType()).alias("rank"))
    return frame.select(*columns)


def _id_column(role: str, name: str, kind: Any) -> Any:
    if isinstance(kind, T.IntegralType):
        return _column(name)
    if isinstance(kind, (T.StringType, T.CharType, T.VarcharType)):
        # Plain (binary) strings: a collation's equality would group distinct IDs together.
        return _column(name) if kind == T.StringType() else _column(name).cast(T.StringType())
    raise TypeError(f"{role} DataFrame: the {name} column has type {kind.simpleString()}; an ID column must hold "
                    "strings or integers")


def _value_column(role: str, name: str, kind: Any) -> Any:
    if isinstance(kind, (T.IntegralType, T.FloatType, T.DoubleType)):
        return _column(name).cast(T.DoubleType())  # exact for float; integers as the core converts them
    raise TypeError(f"{role} DataFrame: the {name} column has type {kind.simpleString()}; a value column must hold "
                    "integers or floating-point numbers (cast a decimal to double)")


def _common_id_types(judged: Any, ranked: Any) -> Tuple[Any, Any]:
    """IDs of one type in both (unionByName needs it): strings when either side has them."""
    for name in ("query_id", "doc_id"):
        a, b = judged.schema[name].dataType, ranked.schema[name].dataType
        if isinstance(a, T.StringType) != isinstance(b, T.StringType):
            judged = judged.withColumn(name, F.col(name).cast(T.StringType()))
            ranked = ranked.withColumn(name, F.col(name).cast(T.StringType()))
    return judged, ranked


@contextlib.contextmanager
def _udf_context(frame: Any) -> Iterator[None]:
    """While a mapInArrow of evalcore's is built: pyspark's warning that it does not yet
    support pandas 3 is not shown (mapInArrow reads no pandas), and in local mode with
    PYSPARK_PYTHON unset, where PySpark starts its workers as ``python3`` from PATH (not
    necessarily this interpreter: a virtual environment that is not activated), evalcore's
    functions run on the driver's interpreter, the one evalcore is installed in. On a
    cluster, with Spark Connect, or with PYSPARK_PYTHON set nothing changes: the executors'
    Python is the cluster's setting."""
    context = _spark_context(frame)
    swap = (context is not None and not os.environ.get("PYSPARK_PYTHON")
            and str(context.master).startswith("local") and getattr(context, "pythonExec", None) == "python3")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
        if not swap:
            yield
            return
        context.pythonExec = sys.executable
        try:
            yield
        finally:
            context.pythonExec = "python3"


def _spark_context(frame: Any) -> Any:
    try:
        return frame.sparkSession.sparkContext
    except Exception:  # Spark Connect has no SparkContext on the client
        return None

