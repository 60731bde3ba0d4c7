"""Native vs reference on generated requests, valid and invalid: identical envelopes or
identical error code, status and pointer (tests/common.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import os
import tempfile

import evalcore.reference
from common import _run, assert_identical, differential, expect_error, expect_result, run_all, trec_files
from evalcore.reference.requests.spans import matching_steps
from evalcore.runs.evaluate import _evaluate_run
from evalcore.testing import (
    MEASURES,
    arbitrary_requests,
    mutated,
    ranking_requests,
    request_limits,
    run_options,
    runs,
    score_requests,
    span_documents,
    span_requests,
    trec_lines,
    trec_text,
)


@differential
@given(request=arbitrary_requests("ranking-evaluate"), limits=request_limits("ranking-evaluate"))
def test_ranking_native_equals_reference(request, limits):
    run_all("ranking_evaluate", request, limits=limits)


@differential
@given(request=ranking_requests())
def test_ranking_valid_requests_are_accepted_identically(request):
    outcome = run_all("ranking_evaluate", request)
    assert outcome[0] == "ok", outcome


@differential
@given(request=arbitrary_requests("span-evaluate"), limits=request_limits("span-evaluate"))
def test_span_native_equals_reference(request, limits):
    run_all("span_evaluate", request, limits=limits)


@differential
@given(request=span_requests())
def test_span_matching_steps_are_counted_alike(request):
    # The reference's step count S: the native core must accept matching_steps = S and
    # refuse S - 1, so both count steps exactly as docs/contract.md §3 describes.
    steps = matching_steps(request)
    expect_result("span_evaluate", request, limits={"matching_steps": max(steps, 1)})
    if steps > 1:
        expect_error("span_evaluate", request, "MATCHING_LIMIT", "", limits={"matching_steps": steps - 1})


@differential
@given(documents=st.lists(arbitrary_requests("span-document"), max_size=6),
       match=st.sampled_from(["exact", "overlap"]), minimum_iou=st.sampled_from([0.5, 1.0, 0.2]),
       threads=st.sampled_from([1, 3]), per_document=st.booleans())
def test_span_corpus_native_equals_reference(documents, match, minimum_iou, threads, per_document):
    run_all("span_evaluate_corpus", documents, match=match, minimum_iou=minimum_iou, threads=threads, per_document=per_document)


@differential
@given(request=arbitrary_requests("score"), limits=request_limits("score"))
def test_score_native_equals_reference(request, limits):
    run_all("score", request, limits=limits)


@differential
@given(request=score_requests())
def test_score_valid_requests_are_accepted_identically(request):
    assert run_all("score", request)[0] == "ok"


# ---- evaluate_run: dicts, files (streamed in blocks of any size), tables -----------------

measure_lists = st.lists(st.sampled_from(MEASURES), min_size=1, max_size=6, unique=True)


@differential
@given(value=st.one_of(runs(), mutated(runs())), measures=measure_lists, options=run_options(),
       threads=st.sampled_from([1, 2, 5]))
def test_run_dicts_native_equals_reference(value, measures, options, threads):
    run_all("evaluate_run", value.get("qrels"), value.get("run"), measures, threads=threads, **options)


@differential
@given(value=runs(), measures=measure_lists, options=run_options(), data=st.data(),
       block=st.sampled_from([1, 7, 40, 200, 1 << 20]), threads=st.sampled_from([1, 2, 3]))
def test_run_files_native_equals_reference(value, measures, options, data, block, threads):
    # Grouped, ungrouped and malformed files, read in blocks from 1 byte up: the streaming
    # reader must give what the reference gives reading the whole file at once.
    qrels_text = data.draw(trec_text(trec_lines(value, "qrels")), "qrels file")
    run_text = data.draw(trec_text(trec_lines(value, "run")), "run file")
    with trec_files(qrels_text, run_text) as (qrels_path, run_path):
        kwargs = {"relevant_at_least": 1, "gain": "linear", "ties": "score", "missing": "skip", **options}
        reference = _run(evalcore.reference.evaluate_run, (qrels_path, run_path, measures), dict(kwargs, threads=threads))
        native = _run(_evaluate_run, (qrels_path, run_path, measures), dict(kwargs, threads=threads, block_bytes=block))
    assert native[0] == reference[0], (native, reference)
    if native[0] == "ok":
        assert_identical(native[1], reference[1])
    else:
        assert native[1] == reference[1]


# The fast path's edges (a plain decimal of at most 15 digits, cpp/runs/records.cpp) and what
# falls past it to the general parser: each read as Python's float() reads it, or refused alike.
@pytest.mark.parametrize("number", ["-", "+", ".", "-.", "+.", "1.", ".5", "-0", "-0.0", "+.5", "1.2.3", "--1", "+-1",
                                    "-+1", "1e5", "1.5e-3", "0x10", "inf", "nan", "\u0661", "123456789012345",
                                    "1234567890123456", "0.000000000000001", "12345678.12345678",
                                    "999999999999999.", "99999999999999999999", "00000000000000000001.5", "1..",
                                    "-.5", "5.-"])
def test_score_and_grade_edges_parse_alike(number):
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = os.path.join(folder, "qrels"), os.path.join(folder, "run")
        with open(qrels_path, "w", encoding="utf-8") as handle:
            handle.write(f"q 0 a {number}\nq 0 b 0.3\n")
        with open(run_path, "w", encoding="utf-8") as handle:
            handle.write(f"q Q0 a 1 {number} r\nq Q0 b 2 0.25 r\n")
        run_all("evaluate_run", qrels_path, run_path, ["nDCG", "P@1"], relevant_at_least=1e-300)


@differential
@given(number=st.one_of(
    st.from_regex(r"\A\+?([0-9]{1,20}(\.[0-9]{0,20})?|\.[0-9]{1,20})([eE][+-]?[0-9]{1,3})?\Z"),
    st.floats(0, 1e6, allow_nan=False).map(repr),
    st.tuples(st.floats(0, 100, allow_nan=False), st.integers(0, 17)).map(lambda t: f"{t[0]:.{t[1]}f}"),
))
def test_trec_numbers_parse_to_the_same_double(number):
    # The grade decides nDCG's bits, so any difference in parsing shows.
    with tempfile.TemporaryDirectory() as folder:
        qrels_path = os.path.join(folder, "qrels")
        with open(qrels_path, "w", encoding="utf-8") as handle:
            handle.write(f"q 0 a {number}\nq 0 b 0.3\n")
        run_all("evaluate_run", qrels_path, {"q": ["b", "a"]}, ["nDCG", "P@2"], relevant_at_least=1e-300)
