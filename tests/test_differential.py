"""Native vs reference on generated requests, valid and invalid: identical envelopes or
identical error code, status and pointer (tests/common.py)."""

from hypothesis import given
from hypothesis import strategies as st

from common import expect_error, expect_result, run_all
from evalcore.reference.spans import matching_steps
from strategies import (
    limits,
    mutated,
    score_requests,
    valid_score_requests,
    ranking_requests,
    span_limits,
    span_requests,
    valid_ranking_requests,
    valid_span_documents,
    valid_span_requests,
)


@given(request=ranking_requests, limits=limits)
def test_ranking_native_equals_reference(request, limits):
    run_all("ranking_evaluate", request, limits=limits)


@given(request=valid_ranking_requests())
def test_ranking_valid_requests_are_accepted_identically(request):
    outcome = run_all("ranking_evaluate", request)
    assert outcome[0] == "ok", outcome


@given(request=span_requests, limits=span_limits)
def test_span_native_equals_reference(request, limits):
    run_all("span_evaluate", request, limits=limits)


@given(request=valid_span_requests())
def test_span_matching_steps_are_counted_alike(request):
    # The reference's step count S: the native core must accept matching_steps = S and
    # refuse S - 1, so both count steps exactly as SPEC §3 describes.
    steps = matching_steps(request)
    expect_result("span_evaluate", request, limits={"matching_steps": max(steps, 1)})
    if steps > 1:
        expect_error("span_evaluate", request, "MATCHING_LIMIT", "", limits={"matching_steps": steps - 1})


@given(documents=st.lists(st.one_of(valid_span_documents(), valid_span_documents(), mutated(valid_span_documents())), max_size=6),
       match=st.sampled_from(["exact", "overlap"]), minimum_iou=st.sampled_from([0.5, 1.0, 0.2]),
       threads=st.sampled_from([1, 3]), per_document=st.booleans())
def test_span_corpus_native_equals_reference(documents, match, minimum_iou, threads, per_document):
    run_all("span_evaluate_corpus", documents, match=match, minimum_iou=minimum_iou, threads=threads, per_document=per_document)


@given(request=score_requests, limits=st.one_of(st.none(), limits))
def test_score_native_equals_reference(request, limits):
    run_all("score", request, limits=limits)


@given(request=valid_score_requests())
def test_score_valid_requests_are_accepted_identically(request):
    assert run_all("score", request)[0] == "ok"
