"""Every error code that applies to ranking-evaluate, with its pointer, on both implementations."""

import copy

import pytest

import evalcore
from common import expect_error, expect_result
from evalcore import EvaluationError, Limits


def base():
    return {
        "queries": [
            {"id": "q1", "retrieved": ["a", "b", "c"], "judgments": [{"id": "a", "grade": 2}, {"id": "b", "grade": 0}, {"id": "c", "grade": 1}]},
            {"id": "q2", "retrieved": ["x"], "judgments": [{"id": "x", "grade": 1}]},
        ],
        "k": 3,
    }


def edit(change):
    request = base()
    change(request)
    return request


CASES = [
    # (name, request, code, pointer, limits)
    ("top level not an object", [1], "SCHEMA_VIOLATION", "", None),
    ("queries missing", {"k": 3}, "SCHEMA_VIOLATION", "", None),
    ("queries empty", {"queries": []}, "SCHEMA_VIOLATION", "/queries", None),
    ("unknown top-level field", edit(lambda r: r.update(extra=1)), "SCHEMA_VIOLATION", "/extra", None),
    ("unknown query field", edit(lambda r: r["queries"][1].update(note="x")), "SCHEMA_VIOLATION", "/queries/1/note", None),
    ("query field missing", edit(lambda r: r["queries"][0].pop("judgments")), "SCHEMA_VIOLATION", "/queries/0", None),
    ("k is a bool", edit(lambda r: r.update(k=True)), "SCHEMA_VIOLATION", "/k", None),
    ("k fractional", edit(lambda r: r.update(k=2.5)), "SCHEMA_VIOLATION", "/k", None),
    ("k zero", edit(lambda r: r.update(k=0)), "SCHEMA_VIOLATION", "/k", None),
    ("k over maximum", edit(lambda r: r.update(k=101)), "SCHEMA_VIOLATION", "/k", None),
    ("grade is a bool", edit(lambda r: r["queries"][0]["judgments"][1].update(grade=False)), "SCHEMA_VIOLATION", "/queries/0/judgments/1/grade", None),
    ("grade over 10", edit(lambda r: r["queries"][0]["judgments"][2].update(grade=10.5)), "SCHEMA_VIOLATION", "/queries/0/judgments/2/grade", None),
    ("relevantAtLeast zero", edit(lambda r: r.update(relevantAtLeast=0)), "SCHEMA_VIOLATION", "/relevantAtLeast", None),
    ("gain not in enum", edit(lambda r: r.update(gain="log")), "SCHEMA_VIOLATION", "/gain", None),
    ("unjudged not in enum", edit(lambda r: r.update(unjudged="skip")), "SCHEMA_VIOLATION", "/unjudged", None),
    ("id too long", edit(lambda r: r["queries"][0].update(id="x" * 81)), "SCHEMA_VIOLATION", "/queries/0/id", None),
    ("id of 41 emoji is 82 UTF-16 units", edit(lambda r: r["queries"][0].update(id="😀" * 41)), "SCHEMA_VIOLATION", "/queries/0/id", None),
    ("empty retrieved id", edit(lambda r: r["queries"][0]["retrieved"].append("")), "SCHEMA_VIOLATION", "/queries/0/retrieved/3", None),
    ("too many queries", {"queries": [{"id": f"q{i}", "retrieved": [], "judgments": []} for i in range(51)]}, "SCHEMA_VIOLATION", "/queries", None),
    ("a set has no JSON form", edit(lambda r: r["queries"][0].update(retrieved={"a"})), "SCHEMA_VIOLATION", "/queries/0/retrieved", None),
    ("non-string key", edit(lambda r: r["queries"][1].update({1: 2})), "SCHEMA_VIOLATION", "/queries/1", None),
    ("duplicate query id", edit(lambda r: r["queries"][1].update(id="q1")), "DUPLICATE_ID", "/queries/1/id", None),
    ("duplicate retrieved id", edit(lambda r: r["queries"][0]["retrieved"].append("a")), "DUPLICATE_ID", "/queries/0/retrieved/3", None),
    ("duplicate judgment id", edit(lambda r: r["queries"][0]["judgments"].append({"id": "b", "grade": 1})), "DUPLICATE_ID", "/queries/0/judgments/3/id", None),
    ("unjudged in top k", edit(lambda r: r["queries"][0]["retrieved"].insert(1, "zz")), "UNJUDGED_DOCUMENT", "/queries/0/retrieved/1", None),
    ("lone surrogate in an id", edit(lambda r: r["queries"][1].update(id="q\ud800")), "INVALID_UNICODE", "/queries/1/id", None),
    ("surrogate pair as two code points", edit(lambda r: r["queries"][0]["retrieved"].__setitem__(0, "\ud83d\ude00")), "INVALID_UNICODE", "/queries/0/retrieved/0", None),
    ("NaN", edit(lambda r: r["queries"][0]["judgments"][0].update(grade=float("nan"))), "INVALID_NUMBER", "/queries/0/judgments/0/grade", None),
    ("infinity", edit(lambda r: r.update(k=float("inf"))), "INVALID_NUMBER", "/k", None),
    ("int too large for binary64", edit(lambda r: r.update(k=10**400)), "NUMERIC_OVERFLOW", "/k", None),
    ("__proto__ key", edit(lambda r: r["queries"][0].update(__proto__={})), "UNSAFE_KEY", "/queries/0/__proto__", None),
    ("constructor key", edit(lambda r: r.update(constructor=1)), "UNSAFE_KEY", "/constructor", None),
    ("prototype key, escaped pointer", {"queries": [], "a/b": {"prototype": 1}}, "UNSAFE_KEY", "/a~1b/prototype", None),
    ("too deep", base(), "INPUT_LIMIT", "/queries/0/retrieved", Limits(json_depth=3)),
    ("too many values", base(), "INPUT_LIMIT", "", Limits(json_nodes=10)),
    ("too many bytes", base(), "INPUT_LIMIT", "", Limits(input_bytes=60)),
    ("result too large", base(), "OUTPUT_LIMIT", "", Limits(output_bytes=500)),
]


