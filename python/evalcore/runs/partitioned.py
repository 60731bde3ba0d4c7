"""evaluate_run on query-partitioned data: what a distributed engine (Spark's ``mapInArrow``;
:mod:`evalcore.spark`) runs in each task, independent of the engine.

An engine hands each task an iterator of Arrow record batches of qrels and run rows put in
one table, each query's rows in one task and contiguous (hash-partitioned and sorted on the
query ID), in the columns of :data:`TAGGED_COLUMNS`: ``query_id``, ``tag`` (0 for a
judgment, 1 for a run row), ``doc_id``, ``value`` (the grade or the score, float64) and,
when ranks order the run (``ties="input"``), ``rank``. :func:`evaluate_partition` cuts the
stream at query boundaries into chunks of at least ``rows_per_call`` rows (a query split
between two batches is carried into the next chunk whole), scores each chunk with one call
of evaluate_run's core on one thread (without the chunk's warnings), and yields per-query rows: ``query_id``
and one float64 column per measure, null where undefined, then the hidden columns of
:data:`HIDDEN_COLUMNS` and of the C/W/L clipping counters (the rows an engine shows keep
only the scored queries and the measures: :func:`visible_names`; the hidden ones tell the
warnings, runs/partitioned_warnings.py). :func:`partial_sums` turns such
rows into each measure's exact partial sum (:class:`evalcore.ExactSum`, serialized) and
count of defined values, which :func:`merge_partial_sums` merges into means bit-identical to
one machine's (docs/contract.md §5).

A :class:`evalcore.RunInputError` inside a task names the query and document (rows have no
numbers there) and carries its message in a form :func:`input_error_in` finds in the text of
whatever exception the engine raises on the driver.

Imports pyarrow (and the compiled core) only when a task runs.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..errors import RunInputError
from .cwl_clipping import CLIP_POLICY, clipping_counters, clipping_ranges
from .cwl_run_queries import cwl_measure_names  # h25-gaps
from .measures import MeasureNames, MeasureSpec, summaries
from .result import check_options, measure_specs, options_dict

#: The columns of the tagged rows a task reads (``rank`` only with ``ties="input"``).
TAGGED_COLUMNS = ("query_id", "tag", "doc_id", "value", "rank")
QRELS_TAG, RUN_TAG = 0, 1
#: Rows per call into the core by default: large enough that the per-call cost vanishes,
#: small enough to keep a task's memory in the tens of megabytes.
DEFAULT_ROWS_PER_CALL = 1_000_000
#: The hidden per-query columns after the measures and the clipping counters (h25-sparkpol):
#: 1.0 where the query is scored (a row of per_query), else null (a judged query the run
#: lacks, left out by missing="skip"); 1.0 where the query is judged and the run lacks it.
#: h25-gaps: 1.0 where a C/W/L measure is asked for and the query is the run's without judgments
#: (not scored; cwl_eval scores it: runs/cwl_run_queries.py).
SCORED_COLUMN, MISSING_COLUMN, UNJUDGED_COLUMN = "__evalcore_scored", "__evalcore_missing", "__evalcore_unjudged"
HIDDEN_COLUMNS = (SCORED_COLUMN, MISSING_COLUMN, UNJUDGED_COLUMN)
#: The name of clipping counter i's column (a query's count of clipped grades, null where 0).
CLIPPED_COLUMN = "__evalcore_clipped_{}"
_NOTHING = object()


class PartitionConfig(NamedTuple):
    """What every task needs, checked on the driver; picklable.

    ``columns`` are the caller's names of the query, document, grade, score and rank
    columns, for messages; ``source`` names the inputs in messages (``"DataFrame"``);
    ``counters`` the hidden measures counting clipped C/W/L grades, one per range of
    :func:`evalcore.runs.cwl_clipping.clipping_ranges` of ``specs``."""

    specs: Tuple[MeasureSpec, ...]
    relevant_at_least: float
    gain: str
    ties: str
    missing: str
    max_retrieved: Optional[int]
    judged_only: bool
    rows_per_call: int
    columns: Dict[str, Optional[str]]
    source: str = "DataFrame"
    counters: Tuple[MeasureSpec, ...] = ()


def partition_config(measures: MeasureNames, *, relevant_at_least: Any = 1, gain: Any = "linear", ties: Any = "score",
                     missing: Any = "skip", max_retrieved: Any = None, judged_only: Any = False,
                     rows_per_call: Any = DEFAULT_ROWS_PER_CALL, query_col: Any = "query_id", doc_col: Any = "doc_id",
                     score_col: Any = "score", relevance_col: Any = "relevance", rank_col: Any = None,
                     source: str = "DataFrame") -> Tuple[PartitionConfig, Dict[str, Any]]:
    """The measures and options of a distributed evaluate_run, checked on the driver with
    evaluate_run's own checks (so with its messages), and the column names: the tasks'
    configuration, and the options as :attr:`evalcore.RunEvaluation.options` gives them."""
    specs = measure_specs(measures)
    options = check_options(relevant_at_least, gain, ties, missing, 1, max_retrieved, judged_only)
    if ties == "input" and rank_col is None:
        raise ValueError(f"ties='input' needs rank_col: a {source}'s rows have no order of their own, so name the "
                         "column that orders each query's documents (a TREC run's rank, ascending)")
    if ties != "input" and rank_col is not None:
        raise ValueError(f"rank_col is read only with ties='input' (ties={ties!r} ranks by score"
                         f"{', then document ID' if ties == 'score' else ''})")
    if isinstance(rows_per_call, bool) or not isinstance(rows_per_call, int) or rows_per_call < 1:
        raise ValueError(f"rows_per_call must be a positive int, got {rows_per_call!r}")
    columns = {"query": query_col, "doc": doc_col, "score": score_col, "relevance": relevance_col, "rank": rank_col}
    for key, name in columns.items():
        if not (isinstance(name, str) and name) and not (key == "rank" and name is None):
            raise TypeError(f"{key}_col must be a non-empty str, got {name!r}")
    ranges = clipping_ranges(specs)  # as evaluate_run's with_cwl_policies: counted, said in the options
    config = PartitionConfig(tuple(specs), options.relevant_at_least, gain, ties, missing, max_retrieved, judged_only,
                             rows_per_call, columns, source, tuple(clipping_counters(ranges)))
    said = options_dict(options, gain, ties, missing)
    if ranges:
        said["cwlGrades"] = CLIP_POLICY
    return config, said


def evaluate_partition(config: PartitionConfig, batches: Iterable[Any]) -> Iterator[Any]:
    """One task: tagged record batches in (each query's rows contiguous), per-query record
    batches out (``query_id`` string, one float64 column per measure, null = undefined)."""
    pending: List[Any] = []
    pending_rows = 0
    held: Any = _NOTHING  # after a cut, what is pending is one query's rows: this query ID
    for batch in batches:
        if batch.num_rows == 0:
            continue
        pending.append(batch)
        pending_rows += batch.num_rows
        if pending_rows < config.rows_per_call:
            continue
        ids = batch.column(0)
        if held is not _NOTHING and ids[0].as_py() == held and ids[-1].as_py() == held:
            # Still the held query (a query's rows are contiguous): nothing to cut, found
            # by one look at the batch instead of a scan of all that is pending.
            continue
        complete, pending = cut_at_last_query(pending)
        pending_rows = sum(b.num_rows for b in pending)
        held = pending[0].column(0)[0].as_py()
        if complete:
            yield _evaluate_chunk(config, complete)
    if pending:
        yield _evaluate_chunk(config, pending)


def cut_at_last_query(batches: List[Any]) -> Tuple[List[Any], List[Any]]:
    """(the batches up to the last query's first row, the last query's rows): the last
    query may go on in the next batch, so it is held back. ``([], batches)`` when every row
    is of one query."""
    import numpy as np
    import pyarrow.compute as pc

    last = batches[-1].column(0)[-1]
    for i in range(len(batches) - 1, -1, -1):
        ids = batches[i].column(0)
        same = pc.is_null(ids) if not last.is_valid else pc.fill_null(pc.equal(ids, last), False)
        other = np.flatnonzero(~same.to_numpy(zero_copy_only=False))
        if other.size:
            start, rows = int(other[-1]) + 1, batches[i].num_rows
            carry = ([batches[i].slice(start)] if start < rows else []) + batches[i + 1:]
            return batches[:i] + [batches[i].slice(0, start)], carry
    return [], batches


def output_names(config: PartitionConfig) -> List[str]:
    """The per-query columns of :func:`evaluate_partition`: ``query_id``, the measures in the
    order asked for, the clipping counters', then :data:`HIDDEN_COLUMNS`."""
    return (visible_names(config) + [CLIPPED_COLUMN.format(i) for i in range(len(config.counters))]
            + list(HIDDEN_COLUMNS))


def visible_names(config: PartitionConfig) -> List[str]:
    """The per-query columns an engine shows (of the rows whose :data:`SCORED_COLUMN` is not
    null): ``query_id``, then the measures in the order asked for."""
    return ["query_id"] + [s.name for s in config.specs]


def _evaluate_chunk(config: PartitionConfig, batches: List[Any]) -> Any:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from .evaluate import _evaluate_run

    table = pa.Table.from_batches(batches)
    is_run = pc.equal(table.column("tag"), RUN_TAG)
    judged, ranked = table.filter(pc.invert(is_run)), table.filter(is_run)
    qrels = pa.table({"query_id": judged.column("query_id"), "doc_id": judged.column("doc_id"),
                      "relevance": judged.column("value")})
    run = pa.table({"query_id": ranked.column("query_id"), "doc_id": ranked.column("doc_id"),
                    "score": ranked.column("value")})
    try:
        if config.ties == "input":
            _check_ranks(config, ranked)
        # evaluate_run's core, without its warnings (a chunk's are not the whole's: the driver
        # tells those, from the hidden columns) and its clipping counters (config.counters').
        result = _evaluate_run(qrels, run, [*config.specs, *config.counters], config.relevant_at_least, config.gain,
                               config.ties, config.missing, 1, max_retrieved=config.max_retrieved,
                               judged_only=config.judged_only)
    except RunInputError as error:
        raise task_error(_located(config, error, qrels, run)) from None
    scored = len(result.query_ids)
    # missing="skip": the judged queries the run lacks are rows too, not scored (every value null).
    left_out = [] if config.missing == "zero" else list(result.missing_query_ids)
    # h25-gaps: with a C/W/L measure, the run's queries without judgments are rows too (not scored).
    unjudged = _unjudged(config, ranked, result.query_ids)
    query_ids = pa.array([*result.query_ids, *left_out, *unjudged], pa.string())
    nulls = np.full(len(left_out) + len(unjudged), np.nan)
    columns = [query_ids]
    for spec in config.specs:
        values = np.concatenate([result.values(spec.name), nulls])
        columns.append(pa.array(values, pa.float64(), mask=np.isnan(values)))
    for spec in config.counters:
        values = np.concatenate([result.values(spec.name), nulls])
        columns.append(pa.array(values, pa.float64(), mask=~(values > 0)))
    ones = np.ones(len(query_ids))
    columns.append(pa.array(ones, pa.float64(), mask=np.arange(len(query_ids)) >= scored))
    missing = pc.is_in(query_ids, value_set=pa.array(result.missing_query_ids, pa.string()))
    columns.append(pa.array(ones, pa.float64(), mask=~missing.to_numpy(zero_copy_only=False)))
    columns.append(pa.array(ones, pa.float64(), mask=np.arange(len(query_ids)) < len(query_ids) - len(unjudged)))
    return pa.RecordBatch.from_arrays(columns, names=output_names(config))


def _unjudged(config: PartitionConfig, ranked: Any, scored: List[str]) -> List[str]:
    """The chunk's run queries not `scored` (no judgments: a query's rows are all in one chunk)
    when a C/W/L measure is asked for, else none."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not cwl_measure_names(config.specs):
        return []
    run_ids = pc.unique(ranked.column("query_id"))
    return list(pc.filter(run_ids, pc.invert(pc.is_in(run_ids, value_set=pa.array(scored, pa.string())))).to_pylist())


def _check_ranks(config: PartitionConfig, ranked: Any) -> None:
    """ties="input": the rank column must order each query's documents (rows sorted on
    query, then rank): no null or NaN rank, no rank twice in a query."""
    import numpy as np
    import pyarrow.compute as pc

    ranks = ranked.column("rank")
    column = config.columns["rank"]
    where = f"run {config.source}"
    bad = pc.or_kleene(pc.is_null(ranks), pc.is_nan(ranks))
    if pc.any(bad).as_py():
        i = int(np.flatnonzero(bad.to_numpy(zero_copy_only=False))[0])
        fault = "is null" if ranks[i].as_py() is None else "is NaN"
        raise RunInputError(f"{_row(ranked, i)}: the rank {fault} (column {column!r}); with ties='input' "
                            "every run row needs a rank", where)
    if ranked.num_rows < 2:
        return
    queries = ranked.column("query_id")
    same = pc.and_(pc.equal(queries.slice(1), queries.slice(0, ranked.num_rows - 1)),
                   pc.equal(ranks.slice(1), ranks.slice(0, ranked.num_rows - 1)))
    twice = np.flatnonzero(pc.fill_null(same, False).to_numpy(zero_copy_only=False))
    if twice.size:
        i = int(twice[0]) + 1
        docs = ranked.column("doc_id")
        raise RunInputError(
            f"query {_quoted(queries[i].as_py())} ranks documents {_quoted(docs[i - 1].as_py())} and "
            f"{_quoted(docs[i].as_py())} both at rank {_number(ranks[i].as_py())} (column {column!r}); with "
            "ties='input' the rank column must order each query's documents", where)


_COLUMN_NOTE = re.compile(r" \(column '[^']*'\)$")  # what a cell's fault names (runs/tables.py's column_note)
_ROW_FAULT = re.compile(r"^(qrels|run) table: row ([0-9]+): (.*)$", re.S)
_FIRST_ON_ROW = re.compile(r" \(first on row [0-9]+\)$")


def _located(config: PartitionConfig, error: RunInputError, qrels: Any, run: Any) -> RunInputError:
    """The core's fault in a chunk's table ("run table: row 7: ..."), told by the query and
    document instead of the row number (which only numbers the chunk's rows), with the
    caller's column names."""
    if error.source not in ("qrels table", "run table"):  # ranks, checked above
        return error
    role = error.source.split()[0]
    where = f"{role} {config.source}"
    match = _ROW_FAULT.match(str(error))
    if match is None:
        return RunInputError(error.message, where)
    row, detail = int(match.group(2)), _COLUMN_NOTE.sub("", match.group(3))  # (its own columns' names: the caller's are added)
    table = qrels if role == "qrels" else run
    names = config.columns
    value_name = names["relevance"] if role == "qrels" else names["score"]
    noun = "grade" if role == "qrels" else "score"
    if _FIRST_ON_ROW.search(detail):  # the duplicate names its query and document already
        return RunInputError(_FIRST_ON_ROW.sub('', detail), where)
    value = table.column(2)[row].as_py()
    if detail == "the value is null":
        detail = f"the {noun} is null (column {value_name!r})"
    elif detail == "the value must be a finite number":
        detail = f"the {noun} {_number(value)} is not a finite number (column {value_name!r})"
    elif detail.startswith("the query ID"):
        detail = f"{detail} (column {names['query']!r})"
    elif detail.startswith("the document ID"):
        detail = f"{detail} (column {names['doc']!r})"
    return RunInputError(f"{_row(table, row)}: {detail}", where)


def _row(table: Any, row: int) -> str:
    """A row told by its query and document, as far as they are not null."""
    query, doc = table.column("query_id")[row].as_py(), table.column("doc_id")[row].as_py()
    parts = ([] if query is None else [f"query {_quoted(query)}"]) + ([] if doc is None else [f"document {_quoted(doc)}"])
    return ", ".join(parts) if parts else "a row"


def _quoted(value: Any) -> str:
    """An ID as the core's messages quote it (at most 60 bytes shown)."""
    from ..reference.runs.reading import _quoted as quoted_bytes

    return quoted_bytes(str(value).encode("utf-8", "surrogatepass")).decode("utf-8", "replace")


def _number(value: Any) -> str:
    return "null" if value is None else repr(value)


# ---- faults across the engine: the message travels in the exception's text ---------------

#: What marks the encoded error in a task exception's text (and in the log lines that hold it).
TASK_ERROR_MARK = "evalcore-input-error:"
_MARKED = re.compile(re.escape(TASK_ERROR_MARK) + r"([A-Za-z0-9+/=]+)")


def task_error(error: RunInputError) -> RunInputError:
    """`error` as a task raises it: its message first (what an engine's log shows), then
    the message and source encoded for :func:`input_error_in` (engines put the worker's
    traceback text into the exception the driver sees)."""
    payload = base64.b64encode(json.dumps([error.message, error.source]).encode("utf-8")).decode("ascii")
    return RunInputError(f"{error.message}\n[{TASK_ERROR_MARK}{payload}]", error.source, error.line)


def input_error_in(exception: BaseException) -> Optional[RunInputError]:
    """The RunInputError a task raised, found in the text of `exception` (or of an
    exception in its chain), or None."""
    seen = set()
    current: Optional[BaseException] = exception
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        match = _MARKED.search(str(current))
        if match is not None:
            message, source = json.loads(base64.b64decode(match.group(1)).decode("utf-8"))
            return RunInputError(message, source)
        current = current.__cause__ or current.__context__
    return None


# ---- means: exact partial sums per task, merged on the driver ------------------------------

#: The columns of :func:`partial_sums`' rows.
PARTIAL_COLUMNS = ("measure", "exact_sum", "count")


def partial_sums(measure_count: int, batches: Iterable[Any]) -> Iterator[Any]:
    """Per-query record batches (``query_id`` and `measure_count` measure columns) in, one
    record batch out: each measure's index, the exact sum of its defined (non-null) values
    serialized (:meth:`evalcore.ExactSum.to_bytes`), and how many there are."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .exact_sums import ExactSum

    sums = [ExactSum() for _ in range(measure_count)]
    counts = [0] * measure_count
    seen = False
    for batch in batches:
        seen = True
        for i in range(measure_count):
            values = pc.drop_null(batch.column(i + 1)).to_numpy(zero_copy_only=False)
            sums[i].add(values)
            counts[i] += len(values)
    if seen:
        yield pa.RecordBatch.from_arrays(
            [pa.array(range(measure_count), pa.int32()), pa.array([s.to_bytes() for s in sums], pa.binary()),
             pa.array(counts, pa.int64())], names=list(PARTIAL_COLUMNS))


def merge_partial_sums(measures: Sequence[str], rows: Iterable[Tuple[int, bytes, int]],
                       kinds: Optional[Sequence[int]] = None) -> Tuple[Dict[str, Optional[float]], Dict[str, int]]:
    """(mean, defined_counts) from :func:`partial_sums`' rows of every task: the exact sum
    of each measure's defined values rounded once, divided by their number (None if none);
    given the measures' `kinds` (MeasureSpec.kind), the summaries evaluate_run gives for
    the kinds whose summary is not a mean (gm_map's exp, num_q's count)."""
    from .exact_sums import ExactSum

    sums = [ExactSum() for _ in measures]
    counts = [0] * len(measures)
    for measure, exact_sum, count in rows:
        sums[measure].merge(bytes(exact_sum))
        counts[measure] += count
    means = [float(s) / c if c else None for s, c in zip(sums, counts)]
    if kinds is not None:
        means = summaries(kinds, means, counts)
    return dict(zip(measures, means)), dict(zip(measures, counts))
