"""The diversity measures on two threads (issue 25 item 6, h25-divspeed2): the queries are
scored on ``threads`` threads (16 a share, so a run needs more than 16 judged queries for the
second thread to take any), and a TREC run file is parsed in parts on them (256 KiB a part at
least). Native == reference whatever the threads: the same values, and a fault found in the
second thread's share of the run (a malformed line, a document listed twice) reaches the
caller as the reference reports it, the first one in the file first."""

from __future__ import annotations

from typing import Any, Dict

from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import differential, run_all, slow_examples, trec_files
from evalcore.testing.diversity import DIVERSITY_MEASURES, subtopic_judgments, subtopic_lines

MEASURES = list(DIVERSITY_MEASURES)


@st.composite
def many_queries(draw: Any) -> Dict[str, Any]:
    """subtopic_judgments' queries copied 17 to 40 times (suffixed IDs, scores shifted by the
    copy's number now and then), so that both threads take queries."""
    value = draw(subtopic_judgments())
    copies = draw(st.integers(17, 40))
    shift = draw(st.booleans())
    qrels = {f"{q}-{k}": subtopics for k in range(copies) for q, subtopics in value["qrels"].items()}
    run = {f"{q}-{k}": {doc: score + (k % 3 if shift else 0) for doc, score in docs.items()}
           for k in range(copies) for q, docs in value["run"].items()}
    return {"qrels": qrels, "run": run}


# Each example scores 17 to 120 queries in both cores, twice natively (tens of ms): 100 keep
# it to a few seconds, and the thread split is the same for any of them.
@slow_examples(100)
@given(many_queries(), st.sampled_from(["skip", "zero"]), st.sampled_from([None, 2]), st.booleans())
def test_two_threads_native_equals_reference(value, missing, max_retrieved, judged_only):
    options = dict(qrels_format="subtopics", missing=missing, max_retrieved=max_retrieved, judged_only=judged_only)
    outcome = run_all("evaluate_run", value["qrels"], value["run"], MEASURES, threads=2, **options)
    one = evalcore.evaluate_run(value["qrels"], value["run"], MEASURES, threads=1, **options)
    assert outcome[0] == "ok" and outcome[1] == one  # bit for bit, NaN equal to NaN


def test_two_threads_on_files_equal_one_thread():
    value = {"qrels": {f"q{k}": {"1": {f"d{i}": (i + k) % 3 for i in range(30)}, "2": {f"d{i}": i % 2 for i in range(5, 40)}}
                       for k in range(60)},
             "run": {f"q{k}": {f"d{i}": float((i * 7 + k) % 11) for i in range(50)} for k in range(60)}}
    run_text = "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, docs in value["run"].items() for d, s in docs.items())
    with trec_files("\n".join(subtopic_lines(value["qrels"])) + "\n", run_text) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics", threads=2)
        one = evalcore.evaluate_run(qrels, run, MEASURES, qrels_format="subtopics", threads=1)
    assert outcome[0] == "ok" and len(outcome[1].query_ids) == 60 and outcome[1] == one


def big_run(lines: int) -> list:
    """A run file's lines, 80 documents a query (about 3 MiB for 100,000 lines: two parts)."""
    return [f"q{i // 80} Q0 document-{i % 80:05d} {i % 80 + 1} {1000 - i % 80}.5 a-long-run-tag\n" for i in range(lines)]


def test_faults_in_the_second_threads_share_of_the_run_reach_the_caller():
    qrels_text = "q1 1 document-00003 1\nq900 2 document-00007 1\n"
    lines = big_run(100_000)
    assert sum(map(len, lines)) > 2 << 20  # two parts of at least 1 MiB
    cases = []
    bad_score = list(lines)
    bad_score[95_000] = "q1187 Q0 document-00040 41 not-a-number t\n"
    cases.append((bad_score, 95_001, "not-a-number"))
    twice = list(lines)
    twice[90_001] = twice[90_000]  # a document listed twice, late in the file
    cases.append((twice, 90_002, "twice"))
    both = list(bad_score)
    both[60_000] = "q750 Q0 document-00000\n"  # also in the second part, earlier: reported first
    cases.append((both, 60_001, "at least 6 fields"))
    for run_lines, line, text in cases:
        with trec_files(qrels_text, "".join(run_lines)) as (qrels, run):
            outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics", threads=2)
        assert outcome[0] == "error" and outcome[1][0] == "RunInputError", outcome
        assert outcome[1][2].endswith("run") and outcome[1][3] == line and text in outcome[1][1], outcome


def test_ids_read_once_per_dict_in_any_form():
    """The core copies a query's and a subtopic's text once for all their judgments; an ID
    it cannot take (a lone surrogate) sends the dict to runs/diversity.py as before, whether
    it keys judgments or only empty dicts."""
    run = {"q": {"a": 1.0, "b": 2.0}}
    for qrels in ({"q": {"1": {"a": 1, "b": 0}, "2": {"b": 2}}}, {"\ud800": {}}, {"q": {"\ud800": {}}},
                  {"\ud800": {"1": {"a": 1}}}, {"q": {"\ud800": {"a": 1}}}, {"q": {"1": {"\ud800": 1}}},
                  {"q": {}, "r": {"1": {}}}):
        run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")


# IDs that tie on their first 8 bytes, that start others, with bytes past ASCII and NUL: a
# ranking out of order is sorted by score and an ID's first 8 bytes, then by the whole ID.
TIED_IDS = ["document", "document-1", "document-10", "document-2", "documen", "documentä", "ä", "a", "a\x00",
            "a\x00b", "\x7f", "\x80", "document\x00", "abcd", "abce", "ab\x7fcd", "ab\x80cd", "abcdef0", "abcdef\x80",
            "abcde\x00", "abcdefgh0123", "abcdefgh0124", "abcdefgi0123"]