@pytest.mark.parametrize("name,request_,code,pointer,limits", CASES, ids=[c[0] for c in CASES])
def test_error_code_and_pointer(name, request_, code, pointer, limits):
    expect_error("ranking_evaluate", request_, code, pointer, limits=limits)


def test_error_carries_status_message_and_body():
    with pytest.raises(EvaluationError) as info:
        evalcore.ranking_evaluate(edit(lambda r: r["queries"][0]["retrieved"].append("a")))
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.code, err.status, err.pointer) == ("DUPLICATE_ID", 422, "/queries/0/retrieved/3")
    assert '"a"' in err.message and "twice" in err.message
    assert err.body == {"error": {"code": "DUPLICATE_ID", "status": 422, "message": err.message, "pointer": err.pointer}}


def test_message_names_the_limit():
    with pytest.raises(EvaluationError) as info:
        evalcore.ranking_evaluate(base(), limits=Limits(json_nodes=10))
    assert "jsonNodes = 10" in info.value.message


def test_schema_faults_come_before_semantic_faults():
    # A duplicate ID early in the document and a schema fault later: the schema fault wins.
    request = edit(lambda r: (r["queries"][1].update(id="q1"), r.update(gain="bad")))
    expect_error("ranking_evaluate", request, "SCHEMA_VIOLATION", "/gain")


def test_parse_faults_come_before_schema_faults():
    request = edit(lambda r: (r.update(k="ten"), r["queries"][1].update(id=float("nan"))))
    expect_error("ranking_evaluate", request, "INVALID_NUMBER", "/queries/1/id")


def test_first_semantic_fault_in_document_order_wins():
    request = base()
    request["queries"][0]["retrieved"].insert(0, "zz")  # unjudged at /queries/0/retrieved/0
    request["queries"][0]["judgments"].append({"id": "a", "grade": 1})  # duplicate later
    expect_error("ranking_evaluate", request, "UNJUDGED_DOCUMENT", "/queries/0/retrieved/0")
    # Key order is document order: with judgments before retrieved, the duplicate comes first.
    query = request["queries"][0]
    request["queries"][0] = {"id": query["id"], "judgments": query["judgments"], "retrieved": query["retrieved"]}
    expect_error("ranking_evaluate", request, "DUPLICATE_ID", "/queries/0/judgments/3/id")


def test_same_value_two_faults_lone_surrogate_wins():
    request = base()
    request["queries"][0]["retrieved"] = ["\ud800", "\ud800"]
    expect_error("ranking_evaluate", request, "INVALID_UNICODE", "/queries/0/retrieved/0")


def test_documents_past_k_are_not_checked_for_judgments():
    request = edit(lambda r: r["queries"][0]["retrieved"].append("unjudged-past-k"))
    expect_result("ranking_evaluate", request)


def test_three_point_zero_is_a_valid_k_and_hashes_as_three():
    a = expect_result("ranking_evaluate", edit(lambda r: r.update(k=3.0)))
    b = expect_result("ranking_evaluate", base())
    assert a["result"]["k"] == 3 and type(a["result"]["k"]) is int
    assert a["provenance"] == b["provenance"]


def test_defaults_are_applied_before_hashing():
    implicit = base()
    implicit.pop("k")
    explicit = dict(copy.deepcopy(implicit), k=10, relevantAtLeast=1, gain="linear", unjudged="error")
    assert expect_result("ranking_evaluate", implicit)["provenance"] == expect_result("ranking_evaluate", explicit)["provenance"]


def test_bool_is_not_a_number_even_where_1_would_be_valid():
    expect_error("ranking_evaluate", edit(lambda r: r.update(relevantAtLeast=True)), "SCHEMA_VIOLATION", "/relevantAtLeast")


def test_tuples_and_mappings_are_accepted():
    from types import MappingProxyType

    request = base()
    request["queries"][0]["retrieved"] = tuple(request["queries"][0]["retrieved"])
    assert expect_result("ranking_evaluate", MappingProxyType(request)) == expect_result("ranking_evaluate", base())


def test_raised_limits_allow_more():
    request = {"queries": [{"id": f"q{i}", "retrieved": [], "judgments": []} for i in range(51)]}
    expect_result("ranking_evaluate", request, limits={"queries": 60})


def test_limits_are_validated():
    with pytest.raises(TypeError):
        evalcore.ranking_evaluate(base(), limits={"bogus": 1})
    with pytest.raises(ValueError):
        Limits(json_depth=0)
