"""Arrow data as a hostile or failing producer hands it over (issue 21, items 5, 7, 11): a
stream taken out of its capsule is released whatever fails after that; an interrupt raised
by a producer reaches the caller as itself, and an endless qrels stream is cut at its bound,
in both cores; structs that break the C data interface's rules are a RunInputError, never
a read out of bounds."""

from __future__ import annotations

import gc
import inspect
import re
import weakref

import pytest

pa = pytest.importorskip("pyarrow")

from arrow_c_structs import AlteredBatch, FailingStream, child  # noqa: E402
from common import run_all  # noqa: E402

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402

CORES = {"native": evalcore, "reference": evalcore.reference}
QRELS = {"q1": {"a": 1}, "q2": {"b": 1}}
MALFORMED = "run table: record batch 0 is malformed: "


def run_batch(score=pa.array([1.0, 2.0]), doc=pa.array(["a", "b"]), **columns) -> pa.RecordBatch:
    return pa.record_batch({"query_id": pa.array(["q1", "q1"]), "doc_id": doc, "score": score, **columns})


class Batches:
    """An iterable of batches whose lifetime a test can see (a weak reference to it), and how
    many batches were taken from it; `then` is raised after the last batch, if given."""

    def __init__(self, batches, then=None):
        self._batches, self._then = list(batches), then
        self.taken = 0

    def __iter__(self):
        for batch in self._batches:
            self.taken += 1
            yield batch
        if self._then is not None:
            raise self._then


def watched_reader(batches, schema=None, then=None):
    """A RecordBatchReader over `batches` and a weak reference to what it holds: dead once
    the reader (or the stream taken out of its capsule) is released."""
    source = Batches(batches, then)
    reader = pa.RecordBatchReader.from_batches(schema or batches[0].schema, iter(source))
    return reader, weakref.ref(source)


# ---- item 5: a stream taken out of its capsule is released when reading it fails ----

LEAKS = {
    "score of type string": (run_batch(score=pa.array(["1", "2"])), "run table: the score column has type string"),
    "doc_id missing": (pa.record_batch({"query_id": ["q1"], "doc": ["a"], "score": [1.0]}),
                       "run table lacks the column(s) doc_id"),
}


@pytest.mark.parametrize("case", sorted(LEAKS))
@pytest.mark.parametrize("core", sorted(CORES))
def test_a_stream_is_released_when_its_schema_is_refused(core, case):
    batch, message = LEAKS[case]
    reader, alive = watched_reader([batch])
    with pytest.raises((evalcore.RunInputError, ValueError), match=re.escape(message)):
        CORES[core].evaluate_run(QRELS, reader, ["P@1"])
    del reader
    gc.collect()
    assert alive() is None, "the stream (and the batches its producer holds) was never released"


def test_a_stream_whose_get_schema_fails_is_released():
    stream = FailingStream()
    with pytest.raises(evalcore.RunInputError, match=r"run table: the Arrow stream failed: no schema here"):
        evalcore.evaluate_run(QRELS, stream, ["P@1"])
    assert stream.released
    qrels = FailingStream()
    with pytest.raises(evalcore.RunInputError, match=r"qrels table: the Arrow stream failed: no schema here"):
        evalcore.evaluate_run(qrels, {"q1": {"a": 1.0}}, ["P@1"])
    assert qrels.released


# ---- item 7: a producer's interrupt is raised as itself; an endless qrels stream is cut ----

@pytest.mark.parametrize("interrupt", [KeyboardInterrupt("Ctrl-C in the producer"), SystemExit(3)],
                         ids=["KeyboardInterrupt", "SystemExit"])
@pytest.mark.parametrize("role", ["run", "qrels"])
@pytest.mark.parametrize("core", sorted(CORES))
def test_an_interrupt_in_a_generator_of_batches_is_raised_as_itself(core, role, interrupt):
    batch = run_batch() if role == "run" else pa.record_batch({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]})
    reader, _ = watched_reader([batch], then=interrupt)
    qrels, run = (QRELS, reader) if role == "run" else (reader, {"q1": {"a": 1.0}})
    with pytest.raises(type(interrupt)) as raised:
        CORES[core].evaluate_run(qrels, run, ["P@1"])
    assert raised.value is interrupt  # not a RunInputError (a ValueError) nor pyarrow's error


