"""Native vs reference on generated requests, valid and invalid: identical envelopes or
identical error code, status and pointer (tests/common.py)."""

from hypothesis import given

from common import run_all
from strategies import limits, ranking_requests, valid_ranking_requests


@given(request=ranking_requests, limits=limits)
def test_ranking_native_equals_reference(request, limits):
    run_all("ranking_evaluate", request, limits=limits)


@given(request=valid_ranking_requests())
def test_ranking_valid_requests_are_accepted_identically(request):
    outcome = run_all("ranking_evaluate", request)
    assert outcome[0] == "ok", outcome
