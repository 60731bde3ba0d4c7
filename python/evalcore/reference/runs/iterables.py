"""The reference's reading of iterables of records (the twin of
cpp/bindings/python_iterable_reader.cpp and the bindings' evaluate_iterable_run): items
read one by one in a single pass, their fields as attributes; the qrels whole (at most
max_qrels_rows rows), the run batch by batch (streams.streaming_stop), read whole from the
rows kept when it turns out not to be grouped by query, up to max_stream_rows rows."""

from __future__ import annotations

from typing import Any, Iterator, List, Tuple

from ...runs.iterables import RecordIterable
from ...runs.tables import stream_not_kept, too_many_rows
from ..requests._reading import tp_name
from .reading import Group, _fail, _id, _quoted, _value, batch_groups, group_rows
from .streams import streaming_stop

Record = Tuple[bytes, bytes, float, int]


class _Rows:
    """The items of `source` read as records, in order; every row is kept (the native core
    keeps them only while they fit in max_stream_rows: `keeping` says whether it still does)."""

    def __init__(self, source: RecordIterable) -> None:
        self.source = source
        self.table = source.source_name
        self.noun = "grade" if source.role == "qrels" else "score"
        self.taken = 0  # items taken so far
        self.ended = False
        self.records: List[Record] = []
        self.keeping = True

    def _next_item(self) -> Tuple[bool, Any]:
        if self.ended:
            return False, None
        try:
            item = next(self.source.iterator)
        except StopIteration:
            self.ended = True
            return False, None
        self.taken += 1
        return True, item

    def _field(self, item: Any, k: int) -> Any:
        name = self.source.names[k]
        row = f"row {self.taken - 1}: "
        try:
            return getattr(item, name)
        except AttributeError:
            value = "relevance_col=" if self.source.role == "qrels" else "score_col="
            names = self.source.names
            message = (f"{row}a {tp_name(item)} has no field '{name}'; give items with the fields {names[0]}, {names[1]} "
                       f"and {names[2]} (named tuples or objects), or name them with evaluate_run's query_col=, doc_col= "
                       f"and {value}")
        except Exception as exc:
            try:
                text = str(exc)
            except Exception:
                text = ""
            message = f"{row}reading its field '{name}' raised {tp_name(exc)}" + (f": {text}" if text else "")
        raise _fail(self.table, 0, message.encode())

    def read_row(self, out: List[Record]) -> bool:
        """The next item as a record appended to `out`; False at the end."""
        more, item = self._next_item()
        if not more:
            return False
        row = self.taken - 1
        names = self.source.names

        def where(what: str, k: int) -> str:
            return f"row {row}: the {what} (field '{names[k]}')"

        query = _id(self._field(item, 0), self.table, where("query ID", 0))
        doc = _id(self._field(item, 1), self.table, where("document ID", 1))
        value = _value(self._field(item, 2), self.table, where(self.noun, 2).encode())
        out.append((query, doc, value, row))
        return True

    def batches(self) -> Iterator[List[Record]]:
        """Batches of batch_rows items, as the native core asks for them."""
        while True:
            batch: List[Record] = []
            while len(batch) < self.source.batch_rows and self.read_row(batch):
                pass
            if not batch:
                return
            self.records.extend(batch)
            self.keeping = self.keeping and self.taken <= self.source.kept_rows
            yield batch

    def rest(self, bound: int, refusal: str) -> List[Record]:
        """Every row: the rest read on, refused (`refusal`) as the row past `bound` comes."""
        if not self.keeping:
            raise _fail(self.table, 0, refusal.encode())
        while True:
            if self.taken >= bound:
                if self._next_item()[0]:
                    raise _fail(self.table, 0, refusal.encode())
                return self.records
            if not self.read_row(self.records):
                return self.records


def read_record_iterable(source: RecordIterable) -> List[Group]:
    """The iterable's rows grouped by query, with the native core's faults and messages."""
    rows = _Rows(source)
    if source.role == "qrels":
        return group_rows(rows.rest(source.max_rows, too_many_rows(source.max_rows, "max_qrels_rows")), rows.table)
    stop = streaming_stop(rows.batches(), batch_groups, _quoted)
    if stop is None:
        return group_rows(rows.records, rows.table)
    message, fault = stop
    refusal = message.decode("utf-8", "replace") + ("" if fault else stream_not_kept(source.kept_rows))
    return group_rows(rows.rest(source.kept_rows, refusal), rows.table)
