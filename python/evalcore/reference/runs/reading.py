"""Reading evaluate_run's inputs in pure Python, as the native core reads them: TREC qrels
and run files, dicts, columns and Arrow tables become the same groups of (query, document
IDs, values), with the same faults and messages (the twin of cpp/runs/records.* and
cpp/bindings/python_run_reader.cpp; :mod:`evalcore.reference.runs.evaluate` scores them)."""

from __future__ import annotations

import math
import os
import re
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ...errors import RunInputError
from ...runs.result import DEFAULT_MAX_LINE_BYTES, line_too_long
from ...runs.sources import compressed_fault, open_regular
from ...runs.tables import DEFAULT_MAX_STREAM_ROWS, ArrowTable, stream_not_kept
from ..requests._reading import tp_name
from .streams import streaming_stop
from .tables import arrow_batch_records

_SPACES = b" \t\r\x0b\x0c"
_SPLIT = re.compile(rb"[ \t\r\x0b\x0c]+")
_NUMBER = re.compile(rb"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_QRELS_SHAPE = "a qrels line has 4 fields: query iteration document grade"
_RUN_SHAPE = "a run line has at least 6 fields: query Q0 document rank score tag"

# A group: (query ID, doc IDs, values or None) - IDs as UTF-8 bytes, as the native core sees them.
Group = Tuple[bytes, List[bytes], Optional[List[float]]]


def _quoted(text: bytes) -> bytes:
    cut = min(len(text), 60)
    while 0 < cut < len(text) and (text[cut] & 0xC0) == 0x80:
        cut -= 1
    return b"'" + text[:cut] + (b"..." if len(text) > cut else b"") + b"'"


def _fail(source: str, line: int, message: bytes) -> RunInputError:
    return RunInputError(message.decode("utf-8", "replace"), source, line or None)


def _number(text: bytes) -> Optional[float]:
    if _NUMBER.match(text) is None:
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _valid_utf8(text: bytes) -> bool:
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class _Fault:
    """The first faulty line or row: its position and message."""

    def __init__(self) -> None:
        self.position: Optional[int] = None
        self.message = b""

    def consider(self, at: int, message: bytes) -> None:
        if self.position is None or at < self.position:
            self.position, self.message = at, message


def _other_format_hint(qrels: bool, fields: Sequence[bytes]) -> str:
    """What a line with the wrong number of fields looks like when it is one of the other
    format's (the files swapped, or one given twice): a run line in the qrels (6 fields or
    more, rank and score numbers), a qrels line in the run (4, the grade a number)."""
    if qrels and len(fields) >= 6 and _number(fields[3]) is not None and _number(fields[4]) is not None:
        return ("; it looks like a run line (query Q0 document rank score tag): the qrels and run files look "
                "swapped (the qrels come first)")
    if not qrels and len(fields) == 4 and _number(fields[3]) is not None:
        return ("; it looks like a qrels line (query iteration document grade): the qrels and run files look "
                "swapped (the qrels come first), or the qrels were given as the run")
    return ""


def _parse_lines(data: bytes, qrels: bool, fault: _Fault) -> List[Tuple[bytes, bytes, float, int]]:
    """TREC lines → records (query, doc, value, line) up to the first malformed line.
    Blank lines and comments (the first non-blank byte is '#') are skipped but counted:
    line numbers are physical. A qrels line has 4 fields, a run line 6 or more (those
    after the 6th are ignored)."""
    expected = 4 if qrels else 6
    records = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        text = line.strip(_SPACES)
        if not text or text[0] == 0x23:  # blank, or '#': a comment
            continue
        fields = _SPLIT.split(text)
        if len(fields) < expected or (qrels and len(fields) > expected):
            found = "more" if len(fields) > expected else str(len(fields))
            hint = _other_format_hint(qrels, fields)
            fault.consider(number, f"{_QRELS_SHAPE if qrels else _RUN_SHAPE}, found {found}{hint}".encode())
            break
        if not _valid_utf8(fields[0]):
            fault.consider(number, b"the query ID is not valid UTF-8")
            break
        text = fields[3] if qrels else fields[4]
        value = _number(text)
        if value is None:
            fault.consider(number, (b"the grade " if qrels else b"the score ") + _quoted(text) + b" is not a finite number")
            break
        records.append((fields[0], fields[2], value, number))
    return records


def _group(records: Sequence[Tuple[bytes, bytes, float, int]], position_name: str, fault: _Fault) -> List[Group]:
    """Records grouped by query (first appearance), each query's in input order; a document
    listed twice for a query is a fault at the second listing."""
    groups: Dict[bytes, Tuple[List[bytes], List[float], List[int]]] = {}
    for query, doc, value, at in records:
        docs, values, positions = groups.setdefault(query, ([], [], []))
        docs.append(doc)
        values.append(value)
        positions.append(at)
    for query, (docs, _values, positions) in groups.items():
        first: Dict[bytes, int] = {}
        for doc, at in zip(docs, positions):
            if doc in first:
                where = f" (first on {position_name} {first[doc]})".encode()
                fault.consider(at, b"query " + _quoted(query) + b" lists document " + _quoted(doc) + b" twice" + where)
                break
            first[doc] = at
    return [(q, docs, values) for q, (docs, values, _p) in groups.items()]


def _read_bytes(file: Union[str, bytes], max_line_bytes: int, name: str) -> Tuple[bytes, Optional[int]]:
    """The file's bytes up to its first line longer than `max_line_bytes` (not counting
    the newline), and that line's number (None: there is none); nothing after it is read.
    A fault opening or reading it is open()'s OSError, naming `file` as given; a file
    that starts like a compressed one is a RunInputError on line 1 naming `name`."""
    size = min(max_line_bytes, 1 << 62) + 1  # readline's limit: one byte past the bound
    pieces: List[bytes] = []
    with open(file, "rb", opener=open_regular) as handle:
        try:
            number = 0
            while True:
                line = handle.readline(size)
                if not line:
                    return b"".join(pieces), None
                number += 1
                compressed = compressed_fault(line) if number == 1 else None
                if compressed is not None:  # before any line is read, as the native core
                    raise _fail(name, 1, compressed.encode())
                if len(line) - line.endswith(b"\n") > max_line_bytes:
                    return b"".join(pieces), number
                pieces.append(line)
        except OSError as exc:  # a read fault: named like an open fault
            raise OSError(exc.errno, os.strerror(exc.errno) if exc.errno is not None else str(exc), file) from None


def _read_file(file: Union[str, bytes], qrels: bool, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
               name: Optional[str] = None) -> List[Group]:
    path = os.fsdecode(file) if name is None else name  # what messages call it
    data, long_line = _read_bytes(file, max_line_bytes, path)
    fault = _Fault()
    records = _parse_lines(data, qrels, fault)  # up to the first malformed line before the long one
    if long_line is not None:  # a fault like a malformed line; an earlier one wins
        fault.consider(long_line, line_too_long(max_line_bytes).encode())
    groups = _group(records, "line", fault)
    if fault.position is not None:
        raise _fail(path, fault.position, fault.message)
    return groups


#: The range of an integer ID: a 64-bit integer, signed or not, as an Arrow integer column holds.
_INTEGER_ID_RANGE = range(-(1 << 63), 1 << 64)


def _id(value: Any, source: str, where: str) -> bytes:
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__index__(value)  # a subclass by its stored value: none of its methods run
        if number not in _INTEGER_ID_RANGE:
            raise _fail(source, 0, f"{where} is an integer outside the 64-bit range".encode())
        return b"%d" % number  # its decimal text, as an integer column's cell
    if not isinstance(value, str):
        raise _fail(source, 0, f"{where} must be a str or an int, got {tp_name(value)}".encode())
    try:
        data = str.encode(value, "utf-8")  # a subclass by its text: none of its methods run
    except UnicodeEncodeError:
        raise _fail(source, 0, f"{where} is not valid Unicode (it holds a lone surrogate)".encode()) from None
    if not data:
        raise _fail(source, 0, f"{where} must not be empty".encode())
    return data


def _value(value: Any, source: str, where: bytes) -> float:
    if isinstance(value, bool):
        raise _fail(source, 0, where + b" must be a number, got bool")
    try:
        if isinstance(value, float):
            number = float.__float__(value)  # a subclass by its stored value, as the native core
        elif isinstance(value, int):
            number = float(int.__index__(value))  # OverflowError past binary64, as PyLong_AsDouble
        elif hasattr(type(value), "__float__") or hasattr(type(value), "__index__"):
            number = float(value)
        else:
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise _fail(source, 0, where + f" must be a number, got {tp_name(value)}".encode()) from None
    if not math.isfinite(number):
        raise _fail(source, 0, where + b" must be a finite number")
    return number


def _entries(mapping: Dict[Any, Any]) -> List[Any]:
    """A mapping's entries, taken once: an exact dict's own, any other's through items()
    (each must then be a (key, value) tuple, which :func:`_pair` checks as it is read)."""
    return list(dict.items(mapping)) if type(mapping) is dict else list(mapping.items())


def _pair(entry: Any, mapping: Any, source: str, where: bytes) -> Tuple[Any, Any]:
    if not isinstance(entry, tuple) or tuple.__len__(entry) != 2:
        raise _fail(source, 0, where + f"the items() of a {tp_name(mapping)} must give (key, value) tuples".encode())
    return tuple.__getitem__(entry, 0), tuple.__getitem__(entry, 1)


def _stored_items(sequence: Any) -> List[Any]:
    """A list's or tuple's stored items (a subclass's methods are not called)."""
    if isinstance(sequence, list):
        return list.copy(sequence)
    return [tuple.__getitem__(sequence, i) for i in range(tuple.__len__(sequence))]


def _read_dict(data: Dict[Any, Any], source: str, is_run: bool) -> List[Group]:
    groups: List[Group] = []
    lists: Optional[bool] = None
    queries_seen: Dict[bytes, int] = {}
    for position, entry in enumerate(_entries(data)):
        query, entries = _pair(entry, data, source, b"")
        query_id = _id(query, source, "a query ID")
        where = b"query " + _quoted(query_id)
        if query_id in queries_seen:  # two keys of one text (str subclasses)
            raise _fail(source, 0, where + f" is given twice (entries {queries_seen[query_id]} and {position})".encode())
        queries_seen[query_id] = position
        is_list = isinstance(entries, (list, tuple))
        if not isinstance(entries, dict) and not (is_run and is_list):
            shape = " must map to a dict {doc: score} or a list of doc IDs, got " if is_run else " must map to a dict {doc: grade}, got "
            raise _fail(source, 0, where + f"{shape}{tp_name(entries)}".encode())
        if is_run:
            if lists is not None and lists != is_list:
                given = "a list" if is_list else "a dict"
                earlier = "{doc: score} dicts" if is_list else "ranked lists"
                raise _fail(source, 0, where + f" gives {given} but earlier queries give {earlier}; use one form for the whole run".encode())
            lists = is_list
        docs: List[bytes] = []
        if is_list:
            first: Dict[bytes, int] = {}
            for i, doc in enumerate(_stored_items(entries)):
                doc_id = _id(doc, source, (where + b": a document ID").decode())
                if doc_id in first:
                    raise _fail(source, 0, where + b" lists document " + _quoted(doc_id) + f" twice (positions {first[doc_id]} and {i})".encode())
                first[doc_id] = i
                docs.append(doc_id)
            groups.append((query_id, docs, None))
        else:
            values: List[float] = []
            seen: Dict[bytes, int] = {}
            for i, doc_entry in enumerate(_entries(entries)):
                doc, value = _pair(doc_entry, entries, source, where + b": ")
                doc_id = _id(doc, source, (where + b": a document ID").decode())
                if doc_id in seen:
                    raise _fail(source, 0, where + b" has document " + _quoted(doc_id) + f" twice (entries {seen[doc_id]} and {i})".encode())
                seen[doc_id] = i
                docs.append(doc_id)
                what = b": the score of document " if is_run else b": the grade of document "
                values.append(_value(value, source, where + what + _quoted(doc_id)))
            groups.append((query_id, docs, values))
    return groups


def _read_columns(columns: Tuple[List[Any], List[Any], np.ndarray, Tuple[str, str, str]], source: str) -> List[Group]:
    table = f"{source} table"
    queries, docs, values, names = columns
    notes = [f" (column '{name}')" for name in names]  # the table's names, as the Arrow reader gives them
    records = []
    for i, (query, doc, value) in enumerate(zip(queries, docs, values.tolist())):
        row = f"row {i}"
        records.append((_id(query, table, f"{row}: the query ID{notes[0]}"),
                        _id(doc, table, f"{row}: the document ID{notes[1]}"), value, i))
        if not math.isfinite(value):
            raise _fail(table, 0, f"{row}: the value must be a finite number{notes[2]}".encode())
    return group_rows(records, table)


def group_rows(records: List[Tuple[bytes, bytes, float, int]], table: str) -> List[Group]:
    fault = _Fault()
    groups = _group(records, "row", fault)
    if fault.position is not None:
        raise _fail(table, 0, f"row {fault.position}: ".encode() + fault.message)
    return groups


def batch_groups(records: List[Tuple[bytes, bytes, float, int]]) -> Tuple[List[bytes], Optional[bytes]]:
    """The queries of one streamed batch's rows, in order, and their first fault (streams.Grouping)."""
    fault = _Fault()
    order = [query for query, _docs, _values in _group(records, "row", fault)]
    return order, None if fault.position is None else f"row {fault.position}: ".encode() + fault.message


def _read_arrow(source: ArrowTable, max_stream_rows: int, max_qrels_rows: Optional[int]) -> List[Group]:
    """A table whole; a run stream read once and longer than it keeps (max_stream_rows) as
    the native core scores it, batch by batch: its error is what that walk finds first. A
    qrels table holds at most `max_qrels_rows` rows (a stream may never end)."""
    table = f"{source.role} table"
    rows, batches = arrow_batch_records(source, _fail, max_qrels_rows if source.role == "qrels" else None)
    if source.role != "run" or not source.one_shot or rows <= max_stream_rows:
        return group_rows([record for batch in batches for record in batch], table)
    read: List[List[Tuple[bytes, bytes, float, int]]] = []

    def walked() -> Iterator[List[Tuple[bytes, bytes, float, int]]]:
        for batch in batches:
            read.append(batch)
            yield batch

    stop = streaming_stop(walked(), batch_groups, _quoted)
    if stop is not None:
        message, fault = stop
        raise _fail(table, 0, message + (b"" if fault else stream_not_kept(max_stream_rows).encode()))
    return group_rows([record for batch in read for record in batch], table)


def _read(source: Any, role: str, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, name: Optional[str] = None, *,
          max_stream_rows: int = DEFAULT_MAX_STREAM_ROWS, max_qrels_rows: Optional[int] = None) -> List[Group]:
    if isinstance(source, dict):
        return _read_dict(source, role, role == "run")
    if isinstance(source, ArrowTable):
        return _read_arrow(source, max_stream_rows, max_qrels_rows)
    if isinstance(source, tuple):
        return _read_columns(source, role)
    from ...runs.iterables import RecordIterable
    if isinstance(source, RecordIterable):
        from .iterables import read_record_iterable  # (it reads rows with this module's helpers)

        return read_record_iterable(source)
    return _read_file(source, role == "qrels", max_line_bytes, name)