@pytest.mark.parametrize("core", sorted(CORES))
def test_an_interrupt_while_a_parquet_row_group_is_read_is_raised_as_itself(core, tmp_path, monkeypatch):
    parquet = pytest.importorskip("pyarrow.parquet")
    rows = pa.table({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]})
    parquet.write_table(rows, tmp_path / "run.parquet", row_group_size=1)
    interrupt, read = KeyboardInterrupt("Ctrl-C while row group 1 is read"), parquet.ParquetFile.read_row_group

    def read_row_group(self, group, *args, **kwargs):
        if group == 1:
            raise interrupt
        return read(self, group, *args, **kwargs)

    monkeypatch.setattr(parquet.ParquetFile, "read_row_group", read_row_group)
    with pytest.raises(KeyboardInterrupt) as raised:
        CORES[core].evaluate_run(QRELS, str(tmp_path / "run.parquet"), ["P@1"])
    assert raised.value is interrupt


def endless_qrels(rows_per_batch: int):
    """A qrels stream that never ends (a generator that stops the test if read far past the bound)."""
    batch = pa.record_batch({"query_id": pa.array(["q1"] * rows_per_batch),
                             "doc_id": pa.array([f"d{i}" for i in range(rows_per_batch)]),
                             "relevance": pa.array([1] * rows_per_batch)})
    source = Batches([batch] * 10_000, then=AssertionError("the qrels stream was read far past max_qrels_rows"))
    return pa.RecordBatchReader.from_batches(batch.schema, iter(source)), source


def test_an_endless_qrels_stream_is_cut_at_max_qrels_rows_in_both_cores():
    taken = {}
    for core in sorted(CORES):
        reader, source = endless_qrels(7)
        with pytest.raises(evalcore.RunInputError) as raised:
            CORES[core].evaluate_run(reader, {"q1": {"d1": 1.0}}, ["P@1"], max_qrels_rows=100)
        assert str(raised.value) == ("qrels table: more than 100 rows (the max_qrels_rows limit); "
                                     "raise it with max_qrels_rows=N")
        taken[core] = source.taken
    assert taken == {"native": 15, "reference": 15}  # 15 batches of 7 rows pass 100: no batch read after


