"""Tables as evaluate_run's qrels and run: anything that speaks the Arrow PyCapsule
interface (``__arrow_c_stream__`` or ``__arrow_c_array__``: pyarrow tables and record
batches, pandas DataFrames with pyarrow installed, polars, DuckDB results) is handed to the
cores as Arrow data, which the native core reads straight from its buffers; a pandas
DataFrame without pyarrow is read through its columns as Python objects.

The columns are found by name: ``query_id``, ``doc_id`` and ``relevance`` (qrels) or
``score`` (run), or the names evaluate_run's ``query_col=``, ``doc_col=``, ``relevance_col=``
and ``score_col=`` give (PyTerrier's ``qid``/``docno``/``label``); other columns are ignored. A name is what the Arrow C data interface
passes, a C string (``"query_id\\x00old"`` is ``query_id`` there); two columns of a needed
name are ambiguous, a RunInputError naming both. IDs are strings (string, large_string,
string_view, or a dictionary of them) or integers (their decimal text); values are
integers or floating-point numbers. Rows are numbered from 0 across the table's chunks.

Only the tables evalcore knows to give the same rows each time they are asked (pyarrow
Table and RecordBatch, pandas and polars DataFrames, parquet paths) are read twice; any
other stream (a RecordBatchReader, an IPC or CSV reader, a generator behind
``__arrow_c_stream__``) is read once.

Nothing here imports the compiled core, pyarrow or pandas.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)


COLUMNS = {"qrels": ("query_id", "doc_id", "relevance"), "run": ("query_id", "doc_id", "score")}

#: The rows a run stream read once keeps while it is scored, so that one found not grouped
#: by query can still be grouped in memory (evaluate_run's max_stream_rows).
DEFAULT_MAX_STREAM_ROWS = 5_000_000


def check_max_stream_rows(value: Any) -> int:
    """evaluate_run's max_stream_rows, checked: an int >= 0."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 63:
        raise ValueError(f"max_stream_rows must be an int >= 0, got {value!r}")
    return int(value)  # (the native core takes an exact int)


def stream_not_kept(max_rows: int) -> str:
    """What follows the finding of a stream read once and not grouped by query, longer than
    it keeps (the native core's stream_not_kept)."""
    return (f"; a stream is read once, and one not grouped by query is kept to be grouped in memory only up to "
            f"{max_rows:,} rows (the max_stream_rows limit): sort it by query, pass a table, or raise it "
            "with max_stream_rows=N")


def ambiguous_column(name: str, first: int, second: int) -> str:
    """The fault of two columns of a needed name (the native core's ambiguous_column)."""
    return (f"the {name} column is ambiguous: columns {first} and {second} (counted from 0) are both named {name} "
            "(a name ends at its first NUL byte, as the Arrow C data interface passes it): rename or drop one")


def ambiguous_columns_message(role: str, names: List[str], needed: Optional[Sequence[str]] = None) -> Optional[str]:
    """The fault of a table with two columns of a needed name (`needed`, default
    COLUMNS[role]), the first in column order (`names` as the Arrow consumer sees them), or None."""
    needed = COLUMNS[role] if needed is None else needed
    first: Dict[str, int] = {}
    for at, name in enumerate(names):
        if name in needed:
            if name in first:
                return ambiguous_column(name, first[name], at)
            first[name] = at
    return None


def check_columns(role: str, names: List[str], needed: Sequence[str]) -> None:
    """A table's column names before its columns are selected: two of a needed name are a
    RunInputError, a needed one missing a ValueError (both cores raise them alike)."""
    from ..errors import RunInputError

    ambiguous = ambiguous_columns_message(role, names, needed)
    if ambiguous:
        raise RunInputError(ambiguous, f"{role} table", None)
    missing = missing_columns_message(role, names, needed)
    if missing:
        raise ValueError(missing)


def missing_columns_message(role: str, present: List[str], needed: Optional[Sequence[str]] = None) -> Optional[str]:
    """The fault of a table lacking a needed column (both cores raise it as ValueError):
    it names the missing ones, lists the table's, and says how to name them (the native
    core's ArrowRecordReader says the same)."""
    names = COLUMNS[role] if needed is None else needed
    missing = [n for n in names if n not in present]
    if not missing:
        return None
    value_keyword = "relevance_col=" if role == "qrels" else "score_col="
    return (f"{role} table lacks the column(s) {', '.join(missing)}; it needs {', '.join(names)}; its columns are "
            f"{', '.join(present) if present else 'none'} (name them with evaluate_run's query_col=, doc_col= and "
            f"{value_keyword})")


