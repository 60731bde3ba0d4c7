"""What Arrow input means (issue 21, items 1, 2 and 6): a stream is consumed once, always
(only tables evalcore knows are asked for their rows twice), and one not grouped by query
is grouped from the batches it kept, up to max_stream_rows; column names are what the C
data interface passes, and two columns of a needed name are ambiguous; and the reference
reads every shape the native core reads (sliced and null-row struct arrays, extension
types over strings, dictionaries of string_view), with the same results and errors."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pa_csv = pytest.importorskip("pyarrow.csv")
pa_ipc = pytest.importorskip("pyarrow.ipc")

from common import IMPLEMENTATIONS, _run, assert_identical, differential, run_all  # noqa: E402

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402

QRELS = {"q1": {"a": 1, "b": 1, "c": 0}, "q2": {"x": 1, "y": 1}}
# Not grouped by query: q1 comes back after q2.
UNGROUPED = [("q1", "a", 3.0), ("q1", "c", 2.5), ("q2", "z", 9.0), ("q2", "x", 2.0), ("q1", "b", 2.0), ("q2", "y", 1.0)]
MEASURES = ["AP", "P@2"]
KEEP_NOTE = ("; a stream is read once, and one not grouped by query is kept to be grouped in memory only up to {:,} rows "
             "(the max_stream_rows limit): sort it by query, pass a table, or raise it with max_stream_rows=N")


def run_table(rows, names=("query_id", "doc_id", "score")):
    return pa.table({names[0]: pa.array([r[0] for r in rows], pa.string()),
                     names[1]: pa.array([r[1] for r in rows], pa.string()),
                     names[2]: pa.array([r[2] for r in rows], pa.float64())})


def as_dict(rows):
    run = {}
    for q, d, v in rows:
        run.setdefault(q, {})[d] = v
    return run


class OnceOnly:
    """A producer whose ``__arrow_c_stream__`` hands out one stream it consumes: asked
    again, it gives what is left of it (as a socket, a generator or a DB cursor would)."""

    def __init__(self, reader):
        self._reader = reader

    def __arrow_c_stream__(self, requested_schema=None):
        return self._reader.__arrow_c_stream__(requested_schema)


def batches_of(rows, size):
    whole = run_table(rows)
    return whole.schema, whole.to_batches(max_chunksize=size)


def ipc_stream(rows, size=2):
    schema, batches = batches_of(rows, size)
    sink = io.BytesIO()
    with pa_ipc.new_stream(sink, schema) as writer:
        for batch in batches:
            writer.write_batch(batch)
    return pa_ipc.open_stream(sink.getvalue())


def csv_stream(rows, size=2):
    text = "query_id,doc_id,score\n" + "".join(f"{q},{d},{v}\n" for q, d, v in rows)
    types = {"query_id": pa.string(), "doc_id": pa.string(), "score": pa.float64()}
    # block_size: a few rows a batch, so that the rows come in several batches
    return pa_csv.open_csv(io.BytesIO(text.encode()), read_options=pa_csv.ReadOptions(block_size=16 * size),
                           convert_options=pa_csv.ConvertOptions(column_types=types))


def wrapped_reader(rows, size=2):
    schema, batches = batches_of(rows, size)
    return OnceOnly(pa.RecordBatchReader.from_batches(schema, batches))


def generator_stream(rows, size=2):
    schema, batches = batches_of(rows, size)
    return OnceOnly(pa.RecordBatchReader.from_batches(schema, (b for b in batches)))


STREAMS = {"ipc.open_stream": ipc_stream, "csv.open_csv": csv_stream, "__arrow_c_stream__ only": wrapped_reader,
           "generator": generator_stream, "RecordBatchReader": lambda rows, size=2: batches_reader(rows, size)}


def batches_reader(rows, size):
    schema, batches = batches_of(rows, size)
    return pa.RecordBatchReader.from_batches(schema, batches)


def each_core(make_run, qrels, measures, **options):
    """evaluate_run on both cores, each given its own stream from `make_run()`: the same
    outcome (results bit for bit, or the same error); returns it."""
    native, reference = (_run(module.evaluate_run, (qrels, make_run(), measures), options)
                         for module in IMPLEMENTATIONS.values())
    assert native[0] == reference[0], (native, reference)
    if native[0] == "error":
        assert native[1] == reference[1]
    else:
        assert_identical(native[1], reference[1])
    return native


# ---- item 1: a stream is consumed once, always ----

@pytest.mark.parametrize("kind", sorted(STREAMS))
def test_an_ungrouped_stream_read_once_gives_the_whole_runs_values(kind):
    """Asked for again, these streams give only their unread rest: an ungrouped one is
    grouped from the batches it kept, never read twice (AP 0.17 and 0.25 before)."""
    want = evalcore.reference.evaluate_run(QRELS, as_dict(UNGROUPED), MEASURES)
    assert list(want.values("AP")) == pytest.approx([(1 + 2 / 3) / 2, (1 / 2 + 2 / 3) / 2])
    outcome = each_core(lambda: STREAMS[kind](UNGROUPED), QRELS, MEASURES)
    assert outcome == ("ok", want)


@pytest.mark.parametrize("kind", sorted(STREAMS))
def test_an_ungrouped_stream_longer_than_it_keeps_is_refused_naming_the_limit(kind):
    outcome = each_core(lambda: STREAMS[kind](UNGROUPED), QRELS, MEASURES, max_stream_rows=3)
    assert outcome[0] == "error" and outcome[1][0] == "RunInputError"
    # what the batch-by-batch reading finds depends on where the batches end (size 2: within one)
    found = {"row 4: query 'q1' comes back after other queries", "the rows are not grouped by query"}
    assert outcome[1][1] in {f"run table: {what}{KEEP_NOTE.format(3)}" for what in found}
    assert each_core(lambda: wrapped_reader(UNGROUPED, size=1), QRELS, MEASURES, max_stream_rows=3)[1][1] == \
        f"run table: row 4: query 'q1' comes back after other queries{KEEP_NOTE.format(3)}"


def test_a_grouped_stream_longer_than_it_keeps_is_scored_as_it_streams():
    grouped = sorted(UNGROUPED, key=lambda r: r[0])
    want = evalcore.evaluate_run(QRELS, as_dict(grouped), MEASURES)
    for kept in (0, 1, 5):
        assert each_core(lambda: wrapped_reader(grouped), QRELS, MEASURES, max_stream_rows=kept) == ("ok", want)


def test_a_stream_ungrouped_within_one_batch_and_longer_than_it_keeps():
    # q1, q2, q1 in the first batch, more to come: the last row's query is not the last to appear
    rows = [("q1", "a", 3.0), ("q2", "x", 2.0), ("q1", "b", 2.0), ("q1", "c", 1.0)]
    outcome = each_core(lambda: wrapped_reader(rows, size=3), QRELS, MEASURES, max_stream_rows=0)
    assert outcome[1][1] == "run table: the rows are not grouped by query" + KEEP_NOTE.format(0)


def test_only_tables_evalcore_knows_are_read_twice():
    from evalcore.runs.tables import ArrowTable, ParquetFile

    table = run_table(UNGROUPED)
    for rereadable in (table, table.to_batches()[0], ParquetFile("x.parquet", "run")):
        assert not ArrowTable(rereadable, "run").one_shot
    for once in (ipc_stream(UNGROUPED), csv_stream(UNGROUPED), wrapped_reader(UNGROUPED), batches_reader(UNGROUPED, 2)):
        assert ArrowTable(once, "run").one_shot


def test_max_stream_rows_is_checked_alike():
    for bad in (-1, 1.5, True, None):
        outcome = run_all("evaluate_run", QRELS, as_dict(UNGROUPED), MEASURES, max_stream_rows=bad)
        assert outcome == ("error", ("ValueError", f"max_stream_rows must be an int >= 0, got {bad!r}"))


def shuffled_rows(data, seed, grouped, faults):
    rng = random.Random(seed)
    rows = [(q, d, v) for q, entries in data["run"].items() for d, v in entries.items()]
    if grouped:
        rows.sort(key=lambda r: r[0])
    else:
        rng.shuffle(rows)
    if faults and rows:  # a document listed twice, or a null score, somewhere
        at = rng.randrange(len(rows))
        rows.insert(rng.randrange(len(rows) + 1), rows[at] if faults == "twice" else (rows[at][0], "zz", None))
    return rows


@differential
@given(data=st.fixed_dictionaries({"run": st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4"]), st.dictionaries(
           st.sampled_from(list("abcdefg")), st.floats(0, 3, allow_nan=False), min_size=1, max_size=5), max_size=4)}),
       seed=st.integers(0, 2**32), grouped=st.booleans(), faults=st.sampled_from([None, None, "twice", "null"]),
       size=st.integers(1, 4), kept=st.integers(0, 12))
def test_streams_read_once_agree_between_cores(data, seed, grouped, faults, size, kept):
    """Any order, batch size and bound: the same results or the same first error (a row
    fault as its batch comes, what the batch-by-batch reading finds, the limit)."""
    rows = shuffled_rows(data, seed, grouped, faults)
    qrels = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}, "q3": {"zz": 1, "d": 0}}
    each_core(lambda: wrapped_reader(rows, size), qrels, ["AP", "nDCG@3", "P@2"], max_stream_rows=kept)


# ---- item 2: column names as the C data interface passes them ----

def test_a_name_with_a_nul_is_not_taken_for_query_id():
    """Through the C interface "query_id\\0old" is query_id: with the real one after it,
    the column is ambiguous in both cores (native read the first: AP 0.0, no warning)."""
    rows = [("q1", "a", 1.0)]
    table = run_table(rows).add_column(0, "query_id\x00old", pa.array(["other"]))
    outcome = run_all("evaluate_run", {"q1": {"a": 1}}, OnceOnly(table), ["AP"])
    assert outcome == ("error", ("RunInputError", "run table: the query_id column is ambiguous: columns 0 and 1 (counted "
                                 "from 0) are both named query_id (a name ends at its first NUL byte, as the Arrow C data "
                                 "interface passes it): rename or drop one", "run table", None))
    # A pyarrow table is selected by its exact names first: the real query_id is read.
    assert run_all("evaluate_run", {"q1": {"a": 1}}, table, ["AP"])[1].mean["AP"] == 1.0


@pytest.mark.parametrize("exact", [False, True])
def test_two_columns_of_a_needed_name_are_ambiguous_in_both_cores(exact):
    # the first score column is a string: the type fault named the wrong column in the reference
    table = run_table([("q1", "a", 1.0)]).add_column(1, "score", pa.array(["1"]))
    source = table if exact else OnceOnly(table)
    outcome = run_all("evaluate_run", {"q1": {"a": 1}}, source, ["AP"])
    assert outcome[1][:2] == ("RunInputError", "run table: the score column is ambiguous: columns 1 and 3 (counted from 0) "
                              "are both named score (a name ends at its first NUL byte, as the Arrow C data interface "
                              "passes it): rename or drop one")
    qrels = pa.table({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1], "doc_id\x00": ["b"]})
    outcome = run_all("evaluate_run", OnceOnly(qrels), {"q1": {"a": 1.0}}, ["AP"])
    assert outcome[1][1].startswith("qrels table: the doc_id column is ambiguous: columns 1 and 3 ")


# ---- item 6: the reference reads every shape the native core reads ----

def struct_of(rows, mask=None, id_type=pa.string()):
    return pa.StructArray.from_arrays(
        [pa.array([r[0] for r in rows], id_type), pa.array([r[1] for r in rows], id_type),
         pa.array([r[2] for r in rows], pa.float64())], names=["query_id", "doc_id", "score"], mask=mask)


class ArrayOnly:
    def __init__(self, array):
        self._array = array

    def __arrow_c_array__(self, requested_schema=None):
        return self._array.__arrow_c_array__(requested_schema)


def ids_as(kind, values):
    """ID values as an array of `kind`: an extension type over strings, or a dictionary."""
    if kind == "json":
        return pa.ExtensionArray.from_storage(pa.json_(), pa.array(values, pa.string()))
    if kind == "opaque":
        return pa.ExtensionArray.from_storage(pa.opaque(pa.string(), "id", "vendor"), pa.array(values, pa.string()))
    distinct = sorted({v for v in values if v is not None})
    indices = pa.array([None if v is None else distinct.index(v) for v in values], pa.int16())
    return pa.DictionaryArray.from_arrays(indices, pa.array(distinct, pa.string_view()))


def typed_table(rows, kind):
    return pa.table({"query_id": ids_as(kind, [r[0] for r in rows]), "doc_id": ids_as(kind, [r[1] for r in rows]),
                     "score": pa.array([r[2] for r in rows], pa.float64())})


GOOD = [("q1", "a", 3.0), ("q1", "b", 2.0), ("q2", "x", 1.0), ("q1", "c", 0.5), ("q2", "y", 0.25)]
SHAPES = {
    "sliced struct": lambda rows: ArrayOnly(struct_of([("q9", "zz", 0.0)] + rows + [("q9", "", 1.0)]).slice(1, len(rows))),
    "struct with a null row": lambda rows: ArrayOnly(struct_of(rows, mask=pa.array([i == 2 for i in range(len(rows))]))),
    "json": lambda rows: OnceOnly(typed_table(rows, "json")),
    "opaque": lambda rows: typed_table(rows, "opaque"),
    "dictionary<int16, string_view>": lambda rows: OnceOnly(typed_table(rows, "dictionary")),
    "ungrouped RecordBatchReader": lambda rows: batches_reader(rows, 2),
}
FAULTY = {
    "good": GOOD,
    "empty doc": GOOD[:3] + [("q1", "", 0.5)],
    "null doc": GOOD[:3] + [("q1", None, 0.5)],
    "doc twice": GOOD + [("q1", "a", 0.0)],
}


@pytest.mark.parametrize("rows", sorted(FAULTY))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_shapes_native_reads_the_reference_reads_alike(shape, rows):
    each_core(lambda: SHAPES[shape](FAULTY[rows]), QRELS, MEASURES)


def test_the_shapes_give_what_the_rows_give():
    want = evalcore.reference.evaluate_run(QRELS, as_dict(GOOD), MEASURES)
    for shape in sorted(set(SHAPES) - {"struct with a null row"}):
        assert each_core(lambda: SHAPES[shape](GOOD), QRELS, MEASURES) == ("ok", want), shape
    outcome = each_core(lambda: SHAPES["struct with a null row"](GOOD), QRELS, MEASURES)
    assert outcome[1][1] == "run table: row 2 is null"


def test_both_cores_take_max_stream_rows_in_one_signature():
    import inspect

    assert inspect.signature(evalcore.evaluate_run) == inspect.signature(evalcore.reference.evaluate_run)
    assert inspect.signature(evalcore.evaluate_run).parameters["max_stream_rows"].default == 5_000_000
