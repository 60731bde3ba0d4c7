"""Where cwl_eval would score a run's queries otherwise, said out loud (issue 25 item 2, h25-gaps;
the project's rule of no silent differences).

Two of cwl_eval's documented differences (docs/measures.md, "Where cwl_eval differs") depend on
the run's queries, not on a measure's parameters:

- a run query without judgments: cwl_eval scores it (every gain 0, a line of figures printed);
  evalcore scores no such query, for any measure (trec_eval's join);
- a query whose lines are split over several stretches of a run file: cwl_eval starts a new
  query whenever the query ID changes, so it scores each stretch on its own; evalcore groups a
  query's lines wherever they are and scores it once.

The cores drop unjudged run queries before any measure sees them, so this module reads the
run's query IDs itself (a dict's keys; a pandas DataFrame's or pyarrow Table's distinct query
IDs; a TREC file's first fields, in one pass over it with a compiled pattern), only when a C/W/L
measure is asked for, and compares them with the queries scored. An Arrow stream, a Parquet file
or an iterable of records is read once, by the core: its queries are not counted here
(docs/measures.md says so).
"""

from __future__ import annotations

import gzip
import os
import re
import threading
import zlib
from typing import Any, Collection, List, Mapping, Optional, Sequence, Set

from .cwl_names import CWL_KINDS
from .measures import KIND, MeasureSpec
from .result import named_queries
from .tables import _is_pandas, _is_pyarrow_table

# A stretch: a line's first field (the query ID) and the lines after it that begin with the same
# field; one match per stretch, so the scan makes an object per stretch, not per line (0.30 s
# for a 1,000,000-line run of 10,000 queries, against 1.1 s matching each line's first field).
_STRETCH = re.compile(rb"^[ \t]*(\S+)[^\n]*\n(?:[ \t]*\1[ \t\r][^\n]*\n)*", re.MULTILINE)
# How much of a run file is read at a time.
_CHUNK_BYTES = 4 << 20
_CWL_KIND_INDICES = frozenset(KIND[k] for k in CWL_KINDS)


def cwl_measure_names(specs: Sequence[MeasureSpec]) -> List[str]:
    """The names of the C/W/L measures among `specs`, in order of asking."""
    return [s.name for s in specs if s.kind in _CWL_KIND_INDICES]


def _file_stretches(path: Any) -> List[str]:
    """The query IDs of a TREC run file, one per stretch of consecutive lines with that ID, in
    file order (comment lines, starting with ``#``, skipped as cwl_costs skips them)."""
    opener = gzip.open if os.fsdecode(path).endswith(".gz") else open
    stretches: List[bytes] = []
    carry = b""
    with opener(path, "rb") as handle:
        while True:
            chunk = handle.read(_CHUNK_BYTES)
            text = carry + chunk
            if chunk:
                cut = text.rfind(b"\n") + 1
                text, carry = text[:cut], text[cut:]
            elif text and not text.endswith(b"\n"):
                text += b"\n"  # (the last line, without its newline)
            for match in _STRETCH.finditer(text):
                key = match.group(1)
                if not key.startswith(b"#") and (not stretches or stretches[-1] != key):
                    stretches.append(key)  # (a stretch cut by a chunk's end continues in the next)
            if not chunk:
                break
    return [s.decode("utf-8", "replace") for s in stretches]


def run_stretches(run: Any, query_col: str = "query_id") -> Optional[List[str]]:
    """The run's query IDs, one per stretch of its lines (a dict: one per query with a
    document; a pandas DataFrame or pyarrow Table: its distinct `query_col` values), or None
    for a run read only by the core (Arrow streams, iterables of records, Parquet files)."""
    if isinstance(run, Mapping):
        return [str(q) for q, docs in run.items() if docs]
    if _is_pandas(run) or _is_pyarrow_table(run):
        return _table_queries(run, query_col)
    if _is_run_file(run):
        try:
            return _file_stretches(run)
        except (OSError, EOFError, zlib.error):  # (the core reports an unreadable file: no warning here)
            return None
    return None


