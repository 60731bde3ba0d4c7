"""evaluate_run over iterables of records (issue 23 item 5): ir_measures' Qrel/ScoredDoc
and its read_trec_qrels/read_trec_run generators, ir_datasets' TrecQrel/GenericScoredDoc
(named tuples of the same fields, built here: ir_datasets is not a test dependency), read
once, streamed when grouped, bounded, and hostile items; native == reference throughout."""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Callable, Dict, List

import ir_measures
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.runs.iterables
from common import IMPLEMENTATIONS, differential
from common import run_fresh as common_run_fresh

# ir_datasets' own classes (ir_datasets.formats.trec): NamedTuples of these fields.
TrecQrel = namedtuple("TrecQrel", "query_id doc_id relevance iteration")
GenericScoredDoc = namedtuple("GenericScoredDoc", "query_id doc_id score")
MEASURES = ["AP", "nDCG@10", "P@5", "RR"]
QRELS_TEXT = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 d 1\nq2 0 e 3\nq3 0 f 1\n"
RUN_TEXT = "".join(f"{q} Q0 {d} {r} {s} t\n" for r, (q, d, s) in enumerate(
    [("q1", "b", 3.0), ("q1", "a", 2.5), ("q1", "x", 1.0), ("q2", "e", 4.0), ("q2", "y", 3.0), ("q2", "d", 2.0)]))


def run_fresh(make: Callable[[], tuple], **kwargs: Any) -> Any:
    """evaluate_run on both cores, each with inputs make() builds anew (a generator is read once)."""
    return common_run_fresh("evaluate_run", lambda: ((*make(), MEASURES), kwargs))


@pytest.fixture
def trec_files(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS_TEXT)
    run.write_text(RUN_TEXT)
    return str(qrels), str(run)


def test_ir_measures_readers_and_lists_give_what_the_files_give(trec_files):
    qrels_path, run_path = trec_files
    expected = evalcore.evaluate_run(qrels_path, run_path, MEASURES)
    for make in (lambda: (ir_measures.read_trec_qrels(qrels_path), ir_measures.read_trec_run(run_path)),
                 lambda: (list(ir_measures.read_trec_qrels(qrels_path)), list(ir_measures.read_trec_run(run_path))),
                 lambda: ((TrecQrel(*q) for q in ir_measures.read_trec_qrels(qrels_path)),
                          (GenericScoredDoc(*s) for s in ir_measures.read_trec_run(run_path)))):
        outcome = run_fresh(make)
        assert outcome[0] == "ok"
        assert outcome[1].query_ids == expected.query_ids and outcome[1].mean == expected.mean


def test_same_values_as_ir_measures(trec_files):
    qrels_path, run_path = trec_files
    ours = evalcore.evaluate_run(ir_measures.read_trec_qrels(qrels_path), ir_measures.read_trec_run(run_path),
                                 ["nDCG@10", "AP"])
    theirs = ir_measures.calc_aggregate([ir_measures.nDCG @ 10, ir_measures.AP],
                                        list(ir_measures.read_trec_qrels(qrels_path)),
                                        list(ir_measures.read_trec_run(run_path)))
    # (the run lacks q3: ir_measures counts it as 0 as missing="zero" does)
    zero = evalcore.evaluate_run(ir_measures.read_trec_qrels(qrels_path), ir_measures.read_trec_run(run_path),
                                 ["nDCG@10", "AP"], missing="zero")
    assert zero.mean["nDCG@10"] == pytest.approx(theirs[ir_measures.nDCG @ 10], abs=1e-12)
    assert zero.mean["AP"] == pytest.approx(theirs[ir_measures.AP], abs=1e-12)
    assert ours.query_ids == ["q1", "q2"]


def test_a_generator_is_read_once_and_a_grouped_run_streams_in_batches(monkeypatch):
    monkeypatch.setattr(evalcore.runs.iterables, "BATCH_ROWS", 2)
    taken: List[int] = []

    def run() -> Any:
        for i, (q, d, s) in enumerate([("q1", "a", 1.0), ("q1", "b", 2.0), ("q1", "c", 0.5), ("q2", "d", 1.0)]):
            taken.append(i)
            yield ir_measures.ScoredDoc(q, d, s)

    qrels = [ir_measures.Qrel("q1", "a", 1), ir_measures.Qrel("q2", "d", 1)]
    outcome = run_fresh(lambda: (iter(qrels), run()))
    assert outcome[0] == "ok" and outcome[1].query_ids == ["q1", "q2"]
    assert taken == [0, 1, 2, 3] * 2  # each core took each item once


ROWS = [("q1", "a", 1.0), ("q2", "d", 1.0), ("q1", "b", 2.0), ("q2", "e", 0.5), ("q1", "c", 3.0)]
QRELS = [TrecQrel("q1", "a", 1, "0"), TrecQrel("q2", "d", 1, "0"), TrecQrel("q1", "c", 2, "0")]


