"""The native readers of subtopic judgments (issue 25 item 6, the diversity measures' speed):
a qrels dict is read by the core when it is made of exact dicts, str IDs and finite int or
float grades, and by runs/diversity.py otherwise; native == reference on hostile dicts too
(subclasses, other key and grade types, non-finite and huge grades, lone surrogates), with
the same errors in the same order (the qrels' before the run's). Files: the run is read on
a second thread, the qrels' fault still comes first; duplicates found with a table of keys
report the first one in the file."""

from __future__ import annotations

import math
from collections import OrderedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import differential, run_all, trec_files
from evalcore.testing.diversity import DIVERSITY_MEASURES, subtopic_lines

MEASURES = list(DIVERSITY_MEASURES)


class Text(str):
    """A str subclass whose hash and equality run Python code: the core must not read it."""

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)


class Grade(float):
    pass


ids = st.one_of(st.sampled_from(["q", "1", "a", "b", "ä"]), st.sampled_from([1, 2]), st.just(True),
                st.sampled_from(["a", "b"]).map(Text), st.just("\ud800"), st.just(1.5), st.just(None))
# (10 ** 400, too large for a float, raises a plain OverflowError in both: tested below)
grades = st.one_of(st.integers(-1, 3), st.sampled_from([0.5, 2.0, math.nan, math.inf, -math.inf]), st.just(True),
                   st.just(2.0).map(Grade), st.just("1"), st.just(None))
mappings = st.sampled_from([dict, OrderedDict, list])


def shaped(pairs, mapping):
    return list(pairs) if mapping is list else mapping(pairs)


@st.composite
def hostile_qrels(draw):
    """A qrels value of dicts, mostly regular, now and then anything the reference refuses
    or converts (`ids` and `grades`), at any level: subclasses, lists for dicts."""
    regular = draw(st.booleans())
    key = st.sampled_from(["q", "r", "1"]) if regular else ids
    value = st.integers(0, 2) if regular else grades
    mapping = st.just(dict) if regular else mappings

    def level(keys, values, kind):
        return st.builds(shaped, st.lists(st.tuples(keys, values), max_size=3, unique_by=lambda p: repr(p[0])), kind)

    docs = level(st.sampled_from(["a", "b", "c"]) if regular else ids, value, mapping)
    subtopics = level(key, docs, mapping)
    return draw(level(key, subtopics, st.just(dict) if regular else st.sampled_from([dict, OrderedDict])))


runs = st.one_of(st.just({"q": {"a": 1.0, "b": 2.0}, "1": {"c": 0.5}}), st.just({"q": {"a": "x"}}),
                 st.just([("q", "a", 1.0), ("q", "a", 2.0)]), st.just([("q", "a", 1.0)]))


@differential
@given(hostile_qrels(), runs)
def test_qrels_dicts_native_equals_reference(qrels, run):
    run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")


def test_irregular_dicts_read_as_their_regular_form():
    regular = evalcore.evaluate_run({"1": {"2": {"a": 1.0}}}, {"1": {"a": 1.0}}, MEASURES, qrels_format="subtopics")
    for qrels in ({1: {2: {"a": 1}}}, {"1": OrderedDict({"2": {"a": 1}})}, {Text("1"): {"2": {Text("a"): Grade(1)}}}):
        got = run_all("evaluate_run", qrels, {"1": {"a": 1.0}}, MEASURES, qrels_format="subtopics")
        assert got[0] == "ok" and got[1].mean == regular.mean, qrels


def test_faults_of_irregular_dicts_in_both_cores():
    for qrels, error, text in (({"q": {"1": {"a": math.nan}}}, ValueError, "grade must be finite"),
                               ({"q": {"1": {"a": True}}}, TypeError, "grade must be a float or int"),
                               ({"q": {1: {"a": 1}, "1": {"a": 2}}}, evalcore.errors.RunInputError, "twice"),
                               ({"q": {"1": ["a"]}}, TypeError, "must map documents to grades")):
        outcome = run_all("evaluate_run", qrels, {"q": {"a": "x"}}, MEASURES, qrels_format="subtopics")
        assert outcome[0] == "error" and outcome[1][0] == error.__name__ and text in str(outcome[1]), (qrels, outcome)
    for api in (evalcore, evalcore.reference):  # a grade too large for a float: float()'s own error
        with pytest.raises(OverflowError):
            api.evaluate_run({"q": {"1": {"a": 10 ** 400}}}, {"q": {"a": "x"}}, MEASURES, qrels_format="subtopics")


