"""The reference's reading of Arrow tables (the twin of cpp/runs/arrow_records.cpp): the
same columns, checks, messages and row numbers, through pyarrow's Python API (which it
needs for Arrow data; the native core reads the buffers itself)."""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Tuple, cast

from ..run_tables import COLUMNS, ArrowTable, missing_columns_message, too_many_rows

Record = Tuple[bytes, bytes, float, int]

# pyarrow's names of the types the native core names in its messages.
_KNOWN_TYPES = {
    "null", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "halffloat", "float",
    "double", "binary", "large_binary", "binary_view", "string", "large_string", "string_view", "date32[day]",
    "dictionary",
}
_STRINGS = {"string", "large_string", "string_view"}
_INTEGERS = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
_FLOATS = {"float", "double"}


def _unsupported(column: str, type_name: str, is_id: bool) -> str:
    has = f"has type {type_name}" if type_name in _KNOWN_TYPES else "has an unsupported type"
    if is_id:
        return (f"the {column} column {has}; an ID column must hold strings (string, large_string, string_view, "
                "or a dictionary of them) or integers")
    return (f"the {column} column {has}; a value column must hold integers or floating-point numbers "
            "(int8 to uint64, float, double)")


def _column_fault(pa: Any, field: Any, is_id: bool) -> Optional[str]:
    kind = field.type
    if pa.types.is_dictionary(kind):
        ok = is_id and str(kind.index_type) in _INTEGERS and str(kind.value_type) in _STRINGS | _INTEGERS
        return None if ok else _unsupported(field.name, "dictionary", is_id)
    allowed = _STRINGS | _INTEGERS if is_id else _INTEGERS | _FLOATS
    return None if str(kind) in allowed else _unsupported(field.name, str(kind), is_id)


def _bounded(batches: Any, max_rows: Optional[int], fail: Callable[[str, int, bytes], Exception], table: str) -> List[Any]:
    """The batches, until their rows pass `max_rows` (the qrels' max_qrels_rows: a stream
    may never end), which is `fail`'s RunInputError at the batch that passes it."""
    taken: List[Any] = []
    rows = 0
    for batch in batches:
        rows += batch.num_rows
        if max_rows is not None and rows > max_rows:
            raise fail(table, 0, too_many_rows(max_rows, "max_qrels_rows").encode())
        taken.append(batch)
    return taken


def _batches(source: ArrowTable, max_rows: Optional[int], fail: Callable[[str, int, bytes], Exception]) -> Tuple[Any, List[Any]]:
    import pyarrow as pa

    table = source.stream()
    name = f"{source.role} table"
    if hasattr(table, "__arrow_c_stream__"):
        reader = pa.RecordBatchReader.from_stream(table)
        return reader.schema, _bounded(reader, max_rows, fail, name)
    batch = pa.record_batch(table)
    return batch.schema, _bounded([batch], max_rows, fail, name)


def _offsets_fault(pa: Any, column: Any) -> Optional[str]:
    """What is wrong with a string column's offsets over its rows (the native core's
    check before it reads a batch: cpp/runs/arrow_checks.cpp), or None. pyarrow reads
    them unchecked, nulls included."""
    if len(column) == 0 or not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        return None
    import numpy as np

    width = np.int32 if pa.types.is_string(column.type) else np.int64
    offsets = np.frombuffer(column.buffers()[1], dtype=width)[column.offset:column.offset + len(column) + 1]
    if offsets[0] < 0:
        return "a string column's first offset is negative"
    if (np.diff(offsets) < 0).any():
        return "a string's offsets are out of order"
    return None


def _ids(pa: Any, column: Any) -> List[Optional[bytes]]:
    """A column's IDs as UTF-8 bytes (None: null), integers as their decimal text."""
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if pa.types.is_integer(column.type):
        return [None if v is None else str(v).encode() for v in column.to_pylist()]
    return cast("List[Optional[bytes]]", column.cast(pa.large_binary()).to_pylist())


def read_arrow_records(source: ArrowTable, fail: Callable[[str, int, bytes], Exception],
                       max_rows: Optional[int] = None) -> List[Record]:
    """The table's rows as (query, doc, value, row) records, in order; `fail(table, 0,
    message)` makes the RunInputError of the first faulty row (or of more rows than
    `max_rows`, the qrels' max_qrels_rows)."""
    import pyarrow as pa

    role = source.role
    table = f"{role} table"
    schema, batches = _batches(source, max_rows, fail)
    error = missing_columns_message(role, list(schema.names))
    if error:
        raise ValueError(error)
    names = COLUMNS[role]
    for k, name in enumerate(names):
        fault = _column_fault(pa, schema.field(schema.get_field_index(name)), k < 2)
        if fault:
            raise fail(table, 0, fault.encode())
    records: List[Record] = []
    row = 0
    for index, batch in enumerate(batches):
        for name in names[:2]:
            fault = _offsets_fault(pa, batch.column(name))
            if fault:
                raise fail(table, 0, f"record batch {index} is malformed: {fault}".encode())
        queries = _ids(pa, batch.column(names[0]))
        docs = _ids(pa, batch.column(names[1]))
        values = batch.column(names[2]).to_pylist()
        for query, doc, value in zip(queries, docs, values):
            checked = []
            for what, text in (("the query ID", query), ("the document ID", doc)):
                if text is None:
                    raise fail(table, 0, f"row {row}: {what} is null".encode())
                if not text:
                    raise fail(table, 0, f"row {row}: {what} must not be empty".encode())
                try:
                    text.decode("utf-8")
                except UnicodeDecodeError:
                    raise fail(table, 0, f"row {row}: {what} is not valid UTF-8".encode()) from None
                checked.append(text)
            if value is None:
                raise fail(table, 0, f"row {row}: the value is null".encode())
            number = float(value)
            if not math.isfinite(number):
                raise fail(table, 0, f"row {row}: the value must be a finite number".encode())
            records.append((checked[0], checked[1], number, row))
            row += 1
    return records