def column_note(name: str) -> str:
    """What a cell's fault adds to name its column: `` (column 'qid')``."""
    return f" (column '{name}')"


def too_many_rows(max_rows: int, limit: str) -> str:
    """The fault of a table past its row bound (a stream may never end): both cores stop
    at the batch that passes it."""
    return f"more than {max_rows:,} rows (the {limit} limit); raise it with {limit}=N"


class Interrupts:
    """What a producer raised that is no Exception (KeyboardInterrupt, SystemExit) while its
    batches were iterated in Python. An Arrow stream reports a failure as an error code and
    a message only, so a core would make a Ctrl-C in a generator of batches a RunInputError
    (a ValueError, which ``except ValueError`` swallows); kept here, it is raised as itself
    (:func:`interrupts_raised`)."""

    def __init__(self) -> None:
        self.caught: Optional[BaseException] = None

    def guard(self, batches: Iterable[Any]) -> Iterator[Any]:
        """`batches`, one by one, keeping an interrupt before it goes on as the stream's error."""
        try:
            yield from batches
        except (Exception, GeneratorExit):  # GeneratorExit: the stream was released before its end
            raise
        except BaseException as exc:
            self.caught = exc
            raise


def _is_pyarrow_reader(table: Any) -> bool:
    if type(table).__module__.split(".")[0] != "pyarrow":
        return False
    import pyarrow

    return isinstance(table, pyarrow.RecordBatchReader)


class ArrowTable:
    """A table that speaks the Arrow PyCapsule interface, as given; each core asks it for
    its data when it reads it (a capsule can be read once)."""

    def __init__(self, table: Any, role: str, names: Optional[Sequence[str]] = None) -> None:
        self.table = table
        self.role = role
        self.names: Tuple[str, str, str] = tuple(COLUMNS[role] if names is None else names)  # type: ignore[assignment]
        self.interrupts = table.interrupts if isinstance(table, ParquetFile) else Interrupts()

    def stream(self) -> Any:
        """What the cores read: the table, or for a pyarrow RecordBatchReader (a generator's
        batches, often) the same batches iterated in Python, where an exception the producer
        raises comes as itself, and an interrupt is kept."""
        table = self.table
        if not _is_pyarrow_reader(table):
            return table
        import pyarrow

        return pyarrow.RecordBatchReader.from_batches(table.schema, self.interrupts.guard(table))

    @property
    def one_shot(self) -> bool:
        """Whether the table may be readable only once: anything but a table evalcore knows
        to give the same rows each time it is asked. A RecordBatchReader, pyarrow.ipc and
        pyarrow.csv readers, any object whose ``__arrow_c_stream__`` hands out a stream it
        consumes, are read once (asked twice, such a stream gives only its unread rest)."""
        return not _rereadable(self.table)

    def provider(self, max_stream_rows: int = DEFAULT_MAX_STREAM_ROWS) -> Tuple[Any, bool, int, Tuple[str, str, str]]:
        """What the native core takes: (a callable giving fresh capsules, one_shot, the rows
        a stream read once keeps to be read again whole, the query, document and value
        columns' names)."""
        return (self.capsules, self.one_shot, max_stream_rows, self.names)

    def capsules(self) -> Any:
        """A fresh ``arrow_array_stream`` capsule, or a ``(schema, array)`` pair of capsules."""
        table = self.stream()
        if hasattr(table, "__arrow_c_stream__"):
            return table.__arrow_c_stream__()
        return table.__arrow_c_array__()


@contextlib.contextmanager
def interrupts_raised(*sources: Any) -> Iterator[None]:
    """Around a core's reading of `sources`: the error a kept interrupt became (a
    RunInputError, or pyarrow's) is that interrupt, raised as itself."""
    try:
        yield
    except Exception:
        for source in sources:
            if isinstance(source, ArrowTable) and source.interrupts.caught is not None:
                raise source.interrupts.caught from None
        raise