def test_files_qrels_fault_before_the_run_fault_and_first_duplicate():
    with trec_files("q 1 a 1\nq 2 b 1\nq 1 a 0\nq 2 b 0\n", "q Q0 a 1 x t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")
    assert outcome[0] == "error" and outcome[1][2].endswith("qrels") and outcome[1][3] == 3
    assert "first on line 1" in outcome[1][1]
    with trec_files("q 1 b 1\nq 1 a 1\nq 1 a 0\nq 1 b 0\n", "q Q0 a 1 1 t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")
    assert outcome[0] == "error" and outcome[1][3] == 3 and "document 'a'" in outcome[1][1]
    with trec_files("q 1 a 1\n", "q Q0 a 1 x t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")
    assert outcome[0] == "error" and outcome[1][2].endswith("run") and outcome[1][3] == 1


def test_first_duplicate_across_interleaved_queries():
    # Duplicates are found by a table of (subtopic, document) keys, each query's judgments in
    # input order: the earliest second listing wins, and a malformed line before it. (Rows
    # are checked by runs/diversity.py before the core sees them: the earliest row too.)
    with trec_files("r 1 a 1\nq 1 a 1\nq 1 b 1\nq 1 b 0\nr 1 a 0\nq 1 a 0\n", "q Q0 a 1 1 t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")
    assert outcome[0] == "error" and outcome[1][3] == 4
    assert "query 'q' subtopic '1' lists document 'b' twice (first on line 3)" in outcome[1][1]
    for text, line, words in (("q 1 a 1\nq 1 a 0\nq 1\n", 2, "twice"), ("q 1 a 1\nq 1\nq 1 a 0\n", 2, "4 fields")):
        with trec_files(text, "q Q0 a 1 1 t\n") as (qrels, run):
            outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")
        assert outcome[0] == "error" and outcome[1][3] == line and words in outcome[1][1]
    rows = [("r", "1", "a", 1), ("q", "1", "b", 1), ("q", "1", "b", 0), ("r", "2", "c", 1), ("r", "2", "c", 0),
            ("r", "1", "a", 0)]
    for api in (evalcore, evalcore.reference):
        with pytest.raises(evalcore.errors.RunInputError,
                           match=r"row 2: query 'q' subtopic '1' lists document 'b' twice \(first on row 1\)$"):
            api.evaluate_run(rows, {"q": {"a": 1.0}}, MEASURES, qrels_format="subtopics")


def test_kept_buffers_are_written_over_by_each_reading():
    """The reading's buffers are kept from call to call with their columns' size, to be
    written over (diversity/reading_buffers.hpp): a large evaluation from files, then a
    small one from dicts (its run read without hashes or order flags), a smaller one from
    files, one whose run is not grouped by query, and the large one again, each equal to
    the reference's."""
    def value(queries, docs, shift):
        qrels = {f"q{q}": {str(s): {f"d{(q * 7 + i * s) % (docs + 5)}": (i + s + shift) % 3 for i in range(docs // 2)}
                           for s in range(1, 4)} for q in range(queries)}
        run = {f"q{q}": {f"d{i}": float((i * 13 + q + shift) % 17) for i in range(docs)} for q in range(queries)}
        return qrels, run

    def files(qrels, run, interleaved=False):
        rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
        if interleaved:  # queries taking turns: the run is not grouped by query
            rows.sort(key=lambda row: (row[1], row[0]))
        return trec_files("\n".join(subtopic_lines(qrels)) + "\n", "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in rows))

    large, small, smaller = value(40, 120, 0), value(3, 9, 1), value(7, 30, 2)
    for kind, (qrels, run) in [("files", large), ("dicts", small), ("files", smaller), ("interleaved", smaller),
                               ("dicts", large), ("files", large)]:
        if kind == "dicts":
            run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics", threads=2)
            continue
        with files(qrels, run, interleaved=kind == "interleaved") as (qrels_path, run_path):
            outcome = run_all("evaluate_run", qrels_path, run_path, MEASURES, qrels_format="subtopics", threads=2)
        assert outcome[0] == "ok" and outcome[1] == evalcore.evaluate_run(qrels, run, MEASURES, qrels_format="subtopics")
