"""docs/contract.md §5, ExactSum's range and serialized form (issue 21, items 4 and 9): an exact sum
holds every total in [-2**1133, 2**1133) exactly (what the 277-byte form holds), an add or merge
that would leave that range is an OverflowError in both cores and changes nothing, a total past the
largest double rounds to ±inf as IEEE rounding gives, and from_bytes and merge take a serialized
form only as bytes, a bytearray or a memoryview of bytes (a TypeError, before anything is
allocated, for anything else)."""

from __future__ import annotations

import array
import math
import sys
import tracemalloc
from typing import Any, List, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import slow_examples

CORES = {"native": evalcore, "reference": evalcore.reference}
BIG = sys.float_info.max
TINY = 5e-324
# The range in units of 2^-1074: a 277-byte form's 276 bytes of two's complement.
LIMIT = 1 << 2207
MAX_FORM = b"\x01" + b"\xff" * 275 + b"\x7f"  # 2^2207 - 1 units, the largest total
MIN_FORM = b"\x01" + b"\x00" * 275 + b"\x80"  # -2^2207 units, the smallest
RANGE_MESSAGE = ("ExactSum: the total would leave [-2**1133, 2**1133), the range an exact sum holds "
                 "(its 277-byte serialized form, over 10**32 times the largest float): "
                 "scale the values down or keep separate sums")


