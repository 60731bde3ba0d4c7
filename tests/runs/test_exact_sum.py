"""docs/contract.md §5's exact sum: the native accumulator and the reference's integer sum both give the
correctly rounded sum of any finite doubles, in any order, and evaluate_run's means do not
depend on the order of queries or documents."""

from __future__ import annotations

import math
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import expect_result, slow_examples
from evalcore import _core
from evalcore.reference.runs.evaluate import exact_sum

finite = st.floats(allow_nan=False, allow_infinity=False)
awkward = st.one_of(
    finite,
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, sys.float_info.max, -sys.float_info.max,
                     1.0, 1e16, -1e16, 2.0**53, 0.1, 1 / 3]),
)


@given(values=st.lists(awkward, max_size=60), seed=st.integers(0, 2**32))
def test_native_and_reference_give_the_correctly_rounded_sum_in_any_order(values, seed):
    shuffled = list(values)
    random.Random(seed).shuffle(shuffled)
    try:
        expected = math.fsum(values)  # correctly rounded (CPython's fsum)
    except OverflowError:
        expected = None
    native, native_shuffled, reference = _core.exact_sum(values), _core.exact_sum(shuffled), exact_sum(values)
    assert native == native_shuffled == reference or (math.isnan(native) and math.isnan(reference))
    if expected is not None and math.isfinite(expected):
        assert native == expected
    assert math.copysign(1.0, native) == math.copysign(1.0, reference) or native != 0.0


def test_cancellation_and_rounding_cases():
    assert _core.exact_sum([1e16, 1.0, -1e16]) == exact_sum([1e16, 1.0, -1e16]) == 1.0  # left to right: 0.0
    assert _core.exact_sum([1.0, 2.0**-53]) == 1.0  # a tie rounds to even
    assert _core.exact_sum([1.0, 2.0**-53, 2.0**-80]) == 1.0 + 2.0**-52  # past the tie: up
    assert _core.exact_sum([sys.float_info.max, sys.float_info.max]) == math.inf == exact_sum([sys.float_info.max] * 2)
    assert _core.exact_sum([5e-324] * 3) == 1.5e-323 == exact_sum([5e-324] * 3)
    assert _core.exact_sum([0.1] * 10) == 1.0 != sum([0.1] * 10)
    assert _core.exact_sum([]) == 0.0
    with pytest.raises(ValueError):
        _core.exact_sum([math.nan])


@slow_examples(500)
@given(data=st.data())
def test_means_do_not_depend_on_query_or_document_order(data):
    n = data.draw(st.integers(1, 30))
    grades = data.draw(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=6), min_size=n, max_size=n))
    qrels = {f"q{i}": {f"d{j}": g for j, g in enumerate(row)} for i, row in enumerate(grades)}
    run = {f"q{i}": {f"d{j}": float((i * 7 + j * 3) % 5) for j in range(8)} for i in range(n)}
    measures = ["P@3", "AP", "nDCG@5", "RR", "Bpref", "NumRet"]
    first = expect_result("evaluate_run", qrels, run, measures)
    order = data.draw(st.permutations(list(run)))
    shuffled_run = {q: dict(data.draw(st.permutations(list(run[q].items())))) for q in order}
    shuffled_qrels = {q: qrels[q] for q in data.draw(st.permutations(list(qrels)))}
    second = expect_result("evaluate_run", shuffled_qrels, shuffled_run, measures)
    assert first.mean == second.mean and first.defined_counts == second.defined_counts


# ---- the mergeable, serialized form (evalcore.ExactSum and its twin) ---------------------

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402
import numpy as np  # noqa: E402


@given(values=st.lists(awkward, max_size=60), cuts=st.lists(st.integers(0, 60), max_size=4), seed=st.integers(0, 2**32))
def test_partial_sums_merge_to_the_same_bytes_in_any_split_and_order(values, cuts, seed):
    whole_native, whole_reference = evalcore.ExactSum(values), evalcore.reference.ExactSum(values)
    assert whole_native.to_bytes() == whole_reference.to_bytes()
    assert float(whole_native) == float(whole_reference) or math.isnan(float(whole_native))
    bounds = sorted({0, len(values), *[min(c, len(values)) for c in cuts]})
    parts = [values[a:b] for a, b in zip(bounds, bounds[1:])]
    random.Random(seed).shuffle(parts)
    for module in (evalcore, evalcore.reference):
        serialized = [module.ExactSum(part).to_bytes() for part in parts]
        merged = module.ExactSum()
        for data in serialized:  # each part as it would arrive from another machine
            merged.merge(data)
        assert merged.to_bytes() == whole_native.to_bytes()
        assert module.ExactSum.from_bytes(merged.to_bytes()).to_bytes() == merged.to_bytes()
    assert evalcore.ExactSum(np.array(values, dtype=np.float64)).to_bytes() == whole_native.to_bytes()


def test_serialized_form_is_the_documented_integer():
    # 1.0 is 2^1074 units: 0x01, then 2^1074 in little-endian two's complement (135 bytes + sign room)
    data = evalcore.ExactSum([1.0]).to_bytes()
    assert data[0] == 1 and int.from_bytes(data[1:], "little", signed=True) == 1 << 1074
    assert evalcore.ExactSum([]).to_bytes() == b"\x01\x00" == evalcore.reference.ExactSum([]).to_bytes()
    assert evalcore.ExactSum([-5e-324]).to_bytes() == b"\x01\xff"
    assert evalcore.ExactSum([5e-324] * 128).to_bytes() == b"\x01\x80\x00"  # +128 needs a sign byte


@pytest.mark.parametrize("data", [b"", b"\x01", b"\x02\x00", b"\x01" + b"\x00" * 400])
def test_bytes_that_no_sum_made_are_refused_by_both(data):
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError, match="not a serialized exact sum"):
            module.ExactSum.from_bytes(data)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_values_are_refused_by_both(value):
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError, match="finite values only"):
            module.ExactSum([1.0, value])
