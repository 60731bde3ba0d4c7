"""Iterables of records as evaluate_run's qrels and run: what ir_datasets and ir_measures
hand out. ir_datasets' ``qrels_iter()`` gives ``TrecQrel(query_id, doc_id, relevance,
iteration)`` and ``scoreddocs_iter()`` ``GenericScoredDoc(query_id, doc_id, score)``;
ir_measures' ``read_trec_qrels``/``read_trec_run`` generators give ``Qrel`` and
``ScoredDoc``. Any iterable that is not a dict, a path or a table is read this way: each
item's query, document and value are its attributes of those names (named tuples or any
objects; ``query_col=``, ``doc_col=``, ``relevance_col=``, ``score_col=`` rename them).

An iterable is read once, item by item (a generator cannot be read twice). A run grouped by
query is scored :data:`BATCH_ROWS` items at a time, so memory holds one batch; a run found
not grouped is kept, up to ``max_stream_rows`` rows, and grouped in memory. The qrels are
held whole, at most ``max_qrels_rows`` rows. Rows are numbered from 0.

Both cores read it with the same rules as dicts (IDs str or int, values int or float or
anything with ``__float__``) and the same messages; nothing here imports the compiled core.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, Iterator, Optional, Tuple

#: Items read and scored at a time from an iterable run grouped by query.
BATCH_ROWS = 1 << 16

#: The default field (and column) names: (query, document, value) of the qrels and the run.
DEFAULT_NAMES = {"qrels": ("query_id", "doc_id", "relevance"), "run": ("query_id", "doc_id", "score")}


def source_names(role: str, query_col: str, doc_col: str, relevance_col: str, score_col: str) -> Tuple[str, str, str]:
    """The query, document and value names of a `role`'s table or records, checked: each a
    non-empty str without NUL (a name ends at a NUL in the Arrow C data interface)."""
    for keyword, name in (("query_col", query_col), ("doc_col", doc_col), ("relevance_col", relevance_col),
                          ("score_col", score_col)):
        if not isinstance(name, str) or not name or "\0" in name:
            raise ValueError(f"{keyword} must be a non-empty str without NUL (a column or field name), got {name!r}")
    return (query_col, doc_col, relevance_col if role == "qrels" else score_col)


def is_record_iterable(value: Any) -> bool:
    """Whether evaluate_run reads `value` as an iterable of records: iterable, and not a
    mapping, a str, bytes or a path (those are read otherwise)."""
    return isinstance(value, Iterable) and not isinstance(value, (Mapping, str, bytes, bytearray, os.PathLike))


class RecordIterable:
    """An iterable of records as both cores take it: its iterator (taken once, here), the
    names of the fields read, and the bounds of the reading."""

    def __init__(self, iterable: Any, role: str, names: Tuple[str, str, str], batch_rows: Optional[int] = None) -> None:
        self.iterator: Iterator[Any] = iter(iterable)
        self.role = role
        self.names = names
        self.source_name = f"{role} iterable"
        self.batch_rows = BATCH_ROWS if batch_rows is None else batch_rows  # (read here: tests shrink it)
        self.kept_rows = 0   # a run's max_stream_rows
        self.max_rows = 0    # the qrels' max_qrels_rows

    def bounded(self, kept_rows: int, max_rows: int) -> "RecordIterable":
        """Sets the bounds of the reading (evaluate_run's max_stream_rows, max_qrels_rows)."""
        self.kept_rows, self.max_rows = kept_rows, max_rows
        return self
