"""The reference's reading of Arrow tables (the twin of cpp/runs/arrow_records.cpp): the
same columns, checks, messages and row numbers, through pyarrow's Python API (which it
needs for Arrow data; the native core reads the buffers itself)."""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator, List, Optional, Tuple, cast

from ...runs.tables import (ArrowTable, ambiguous_columns_message, column_note, missing_columns_message,
                            too_many_rows)

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


def _storage_type(pa: Any, kind: Any) -> Any:
    """An extension type's storage (json, opaque, ...: the C interface passes the storage's
    format, and the native core reads that), else the type itself."""
    while isinstance(kind, pa.BaseExtensionType):
        kind = kind.storage_type
    return kind


def _column_fault(pa: Any, name: str, kind: Any, is_id: bool) -> Optional[str]:
    kind = _storage_type(pa, kind)
    if pa.types.is_dictionary(kind):
        values = str(_storage_type(pa, kind.value_type))
        ok = is_id and str(kind.index_type) in _INTEGERS and values in _STRINGS | _INTEGERS
        return None if ok else _unsupported(name, "dictionary", is_id)
    allowed = _STRINGS | _INTEGERS if is_id else _INTEGERS | _FLOATS
    return None if str(kind) in allowed else _unsupported(name, str(kind), is_id)


def _bounded(batches: Any, max_rows: Optional[int], fail: Callable[[str, int, bytes], Exception], table: str) -> List[Any]:
    """The batches, until their rows pass `max_rows` (the qrels' max_qrels_rows: a stream
    may never end), which is `fail`'s RunInputError at the batch that passes it."""
    taken: List[Any] = []
    rows = 0
    for batch in batches:
        rows += len(batch)
        if max_rows is not None and rows > max_rows:
            raise fail(table, 0, too_many_rows(max_rows, "max_qrels_rows").encode())
        taken.append(batch)
    return taken


def _struct_arrays(source: ArrowTable, max_rows: Optional[int],
                   fail: Callable[[str, int, bytes], Exception]) -> Tuple[Any, List[Any]]:
    """The table's type and its batches as struct arrays, as the C interface hands them
    over (a batch may be sliced, or have null rows, which a RecordBatch cannot); a stream
    bounded by `max_rows` (the qrels') is read batch by batch, to stop where it passes it."""
    import pyarrow as pa

    table = source.stream()
    name = f"{source.role} table"
    if hasattr(table, "__arrow_c_stream__"):
        if max_rows is not None and not isinstance(table, (pa.Table, pa.ChunkedArray)):
            # (read lazily: an endless stream stops at the bound, as the native core does)
            reader = pa.RecordBatchReader.from_stream(table)
            batches = _bounded(reader, max_rows, fail, name)
            return pa.struct(list(reader.schema)), [batch.to_struct_array() for batch in batches]
        chunked = pa.chunked_array(table)
        return chunked.type, _bounded(chunked.chunks, max_rows, fail, name)
    array = pa.array(table)
    return array.type, _bounded([array], max_rows, fail, name)


def _storage(pa: Any, column: Any) -> Any:
    while isinstance(column.type, pa.BaseExtensionType):
        column = column.storage
    return column


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
    column = _storage(pa, column)
    if pa.types.is_dictionary(column.type):  # decoded by hand: no kernel for every value type
        values = _ids(pa, column.dictionary)
        return [None if i is None else values[i] for i in column.indices.to_pylist()]
    if pa.types.is_integer(column.type):
        return [None if v is None else str(v).encode() for v in column.to_pylist()]
    if pa.types.is_string_view(column.type):
        column = column.view(pa.binary_view())  # the same views, as bytes
    else:
        column = column.cast(pa.large_binary())
    return cast("List[Optional[bytes]]", column.to_pylist())


def _check_schema(pa: Any, kind: Any, role: str, needed: Tuple[str, str, str],
                  fail: Callable[[str, int, bytes], Exception]) -> List[int]:
    """The positions of the needed columns in a struct type; its faults raised as the
    native core raises them (ambiguous, missing, then unsupported types)."""
    table = f"{role} table"
    if not pa.types.is_struct(kind):
        raise fail(table, 0, b"an Arrow table or record batch must be a struct of columns")
    # Names as the consumer of the C interface sees them: up to a NUL.
    names = [kind.field(i).name.split("\0", 1)[0] for i in range(kind.num_fields)]
    error = ambiguous_columns_message(role, names, needed)
    if error:
        raise fail(table, 0, error.encode())
    error = missing_columns_message(role, names, needed)
    if error:
        raise ValueError(error)
    positions = [names.index(name) for name in needed]
    for k, (name, at) in enumerate(zip(needed, positions)):
        fault = _column_fault(pa, name, kind.field(at).type, k < 2)
        if fault:
            raise fail(table, 0, fault.encode())
    return positions


def arrow_batch_records(source: ArrowTable, fail: Callable[[str, int, bytes], Exception],
                        max_rows: Optional[int] = None) -> Tuple[int, Iterator[List[Record]]]:
    """The table's rows as (query, doc, value, row) records, batch by batch: (how many rows
    there are, the records of each batch in turn, a batch's first faulty row raised as
    `fail(table, 0, message)` when it comes; more rows than `max_rows`, the qrels'
    max_qrels_rows, raised as the batch past it is taken)."""
    import pyarrow as pa

    kind, arrays = _struct_arrays(source, max_rows, fail)
    positions = _check_schema(pa, kind, source.role, source.names, fail)
    return sum(len(a) for a in arrays), _records(pa, arrays, positions, source.names, f"{source.role} table", fail)


def _records(pa: Any, arrays: List[Any], positions: List[int], names: Tuple[str, str, str], table: str,
             fail: Callable[[str, int, bytes], Exception]) -> Iterator[List[Record]]:
    row = 0
    for index, array in enumerate(arrays):
        columns = array.flatten()  # the children as the batch sees them (its offset applied)
        for at in positions[:2]:
            fault = _offsets_fault(pa, _storage(pa, columns[at]))
            if fault:
                raise fail(table, 0, f"record batch {index} is malformed: {fault}".encode())
        if array.null_count:
            first = array.is_valid().to_pylist().index(False)
            raise fail(table, 0, f"row {row + first} is null".encode())
        queries = _ids(pa, columns[positions[0]])
        docs = _ids(pa, columns[positions[1]])
        values = _storage(pa, columns[positions[2]]).to_pylist()
        records: List[Record] = []
        for query, doc, value in zip(queries, docs, values):
            checked = []
            for what, text, name in (("the query ID", query, names[0]), ("the document ID", doc, names[1])):
                if text is None:
                    raise fail(table, 0, f"row {row}: {what} is null{column_note(name)}".encode())
                if not text:
                    raise fail(table, 0, f"row {row}: {what} must not be empty".encode())
                try:
                    text.decode("utf-8")
                except UnicodeDecodeError:
                    raise fail(table, 0, f"row {row}: {what} is not valid UTF-8".encode()) from None
                checked.append(text)
            if value is None:
                raise fail(table, 0, f"row {row}: the value is null{column_note(names[2])}".encode())
            number = float(value)
            if not math.isfinite(number):
                raise fail(table, 0, f"row {row}: the value must be a finite number{column_note(names[2])}".encode())
            records.append((checked[0], checked[1], number, row))
            row += 1
        yield records

