"""ECMAScript number text, JSON.stringify string escaping and SHA-256, native and reference."""

import hashlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from evalcore.reference.requests._json import compact_json, ecma_number

NUMBER_CASES = [
    (1e21, "1e+21"),
    (1e20, "100000000000000000000"),
    (1e-7, "1e-7"),
    (1e-6, "0.000001"),
    (5e-324, "5e-324"),
    (0.1 + 0.2, "0.30000000000000004"),
    (-0.0, "0"),
    (0.0, "0"),
    (2.0**53, "9007199254740992"),
    (123456789012345680000.0, "123456789012345680000"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (-1.5, "-1.5"),
    (100.0, "100"),
    (3.0, "3"),
    (0.6666666666666666, "0.6666666666666666"),
    (1.234e-5, "0.00001234"),
    (1.5e-7, "1.5e-7"),
    (12345678.9, "12345678.9"),
    (1e15, "1000000000000000"),
    (999999999999999.9, "999999999999999.9"),
    (2.5e21, "2.5e+21"),
]


@pytest.mark.parametrize("value,text", NUMBER_CASES, ids=[t for _, t in NUMBER_CASES])
@pytest.mark.parametrize("format_number", [evalcore._core.format_number, ecma_number], ids=["native", "reference"])
def test_ecmascript_number_table(format_number, value, text):
    assert format_number(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_text_agrees_and_round_trips(value):
    text = evalcore._core.format_number(value)
    assert text == ecma_number(value)
    assert float(text) == value


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_have_no_text(value):
    with pytest.raises(ValueError):
        evalcore._core.format_number(value)
    with pytest.raises(ValueError):
        ecma_number(value)


STRING_CASES = [
    ("plain", '"plain"'),
    ('q"uote\\', '"q\\"uote\\\\"'),
    ("\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'),
    ("\x00\x1f\x7f", '"\\u0000\\u001f\x7f"'),
    ("é😀\u2028", '"é😀\u2028"'),
    ("\ud800x\udfff", '"\\ud800x\\udfff"'),
]


@pytest.mark.parametrize("value,text", STRING_CASES)
@pytest.mark.parametrize("serialize", [evalcore._core.compact_json, compact_json], ids=["native", "reference"])
def test_string_escaping_matches_json_stringify(serialize, value, text):
    assert serialize(value) == text.encode("utf-8", "surrogatepass")


json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**60), 2**60) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_compact_json_native_equals_reference(value):
    assert evalcore._core.compact_json(value) == compact_json(value)


@given(st.binary(max_size=300))
def test_sha256_matches_hashlib(data):
    assert evalcore._core.sha256_hex(data) == hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("size", [0, 55, 56, 63, 64, 65, 119, 120, 128, 1 << 20])
def test_sha256_padding_boundaries(size):
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    assert evalcore._core.sha256_hex(data) == hashlib.sha256(data).hexdigest()