@differential
@given(st.lists(st.tuples(st.sampled_from(TIED_IDS), st.sampled_from([1.0, 2.0]), st.integers(0, 2)),
                min_size=1, max_size=12, unique_by=lambda t: t[0]))
def test_rankings_out_of_order_sorted_by_score_then_whole_id(entries):
    qrels = {"q": {"1": {doc: grade for doc, _score, grade in entries}, "2": {entries[-1][0]: 1}}}
    run = {"q": {doc: score for doc, score, _grade in entries}}
    run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics")


def big_qrels(lines: int) -> list:
    """Subtopic qrels lines (about 33 bytes each), queries interleaved in blocks of 50 lines
    (a query comes back after others), subtopic 9 first seen late: 20,000 lines make about
    650 KiB, two parts of at least 256 KiB on two threads."""
    return [f"q{(i // 50) % 7} {9 if i > 15_000 and i % 13 == 0 else i % 4 + 1} judged-document-{i % 997:05d}-{i // 997} "
            f"{i % 3}\n" for i in range(lines)]


def test_qrels_read_in_parts_on_two_threads():
    """Subtopic qrels of more than 512 KiB are parsed in two parts: the values (queries and
    subtopics numbered by first appearance in the whole file) and the faults (a malformed
    line, a document listed twice across the parts, whichever comes first) are as on one
    thread and as the reference reads them."""
    lines = big_qrels(20_000)
    assert sum(map(len, lines)) > 2 << 18
    run_text = "".join(f"q{q} Q0 judged-document-{d:05d}-{d % 20} 0 {d % 17}.25 t\n" for q in range(7) for d in range(997))
    with trec_files("".join(lines), run_text) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics", threads=2)
        one = evalcore.evaluate_run(qrels, run, MEASURES, qrels_format="subtopics", threads=1)
    assert outcome[0] == "ok" and outcome[1] == one and len(one.query_ids) == 7
    malformed = list(lines)
    malformed[17_000] = "q3 1 document-x not-a-grade\n"
    twice = list(lines)
    twice[16_000] = twice[1_000]  # q6 subtopic 1, first on line 1,001
    early = list(malformed)
    early[3_000] = "q1 1 d\n"  # in the first part: before the second part's faults
    cases = [(malformed, 17_001, "not-a-grade"), (twice, 16_001, "twice (first on line 1001)"),
             ([*twice[:17_000], malformed[17_000], *twice[17_001:]], 16_001, "twice"), (early, 3_001, "4 fields")]
    for qrels_lines, line, text in cases:
        with trec_files("".join(qrels_lines), run_text) as (qrels, run):
            outcome = run_all("evaluate_run", qrels, run, MEASURES, qrels_format="subtopics", threads=2)
        assert outcome[0] == "error" and outcome[1][0] == "RunInputError", outcome
        assert outcome[1][2].endswith("qrels") and outcome[1][3] == line and text in outcome[1][1], outcome


def test_calls_on_several_python_threads_keep_their_own_buffers():
    """The core keeps one call's reading buffers for the next (diversity/reading_buffers.hpp):
    calls running at once on several Python threads (the GIL released while they read and
    score) each read into buffers of their own, and a call after a larger, a smaller, a
    faulty or a dict input reads as a fresh process would (== the reference)."""
    from concurrent.futures import ThreadPoolExecutor

    inputs = []
    for k, copies in enumerate((3, 40, 1, 17)):
        qrels = {f"q{q}": {str(s): {f"d{(q * 7 + i * s) % 90}-{k}": (i + s + q) % 3 for i in range(25)}
                           for s in range(1, 4)} for q in range(copies)}
        run = {f"q{q}": {f"d{i}-{k}": float((i * 13 + q) % 9) for i in range(90)} for q in range(copies)}
        run_text = "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, docs in run.items() for d, s in docs.items())
        inputs.append((qrels, run, "\n".join(subtopic_lines(qrels)) + "\n", run_text))
    expected = [evalcore.reference.evaluate_run(q, r, MEASURES, qrels_format="subtopics") for q, r, _, _ in inputs]
    with trec_files(inputs[0][2], inputs[0][3]) as (q0, r0), trec_files(inputs[1][2], inputs[1][3]) as (q1, r1), \
            trec_files(inputs[2][2], inputs[2][3]) as (q2, r2), trec_files(inputs[3][2], inputs[3][3]) as (q3, r3):
        files = [(q0, r0), (q1, r1), (q2, r2), (q3, r3)]

        def evaluate(k: int) -> Any:
            if k % 3 == 2:  # a dict now and then: its views point into the call's own arena
                return evalcore.evaluate_run(inputs[k % 4][0], inputs[k % 4][1], MEASURES, qrels_format="subtopics",
                                             threads=2)
            return evalcore.evaluate_run(*files[k % 4], MEASURES, qrels_format="subtopics", threads=1 + k % 2)

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(evaluate, range(48)))
        for k, result in enumerate(results):
            assert result == expected[k % 4], k
        with trec_files("q1 1 d 1\nq1 1 d 1\n", inputs[1][3]) as (bad, run):  # a fault frees that call's buffers
            outcome = run_all("evaluate_run", bad, run, MEASURES, qrels_format="subtopics")
        assert outcome[0] == "error" and "twice" in outcome[1][1]
        for k in range(4):
            assert evalcore.evaluate_run(*files[k], MEASURES, qrels_format="subtopics") == expected[k]
