"""The raw-JSON front door: evaluate_json agrees with the dict API byte for byte, and hostile
bodies get the right code and pointer (never a crash)."""

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from evalcore import EvaluationError, Limits
from common import run_all, slow_examples
from evalcore.testing import arbitrary_requests, request_limits

OPERATIONS = {"ranking-evaluate": "ranking_evaluate", "span-evaluate": "span_evaluate", "score": "score"}


def body_of(request, style):
    """JSON text of a generated request, or None when JSON cannot hold it (sets, bytes)."""
    try:
        if style == "compact":
            return json.dumps(request, separators=(",", ":")).encode()
        if style == "spaced":
            return json.dumps(request, indent=2).encode()
        return json.dumps(request, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        return None


def outcome(call):
    try:
        return "ok", call()
    except EvaluationError as err:
        return "error", (err.code, err.status, err.pointer)


def agree(operation, request, style, limits):
    body = body_of(request, style)
    assume(body is not None)
    dict_api = getattr(evalcore, OPERATIONS[operation])
    from_dict = outcome(lambda: dict_api(json.loads(body), limits=limits))
    from_bytes = outcome(lambda: evalcore.evaluate_json(operation, body, limits=limits))
    assert from_dict[0] == from_bytes[0], (from_dict, from_bytes)
    if from_dict[0] == "error":
        assert from_dict[1] == from_bytes[1]
    else:
        assert json.loads(from_bytes[1]) == from_dict[1]
        assert from_bytes[1] == evalcore._core.compact_json(from_dict[1])  # the very same bytes
        # ...and the pure-Python front door writes them too.
        assert evalcore.reference.evaluate_json(operation, body, limits=limits) == from_bytes[1]


def roomy(limits):
    # The byte limit is measured on different texts (the body vs canonical JSON): keep it out of the way.
    base = limits or Limits()
    values = base.as_dict()
    values["input_bytes"] = 10**9
    return Limits(**values)


styles = st.sampled_from(["compact", "spaced", "unicode"])


@given(request=arbitrary_requests("ranking-evaluate"), style=styles, limits=request_limits("ranking-evaluate"))
def test_ranking_bytes_agree_with_dicts(request, style, limits):
    agree("ranking-evaluate", request, style, roomy(limits))


@slow_examples(500)
@given(request=arbitrary_requests("span-evaluate"), style=styles, limits=request_limits("span-evaluate"))
def test_span_bytes_agree_with_dicts(request, style, limits):
    agree("span-evaluate", request, style, roomy(limits))


@slow_examples(500)
@given(request=arbitrary_requests("score"), style=styles)
def test_score_bytes_agree_with_dicts(request, style):
    agree("score", request, style, None)


def error_of(operation, body, limits=None):
    with pytest.raises(EvaluationError) as info:
        evalcore.evaluate_json(operation, body, limits=limits)
    return info.value.code, info.value.pointer


RANKING = b'{"queries":[{"id":"q","retrieved":["a"],"judgments":[{"id":"a","grade":1}]}]}'

HOSTILE = [
    ("empty body", b"", "INVALID_JSON", ""),
    ("whitespace only", b" \n\t", "INVALID_JSON", ""),
    ("byte order mark", b"\xef\xbb\xbf" + RANKING, "INVALID_JSON", ""),
    ("trailing garbage", RANKING + b" x", "INVALID_JSON", ""),
    ("two values", RANKING + RANKING, "INVALID_JSON", ""),
    ("truncated UTF-8", b'{"queries":[{"id":"\xe2\x82"}]}', "INVALID_JSON", ""),
    ("overlong UTF-8", b'{"queries":[{"id":"\xc0\xaf"}]}', "INVALID_JSON", ""),
    ("UTF-8 encoded surrogate", b'{"queries":[{"id":"\xed\xa0\x80"}]}', "INVALID_JSON", ""),
    ("raw control character", b'{"queries":[{"id":"a\x01"}]}', "INVALID_JSON", ""),
    ("single quotes", b"{'queries':[]}", "INVALID_JSON", ""),
    ("trailing comma", b'{"queries":[],}', "INVALID_JSON", ""),
    ("leading zero", b'{"k":01}', "INVALID_JSON", ""),
    ("bare minus", b'{"k":-}', "INVALID_JSON", ""),
    ("NaN", b'{"queries":[],"k":NaN}', "INVALID_NUMBER", "/k"),
    ("Infinity", b'{"queries":[],"k":Infinity}', "INVALID_NUMBER", "/k"),
    ("-Infinity", b'{"queries":[],"k":-Infinity}', "INVALID_NUMBER", "/k"),
    ("1e999999", b'{"queries":[],"k":1e999999}', "NUMERIC_OVERFLOW", "/k"),
    ("800 digits", b'{"queries":[],"k":' + b"9" * 800 + b"}", "NUMERIC_OVERFLOW", "/k"),
    ("duplicate key", b'{"queries":[],"queries":[]}', "DUPLICATE_FIELD", "/queries"),
    ("nested duplicate key", b'{"queries":[{"id":"a","retrieved":[],"id":"b"}]}', "DUPLICATE_FIELD", "/queries/0/id"),
    ("__proto__", b'{"queries":[],"__proto__":{}}', "UNSAFE_KEY", "/__proto__"),
    ("lone surrogate escape", b'{"queries":[{"id":"\\ud800","retrieved":[],"judgments":[]}]}', "INVALID_UNICODE", "/queries/0/id"),
    ("reversed pair escape", b'{"queries":[{"id":"\\udc00\\ud800","retrieved":[],"judgments":[]}]}', "INVALID_UNICODE", "/queries/0/id"),
    ("10,000 levels deep", b"[" * 10000 + b"]" * 10000, "INPUT_LIMIT", "/0" * 20),
    ("1 MB string", b'{"queries":"' + b"x" * 1_000_000 + b'"}', "INPUT_LIMIT", ""),
]


@pytest.mark.parametrize("name,body,code,pointer", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_bodies(name, body, code, pointer):
    assert error_of("ranking-evaluate", body) == (code, pointer)


def test_large_inputs_under_raised_limits():
    big = Limits(input_bytes=50_000_000, json_nodes=10**9, json_depth=20000)
    # A 1 MB string parses, then fails the schema; a million-element array likewise.
    assert error_of("ranking-evaluate", b'{"queries":"' + b"x" * 1_000_000 + b'"}', big) == ("SCHEMA_VIOLATION", "/queries")
    million = b'{"queries":[' + b",".join([b"1"] * 1_000_000) + b"]}"
    assert error_of("ranking-evaluate", million, big) == ("SCHEMA_VIOLATION", "/queries")
    assert error_of("ranking-evaluate", million) == ("INPUT_LIMIT", "")
    deep = b"[" * 10000 + b"]" * 10000
    assert error_of("ranking-evaluate", deep, big) == ("SCHEMA_VIOLATION", "")


def test_numbers_as_written():
    body = b'{"queries":[{"id":"q","retrieved":["a","b"],"judgments":[{"id":"a","grade":-0},{"id":"b","grade":2.50e0}]}],"k":2.0}'
    result = json.loads(evalcore.evaluate_json("ranking-evaluate", body))["result"]
    assert result["k"] == 2 and result["queries"][0]["ranking"][1]["grade"] == 2.5
    assert b'"grade":0,' in evalcore.evaluate_json("ranking-evaluate", body)  # -0 is written 0
    tiny = b'{"queries":[{"id":"q","retrieved":["a"],"judgments":[{"id":"a","grade":1e-400}]}],"unjudged":"nonrelevant"}'
    assert json.loads(evalcore.evaluate_json("ranking-evaluate", tiny))["result"]["queries"][0]["ranking"][0]["grade"] == 0


def test_errors_carry_both_bodies():
    with pytest.raises(EvaluationError) as info:
        evalcore.evaluate_json("score", b'{"items":[{"predicted":[1],"ground_truth":[]}]}')
    err = info.value
    assert err.body["error"]["code"] == "SCHEMA_VIOLATION" and err.body["error"]["pointer"] == "/items/0/predicted/0"
    assert err.mixpeek_body == {"detail": [{"loc": ["body", "items", 0, "predicted", 0], "msg": err.message, "type": "schema_violation"}]}
    with pytest.raises(EvaluationError) as info:
        evalcore.evaluate_json("score", b"{")
    assert info.value.mixpeek_body["success"] is False and info.value.mixpeek_body["status"] == 400


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        evalcore.evaluate_json("nope", b"{}")
    assert json.loads(evalcore.evaluate_json("score", bytearray(b'{"predicted":[],"ground_truth":[]}')))["count"] == 1


SCORE_BODY = b'{"predicted":["a"],"ground_truth":["a"]}'


@pytest.mark.parametrize("implementation", [evalcore, evalcore.reference], ids=["native", "reference"])
@pytest.mark.parametrize(
    "body",
    [SCORE_BODY, bytearray(SCORE_BODY), memoryview(SCORE_BODY), memoryview(bytearray(SCORE_BODY)), SCORE_BODY.decode()],
    ids=["bytes", "bytearray", "memoryview", "memoryview-of-bytearray", "str"],
)
def test_body_types_that_are_text(implementation, body):
    assert json.loads(implementation.evaluate_json("score", body))["per_item"] == [
        {"precision": 1.0, "recall": 1.0, "f1": 1.0, "f2": 1.0}
    ]


@pytest.mark.parametrize("implementation", [evalcore, evalcore.reference], ids=["native", "reference"])
@pytest.mark.parametrize(
    "body",
    [
        5,  # bytes(5) would be five NUL bytes
        [123, 125],  # bytes([...]) would be "{}"
        memoryview(b"{}" * 4).cast("d"),  # a float64 view: its memory is not text
        memoryview(b"{}{}")[::2],  # not contiguous
        None,
        3.5,
    ],
    ids=["int", "list-of-ints", "float64-memoryview", "strided-memoryview", "None", "float"],
)
def test_body_types_that_are_not_text(implementation, body):
    with pytest.raises(TypeError, match="body"):
        implementation.evaluate_json("score", body)


def test_str_body_with_a_lone_surrogate_is_invalid_json():
    body = '{"predicted":["\ud800"],"ground_truth":[]}'  # the character itself, not an escape
    assert run_all("evaluate_json", "score", body) == ("error", ("INVALID_JSON", 400, ""))


@pytest.mark.parametrize(
    "body, pointer",
    [
        (b"[" * 50_000, "/0" * 20),  # the 21st container; 50,000 levels once made the reference recurse
        (b'{"a":' * 19_000, "/a" * 20),
        (b'{"queries":[' + b"[" * 40 + b"]" * 40 + b"]}", "/queries" + "/0" * 19),
        (b'{"a":[1,2,{"b":' + b"[" * 30, "/a/2/b" + "/0" * 17),
    ],
)
def test_nesting_past_the_depth_limit_is_input_limit_in_both(body, pointer):
    assert len(body) < 100_000
    assert run_all("evaluate_json", "ranking-evaluate", body) == ("error", ("INPUT_LIMIT", 413, pointer))


@pytest.mark.parametrize(
    "body, expected",
    [
        (b"[1,,2" + b"[" * 100, ("INVALID_JSON", 400, "")),  # malformed before the deep part
        (b"[NaN," + b"[" * 100, ("INVALID_NUMBER", 422, "/0")),
        (b'{"__proto__":' + b"[" * 100, ("UNSAFE_KEY", 422, "/__proto__")),
        (b'{"a":1,"a":' + b"[" * 100, ("DUPLICATE_FIELD", 422, "/a")),
        (b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[", 1]', ("SCHEMA_VIOLATION", 422, "")),  # brackets in a string are text
    ],
)
def test_a_fault_before_the_deep_part_wins_in_both(body, expected):
    assert run_all("evaluate_json", "ranking-evaluate", body) == ("error", expected)