class ParquetFile:
    """A parquet file as an Arrow stream of its needed columns, batch by batch (read with
    pyarrow.parquet one row group at a time; a run grouped by query is then scored with one
    row group in memory). It
    can be read again, so a run not grouped by query is read whole after all."""

    BATCH_ROWS = 1 << 16

    def __init__(self, path: Union[str, bytes], role: str, names: Optional[Sequence[str]] = None) -> None:
        self.path = path
        self.role = role
        self.names = tuple(COLUMNS[role] if names is None else names)
        self.interrupts = Interrupts()  # a Ctrl-C while a row group is read

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        try:
            import pyarrow
            import pyarrow.parquet as parquet
        except ImportError:
            raise ImportError("reading a parquet file needs pyarrow: pip install pyarrow") from None
        file = parquet.ParquetFile(self.path)
        names = [n for n in self.names if n in file.schema_arrow.names]  # a missing one: the cores say so
        schema = pyarrow.schema([file.schema_arrow.field(n) for n in names])
        # Row group by row group: iter_batches held about 0.9 GB while streaming a 100 M-row
        # file of 1 M-row groups (bench_runs' parquet row), one row group at a time 0.24 GB.
        batches = (batch for group in range(file.metadata.num_row_groups)
                   for batch in file.read_row_group(group, columns=names).to_batches(max_chunksize=self.BATCH_ROWS))
        return pyarrow.RecordBatchReader.from_batches(schema, self.interrupts.guard(batches)).__arrow_c_stream__(
            requested_schema)


def is_parquet_path(path: Union[str, bytes]) -> bool:
    """A path the cores read as parquet: its name ends in .parquet (any case)."""
    return (path.lower() if isinstance(path, str) else path.lower().decode("latin-1")).endswith(".parquet")


def _is_pandas(table: Any) -> bool:
    return type(table).__module__.split(".")[0] == "pandas" and hasattr(table, "columns")


def _is_pyarrow_table(table: Any) -> bool:
    return type(table).__module__.split(".")[0] == "pyarrow" and hasattr(table, "select")


def _rereadable(table: Any) -> bool:
    """A table that gives the same rows each time its ``__arrow_c_stream__`` is called: a
    pyarrow Table or RecordBatch (pandas DataFrames become Tables), a polars DataFrame, a
    parquet file evalcore opens itself. Nothing else is assumed to be."""
    if isinstance(table, ParquetFile):
        return True
    kind = type(table)
    root = kind.__module__.split(".")[0]
    return (root == "pyarrow" and kind.__name__ in ("Table", "RecordBatch")) or (root == "polars" and
                                                                                kind.__name__ == "DataFrame")


def _arrow_capable(table: Any) -> bool:
    return callable(getattr(table, "__arrow_c_stream__", None)) or callable(getattr(table, "__arrow_c_array__", None))


def table_source(value: Any, role: str, names: Optional[Sequence[str]] = None
                 ) -> Union[None, ArrowTable, Tuple[List[Any], List[Any], np.ndarray, Tuple[str, str, str]]]:
    """`value` as the cores take a table, or None if it is none: an ArrowTable, or for a
    pandas DataFrame that cannot give Arrow data (no pyarrow, or object columns pyarrow
    cannot convert), its columns as Python lists. `names`: the query, document and value
    columns' (default COLUMNS[role])."""
    names = tuple(COLUMNS[role] if names is None else names)
    if _is_pandas(value):
        check_columns(role, [str(c) for c in value.columns], names)
        selected = value[list(names)]  # only the columns read are converted
        try:
            import pyarrow
        except ImportError:
            return _pandas_columns(selected, role, names)
        try:
            converted = pyarrow.Table.from_pandas(selected, preserve_index=False)
        except (pyarrow.ArrowException, TypeError, ValueError):
            # Object columns pyarrow cannot type (str mixed with ints, ...): read as Python
            # objects, whose messages name the row and what it holds.
            return _pandas_columns(selected, role, names)
        return ArrowTable(converted, role, names)
    if _is_pyarrow_table(value):
        check_columns(role, list(value.column_names), names)  # (exact names: those select() takes)
        return ArrowTable(value.select(list(names)), role, names)
    if _arrow_capable(value):
        return ArrowTable(value, role, names)
    return None


def _pandas_columns(frame: Any, role: str, names: Sequence[str]
                    ) -> Tuple[List[Any], List[Any], np.ndarray, Tuple[str, str, str]]:
    """A DataFrame's columns as (query_ids, doc_ids, float64 values, the three columns' names,
    which messages give); integer IDs become their decimal text."""

    def ids(name: str) -> List[Any]:
        values = frame[name].to_numpy()
        if values.dtype.kind in "iu":
            return [str(v) for v in values.tolist()]
        return list(values.tolist())

    try:
        numbers = np.ascontiguousarray(frame[names[2]].to_numpy(), dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{role} table: the {names[2]} column must be numeric ({exc})") from None
    return ids(names[0]), ids(names[1]), numbers, (str(names[0]), str(names[1]), str(names[2]))