def _table_queries(table: Any, query_col: str) -> Optional[List[str]]:
    """A table's distinct query IDs as the cores read them (str, or int as its decimal text),
    or None when the column is missing or holds other types (the core reports those)."""
    try:
        if _is_pandas(table):
            values: List[Any] = table[query_col].unique().tolist()
        else:
            import pyarrow.compute as pc
            values = pc.unique(table.column(query_col)).to_pylist()
    except (KeyError, ValueError, TypeError, LookupError):
        return None
    if all(isinstance(v, str) for v in values):
        return [str(v) for v in values]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return [str(v) for v in values]
    return None


def _is_run_file(run: Any) -> bool:
    return isinstance(run, (str, bytes, os.PathLike)) and not os.fsdecode(run).endswith(".parquet")


def _shown(names: Sequence[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def unjudged_warning(unjudged: Sequence[str], run_queries: int, names: Sequence[str]) -> str:
    """The warning for the C/W/L measures `names`: the `unjudged` run queries (sorted; a
    partitioned run's FirstQueryIds) of the `run_queries` were not scored."""
    return (f"{len(unjudged):,} of the {run_queries:,} run queries have no judgments and were not scored by "
            f"{_shown(names)} (evalcore scores judged queries only, for every measure; cwl_eval scores them with "
            f"every gain 0 and prints their figures): {named_queries(unjudged)}; judge one document of each "
            f"(grade 0) to score them as cwl_eval does")


def run_query_warnings(stretches: List[str], scored: Collection[str], names: List[str]) -> List[str]:
    """The warnings for the C/W/L measures `names`: run queries (`stretches`, run_stretches')
    not `scored` because they have no judgments, and queries split over several stretches of the
    file; each with the count and the smallest IDs (byte order)."""
    distinct = set(stretches)
    unjudged = sorted(distinct.difference(scored))
    out = [unjudged_warning(unjudged, len(distinct), names)] if unjudged else []
    split = _split_queries(stretches)
    if split:
        out.append(f"{len(split):,} queries have their lines in more than one stretch of the run file, and were "
                   f"scored once each by {_shown(names)} (evalcore groups a query's lines wherever they are; "
                   f"cwl_eval scores each stretch as a query of its own): {named_queries(split)}; sort the run "
                   f"file by query to have one score per query in both")
    return out


def _split_queries(stretches: List[str]) -> List[str]:
    seen: Set[str] = set()
    split = set()
    for query in stretches:
        if query in seen:
            split.add(query)
        seen.add(query)
    return sorted(split)


class RunScan:
    """run_stretches of `run` for the C/W/L measures `names` (none: nothing is read): a run
    file is scanned on a thread of its own, started here, while the core evaluates the run (it
    releases the GIL), so that the scan costs little time on a machine with a core to spare;
    :meth:`warnings` waits for it."""

    def __init__(self, run: Any, names: List[str], query_col: str = "query_id") -> None:
        self._names = names
        self._stretches: Optional[List[str]] = None
        self._thread: Optional[threading.Thread] = None
        if names and isinstance(run, Mapping):
            self._stretches = run_stretches(run)
        elif names and (_is_run_file(run) or _is_pandas(run) or _is_pyarrow_table(run)):
            self._thread = threading.Thread(target=self._scan, args=(run, query_col), name="evalcore C/W/L run scan",
                                            daemon=True)
            self._thread.start()

    def _scan(self, run: Any, query_col: str) -> None:
        self._stretches = run_stretches(run, query_col)

    def warnings(self, query_ids: Collection[str]) -> List[str]:
        """run_query_warnings' for the `query_ids` scored (none when the run's queries are not
        known here: a table, an iterable)."""
        if self._thread is not None:
            self._thread.join()
        if self._stretches is None:
            return []
        return run_query_warnings(self._stretches, set(query_ids), self._names)
