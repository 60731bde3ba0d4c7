"""The warnings of a distributed evaluate_run (h25-sparkpol; the project's rule of no silent
differences): what :attr:`evalcore.RunEvaluation.warnings` says on one machine — judged
queries the run lacks (left out or scored as empty rankings), C/W/L grades clipped
(runs/cwl_clipping.py), run queries without judgments with C/W/L measures (runs/cwl_run_queries.py), measures in ranx's spelling undefined on some queries — told from the
hidden columns of :func:`evalcore.runs.partitioned.evaluate_partition`'s rows in one pass.

Each task adds every column's values up (:func:`partial_summary`: the exact sums and counts
of :func:`~evalcore.runs.partitioned.partial_sums`) and keeps the smallest query IDs of the
columns that list queries (the clipping counters', the missing queries'); the driver merges
them (:func:`merge_summary`) and words the warnings with evaluate_run's own functions. On one
machine a warning names the first queries in the order of the input; rows in an engine have
no order, so here it names the smallest IDs (Python's ``str`` order, that of UTF-8 bytes):
the warnings are evaluate_run's on the qrels and run sorted by query ID.
"""

from __future__ import annotations

import heapq
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union, overload

from .cwl_clipping import clipping_ranges, clipping_warning
from .cwl_run_queries import cwl_measure_names, unjudged_warning
from .partitioned import (MISSING_COLUMN, PARTIAL_COLUMNS, SCORED_COLUMN, UNJUDGED_COLUMN, PartitionConfig,
                          merge_partial_sums, output_names, partial_sums)
from .result import NAMED_QUERIES, ranx_zero_warnings, run_warnings

#: The columns of :func:`partial_summary`'s rows: partial_sums' and the first query IDs.
SUMMARY_COLUMNS = (*PARTIAL_COLUMNS, "first_ids")


class Summary(NamedTuple):
    """What one pass over a distributed evaluation's rows tells: the means and defined
    counts of the measures, and the warnings (policy_warnings among them), as
    :class:`evalcore.RunEvaluation` has them."""

    mean: Dict[str, Optional[float]]
    defined_counts: Dict[str, int]
    warnings: List[str]
    policy_warnings: List[str]


class FirstQueryIds(Sequence[str]):
    """The first IDs of a list of `length` query IDs, and that length: as much of the list
    as a warning reads (:func:`evalcore.runs.result.named_queries` slices the first few and
    counts the rest), without the list. Reading past the IDs held is an IndexError."""

    def __init__(self, first: Sequence[str], length: int) -> None:
        self._first = list(first)[:length]
        self._length = length

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[str]:
        # (Sequence's own would stop at the IDs held, a shorter list than len() says.)
        raise IndexError(f"only the first {len(self._first)} of {self._length} query IDs are held: not iterable")

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[str, Sequence[str]]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step == 1 and max(start, stop) <= len(self._first):
                return self._first[start:stop]
        else:
            position = index + self._length if index < 0 else index
            if 0 <= position < len(self._first):
                return self._first[position]
        raise IndexError(f"only the first {len(self._first)} of {self._length} query IDs are held")


def _listing_columns(config: PartitionConfig) -> List[int]:
    """The indices (among the columns after query_id) of the columns that list queries: the
    clipping counters and the missing queries."""
    names = output_names(config)[1:]
    return [*range(len(config.specs), len(config.specs) + len(config.counters)), names.index(MISSING_COLUMN),
            names.index(UNJUDGED_COLUMN)]


def partial_summary(config: PartitionConfig, batches: Iterable[Any]) -> Iterator[Any]:
    """One task: :func:`evaluate_partition`'s record batches (every column) in, one record
    batch out: each column's index, exact sum and count of defined values (partial_sums'),
    and for the columns that list queries the :data:`NAMED_QUERIES` smallest IDs where they
    are defined."""
    import pyarrow as pa
    import pyarrow.compute as pc

    listing = _listing_columns(config)
    firsts: Dict[int, List[str]] = {i: [] for i in listing}

    def watched() -> Iterator[Any]:
        for batch in batches:
            for i in listing:
                ids = pc.filter(batch.column(0), pc.is_valid(batch.column(i + 1))).to_pylist()
                firsts[i] = heapq.nsmallest(NAMED_QUERIES, firsts[i] + ids)
            yield batch

    for sums in partial_sums(len(output_names(config)) - 1, watched()):
        first_ids = pa.array([firsts.get(i, []) for i in range(sums.num_rows)], pa.list_(pa.string()))
        yield pa.RecordBatch.from_arrays([*sums.columns, first_ids], names=list(SUMMARY_COLUMNS))


def merge_summary(config: PartitionConfig, options: Dict[str, Any],
                  rows: Iterable[Tuple[int, bytes, int, Sequence[str]]]) -> Summary:
    """:func:`partial_summary`'s rows of every task merged: the measures' means and defined
    counts (as :func:`merge_partial_sums` gives them) and the warnings evaluate_run gives on
    the same rows sorted by query ID; `options` as partition_config returns them."""
    from .exact_sums import ExactSum

    rows = list(rows)
    names = output_names(config)[1:]
    visible = len(config.specs)
    mean, counts = merge_partial_sums([s.name for s in config.specs],
                                      ((i, s, c) for i, s, c, _ in rows if i < visible), [s.kind for s in config.specs])
    sums = [ExactSum() for _ in names]
    defined = [0] * len(names)
    firsts: List[List[str]] = [[] for _ in names]
    for i, exact_sum, count, first_ids in rows:
        if i >= visible:
            sums[i].merge(bytes(exact_sum))
            defined[i] += count
            firsts[i] = heapq.nsmallest(NAMED_QUERIES, firsts[i] + list(first_ids))
    scored = defined[names.index(SCORED_COLUMN)]
    missing_at = names.index(MISSING_COLUMN)
    policy = []
    for i, ((low, high, depth), measures) in enumerate(clipping_ranges(list(config.specs)).items()):
        if defined[visible + i]:
            policy.append(clipping_warning(low, high, depth, measures, int(float(sums[visible + i])),
                                           FirstQueryIds(firsts[visible + i], defined[visible + i])))
    unjudged_at = names.index(UNJUDGED_COLUMN)  # h25-gaps: run queries without judgments, with C/W/L measures
    if defined[unjudged_at]:
        from_run = scored - (defined[missing_at] if options.get("missing") == "zero" else 0)
        policy.append(unjudged_warning(FirstQueryIds(firsts[unjudged_at], defined[unjudged_at]),
                                       from_run + defined[unjudged_at], cwl_measure_names(config.specs)))
    warnings = [*run_warnings(scored, FirstQueryIds(firsts[missing_at], defined[missing_at]), options), *policy,
                *ranx_zero_warnings([s.name for s in config.specs], counts, scored)]
    return Summary(mean, counts, warnings, policy)
