"""The span corpus for NER users (issue 24 item 5): spans without IDs are numbered by position,
documents without text are scored by offsets alone; native and reference agree on valid and
broken documents of that form, and the single span-evaluate request still requires both."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import differential, expect_error, expect_result, run_all, slow_examples

# Examples per property: each compares whole corpora (and, against a peer, runs the peer's
# pure-Python code, 20-40 ms an example); 120 keep the README's test command under 10
# minutes on 2 cores while the well- and ill-formed cases the strategies draw still appear
# (hypothesis tries the boundary ones first). CI's profile does not raise it.
BUDGET = 120

from evalcore import EvaluationError
from evalcore.testing import mutated, shifted_offsets, span_documents


def _without_ids(spans):
    return [{key: value for key, value in span.items() if key != "id"} for span in spans]


@st.composite
def ner_documents(draw, base=span_documents()):
    """A valid span document with, independently, its text left out and either list's IDs
    left out (what a tagger's output converted to spans looks like)."""
    document = copy.deepcopy(draw(base))
    for side in ("references", "predictions"):
        if draw(st.booleans()):
            document[side] = _without_ids(document[side])
    if draw(st.booleans()):
        del document["text"]
    return document


def _numbered_explicitly(document):
    """The document with the IDs the corpus gives a list without IDs written out."""
    out = dict(document)
    for side in ("references", "predictions"):
        spans = document[side]
        if spans and "id" not in spans[0]:
            out[side] = [dict(span, id=str(i)) for i, span in enumerate(spans)]
    return out


@differential
@given(st.lists(ner_documents(), max_size=6), st.sampled_from(["exact", "overlap"]), st.booleans())
def test_native_equals_reference_on_ner_documents(documents, match, per_document):
    run_all("span_evaluate_corpus", documents, match=match, per_document=per_document)


@slow_examples(BUDGET)
@given(st.lists(st.one_of(mutated(ner_documents()), ner_documents(shifted_offsets(span_documents())), ner_documents()),
                max_size=4))
def test_native_equals_reference_on_broken_ner_documents(documents):
    run_all("span_evaluate_corpus", documents, match="overlap", per_document=True)


@slow_examples(BUDGET)
@given(st.lists(ner_documents(), max_size=6), st.sampled_from(["exact", "overlap"]))
def test_missing_ids_are_positions_as_strings(documents, match):
    # Numbering by position is exactly the document with those IDs written out.
    numbered = expect_result("span_evaluate_corpus", documents, match=match, per_document=True)
    explicit = expect_result("span_evaluate_corpus", [_numbered_explicitly(d) for d in documents], match=match,
                             per_document=True)
    assert numbered == explicit
    for document, result in zip(documents, numbered["perDocument"]):
        references, predictions = document["references"], document["predictions"]
        for m in result["matches"]:  # a numbered ID points back at its span
            if "id" not in references[0]:
                assert references[int(m["referenceId"])]["label"] == m["label"]
            if "id" not in predictions[0]:
                assert predictions[int(m["predictionId"])]["label"] == m["label"]


@slow_examples(BUDGET)
@given(st.lists(span_documents(), max_size=6), st.sampled_from(["exact", "overlap"]), st.data())
def test_a_document_without_text_scores_as_with_it(documents, match, data):
    # A valid document's text only adds checks: without it every score is the same.
    dropped = [data.draw(st.booleans()) for _ in documents]
    textless = [{k: v for k, v in d.items() if k != "text"} if drop else d for d, drop in zip(documents, dropped)]
    with_text = expect_result("span_evaluate_corpus", documents, match=match, per_document=True)
    without = expect_result("span_evaluate_corpus", textless, match=match, per_document=True)
    assert without["documentsWithoutText"] == sum(dropped)
    assert without["perDocumentTextChecked"] == [not drop for drop in dropped]
    assert with_text["documentsWithoutText"] == 0 and all(with_text["perDocumentTextChecked"])
    for key in ("overall", "macro", "weighted", "perLabel", "perDocument"):
        assert without[key] == with_text[key]


def test_a_tagger_output_without_ids_or_text():
    documents = [
        {"references": [{"label": "PER", "start": 0, "end": 2}, {"label": "LOC", "start": 5, "end": 6}],
         "predictions": [{"label": "PER", "start": 0, "end": 2}, {"label": "ORG", "start": 5, "end": 6}]},
        {"references": [{"label": "LOC", "start": 10**12, "end": 10**12 + 3}],
         "predictions": [{"label": "LOC", "start": 10**12, "end": 10**12 + 3}]},
    ]
    result = expect_result("span_evaluate_corpus", documents, per_document=True)
    assert result["documentsWithoutText"] == 2 and result["perDocumentTextChecked"] == [False, False]
    first = result["perDocument"][0]
    assert [(m["predictionId"], m["referenceId"]) for m in first["matches"]] == [("0", "0")]
    assert first["unmatchedPredictionIds"] == ["1"] and first["unmatchedReferenceIds"] == ["1"]
    assert (result["overall"]["matched"], result["overall"]["predictions"], result["overall"]["references"]) == (2, 3, 3)


def test_numbering_follows_positions_past_nine():
    spans = [{"label": "X", "start": i, "end": i + 1} for i in range(12)]
    result = expect_result("span_evaluate_corpus", [{"references": spans, "predictions": spans[:1]}], per_document=True)
    assert result["perDocument"][0]["unmatchedReferenceIds"] == sorted(str(i) for i in range(1, 12))


def _document(**change):
    document = {"text": "Ada in Paris", "references": [{"id": "r1", "label": "PER", "start": 0, "end": 3}],
                "predictions": [{"label": "PER", "start": 0, "end": 3}, {"label": "LOC", "start": 7, "end": 12}]}
    document.update(change)
    return document


MIXED = [
    # (what, document, pointer, message after "document 1: ")
    ("an id after none", _document(predictions=[{"label": "PER", "start": 0, "end": 3},
                                                {"id": "p", "label": "LOC", "start": 7, "end": 12}]),
     "/1/predictions/1",
     'predictions/1 has an id but predictions/0 has none; give every span of a document\'s predictions an id, '
     'or none (then each is numbered by its position: "0", "1", ...)'),
    ("none after an id", _document(references=[{"id": "r1", "label": "PER", "start": 0, "end": 3},
                                               {"label": "LOC", "start": 7, "end": 12}]),
     "/1/references/1",
     'references/1 has no id but references/0 has one; give every span of a document\'s references an id, '
     'or none (then each is numbered by its position: "0", "1", ...)'),
]


@pytest.mark.parametrize("what,document,pointer,message", MIXED, ids=[m[0] for m in MIXED])
def test_a_list_mixing_given_and_missing_ids_is_refused(what, document, pointer, message):
    documents = [_document(), document]
    expect_error("span_evaluate_corpus", documents, "SCHEMA_VIOLATION", pointer)
    for implementation in (evalcore, evalcore.reference):
        with pytest.raises(EvaluationError) as info:
            implementation.span_evaluate_corpus(documents)
        assert info.value.message == "document 1: " + message


def test_the_earlier_mixed_list_in_document_order_is_the_fault():
    mixed = [{"id": "a", "label": "X", "start": 0, "end": 1}, {"label": "X", "start": 1, "end": 2}]
    expect_error("span_evaluate_corpus", [{"predictions": mixed, "references": mixed}], "SCHEMA_VIOLATION",
                 "/0/predictions/1")
    expect_error("span_evaluate_corpus", [{"references": mixed, "predictions": mixed}], "SCHEMA_VIOLATION",
                 "/0/references/1")


def test_a_schema_fault_comes_before_mixed_ids():
    document = _document(references=[{"id": "r1", "label": "PER", "start": 0, "end": 3},
                                     {"label": "LOC", "start": -1, "end": 12}])
    expect_error("span_evaluate_corpus", [document], "SCHEMA_VIOLATION", "/0/references/1/start")


@pytest.mark.parametrize("span,code,pointer,message", [
    ({"label": "X", "start": 3, "end": 3}, "INVALID_SPAN", "/0/references/0", "a span needs start < end, got [3, 3)"),
    ({"label": "X", "start": 4, "end": 2}, "INVALID_SPAN", "/0/references/0", "a span needs start < end, got [4, 2)"),
    ({"label": "X", "start": -1, "end": 2}, "SCHEMA_VIOLATION", "/0/references/0/start", None),
    ({"label": "X", "start": 0.5, "end": 2}, "SCHEMA_VIOLATION", "/0/references/0/start", None),
    ({"label": "X", "start": 0, "end": 2**53}, "SCHEMA_VIOLATION", "/0/references/0/end", None),
    ({"start": 0, "end": 2}, "SCHEMA_VIOLATION", "/0/references/0", "a span is missing the required field 'label'"),
])
def test_offsets_alone_keep_every_other_rule(span, code, pointer, message):
    documents = [{"references": [span], "predictions": []}]
    expect_error("span_evaluate_corpus", documents, code, pointer)
    if message is not None:
        for implementation in (evalcore, evalcore.reference):
            with pytest.raises(EvaluationError) as info:
                implementation.span_evaluate_corpus(documents)
            assert info.value.message == "document 0: " + message


def test_duplicates_are_still_refused_without_ids_or_text():
    twice = [{"label": "X", "start": 0, "end": 2}, {"label": "X", "start": 0, "end": 2}]
    expect_error("span_evaluate_corpus", [{"references": twice, "predictions": []}], "DUPLICATE_SPAN", "/0/references/1")


def test_a_document_needs_its_span_lists():
    expect_error("span_evaluate_corpus", [{"references": []}], "SCHEMA_VIOLATION", "/0")


def test_the_single_request_still_requires_text_and_ids():
    request = _document()
    expect_error("span_evaluate", request, "SCHEMA_VIOLATION", "/predictions/0")
    request = {k: v for k, v in _document(predictions=[]).items() if k != "text"}
    expect_error("span_evaluate", request, "SCHEMA_VIOLATION", "")