def form(units: int) -> bytes:
    """The documented serialized form of a total of `units` * 2^-1074 (fewest bytes)."""
    length = max(1, ((units if units >= 0 else ~units).bit_length() + 8) // 8)
    return b"\x01" + units.to_bytes(length, "little", signed=True)


def outcome(step: Any) -> Tuple[str, Any]:
    """What a step gives: its value, or the error's type and message."""
    try:
        return ("ok", step())
    except (OverflowError, ValueError, TypeError) as err:
        return (type(err).__name__, str(err))


def state(total: Any) -> Tuple[bytes, float]:
    return total.to_bytes(), float(total)


# ---- the top of the range (item 4) ---------------------------------------------------------


@pytest.mark.parametrize("core", CORES)
def test_the_largest_double_doubles_109_times_and_the_110th_merge_is_an_overflow(core):
    total = CORES[core].ExactSum([BIG])
    for _ in range(109):  # BIG * 2^109 < 2^1133: still held, exactly
        total.merge(total)
    assert total.to_bytes() == form(int(BIG) << (1074 + 109)) and len(total.to_bytes()) == 277
    assert float(total) == math.inf
    before = total.to_bytes()
    with pytest.raises(OverflowError) as raised:
        total.merge(total)  # the native top digit wrapped here (-inf); the reference's form grew to 278 bytes
    assert str(raised.value) == RANGE_MESSAGE
    assert total.to_bytes() == before  # a refused merge changes nothing
    total.merge(CORES[core].ExactSum([-BIG]))  # and the sum goes on from there, exactly
    assert total.to_bytes() == form((int(BIG) << (1074 + 109)) - (int(BIG) << 1074))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("first, second", [(MAX_FORM, MAX_FORM), (MIN_FORM, MIN_FORM), (MAX_FORM, form(1)),
                                           (MIN_FORM, form(-1))])
def test_two_forms_whose_total_leaves_the_range_do_not_merge(core, first, second):
    total = CORES[core].ExactSum.from_bytes(first)  # valid 277-byte forms: from_bytes takes them
    with pytest.raises(OverflowError) as raised:
        total.merge(second)  # native: -1e-323 for MAX_FORM twice
    assert str(raised.value) == RANGE_MESSAGE
    assert total.to_bytes() == first


@pytest.mark.parametrize("core", CORES)
def test_the_extreme_forms_round_trip_and_cancel_exactly(core):
    module = CORES[core]
    assert module.ExactSum.from_bytes(MAX_FORM).to_bytes() == MAX_FORM
    assert module.ExactSum.from_bytes(MIN_FORM).to_bytes() == MIN_FORM
    assert state(module.ExactSum.from_bytes(MAX_FORM)) == (MAX_FORM, math.inf)
    assert state(module.ExactSum.from_bytes(MIN_FORM)) == (MIN_FORM, -math.inf)
    assert state(module.ExactSum.from_bytes(MAX_FORM).merge(MIN_FORM)) == (b"\x01\xff", -TINY)
    assert state(module.ExactSum.from_bytes(MIN_FORM).merge(form(LIMIT - 1))) == (b"\x01\xff", -TINY)
    assert state(module.ExactSum.from_bytes(MAX_FORM).merge(form(-1))) == (form(LIMIT - 2), math.inf)


@pytest.mark.parametrize("core", CORES)
def test_an_add_is_checked_on_its_total_so_values_cancelling_within_it_are_fine(core):
    module = CORES[core]
    total = module.ExactSum.from_bytes(MAX_FORM)
    with pytest.raises(OverflowError) as raised:
        total.add([BIG])
    assert str(raised.value) == RANGE_MESSAGE and total.to_bytes() == MAX_FORM
    assert total.add([BIG, 1.0, -BIG, -1.0]).to_bytes() == MAX_FORM  # past the range and back in one add
    assert total.add([-BIG]).to_bytes() == form(LIMIT - 1 - (int(BIG) << 1074))
    low = module.ExactSum.from_bytes(MIN_FORM)
    with pytest.raises(OverflowError):
        low.add([-TINY])
    assert low.add([TINY]).to_bytes() == form(-LIMIT + 1)


@pytest.mark.parametrize("core", CORES)
def test_sums_past_the_largest_double_are_exact_and_cancel_back_into_range(core):
    module = CORES[core]
    total = module.ExactSum([BIG] * 1000 + [TINY])
    assert float(total) == math.inf  # the exact total rounds past the largest double
    total.add([-BIG] * 999)
    assert float(total) == BIG  # exact again: BIG + 5e-324 rounds to BIG
    total.add([-BIG])
    assert state(total) == (b"\x01\x01", TINY)
    assert float(module.ExactSum([BIG, BIG, -BIG, -BIG, 0.5])) == 0.5  # docs/contract.md's example
    merged = module.ExactSum([-BIG] * 3).merge(module.ExactSum([-BIG] * 3))
    assert float(merged) == -math.inf
    assert float(merged.merge(module.ExactSum([BIG] * 6 + [-2.0**-1070]))) == -2.0**-1070


@pytest.mark.parametrize("core", CORES)
def test_ieee_rounding_at_the_largest_double(core):
    module = CORES[core]
    half_ulp = 2.0**970  # half the last place of the largest double: the tie rounds to even, 2^1024 = inf
    assert float(module.ExactSum([BIG, half_ulp])) == math.inf
    assert float(module.ExactSum([BIG, half_ulp, -TINY])) == BIG
    assert float(module.ExactSum([-BIG, -half_ulp])) == -math.inf
    assert float(module.ExactSum([-BIG, -half_ulp, TINY])) == -BIG
    assert float(module.ExactSum([BIG, 2.0**969])) == BIG
    assert float(module.ExactSum([BIG, -BIG, TINY, TINY])) == 2 * TINY  # denormals survive the cancellation


@pytest.mark.parametrize("core", CORES)
def test_many_denormals_add_up_exactly(core):
    module = CORES[core]
    count = 2**16
    assert float(module.ExactSum([TINY] * count)) == count * TINY
    doubled = module.ExactSum([TINY])
    for _ in range(2097):  # 5e-324 * 2^2097 is the largest power of two a double holds below 2^1024
        doubled.merge(doubled)
    assert float(doubled) == 2.0**1023


def test_millions_of_largest_doubles_then_merges_reach_the_top_of_the_range_exactly():
    count = 2**22  # one float64 repeated (a stride-0 array): the native core adds it 4 M times
    total = evalcore.ExactSum(np.broadcast_to(np.float64(BIG), (count,)))
    assert total.to_bytes() == form((int(BIG) << 1074) * count)
    total.merge(evalcore.ExactSum(np.broadcast_to(np.float64(-BIG), (count - 1,))))
    assert total.to_bytes() == form(int(BIG) << 1074) and float(total) == BIG
    total = evalcore.ExactSum(np.broadcast_to(np.float64(-BIG), (count,)))
    for _ in range(87):  # 2^22 * 2^87 copies of -BIG: 2^109, the most the range holds
        total.merge(total)
    assert total.to_bytes() == form(-(int(BIG) << (1074 + 109))) and float(total) == -math.inf
    with pytest.raises(OverflowError):
        total.merge(total)


# ---- native and reference, step by step -------------------------------------------------------

# Totals cheap to draw (a few bytes of entropy each, so a program of many steps fits Hypothesis's
# budget) that cluster at the edges: shifted small numbers, ±2^2207 nearby, the largest double doubled.
near_limit = st.one_of(
    st.builds(lambda mantissa, shift, delta: (mantissa << shift) + delta,
              st.integers(-(2**64), 2**64), st.integers(0, 2207), st.integers(-256, 256)),
    st.builds(lambda sign, delta: sign * LIMIT + delta, st.sampled_from([-1, 1]), st.integers(-(2**60), 2**60)),
    st.builds(lambda k, sign, delta: sign * (int(BIG) << (1074 + k)) + delta, st.integers(0, 112),
              st.sampled_from([-1, 1]), st.integers(-3, 3)),
).filter(lambda units: -LIMIT <= units < LIMIT)
extreme_values = st.one_of(
    st.sampled_from([BIG, -BIG, TINY, -TINY, 2.0**970, -2.0**970, 2.2250738585072014e-308, 1.0, -1.0, 0.0]),
    st.floats(allow_nan=False, allow_infinity=False),
)
steps = st.one_of(
    st.tuples(st.just("add"), st.lists(extreme_values, max_size=8)),
    st.tuples(st.just("merge_self"), st.none()),
    st.tuples(st.just("merge_form"), near_limit.map(form)),
    # Any bytes of a form's first version, up to past its 277: a head, then one byte repeated.
    st.tuples(st.just("merge_bytes"), st.builds(lambda head, fill, count: b"\x01" + head + bytes([fill]) * count,
                                                 st.binary(max_size=8), st.sampled_from([0x00, 0x7F, 0x80, 0xFF]),
                                                 st.integers(0, 290))),
)


def apply(module: Any, total: Any, step: Tuple[str, Any]) -> Any:
    kind, argument = step
    if kind == "add":
        return total.add(argument)
    if kind == "merge_self":
        return total.merge(total)
    return total.merge(argument)


@slow_examples(500)  # a program of up to 12 steps on both cores: tens of milliseconds an example
@given(start=st.one_of(near_limit, st.integers(-LIMIT, LIMIT - 1)), program=st.lists(steps, max_size=12))
def test_native_and_reference_agree_step_by_step_at_the_top_of_the_range(start, program):
    totals = {name: module.ExactSum.from_bytes(form(start)) for name, module in CORES.items()}
    for step in program:
        seen: List[Tuple[str, Any]] = []
        for name, module in CORES.items():
            result = outcome(lambda: apply(module, totals[name], step))
            seen.append((result[0], result[1] if result[0] != "ok" else None) + state(totals[name]))
            assert len(totals[name].to_bytes()) <= 277  # to_bytes makes only what from_bytes takes
            assert module.ExactSum.from_bytes(totals[name].to_bytes()) == totals[name]
        assert seen[0] == seen[1], f"{step!r:.200}: {seen!r:.400}"


@given(units=st.one_of(near_limit, st.integers(-LIMIT, LIMIT - 1)))
def test_every_total_in_range_serializes_to_its_documented_form_in_both(units):
    expected = units / (1 << 1074) if abs(units) < (1 << 2098) - (1 << 2044) else (math.inf if units > 0 else -math.inf)
    for module in CORES.values():
        total = module.ExactSum.from_bytes(form(units))
        assert total.to_bytes() == form(units) and len(form(units)) <= 277
        assert float(total) == expected


# ---- only bytes-like serialized forms (item 9) ---------------------------------------------------

not_bytes = [2**31, 5, [1, 5], (1, 5), "\x01\x00", None, 1.5, iter([1, 5])]


@pytest.mark.parametrize("data", not_bytes, ids=lambda data: type(data).__name__ + (str(data) if isinstance(data, int) else ""))
def test_from_bytes_takes_only_bytes_like_objects_before_allocating(data):
    messages = []
    for module in CORES.values():
        tracemalloc.start()
        try:
            with pytest.raises(TypeError) as raised:
                module.ExactSum.from_bytes(data)  # 2**31: bytes(2**31) allocated 2 GiB first
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 2**16, f"{peak} bytes allocated before refusing {type(data).__name__}"
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert messages[0] == (f"ExactSum.from_bytes: data must be bytes, a bytearray or a memoryview of bytes "
                           f"(a form to_bytes made), not {type(data).__name__}")


@pytest.mark.parametrize("data", not_bytes, ids=lambda data: type(data).__name__ + (str(data) if isinstance(data, int) else ""))
def test_merge_takes_an_exact_sum_or_a_bytes_like_form(data):
    messages = []
    for module in CORES.values():
        total = module.ExactSum([1.0])
        with pytest.raises(TypeError) as raised:
            total.merge(data)
        assert float(total) == 1.0
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert messages[0] == (f"ExactSum.merge: other must be an ExactSum or a form its to_bytes made "
                           f"(bytes, a bytearray or a memoryview of bytes), not {type(data).__name__}")


def test_a_memoryview_of_other_items_is_not_read_as_its_bytes():
    doubles = memoryview(array.array("d", [1.0]))  # its 8 bytes begin with 0x00: not a form, nor meant as one
    for module in CORES.values():
        for call, argument in ((module.ExactSum.from_bytes, "ExactSum.from_bytes: data"),
                               (module.ExactSum().merge, "ExactSum.merge: other")):
            with pytest.raises(TypeError) as raised:
                call(doubles)
            assert str(raised.value) == (f"{argument} must be a memoryview of bytes (format 'B', itemsize 1), "
                                         "got format 'd', itemsize 8")


@pytest.mark.parametrize("core", CORES)
def test_bytes_like_forms_are_taken(core):
    module = CORES[core]
    data = module.ExactSum([0.5, BIG]).to_bytes()
    for like in (data, bytearray(data), memoryview(data), memoryview(b"xx" + data)[2:]):
        assert module.ExactSum.from_bytes(like).to_bytes() == data
        assert module.ExactSum([-0.5]).merge(like) == module.ExactSum([BIG])
