"""evaluate_schemas: the native core and its pure-Python twin agree (tests/common.py) on every
input, faulty ones included, and both refuse with the same messages."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from evalcore import EvaluationError
from evalcore.testing.schemas import ILL_FORMED_TAGS, bio_tag_corpus, schema_spans
from common import differential, expect_result, run_all, run_fresh


@differential
@given(schema_spans(), st.sampled_from([None, ["PER", "LOC"], ["MISC", "NONE"]]), st.integers(1, 3))
def test_spans_native_equals_reference(corpus, labels, threads):
    true, pred = corpus
    expect_result("evaluate_schemas", true, pred, labels=labels, threads=threads)


@differential
@given(bio_tag_corpus(), st.sampled_from([None, ["PER"], ["LOC", "ORG"]]))
def test_tags_native_equals_reference(corpus, labels):
    true, pred = corpus
    run_all("evaluate_schemas", true, pred, labels=labels, input="tags")


@differential
@given(schema_spans(max_entities=10, max_offset=12), st.integers(1, 60))
def test_the_step_limit_refuses_the_same_documents(corpus, steps):
    true, pred = corpus
    run_all("evaluate_schemas", true, pred, limits={"matching_steps": steps})


_FAULTY = st.sampled_from([
    None, 3.0, True, "x", -1, 2 ** 60, 2 ** 70, [], {"label": 1}, {"label": "PER", "start": 0},
])


@differential
@given(schema_spans(max_documents=3, max_entities=3), _FAULTY, st.sampled_from(["label", "start", "end", "entity", "doc"]),
       st.booleans())
def test_faulty_spans_are_refused_alike(corpus, value, where, in_pred):
    true, pred = corpus
    side = pred if in_pred else true
    if where == "doc":
        side[0] = value
    elif side[0] and where == "entity":
        side[0][0] = value
    elif side[0]:
        side[0][0][where] = value
    outcome = run_all("evaluate_schemas", true, pred)
    assert outcome[0] in ("ok", "error")


def _message(module, *args, **kwargs):
    with pytest.raises(EvaluationError) as caught:
        module.evaluate_schemas(*args, **kwargs)
    return caught.value.code, caught.value.pointer, caught.value.message


CASES = [
    ("spans", {}, [[]], [[], []], "SCHEMA_VIOLATION", "/true",
     "true has 1 documents and pred has 2: give one document of predictions for each true one (true has none for document 1)"),
    ("spans", {}, {"a": 1}, [], "SCHEMA_VIOLATION", "/true",
     "true must be a list of documents, each one of lists of entities {'label', 'start', 'end'}; got dict"),
    ("spans", {}, [[{"label": "PER", "start": 3, "end": 1}]], [[]], "INVALID_SPAN", "/true/0/0/end",
     "true[0][0] ends at 1 before it starts at 3: 'end' is inclusive (an entity of one token has end == start)"),
    ("spans", {}, [[]], [[{"label": "PER", "start": -2, "end": 1}]], "INVALID_SPAN", "/pred/0/0/start",
     "pred[0][0]['start'] is -2: offsets start at 0"),
    ("spans", {}, [[]], [[{"label": "PER", "start": 0, "end": 2 ** 64}]], "INVALID_SPAN", "/pred/0/0/end",
     "pred[0][0]['end'] is 18446744073709551616, above 9007199254740991, the largest offset evalcore reads"),
    ("spans", {}, [[{"label": "PER", "end": 1}]], [[]], "SCHEMA_VIOLATION", "/true/0/0",
     "true[0][0] has no 'start': an entity is {'label': str, 'start': int, 'end': int}, 'end' inclusive"),
    ("spans", {}, [[{"label": "PER", "start": 1.0, "end": 1}]], [[]], "SCHEMA_VIOLATION", "/true/0/0/start",
     "true[0][0]['start'] must be an int, got float"),
    ("spans", {}, [[("PER", 0, 1)]], [[]], "SCHEMA_VIOLATION", "/true/0/0",
     "true[0][0] must be a dict: an entity is {'label': str, 'start': int, 'end': int}, 'end' inclusive; got tuple"),
    ("tags", {}, [["O", "B-PER"]], [["O"]], "SCHEMA_VIOLATION", "/pred/0",
     "document 0 has 2 tags in true and 1 in pred: tag the same tokens in both"),
    ("tags", {}, [["O", "E-PER"]], [["O", "O"]], "SCHEMA_VIOLATION", "/true/0/1",
     "true[0][1] is 'E-PER', which starts an entity: it must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as "
     "nervaluate's list loader reads them); convert IOB1, IOE, IOBES or BILOU tags to BIO first"),
    ("tags", {}, [["O"]], [[7]], "SCHEMA_VIOLATION", "/pred/0/0", "pred[0][0] must be a str tag, got int"),
    ("spans", {"limits": {"matching_steps": 2}},
     [[], [{"label": "A", "start": 0, "end": 3}, {"label": "A", "start": 2, "end": 5}]],
     [[], [{"label": "A", "start": 1, "end": 4}, {"label": "B", "start": 0, "end": 5}]], "MATCHING_LIMIT", "/pred/1",
     "document 1: matching its entities needs more than 2 steps (limits matching_steps): many of its entities overlap "
     "one another; split the document (into sentences), or raise the limit"),
]


@pytest.mark.parametrize("input, options, true, pred, code, pointer, message", CASES)
def test_faults_name_the_argument_position_and_limit(input, options, true, pred, code, pointer, message):
    for module in (evalcore, evalcore.reference):
        got = _message(module, copy.deepcopy(true), copy.deepcopy(pred), input=input, **options)
        assert got == (code, pointer, message), module.__name__


def test_ill_formed_tags_inside_an_entity_continue_it_as_nervaluate_reads_them():
    # "X-PER" continues an open PER chunk (same type after two characters, not 'B'); only
    # where it would start an entity is it refused.
    assert "X-PER" in ILL_FORMED_TAGS
    result = expect_result("evaluate_schemas", [["B-PER", "X-PER", "O"]], [["B-PER", "I-PER", "O"]], input="tags")
    assert result["overall"]["strict"]["correct"] == 1


@pytest.mark.parametrize("options, error", [
    ({"input": "dict"}, ValueError), ({"threads": 0}, ValueError), ({"threads": 1.5}, TypeError),
    ({"labels": "PER"}, TypeError), ({"labels": ["PER", 3]}, TypeError),
])
def test_bad_keyword_arguments(options, error):
    for module in (evalcore, evalcore.reference):
        with pytest.raises(error):
            module.evaluate_schemas([[]], [[]], **options)


def test_generators_are_read_as_lists():
    def make():
        entity = {"label": "A", "start": 0, "end": 0}
        return (iter([[entity]]), iter([[dict(entity)]])), {}
    outcome = run_fresh("evaluate_schemas", make)
    assert outcome[1]["overall"]["strict"]["correct"] == 1
