"""evalcore.runs.partitioned without an engine: the tasks of a distributed evaluate_run run
here by hand on hash-partitioned, sorted, shuffled rows cut into batches of every size, and
must give evaluate_run's per-query values and means bit for bit; the cut at query boundaries,
the messages of faults, and their trip through an engine's exception text."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")

from partitioned import as_tables, assert_matches, qrels_rows, run_rows  # noqa: E402
from evalcore.testing import MEASURES, run_options, runs  # noqa: E402

import evalcore  # noqa: E402
from evalcore import RunInputError  # noqa: E402
from evalcore.runs.partitioned import (SCORED_COLUMN, cut_at_last_query, evaluate_partition,  # noqa: E402
                                       input_error_in, merge_partial_sums, output_names, partial_sums,
                                       partition_config, task_error, visible_names)
from evalcore.runs.partitioned_warnings import FirstQueryIds, merge_summary, partial_summary  # noqa: E402

# Measures whose summary is not a mean (gm_map: exp of the mean; num_q: the count), and 11pt_avg.
DERIVED = ["gm_map", "gm_bpref", "num_q", "11pt_avg", "set_map"]
# h25-sparkpol: measures with a warning of their own: graded C/W/L ones (grades clipped, two
# ranges among them) and ranx's spellings (queries without a relevant judgment: ranx scores 0).
WARNED = ["INST(T=2,max_rel=1)", "RBP(p=0.8,max_rel=2)", "SDCG(max_rel=1)@5", "ndcg@3", "hit_rate@2", "f1"]
SCHEMA = pa.schema([("query_id", pa.string()), ("tag", pa.int8()), ("doc_id", pa.string()), ("value", pa.float64()),
                    ("rank", pa.float64())])


def tagged(qrels_rows_, run_rows_):
    """Rows as an engine hands them to the tasks (rank None for judgments)."""
    return [(q, 0, d, g, None) for q, d, g in qrels_rows_] + [(q, 1, d, s, float(r)) for q, d, s, r in run_rows_]


def batches_of(rows, size):
    for start in range(0, len(rows), size):
        chunk = rows[start:start + size]
        yield pa.RecordBatch.from_arrays([pa.array([r[i] for r in chunk], SCHEMA.field(i).type) for i in range(5)],
                                         schema=SCHEMA)


def run_tasks(rows, config, partitions, batch_rows, seed, options=None):
    """Shuffle, hash-partition on the query, sort each partition on (query, rank), cut into
    batches, run every task; (per-query rows, mean, defined counts) of the scored queries'
    visible columns (as an engine shows them), and given `options` (partition_config's) the
    Summary that partial_summary's rows of every task merge into."""
    rows = list(rows)
    random.Random(seed).shuffle(rows)
    parts = [[] for _ in range(partitions)]
    for row in rows:
        parts[zlib.crc32(row[0].encode("utf-8")) % partitions].append(row)
    results, partials, summaries = [], [], []
    visible = visible_names(config)
    assert visible == ["query_id"] + [s.name for s in config.specs]
    for part in parts:
        part.sort(key=lambda r: (r[0].encode("utf-8"), -math.inf if r[4] is None else r[4]))
        outputs = list(evaluate_partition(config, batches_of(part, batch_rows)))
        for batch in outputs:
            assert batch.schema.names == output_names(config)
        shown = [b.filter(pa.compute.is_valid(b.column(SCORED_COLUMN))).select(visible) for b in outputs]
        for batch in shown:
            for record in batch.to_pylist():
                results.append((record["query_id"], [record[n] for n in visible[1:]]))
        for batch in partial_sums(len(config.specs), iter(shown)):
            partials.extend(zip(*[batch.column(i).to_pylist() for i in range(3)]))
        for batch in partial_summary(config, iter(outputs)):
            summaries.extend(zip(*[batch.column(i).to_pylist() for i in range(4)]))
    mean, counts = merge_partial_sums([s.name for s in config.specs], partials, [s.kind for s in config.specs])
    if options is None:
        return results, mean, counts
    return (results, mean, counts), merge_summary(config, options, summaries)


def by_query_id(table):
    """`table` (query → entries) in query ID order: evaluate_run's warnings then name the
    queries the distributed ones name (the smallest IDs; rows in an engine have no order)."""
    return {q: table[q] for q in sorted(table)}


@settings(max_examples=300)
@given(data=runs(ranked_lists=False), options=run_options(),
       measures=st.lists(st.sampled_from(MEASURES + DERIVED), min_size=1, max_size=4, unique=True),
       partitions=st.sampled_from([1, 3, 7]), batch_rows=st.integers(1, 5), rows_per_call=st.sampled_from([1, 2, 5, 10**6]),
       seed=st.integers(0, 2**32))
def test_tasks_give_evaluate_run_bit_for_bit(data, options, measures, partitions, batch_rows, rows_per_call, seed):
    qrels, run = as_tables(data)
    want = evalcore.evaluate_run(qrels, run, measures, **options)
    rank = {"rank_col": "rank"} if options.get("ties") == "input" else {}
    config, config_options = partition_config(measures, rows_per_call=rows_per_call, **options, **rank)
    assert config_options == want.options
    got = run_tasks(tagged(qrels_rows(qrels), run_rows(run)), config, partitions, batch_rows, seed)
    assert_matches(*got, want)


# Half the budget of the test above: it checks the warnings (the summary pass) besides.
@settings(max_examples=150)
@given(data=runs(ranked_lists=False), options=run_options(),
       measures=st.lists(st.sampled_from(MEASURES + WARNED), min_size=1, max_size=4, unique=True),
       partitions=st.sampled_from([1, 3, 7]), batch_rows=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_tasks_give_evaluate_runs_warnings(data, options, measures, partitions, batch_rows, seed):
    """h25-sparkpol: warnings, policy warnings and options are evaluate_run's on the rows in
    query ID order (judged queries left out, C/W/L grades clipped with their counts, ranx's
    zeros), whatever the partitioning."""
    qrels, run = (by_query_id(t) for t in as_tables(data))
    want = evalcore.evaluate_run(qrels, run, measures, **options)
    rank = {"rank_col": "rank"} if options.get("ties") == "input" else {}
    config, config_options = partition_config(measures, **options, **rank)
    assert config_options == want.options
    got, summary = run_tasks(tagged(qrels_rows(qrels), run_rows(run)), config, partitions, batch_rows, seed,
                             config_options)
    assert_matches(*got, want)
    assert (summary.mean, summary.defined_counts) == got[1:]
    assert summary.warnings == want.warnings
    assert summary.policy_warnings == want.policy_warnings


def test_clipped_grades_are_counted_and_named_as_evaluate_run_does():
    """Seven queries with clipped grades over three tasks: the count of ranked judged
    documents clipped, the queries named the five smallest IDs, and with one range per
    (min_rel, max_rel, depth) a warning each."""
    qrels = {f"q{i}": {"a": 3, "b": 5, "c": 1} for i in range(9, 2, -1)}
    qrels["z"] = {"a": 1}  # judged, not in the run: left out (missing="skip")
    run = {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(9, 2, -1)}
    run["q3"] = {"c": 1.0}  # its one ranked document's grade is inside [0, 2]: not clipped
    measures = ["INST(T=2,max_rel=2)", "SDCG(max_rel=2)@1", "RBP(p=0.5,max_rel=4)", "P@1"]
    want = evalcore.evaluate_run(by_query_id(qrels), by_query_id(run), measures)
    config, options = partition_config(measures, rows_per_call=2)
    assert options == want.options and options["cwlGrades"] == "clip"
    rows = tagged(qrels_rows(qrels), run_rows(run))
    (_, mean, counts), summary = run_tasks(rows, config, 3, 2, seed=1, options=options)
    assert summary.warnings == want.warnings and len(summary.warnings) == 3
    assert summary.warnings[0].startswith("1 of the 8 judged queries are not in the run and were left out")
    assert summary.policy_warnings == want.policy_warnings == [
        "12 judged documents ranked in the first 1,000 of 6 queries have grades outside [0, 2] and were clipped into "
        "it for INST(T=2,max_rel=2), SDCG(max_rel=2)@1 (options['cwlGrades'] == 'clip', as ir_measures' cwl_eval "
        "provider does; cwl_eval itself refuses gains outside [--min_gain, --max_gain]): 'q4', 'q5', 'q6', 'q7', 'q8' "
        "and 1 more; raise max_rel or max_gain (or lower min_rel) to score those grades as they are",
        "6 judged documents ranked in the first 1,000 of 6 queries have grades outside [0, 4] and were clipped into "
        "it for RBP(p=0.5,max_rel=4) (options['cwlGrades'] == 'clip', as ir_measures' cwl_eval provider does; "
        "cwl_eval itself refuses gains outside [--min_gain, --max_gain]): 'q4', 'q5', 'q6', 'q7', 'q8' and 1 more; "
        "raise max_rel or max_gain (or lower min_rel) to score those grades as they are"]
    assert (mean, counts) == (summary.mean, summary.defined_counts) == (want.mean, want.defined_counts)


def test_first_query_ids_hold_only_what_a_warning_reads():
    ids = FirstQueryIds(["a", "b", "c"], 10)
    assert len(ids) == 10 and ids[:2] == ["a", "b"] and ids[0:3] == ["a", "b", "c"] and ids[1] == "b"
    for read in (lambda: ids[:4], lambda: ids[3], lambda: ids[-1], lambda: list(ids), lambda: ids[::2]):
        with pytest.raises(IndexError, match="only the first 3 of 10 query IDs are held"):
            read()
    assert FirstQueryIds(["a", "b"], 1)[:] == ["a"]


def test_options_are_checked_as_evaluate_run_checks_them():
    for kwargs in ({"gain": "log"}, {"ties": "random"}, {"missing": "drop"}, {"relevant_at_least": 0},
                   {"max_retrieved": -1}):
        with pytest.raises(ValueError) as one_machine:
            evalcore.evaluate_run({}, {}, ["P@1"], **kwargs)
        with pytest.raises(ValueError) as distributed:
            partition_config(["P@1"], **kwargs)
        assert str(distributed.value) == str(one_machine.value)
    with pytest.raises(TypeError, match="judged_only must be a bool"):
        partition_config(["P@1"], judged_only=1)
    with pytest.raises(ValueError, match="did you mean") as unknown:
        partition_config(["nDGC@10"])
    with pytest.raises(ValueError) as one_machine:
        evalcore.evaluate_run({}, {}, ["nDGC@10"])
    assert str(unknown.value) == str(one_machine.value)
    with pytest.raises(ValueError, match="ties='input' needs rank_col: a DataFrame's rows have no order"):
        partition_config(["P@1"], ties="input")
    with pytest.raises(ValueError, match="rank_col is read only with ties='input'"):
        partition_config(["P@1"], rank_col="rank")
    with pytest.raises(ValueError, match="rows_per_call must be a positive int, got 0"):
        partition_config(["P@1"], rows_per_call=0)
    with pytest.raises(TypeError, match="doc_col must be a non-empty str, got ''"):
        partition_config(["P@1"], doc_col="")


def ids(batches):
    return [b.column(0).to_pylist() for b in batches]


def test_the_cut_holds_back_the_last_query_across_batches():
    rows = [("a", 1, "d1", 1.0, 1.0), ("b", 1, "d1", 1.0, 1.0), ("b", 1, "d2", 1.0, 2.0), ("b", 1, "d3", 1.0, 3.0),
            ("c", 1, "d1", 1.0, 1.0), ("c", 1, "d2", 1.0, 2.0), ("c", 1, "d3", 1.0, 3.0)]
    batches = list(batches_of(rows, 2))  # [a b] [b b] [c c] [c]
    complete, carry = cut_at_last_query(batches)
    assert ids(complete) == [["a", "b"], ["b", "b"]] and ids(carry) == [["c", "c"], ["c"]]
    complete, carry = cut_at_last_query(batches[:2])  # [a b] [b b]: b began in the first batch
    assert ids(complete) == [["a"]] and ids(carry) == [["b"], ["b", "b"]]
    complete, carry = cut_at_last_query(batches[2:])  # one query only: nothing is complete
    assert complete == [] and ids(carry) == [["c", "c"], ["c"]]


def test_null_query_ids_are_a_query_of_their_own_and_a_fault():
    rows = [(None, 1, "d1", 1.0, None), (None, 1, "d2", 1.0, None)]
    assert cut_at_last_query(list(batches_of(rows, 1)))[0] == []
    config, _ = partition_config(["P@1"], rows_per_call=1)
    with pytest.raises(RunInputError) as error:
        list(evaluate_partition(config, batches_of(rows + [("q", 0, "d1", 1.0, None)], 1)))
    assert str(input_error_in(error.value)) == (
        "run DataFrame: document 'd1': the query ID is null (column 'query_id')")


def fault(rows, measures=("P@1",), **options):
    config, _ = partition_config(list(measures), **options)
    with pytest.raises(RunInputError) as error:
        list(evaluate_partition(config, batches_of(rows, 2)))
    found = input_error_in(error.value)
    assert found is not None and str(error.value).startswith(str(found) + "\n")
    return str(found), found.source


J = [("q", 0, "a", 1.0, None)]


@pytest.mark.parametrize("rows, options, message", [
    (J + [("q", 1, "a", 1.0, 1.0), ("q", 1, "b", 2.0, 2.0), ("q", 1, "a", 3.0, 3.0)], {},
     "run DataFrame: query 'q' lists document 'a' twice"),
    ([("q", 0, "a", 1.0, None), ("q", 0, "a", 0.0, None)], {}, "qrels DataFrame: query 'q' lists document 'a' twice"),
    ([("q", 0, "a", math.nan, None)], {"relevance_col": "grade"},
     "qrels DataFrame: query 'q', document 'a': the grade nan is not a finite number (column 'grade')"),
    ([("q", 0, "a", -math.inf, None)], {},
     "qrels DataFrame: query 'q', document 'a': the grade -inf is not a finite number (column 'relevance')"),
    ([("q", 0, "a", None, None)], {}, "qrels DataFrame: query 'q', document 'a': the grade is null (column 'relevance')"),
    (J + [("q", 1, "b", math.inf, 1.0)], {"score_col": "s"},
     "run DataFrame: query 'q', document 'b': the score inf is not a finite number (column 's')"),
    (J + [("q", 1, None, 1.0, 1.0)], {"doc_col": "docno"},
     "run DataFrame: query 'q': the document ID is null (column 'docno')"),
    (J + [("q", 1, "", 1.0, 1.0)], {},
     "run DataFrame: query 'q', document '': the document ID must not be empty (column 'doc_id')"),
    (J + [("q" * 70, 1, "b", 1.0, 1.0), ("q" * 70, 1, "b", 1.0, 2.0)], {},
     f"run DataFrame: query '{'q' * 60}...' lists document 'b' twice"),
    (J + [("q", 1, "a", 1.0, 2.0), ("q", 1, "b", 1.0, 2.0)], {"ties": "input", "rank_col": "r"},
     "run DataFrame: query 'q' ranks documents 'a' and 'b' both at rank 2.0 (column 'r'); with ties='input' the "
     "rank column must order each query's documents"),
    (J + [("q", 1, "a", 1.0, None), ("q", 1, "b", 1.0, 2.0)], {"ties": "input", "rank_col": "r"},
     "run DataFrame: query 'q', document 'a': the rank is null (column 'r'); with ties='input' every run row needs "
     "a rank"),
    (J + [("q", 1, "a", 1.0, math.nan)], {"ties": "input", "rank_col": "r"},
     "run DataFrame: query 'q', document 'a': the rank is NaN (column 'r'); with ties='input' every run row needs a "
     "rank"),
], ids=lambda v: v[:50] if isinstance(v, str) else None)
def test_faults_name_the_query_document_and_column(rows, options, message):
    assert fault(rows, **options) == (message, message.split(":")[0])


def test_a_fault_of_a_query_without_run_rows_is_still_found():
    """As on one machine: the qrels are read whole, not only the queries the run has."""
    rows = [("q", 0, "a", 1.0, None), ("q", 1, "a", 1.0, 1.0), ("r", 0, "a", math.nan, None)]
    assert fault(rows)[0] == "qrels DataFrame: query 'r', document 'a': the grade nan is not a finite number " \
                             "(column 'relevance')"


def test_the_message_survives_an_engine_wrapping_it():
    error = task_error(RunInputError("query 'q\n[x]' lists document 'é' twice", "run DataFrame"))

    class EngineError(Exception):
        pass

    wrapped = EngineError("An exception was thrown from the Python worker:\nTraceback ...\n"
                          f"evalcore.errors.RunInputError: {error}\n\tat org.apache.spark...")
    found = input_error_in(wrapped)
    assert (str(found), found.source) == ("run DataFrame: query 'q\n[x]' lists document 'é' twice", "run DataFrame")
    try:
        try:
            raise wrapped
        except EngineError as inner:
            raise RuntimeError("job aborted") from inner
    except RuntimeError as outer:
        assert input_error_in(outer).message == found.message
    assert input_error_in(RuntimeError("something else")) is None


def test_partial_sums_of_no_rows_and_of_undefined_values():
    assert list(partial_sums(2, iter([]))) == []
    batch = pa.RecordBatch.from_arrays([pa.array(["a", "b"]), pa.array([None, None], pa.float64()),
                                        pa.array([0.1, 0.2])], names=["query_id", "m1", "m2"])
    rows = list(zip(*[c.to_pylist() for c in next(partial_sums(2, iter([batch]))).columns]))
    assert merge_partial_sums(["m1", "m2"], rows) == ({"m1": None, "m2": float(evalcore.ExactSum([0.1, 0.2])) / 2},
                                                      {"m1": 0, "m2": 2})


def test_importing_evalcore_imports_no_engine():
    code = ("import sys, evalcore, evalcore.runs.partitioned; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('pyspark', 'pyarrow', 'py4j', 'dask')], "
            "sorted(sys.modules); assert 'evalcore.spark' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
