"""Every error code of span-evaluate with its pointer, on both implementations."""

import pytest

import evalcore
from common import expect_error, expect_result
from evalcore import EvaluationError, Limits


def base():
    return {
        "text": "Ada 😀 in London.",  # the emoji is two UTF-16 units at offsets 4..6
        "references": [{"id": "r1", "label": "PER", "start": 0, "end": 3}, {"id": "r2", "label": "LOC", "start": 10, "end": 16}],
        "predictions": [{"id": "p1", "label": "PER", "start": 0, "end": 3}, {"id": "p2", "label": "LOC", "start": 10, "end": 15}],
    }


def edit(change):
    request = base()
    change(request)
    return request


CASES = [
    ("text missing", edit(lambda r: r.pop("text")), "SCHEMA_VIOLATION", "", None),
    ("unknown field", edit(lambda r: r.update(extra=1)), "SCHEMA_VIOLATION", "/extra", None),
    ("start is a float with a fraction", edit(lambda r: r["references"][0].update(start=0.5)), "SCHEMA_VIOLATION", "/references/0/start", None),
    ("start negative", edit(lambda r: r["references"][0].update(start=-1)), "SCHEMA_VIOLATION", "/references/0/start", None),
    ("end past 2^53-1", edit(lambda r: r["references"][0].update(end=2**53)), "SCHEMA_VIOLATION", "/references/0/end", None),
    ("label empty", edit(lambda r: r["predictions"][1].update(label="")), "SCHEMA_VIOLATION", "/predictions/1/label", None),
    ("match not in enum", edit(lambda r: r.update(match="fuzzy")), "SCHEMA_VIOLATION", "/match", None),
    ("minimumIou zero", edit(lambda r: r.update(minimumIou=0)), "SCHEMA_VIOLATION", "/minimumIou", None),
    ("minimumIou above one", edit(lambda r: r.update(minimumIou=1.01)), "SCHEMA_VIOLATION", "/minimumIou", None),
    ("too many predictions", edit(lambda r: None), "SCHEMA_VIOLATION", "/predictions", Limits(predictions=1)),
    ("text over the UTF-16 limit", edit(lambda r: r.update(text="😀" * 3)), "SCHEMA_VIOLATION", "/text", Limits(text_utf16_units=5)),
    ("empty span", edit(lambda r: r["references"][0].update(end=0)), "INVALID_SPAN", "/references/0", None),
    ("reversed span", edit(lambda r: r["predictions"][0].update(start=3, end=1)), "INVALID_SPAN", "/predictions/0", None),
    ("past the end", edit(lambda r: r["predictions"][1].update(end=18)), "INVALID_SPAN", "/predictions/1", None),
    ("start splits a surrogate pair", edit(lambda r: r["predictions"][1].update(start=5)), "INVALID_SPAN", "/predictions/1", None),
    ("end splits a surrogate pair", edit(lambda r: r["references"][0].update(end=5)), "INVALID_SPAN", "/references/0", None),
    ("duplicate span", edit(lambda r: r["predictions"].append({"id": "p3", "label": "PER", "start": 0, "end": 3})), "DUPLICATE_SPAN", "/predictions/2", None),
    ("duplicate id", edit(lambda r: r["references"].append({"id": "r1", "label": "PER", "start": 4, "end": 6})), "DUPLICATE_ID", "/references/2/id", None),
    ("lone surrogate in text", edit(lambda r: r.update(text="Ada \ud83d in London.")), "INVALID_UNICODE", "/text", None),
    ("lone surrogate in a label", edit(lambda r: r["predictions"][0].update(label="P\udfff")), "INVALID_UNICODE", "/predictions/0/label", None),
    ("unsafe key", edit(lambda r: r["references"][1].update(__proto__=1)), "UNSAFE_KEY", "/references/1/__proto__", None),
    ("too many steps", edit(lambda r: r.update(match="overlap")), "MATCHING_LIMIT", "", Limits(matching_steps=1)),
    ("result too large", base(), "OUTPUT_LIMIT", "", Limits(output_bytes=300)),
]


@pytest.mark.parametrize("name,request_,code,pointer,limits", CASES, ids=[c[0] for c in CASES])
def test_error_code_and_pointer(name, request_, code, pointer, limits):
    expect_error("span_evaluate", request_, code, pointer, limits=limits)


def test_same_id_once_on_each_side_is_fine():
    request = edit(lambda r: r["predictions"][0].update(id="r1"))
    expect_result("span_evaluate", request)


def test_span_object_fault_comes_before_its_members_faults():
    # The span object (INVALID_SPAN) precedes its own id (DUPLICATE_ID) in document order.
    request = edit(lambda r: r["references"].append({"id": "r1", "label": "PER", "start": 5, "end": 9}))
    expect_error("span_evaluate", request, "INVALID_SPAN", "/references/2")


def test_text_length_counts_utf16_units_not_code_points():
    # 3 emoji = 6 UTF-16 units: over a limit of 5 although it is 3 code points.
    with pytest.raises(EvaluationError) as info:
        evalcore.span_evaluate(edit(lambda r: r.update(text="😀" * 3, references=[], predictions=[])), limits={"text_utf16_units": 5})
    assert "UTF-16" in info.value.message


def test_corpus_errors_name_the_document():
    documents = [dict(base()), dict(base())]
    documents[1]["references"] = documents[1]["references"] + [{"id": "r1", "label": "X", "start": 0, "end": 1}]
    expect_error("span_evaluate_corpus", documents, "DUPLICATE_ID", "/1/references/2/id")
    with pytest.raises(EvaluationError) as info:
        evalcore.span_evaluate_corpus(documents)
    assert info.value.message.startswith("document 1: ")


def test_corpus_documents_take_no_request_options():
    documents = [dict(base(), match="overlap")]
    expect_error("span_evaluate_corpus", documents, "SCHEMA_VIOLATION", "/0/match")


@pytest.mark.parametrize("kwargs", [{"match": "fuzzy"}, {"minimum_iou": 0}, {"minimum_iou": True}, {"threads": 0}])
def test_corpus_options_are_checked(kwargs):
    for implementation in (evalcore, evalcore.reference):
        with pytest.raises(ValueError):
            implementation.span_evaluate_corpus([base()], **kwargs)
