"""evaluate_run on Arrow data (the PyCapsule interface): every ID and value type the cores
read, chunked and shuffled tables, generic producers, and every fault — the native core
(reading the buffers) and the reference (reading through pyarrow) agree exactly, and a table
gives what the same data as dicts gives."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

from common import expect_result, run_all  # noqa: E402
from evalcore.testing import MEASURES, run_options, runs  # noqa: E402

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402

ID_TYPES = {
    "string": pa.string(),
    "large_string": pa.large_string(),
    "string_view": pa.string_view(),
    "dictionary": pa.dictionary(pa.int32(), pa.string()),
    "dictionary8": pa.dictionary(pa.int8(), pa.large_string()),
}


def rows_of(source: dict) -> list:
    return [(q, d, v) for q, entries in source.items() for d, v in entries.items()]


def table(rows: list, value_name: str, id_type=pa.string(), value_type=pa.float64(), chunk=None):
    plain = pa.table({
        "query_id": pa.array([r[0] for r in rows], pa.string()),
        "doc_id": pa.array([r[1] for r in rows], pa.string()),
        value_name: pa.array([r[2] for r in rows], pa.float64()),
    })
    typed = plain.cast(pa.schema([("query_id", id_type), ("doc_id", id_type), (value_name, value_type)]))
    if chunk:
        typed = pa.Table.from_batches(typed.to_batches(max_chunksize=chunk), typed.schema)
    return typed


def by_query(result) -> dict:
    return {q: [result.values(m)[i] for m in result.measures] for i, q in enumerate(result.query_ids)}


def same_values(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        all((x == y) or (math.isnan(x) and math.isnan(y)) for x, y in zip(a[q], b[q])) for q in a)


@given(data=runs(ranked_lists=False), options=run_options(), measures=st.lists(st.sampled_from(MEASURES),
       min_size=1, max_size=4, unique=True), id_type=st.sampled_from(sorted(ID_TYPES)), chunk=st.sampled_from([None, 1, 3]),
       shuffle=st.one_of(st.none(), st.integers(0, 2**32)))
def test_tables_agree_between_cores_and_with_dicts(data, options, measures, id_type, chunk, shuffle):
    qrels = {q: e for q, e in data["qrels"].items() if e}
    run = {q: e for q, e in data["run"].items() if e}  # a table cannot hold a query without rows
    qrows, rrows = rows_of(qrels), rows_of(run)
    if shuffle is not None:
        random.Random(shuffle).shuffle(rrows)
        random.Random(shuffle + 1).shuffle(qrows)
    kind = ID_TYPES[id_type]
    qtable = table(qrows, "relevance", kind, chunk=chunk)
    rtable = table(rrows, "score", kind, chunk=chunk)
    outcome = run_all("evaluate_run", qtable, rtable, measures, **options)
    expected = run_all("evaluate_run", qrels, run, measures, **options)
    assert outcome[0] == expected[0] == "ok"
    got, want = outcome[1], expected[1]
    if shuffle is None:
        assert got == want  # the same order of rows: the very same result
    elif options.get("ties") != "input":  # rank order from scores: the order of rows cannot matter
        assert got.mean == want.mean and got.defined_counts == want.defined_counts
        assert same_values(by_query(got), by_query(want))


@given(data=runs(ranked_lists=False, grades=("integer",)), value_type=st.sampled_from(
    [pa.int8(), pa.uint8(), pa.int16(), pa.int32(), pa.uint32(), pa.int64(), pa.uint64(), pa.float32()]))
def test_integer_and_narrow_value_columns(data, value_type):
    qrels = {q: e for q, e in data["qrels"].items() if e}
    qtable = table(rows_of(qrels), "relevance", value_type=value_type)
    rtable = table([(q, d, 1.0 + i) for i, (q, d, _) in enumerate(rows_of({q: e for q, e in data["run"].items() if e}))],
                   "score", value_type=pa.float32())
    run_all("evaluate_run", qtable, rtable, ["nDCG@5", "AP", "P@2"])


def test_integer_ids_are_their_decimal_text():
    qrels = pa.table({"query_id": pa.array([7, 7, -3], pa.int64()), "doc_id": pa.array([1, 2, 1], pa.uint16()),
                      "relevance": [1, 0, 2]})
    run = pa.table({"query_id": pa.array([7, 7, -3], pa.int8()), "doc_id": pa.array([2, 1, 1], pa.uint64()),
                    "score": [2.0, 1.0, 0.5]})
    outcome = run_all("evaluate_run", qrels, run, ["P@1", "AP"])
    text = evalcore.evaluate_run({"7": {"1": 1, "2": 0}, "-3": {"1": 2}}, {"7": {"2": 2.0, "1": 1.0}, "-3": {"1": 0.5}},
                                 ["P@1", "AP"])
    assert outcome[1] == text and outcome[1].query_ids == ["7", "-3"]


class StreamOnly:
    """A producer that speaks only __arrow_c_stream__ (as polars and DuckDB do)."""

    def __init__(self, table):
        self._table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


class ArrayOnly:
    """A producer that speaks only __arrow_c_array__ (one record batch)."""

    def __init__(self, batch):
        self._batch = batch

    def __arrow_c_array__(self, requested_schema=None):
        return self._batch.__arrow_c_array__(requested_schema)


def test_generic_producers_and_extra_columns():
    qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}}
    run = {"q1": {"b": 3.0, "a": 2.0, "c": 1.0}, "q2": {"y": 1.0, "x": 0.5}}
    rrows = rows_of(run)
    rtable = table(rrows, "score").append_column("tag", pa.array(["t"] * len(rrows)))
    qtable = table(rows_of(qrels), "relevance")
    want = evalcore.evaluate_run(qrels, run, ["nDCG@3", "RR"])
    for source in (StreamOnly(rtable), ArrayOnly(rtable.combine_chunks().to_batches()[0]), rtable.to_batches()[0],
                   rtable.to_pandas()):
        assert run_all("evaluate_run", StreamOnly(qtable), source, ["nDCG@3", "RR"])[1] == want
    # A RecordBatchReader can be read once: each core gets its own.
    for module in (evalcore, evalcore.reference):
        reader = pa.RecordBatchReader.from_batches(rtable.schema, rtable.to_batches())
        assert module.evaluate_run(qtable, reader, ["nDCG@3", "RR"]) == want


def bad_run(column: str, array):
    columns = {"query_id": pa.array(["q", "q"]), "doc_id": pa.array(["a", "b"]), "score": pa.array([1.0, 2.0])}
    columns[column] = array
    return pa.table(columns)


def invalid_utf8():
    data = pa.py_buffer(b"a\xffb")
    return pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(b"\x00\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00"),
                                                  data])


BAD_RUNS = [
    (bad_run("query_id", pa.array([1.5, 2.5])),
     "run table: the query_id column has type double; an ID column must hold strings (string, large_string, "
     "string_view, or a dictionary of them) or integers"),
    (bad_run("doc_id", pa.array([b"a", b"b"])),
     "run table: the doc_id column has type binary; an ID column must hold strings (string, large_string, "
     "string_view, or a dictionary of them) or integers"),
    (bad_run("doc_id", pa.array([None, None], pa.null())),
     "run table: the doc_id column has type null; an ID column must hold strings (string, large_string, "
     "string_view, or a dictionary of them) or integers"),
    (bad_run("score", pa.array(["1", "2"])),
     "run table: the score column has type string; a value column must hold integers or floating-point numbers "
     "(int8 to uint64, float, double)"),
    (bad_run("score", pa.array([1, 2], pa.timestamp("s"))),
     "run table: the score column has an unsupported type; a value column must hold integers or floating-point "
     "numbers (int8 to uint64, float, double)"),
    (bad_run("score", pa.array([1.0, 2.0]).dictionary_encode()),
     "run table: the score column has type dictionary; a value column must hold integers or floating-point numbers "
     "(int8 to uint64, float, double)"),
    (bad_run("query_id", pa.array(["q", None])), "run table: row 1: the query ID is null (column 'query_id')"),
    (bad_run("doc_id", pa.array(["a", None]).dictionary_encode()), "run table: row 1: the document ID is null (column 'doc_id')"),
    (bad_run("doc_id", pa.array(["a", ""])), "run table: row 1: the document ID must not be empty"),
    (bad_run("query_id", invalid_utf8()), "run table: row 1: the query ID is not valid UTF-8"),
    (bad_run("score", pa.array([1.0, None])), "run table: row 1: the value is null (column 'score')"),
    (bad_run("score", pa.array([math.inf, 1.0])), "run table: row 0: the value must be a finite number (column 'score')"),
    (bad_run("doc_id", pa.array(["a", "a"])), "run table: row 1: query 'q' lists document 'a' twice (first on row 0)"),
]


@pytest.mark.parametrize("run, message", BAD_RUNS, ids=[m.split(": ", 1)[1][:40] for _, m in BAD_RUNS])
def test_faults_name_the_column_or_row_in_both_cores(run, message):
    outcome = run_all("evaluate_run", {"q": {"a": 1}}, run, ["P@1"])
    assert outcome[0] == "error" and outcome[1][:2] == ("RunInputError", message), outcome


def test_a_missing_column_is_a_value_error_naming_it():
    run = pa.table({"query_id": ["q"], "doc": ["a"], "score": [1.0]})
    for source in (run, StreamOnly(run)):
        outcome = run_all("evaluate_run", {"q": {"a": 1}}, source, ["P@1"])
        assert outcome[1] == ("ValueError", "run table lacks the column(s) doc_id; it needs query_id, doc_id, score; its "
                              "columns are query_id, doc, score (name them with evaluate_run's query_col=, doc_col= "
                              "and score_col=)")


def test_malformed_buffers_are_refused_not_read():
    """A producer's broken offsets (decreasing) are a RunInputError of the native core,
    never a read out of bounds. (pyarrow itself does not validate these buffers.)"""
    offsets = pa.py_buffer(b"\x00\x00\x00\x00\x05\x00\x00\x00\x01\x00\x00\x00")
    broken = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(b"hello")])
    with pytest.raises(evalcore.RunInputError, match="record batch 0 is malformed"):
        evalcore.evaluate_run({"q": {"a": 1}}, bad_run("doc_id", broken), ["P@1"])


def test_pandas_object_columns_pyarrow_cannot_type_are_read_as_objects():
    # An int among strings is its decimal text, as in a dict; a float is refused.
    run = pd.DataFrame({"query_id": ["q", 5], "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    assert expect_result("evaluate_run", {"q": {"a": 1}, "5": {"b": 1}}, run, ["P@1"]).mean["P@1"] == 1.0
    run = pd.DataFrame({"query_id": ["q", 5.5], "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    outcome = run_all("evaluate_run", {"q": {"a": 1}}, run, ["P@1"])
    assert outcome[1][:2] == ("RunInputError",
                              "run table: row 1: the query ID (column 'query_id') must be a str or an int, got float")


def test_a_nan_cell_read_as_objects_names_its_column():
    # (issue 23 item 5) the columns pyarrow cannot type take the path that named no column before
    run = pd.DataFrame({"qid": ["q", 5], "docno": ["a", "b"], "s": [1.0, float("nan")]})
    qrels = pd.DataFrame({"qid": ["q", 5], "docno": ["a", "b"], "label": [1, 1]})
    names = {"query_col": "qid", "doc_col": "docno", "score_col": "s", "relevance_col": "label"}
    outcome = run_all("evaluate_run", qrels, run, ["P@1"], **names)
    assert outcome[1][:2] == ("RunInputError", "run table: row 1: the value must be a finite number (column 's')")
    qrels.loc[1, "docno"] = None
    outcome = run_all("evaluate_run", qrels, run, ["P@1"], **names)
    assert outcome[1][:2] == ("RunInputError",
                              "qrels table: row 1: the document ID (column 'docno') must be a str or an int, got float")  # pandas: NaN


# ---- streams read once (a RecordBatchReader: a parquet file's batches, a Spark partition) ----

def grouped_rows(source: dict, seed: int) -> list:
    """Rows grouped by query (queries and each query's rows in a random order)."""
    rng = random.Random(seed)
    queries = list(source)
    rng.shuffle(queries)
    rows = []
    for q in queries:
        block = [(q, d, v) for d, v in source[q].items()]
        rng.shuffle(block)
        rows.extend(block)
    return rows


def reader(rows: list, value_name: str, sizes: list):
    """The rows as a stream of batches of the given sizes (in turn)."""
    whole = table(rows, value_name).combine_chunks()
    batches, at, turn = [], 0, 0
    while at < len(rows):
        size = sizes[turn % len(sizes)]
        batches.extend(whole.slice(at, size).to_batches())
        at, turn = at + size, turn + 1
    return pa.RecordBatchReader.from_batches(whole.schema, iter(batches))


@given(data=runs(ranked_lists=False), options=run_options(), seed=st.integers(0, 2**32),
       sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_a_grouped_stream_is_scored_batch_by_batch_as_the_whole_table_is(data, options, seed, sizes):
    qrels = {q: e for q, e in data["qrels"].items() if e}
    run = {q: e for q, e in data["run"].items() if e}
    rows = grouped_rows(run, seed)
    qtable = table(rows_of(qrels), "relevance")
    whole = run_all("evaluate_run", qtable, table(rows, "score"), ["nDCG@5", "AP", "RR@3", "P@2"], **options)
    streamed = evalcore.evaluate_run(qtable, reader(rows, "score", sizes), ["nDCG@5", "AP", "RR@3", "P@2"], **options)
    assert whole[0] == "ok" and streamed == whole[1]


def test_a_stream_not_grouped_by_query_is_grouped_from_the_batches_it_kept():
    """A stream is read once: one not grouped by query is grouped from the batches it kept
    (max_stream_rows of them); without them it is refused, in both cores alike
    (tests/runs/test_run_arrow_semantics.py has the rest)."""
    rows = [("q1", "a", 1.0), ("q2", "b", 1.0), ("q1", "c", 2.0)]
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    want = evalcore.evaluate_run(qrels, table(rows, "score"), ["P@1"])
    for module in (evalcore, evalcore.reference):
        assert module.evaluate_run(qrels, reader(rows, "score", [2]), ["P@1"]) == want
        with pytest.raises(evalcore.RunInputError, match=r"run table: row 2: query 'q1' comes back after other queries; "
                                                         r"a stream is read once.* \(the max_stream_rows limit\)"):
            module.evaluate_run(qrels, reader(rows, "score", [1]), ["P@1"], max_stream_rows=2)
    # the same rows as a table (read again, whole, when the batches show they are not grouped)
    assert run_all("evaluate_run", qrels, table(rows, "score", chunk=1), ["P@1"])[0] == "ok"


def test_faults_in_a_stream_name_the_row():
    qrels = {"q1": {"a": 1}}
    rows = [("q1", "a", 1.0), ("q1", "b", 1.0), ("q1", "a", 2.0)]
    with pytest.raises(evalcore.RunInputError, match=r"run table: row 2: query 'q1' lists document 'a' twice \(first on row 0\)"):
        evalcore.evaluate_run(qrels, reader(rows, "score", [1]), ["P@1"])
    bad = pa.RecordBatchReader.from_batches(bad_run("score", pa.array([1.0, None])).schema,
                                            bad_run("score", pa.array([1.0, None])).to_batches())
    with pytest.raises(evalcore.RunInputError, match=r"run table: row 1: the value is null \(column 'score'\)"):
        evalcore.evaluate_run(qrels, bad, ["P@1"])


def test_parquet_files_are_read_in_batches_grouped_or_not(tmp_path, monkeypatch):
    parquet = pytest.importorskip("pyarrow.parquet")
    from evalcore.runs.tables import ParquetFile

    monkeypatch.setattr(ParquetFile, "BATCH_ROWS", 2)  # queries go on across batches
    qrels = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}, "q3": {"d": 1}}
    run = {"q1": {"a": 1.0, "b": 2.0, "x": 0.5}, "q2": {"c": 1.0, "y": 3.0}, "q3": {"z": 1.0, "d": 0.0}}
    want = evalcore.evaluate_run(qrels, run, ["nDCG@2", "AP", "RR"])
    parquet.write_table(table(rows_of(qrels), "relevance"), tmp_path / "qrels.parquet")
    for name, rows in (("grouped", rows_of(run)), ("shuffled", sorted(rows_of(run), key=lambda r: r[1]))):
        for row_group_size in (None, 3):  # one row group, or several (read one at a time), queries across them
            path = tmp_path / f"{name}-{row_group_size}.PARQUET"
            parquet.write_table(table(rows, "score").append_column("extra", pa.array([0] * len(rows))), path,
                                row_group_size=row_group_size)
            outcome = run_all("evaluate_run", str(tmp_path / "qrels.parquet"), str(path), ["nDCG@2", "AP", "RR"])
            assert outcome[1].mean == want.mean and same_values(by_query(outcome[1]), by_query(want))
    groups = parquet.ParquetFile(tmp_path / "grouped-3.PARQUET").metadata.num_row_groups
    batches = pa.RecordBatchReader.from_stream(ParquetFile(str(tmp_path / "grouped-3.PARQUET"), "run"))
    assert groups == 3 and [b.num_rows for b in batches] == [2, 1, 2, 1, 1]  # 7 rows: groups of 3, 3, 1 in 2-row batches