def test_max_qrels_rows_bounds_tables_and_parquet_not_dicts(tmp_path):
    parquet = pytest.importorskip("pyarrow.parquet")
    qrels = pa.table({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"], "relevance": [1, 0, 1]})
    parquet.write_table(qrels, tmp_path / "qrels.parquet")
    run = {"q1": {"a": 1.0}}
    for source in (qrels, str(tmp_path / "qrels.parquet")):
        outcome = run_all("evaluate_run", source, run, ["P@1"], max_qrels_rows=2)
        assert outcome[1][:2] == ("RunInputError", "qrels table: more than 2 rows (the max_qrels_rows limit); "
                                                   "raise it with max_qrels_rows=N"), outcome
        assert run_all("evaluate_run", source, run, ["P@1"], max_qrels_rows=3)[0] == "ok"
    assert run_all("evaluate_run", {"q1": {"a": 1, "b": 0, "c": 1}}, run, ["P@1"], max_qrels_rows=1)[0] == "ok"
    for bad in (0, -1, 1.5, True):
        outcome = run_all("evaluate_run", qrels, run, ["P@1"], max_qrels_rows=bad)
        assert outcome[1][:2] == ("ValueError", f"max_qrels_rows must be a positive int, got {bad!r}"), outcome
    assert inspect.signature(evalcore.evaluate_run) == inspect.signature(evalcore.reference.evaluate_run)


# ---- item 11: what the C data interface lets a consumer check is checked before reading ----

def run_with_doc_offsets(kind, offsets, valid=(1, 1)):
    """A run table of two rows whose doc_id strings lie in b"hello" at these offsets: built
    with valid ones (pyarrow checks the first and last as it builds an array or a table),
    then overwritten in place."""
    width = 4 if kind == pa.string() else 8
    memory = bytearray(len(offsets) * width)
    bits = pa.py_buffer(bytes([valid[0] | valid[1] << 1]))
    docs = pa.Array.from_buffers(kind, 2, [bits, pa.py_buffer(memory), pa.py_buffer(b"hello")])
    run = pa.table({"query_id": ["q1", "q1"], "doc_id": docs, "score": [1.0, 2.0]})
    memory[:] = b"".join(v.to_bytes(width, "little", signed=True) for v in offsets)
    return run


# Offsets that break the format (the reference's pyarrow made a SystemError of some), also
# where a null hides them: refused before a row is read, the same way in both cores.
BAD_OFFSETS = {
    "decreasing": (pa.string(), (0, 5, 1), (1, 1), "a string's offsets are out of order"),
    "negative first": (pa.string(), (-4, 0, 1), (1, 1), "a string column's first offset is negative"),
    "decreasing under a null": (pa.string(), (0, 1, 0), (1, 0), "a string's offsets are out of order"),
    "large_string decreasing": (pa.large_string(), (0, 5, 1), (1, 1), "a string's offsets are out of order"),
    "large_string negative first under a null": (pa.large_string(), (-1, 0, 1), (0, 1),
                                                 "a string column's first offset is negative"),
}


@pytest.mark.parametrize("case", sorted(BAD_OFFSETS))
def test_offsets_out_of_order_anywhere_in_the_rows_read_are_refused_in_both_cores(case):
    kind, offsets, valid, why = BAD_OFFSETS[case]
    outcome = run_all("evaluate_run", QRELS, run_with_doc_offsets(kind, offsets, valid), ["P@1"])
    assert outcome[1][:2] == ("RunInputError", MALFORMED + why), outcome


def refused(alter, why: str, batch=None):
    """The native core refuses the batch altered by `alter` with `why`, and releases it."""
    altered = AlteredBatch(batch if batch is not None else run_batch(), alter)
    with pytest.raises(evalcore.RunInputError) as raised:
        evalcore.evaluate_run(QRELS, altered, ["P@1"])
    assert str(raised.value) == why
    assert altered.released == 2


def test_the_unaltered_export_is_read():
    altered = AlteredBatch(run_batch(), lambda a: None)
    assert evalcore.evaluate_run(QRELS, altered, ["P@1"]).mean == {"P@1": 0.0} and altered.released == 2


def test_a_schema_claiming_2_to_the_40_columns_is_refused_before_one_is_read():
    refused(lambda a: a.set(a.schema, "n_children", 1 << 40),
            "run table: the Arrow schema is malformed: it claims 1099511627776 columns (at most 1048576 are read)")


def test_a_column_type_claiming_children_is_refused():
    refused(lambda a: a.set(child(a.schema, 1), "n_children", 2),
            "run table: the Arrow schema is malformed: the doc_id column's type has no children, yet it claims 2")


STRUCT_FAULTS = {
    "more children than the schema": (lambda a: a.set(a.array, "n_children", 4), "the batch has 4 columns, its schema 3"),
    "two buffers": (lambda a: a.set(a.array, "n_buffers", 2), "the batch (a struct) has 2 buffers, not 1"),
    "null count past the length": (lambda a: a.set(a.array, "null_count", 3),
                                   "the batch has a null count outside -1 to its length"),
    "offset past 2^56": (lambda a: a.set(a.array, "offset", 1 << 62),
                         "the batch has a length or offset below 0 or above 2^56"),
    "column offset past 2^56": (lambda a: a.set(child(a.array, 0), "offset", 1 << 62),
                                "a column has a length or offset below 0 or above 2^56"),
    "column with children": (lambda a: (a.set(child(a.array, 2), "n_children", 1),
                                        a.set(child(a.array, 2), "children", a.array.children)),
                             "a column of strings or numbers has children"),
    "column with a dictionary its schema lacks": (
        lambda a: a.set(child(a.array, 1), "dictionary", a.array.children[0]),
        "a column has a dictionary its schema does not declare"),
    "string column with 2 buffers": (lambda a: a.set(child(a.array, 0), "n_buffers", 2), "a column has 2 buffers, not 3"),
}


@pytest.mark.parametrize("case", sorted(STRUCT_FAULTS))
def test_a_batch_is_checked_against_its_schema_and_format(case):
    alter, why = STRUCT_FAULTS[case]
    refused(alter, MALFORMED + why)


def test_a_string_view_column_claiming_2_to_the_40_buffers_is_refused():
    views = run_batch(doc=pa.array(["a document ID past 12 bytes", "b"], pa.string_view()))
    refused(lambda a: a.set(child(a.array, 1), "n_buffers", 1 << 40),
            MALFORMED + "a string_view column has more data buffers than an int32 can index", views)


def test_a_failing_reader_is_named_by_its_message_without_a_python_traceback():
    """A reader's batches are iterated in Python (to keep an interrupt): the failure of a
    reader pyarrow implements, or of a generator, is its message, not pyarrow's traceback."""
    run = pa.table({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]})
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, run.schema) as writer:
        for batch in run.to_batches(max_chunksize=1):
            writer.write_batch(batch)
    truncated = sink.getvalue().to_pybytes()[:-200]
    with pytest.raises(evalcore.RunInputError) as raised:
        evalcore.evaluate_run(QRELS, pa.ipc.open_stream(truncated), ["P@1"])
    assert str(raised.value).startswith("run table: the Arrow stream failed: Invalid: ") and "Detail" not in str(raised.value)
    reader, _ = watched_reader([run_batch()], then=ValueError("no more batches today"))
    with pytest.raises(evalcore.RunInputError) as raised:
        evalcore.evaluate_run(QRELS, reader, ["P@1"])
    assert str(raised.value) == "run table: the Arrow stream failed: Invalid: no more batches today"
