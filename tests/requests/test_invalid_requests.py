"""evalcore.testing.invalid_requests: each generated request is rejected by both
implementations with exactly the code and pointer it comes with, for every code of the
contract. Budgets are explicit (not the profile's): each property's inputs are cheap
variations of one fault each, and every code gets its own run."""

import pytest
from hypothesis import HealthCheck, given, settings

import evalcore
from common import expect_error, run_all
from evalcore import STATUS_BY_CODE, Limits
from evalcore.testing import error_codes, invalid_requests

FUNCTIONS = {"ranking-evaluate": "ranking_evaluate", "span-evaluate": "span_evaluate", "score": "score"}
SMALL = {"span-evaluate": Limits(matching_steps=150, output_bytes=3000),
         "score": Limits(output_bytes=500, input_bytes=1 << 30, json_nodes=10_000_000)}
BUDGET = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))


def check(operation, form, request, code, pointer, limits=None):
    if form == "json":
        outcome = run_all("evaluate_json", operation, request, limits=limits)
        assert outcome[0] == "error", f"expected {code} at {pointer!r}, got a result"
        assert outcome[1][:3:2] == (code, pointer), f"expected {code} at {pointer!r}, got {outcome[1]}"
    else:
        expect_error(FUNCTIONS[operation], request, code, pointer, limits=limits)


@pytest.mark.parametrize("form", ["python", "json"])
@pytest.mark.parametrize("operation", list(FUNCTIONS))
def test_every_invalid_request_gets_its_code_and_pointer(operation, form):
    @BUDGET
    @given(invalid_requests(operation, form=form))
    def run(case):
        check(operation, form, *case)

    run()


@pytest.mark.parametrize("form", ["python", "json"])
@pytest.mark.parametrize("operation", list(FUNCTIONS))
def test_each_code_comes_out(operation, form):
    for code in error_codes(operation, form=form):
        @settings(BUDGET, max_examples=8)
        @given(invalid_requests(operation, form=form, codes=[code]))
        def run(case):
            assert case[1] == code
            check(operation, form, *case)

        run()


@pytest.mark.parametrize("operation", ["span-evaluate", "score"])
def test_codes_that_need_smaller_limits(operation):
    limits = SMALL[operation]
    wanted = {"span-evaluate": {"MATCHING_LIMIT", "OUTPUT_LIMIT"}, "score": {"OUTPUT_LIMIT"}}[operation]
    assert wanted <= set(error_codes(operation, limits=limits)) and not wanted & set(error_codes(operation))

    @settings(BUDGET, max_examples=20)
    @given(invalid_requests(operation, codes=sorted(wanted), limits=limits))
    def run(case):
        check(operation, "python", *case, limits=limits)

    run()


def test_together_they_cover_the_contract():
    covered = set()
    for operation in FUNCTIONS:
        for form in ("python", "json"):
            covered |= set(error_codes(operation, form=form, limits=SMALL.get(operation)))
    assert covered == set(STATUS_BY_CODE)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="operation must be one of"):
        invalid_requests("rank")
    with pytest.raises(ValueError, match="form must be 'python' or 'json'"):
        invalid_requests("score", form="yaml")
    with pytest.raises(ValueError, match="codes must be a non-empty choice of .* for score"):
        invalid_requests("score", codes=["UNJUDGED_DOCUMENT"])
    assert "MATCHING_LIMIT" not in error_codes("span-evaluate")  # 100 spans a side never need 2,000,000 steps
    assert evalcore.DEFAULT_LIMITS.matching_steps == 2_000_000