# ---- large tables: rows read and grouped on several threads, in parts of 65,536 rows ----

def large_shuffled_run(queries=3000, per_query=70, seed=7):
    generator = random.Random(seed)
    rows = [(f"q{q}", f"d{generator.randrange(10**9)}-{d}", generator.random()) for q in range(queries)
            for d in range(per_query)]
    generator.shuffle(rows)
    return rows


@pytest.mark.parametrize("grouped", [False, True])
def test_large_tables_read_on_threads_equal_one_thread_and_the_reference(grouped):
    rows = large_shuffled_run()  # 210,000 rows: up to three parts
    if grouped:  # a query's rows may then go on from one part into the next
        rows.sort(key=lambda row: row[0])
    qrels = {}
    for q, d, _ in rows[::3]:
        qrels.setdefault(q, {})[d] = len(d) % 4
    run = table(rows, "score")
    expected = expect_result("evaluate_run", table(rows_of(qrels), "relevance"), run, MEASURES[:6], threads=1)
    for threads in (2, 3, 8):
        assert evalcore.evaluate_run(table(rows_of(qrels), "relevance"), run, MEASURES[:6], threads=threads) == expected


@pytest.mark.parametrize("faults, first", [
    ({150_000: "", 100_000: ""}, 100_000),  # both in later parts: the earlier row
    ({200_000: "", 5: ""}, 5),               # the first part's
    ({180_000: None}, 180_000),
])
def test_the_first_faulty_row_of_a_large_table_whatever_part_holds_it(faults, first):
    rows = large_shuffled_run()
    for row, doc in faults.items():
        rows[row] = (rows[row][0], doc, rows[row][2])
    outcome = run_all("evaluate_run", {"q0": {"a": 1}}, table(rows, "score"), ["P@1"], threads=4)
    detail = "must not be empty" if faults[first] == "" else "is null (column 'doc_id')"
    assert outcome[1][:2] == ("RunInputError", f"run table: row {first}: the document ID {detail}"), outcome


def test_a_document_twice_across_parts_of_a_large_table():
    rows = large_shuffled_run()
    q, d, _ = rows[10]
    rows[190_000] = (q, d, 0.5)
    outcome = run_all("evaluate_run", {"q0": {"a": 1}}, table(rows, "score"), ["P@1"], threads=4)
    assert outcome[1][:2] == ("RunInputError",
                              f"run table: row 190000: query '{q}' lists document '{d}' twice (first on row 10)"), outcome