@pytest.mark.parametrize("kept", [0, 2, 4, 5, 100])
@pytest.mark.parametrize("batch", [1, 2, 3, 100])
def test_an_ungrouped_run_is_grouped_while_kept_else_refused_alike(monkeypatch, kept, batch):
    monkeypatch.setattr(evalcore.runs.iterables, "BATCH_ROWS", batch)
    outcome = run_fresh(lambda: (list(QRELS), (GenericScoredDoc(*r) for r in ROWS)), max_stream_rows=kept)
    if kept >= len(ROWS):  # (a batch is never known to be the last: a stream ends with an empty one)
        assert outcome[0] == "ok", outcome
    else:
        assert outcome[0] == "error" and "max_stream_rows" in outcome[1][1], outcome


def test_qrels_past_max_qrels_rows_are_refused_at_the_row_past_the_bound():
    def qrels() -> Any:
        for i in range(10):
            yield TrecQrel("q", f"d{i}", 1, "0")
        raise AssertionError("read past the bound")

    outcome = run_fresh(lambda: (qrels(), []), max_qrels_rows=5)
    assert outcome[1][1] == ("qrels iterable: more than 5 rows (the max_qrels_rows limit); raise it with "
                             "max_qrels_rows=N")


class Prop:
    """An item whose attributes are properties running `effect` (a hostile object)."""

    def __init__(self, row: tuple, effect: Callable[[str], Any]) -> None:
        self.row, self.effect = row, effect

    def __getattr__(self, name: str) -> Any:
        self.effect(name)
        return dict(zip(("query_id", "doc_id", "score"), self.row))[name]


def _boom(name: str) -> None:
    if name == "doc_id":
        raise ValueError("no doc here")


@pytest.mark.parametrize("run, message", [
    ([GenericScoredDoc("q1", "a", 1.0), ("q1", "b", 2.0)],
     "run iterable: row 1: a tuple has no field 'query_id'; give items with the fields query_id, doc_id and score "
     "(named tuples or objects), or name them with evaluate_run's query_col=, doc_col= and score_col="),
    ([Prop(("q1", "a", 1.0), _boom)], "run iterable: row 0: reading its field 'doc_id' raised ValueError: no doc here"),
    ([GenericScoredDoc("q1", None, 1.0)],
     "run iterable: row 0: the document ID (field 'doc_id') must be a str or an int, got NoneType"),
    ([GenericScoredDoc("q1", "a", float("nan"))], "run iterable: row 0: the score (field 'score') must be a finite number"),
    ([GenericScoredDoc("q1", "a", "1")], "run iterable: row 0: the score (field 'score') must be a number, got str"),
    ([GenericScoredDoc("q1", "a", 1.0), GenericScoredDoc("q1", "a", 2.0)],
     "run iterable: row 1: query 'q1' lists document 'a' twice (first on row 0)"),
])
def test_faults_name_the_row_and_field(run, message):
    outcome = run_fresh(lambda: (list(QRELS), iter(run)))
    assert outcome[0] == "error" and outcome[1][1] == message, outcome


def test_items_that_mutate_what_is_read_and_producers_that_raise():
    rows: List[Any] = []

    def clear(name: str) -> None:
        rows.clear()  # the list being iterated loses its items while one is read

    def make() -> tuple:
        rows[:] = [Prop(("q1", "a", 1.0), clear), Prop(("q1", "c", 2.0), clear)]
        return list(QRELS), rows

    outcome = run_fresh(make)
    assert outcome[0] == "ok" and outcome[1].query_ids == ["q1"]

    def failing() -> Any:
        yield GenericScoredDoc("q1", "a", 1.0)
        raise KeyError("producer")

    for name, module in IMPLEMENTATIONS.items():
        with pytest.raises(KeyError, match="producer"):
            module.evaluate_run(list(QRELS), failing(), MEASURES)

    def interrupt(name: str) -> None:
        raise KeyboardInterrupt

    for name, module in IMPLEMENTATIONS.items():
        with pytest.raises(KeyboardInterrupt):
            module.evaluate_run(list(QRELS), [Prop(("q1", "a", 1.0), interrupt)], MEASURES)


row_strategy = st.tuples(st.sampled_from(["q1", "q2", "q3", 7]), st.sampled_from(["a", "b", "c", "d", 3]),
                         st.one_of(st.integers(-2, 3), st.floats(-5, 5), st.sampled_from([float("inf"), "x"])))


@differential
@given(qrels=st.lists(row_strategy, max_size=12), run=st.lists(row_strategy, max_size=16),
       batch=st.integers(1, 5), kept=st.integers(0, 20), grouped=st.booleans())
def test_any_records_native_equals_reference(qrels, run, batch, kept, grouped):
    if grouped:
        run = sorted(run, key=lambda r: str(r[0]))
    old = evalcore.runs.iterables.BATCH_ROWS
    evalcore.runs.iterables.BATCH_ROWS = batch
    try:
        run_fresh(lambda: ((TrecQrel(q, d, v, "0") for q, d, v in qrels), (GenericScoredDoc(*r) for r in run)),
                  max_stream_rows=kept, max_qrels_rows=10)
    finally:
        evalcore.runs.iterables.BATCH_ROWS = old
