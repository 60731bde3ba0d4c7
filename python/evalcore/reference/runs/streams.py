"""The reference's twin of how the native core scores a run stream read once
(RunScorer::add_run_batches in cpp/runs/evaluation.cpp, with the bindings'
evaluate_arrow_run): the stream is scored batch by batch, and the batches are kept while
they hold at most max_stream_rows rows. A stream that turns out not to be grouped by query
(or to list a document twice for a query) is then read whole from what it kept, as any
table; one longer than that cannot be, and its error is what the streaming found there.

Only the error needs the batch-by-batch walk: a stream that is read to its end gives the
rows a whole reading gives, grouped the same way."""

from __future__ import annotations

from typing import Callable, Iterable, List, Optional, Set, Tuple

Record = Tuple[bytes, bytes, float, int]
# groups(records) -> (the queries in order of first appearance, the first fault as
# "row N: ..." or None): the grouping of a whole reading, of one batch's rows.
Grouping = Callable[[List[Record]], Tuple[List[bytes], Optional[bytes]]]


def streaming_stop(batches: Iterable[List[Record]], groups: Grouping,
                   quoted: Callable[[bytes], bytes]) -> Optional[Tuple[bytes, bool]]:
    """Where the batch-by-batch scoring of `batches` stops: (what it found, whether it is a
    fault of the rows themselves rather than of their order), or None if it reaches the end.
    Each batch's own row faults are raised as it is read (the iterator raises them)."""
    carried: List[Record] = []  # the rows of the query the last batch ended with
    seen: Set[bytes] = set()    # the queries scored so far
    iterator = iter(batches)
    more = True
    while more:
        batch = next(iterator, None)
        more = batch is not None
        chunk = carried + (batch or [])
        order, fault = groups(chunk)
        if fault is not None:
            return fault, True
        carried = []
        if more and order:
            # The query of the last row may go on in the next batch: held back, if it is
            # the last to appear.
            if chunk[-1][0] != order[-1]:
                return b"the rows are not grouped by query", False
            carried = [r for r in chunk if r[0] == order[-1]]
            order = order[:-1]
        for query in order:
            if query in seen:
                row = next(r[3] for r in chunk if r[0] == query)
                return f"row {row}: query ".encode() + quoted(query) + b" comes back after other queries", False
        seen.update(order)
    return None
