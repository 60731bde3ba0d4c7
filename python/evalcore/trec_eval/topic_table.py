"""The per-topic table of ``evalcore trec --format trec_eval``: every column's value for
every topic, column by column over all topics at once where a column says how
(:class:`~.output_format.Vectorized`), topic by topic otherwise; and its lines, printed by
the core in one call.

The values are those :mod:`.output_format`'s columns give one topic at a time (the two forms
of a vectorized column are compared by tests/trec_eval/test_topic_table.py); the summary
totals are the columns' sums in topic order, left to right, as trec_eval adds them
(``numpy.add.accumulate`` adds in order: it is not a pairwise sum). A -q run over 10,000
topics and all_trec's 100 columns prints a million lines: one Python call per line cost
more than evaluating the run (bench/bench_trec_cli.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, NamedTuple, Optional, Sequence

from . import output_format as te
from .rank_columns import RelString, grade_characters
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)


class TopicTable(NamedTuple):
    """evalcore's values of the topics in print order: ``values[t, i]`` of SpecPool index i
    (NaN where undefined), each topic's ranking length and whether it is -c's stand-in."""

    values: np.ndarray
    retrieved: np.ndarray
    bogus: np.ndarray

    def rows(self) -> List[te.Row]:
        return [te.Row(v, int(n), bool(b)) for v, n, b in zip(self.values.tolist(), self.retrieved.tolist(),
                                                               self.bogus.tolist())]


def column_table(columns: Sequence[te.Column], topics: TopicTable) -> np.ndarray:
    """topics × columns: each column's trec_eval value of each topic."""
    out = np.empty((len(topics.values), len(columns)), dtype=np.float64)
    rows: List[te.Row] = []
    for c, column in enumerate(columns):
        if isinstance(column.value, te.Vectorized):
            out[:, c] = column.value.over(topics.values, topics.retrieved, topics.bogus)
            continue
        if isinstance(column, RelString):
            out[:, c] = 0.0  # its value is its text (relstring_texts); the summary prints none
            continue
        if not rows and len(topics.values):
            rows = topics.rows()
        out[:, c] = [column.value(row) for row in rows]
    return out


def relstring_texts(column: RelString, topics: TopicTable) -> List[bytes]:
    """Each topic's relstring as printed (quoted), from the grades at its first ranks."""
    grades = topics.values[:, column.grades] if column.grades else np.empty((len(topics.values), 0))
    characters = grade_characters(grades)
    counts = np.minimum(len(column.grades), topics.retrieved)
    if column.name == "relstring":  # -c's clean-up clears the plain name only
        counts = np.where(topics.bogus, 0, counts)
    return [b"'" + row[:k].tobytes() + b"'" for row, k in zip(characters, counts.tolist())]


def summary_totals(table: np.ndarray) -> List[float]:
    """Each column's values added topic by topic, left to right from 0."""
    if len(table) == 0:
        return [0.0] * table.shape[1]
    totals: List[float] = np.add.accumulate(table, axis=0)[-1].tolist()
    return totals


def topic_lines(columns: Sequence[te.Column], queries: Sequence[str], table: np.ndarray,
                topics: Optional[TopicTable] = None, zscores: bool = False) -> bytes:
    """The per-topic lines (-q) of these topics: what output_format.per_topic_lines prints
    for each, in one call to the core. `topics` is needed for text columns (relstring);
    `zscores`: -Z's lines of a converted table ("Z" before the padded names but relstring's,
    counts with 4 decimals)."""
    from .. import _core

    shown = [c for c, column in enumerate(columns) if not column.summary_only]
    if not shown or not queries:
        return b""
    texts: List[Optional[List[bytes]]] = []
    for c in shown:
        column = columns[c]
        if isinstance(column, RelString):
            if topics is None:
                raise ValueError(f"topic_lines: {column.name} is text: pass the topics")
            texts.append(relstring_texts(column, topics))
        else:
            texts.append(None)
    names = [columns[c].name for c in shown]
    integer = [columns[c].integer and not zscores for c in shown]
    if zscores:  # "Z%-22s": already 23 bytes or more, which the core pads no further
        names = ["Z" + te.padded(name) if columns[c].zscored else name for c, name in zip(shown, names)]
    encoded = [q.encode("utf-8", "surrogateescape") for q in queries]
    return _core.trec_topic_lines(names, integer, encoded, np.ascontiguousarray(table[:, shown]), texts)
