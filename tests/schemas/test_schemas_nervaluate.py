"""evaluate_schemas against nervaluate 1.2.1 itself: equal (==, every count and score, overall
and per label) where its greedy matching is unambiguous; never a worse matching where it is
ambiguous; and the fixed example where nervaluate's result depends on the order of the
entities while evalcore's does not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import slow_examples

from evalcore.testing.schemas import (
    SCHEMA_LABELS, bio_tag_corpus, is_unambiguous, schema_spans, unambiguous_schema_spans,
)

nervaluate = pytest.importorskip("nervaluate")
from nervaluate_peer import BUDGET, SCHEMAS, assert_equal_to_nervaluate, credit, nervaluate_result  # noqa: E402


@slow_examples(BUDGET)
@given(unambiguous_schema_spans(), st.sampled_from([SCHEMA_LABELS, ("PER", "LOC"), ("ORG",)]))
def test_equal_to_nervaluate_on_unambiguous_spans(corpus, labels):
    true, pred = corpus
    assert all(is_unambiguous(t, p) for t, p in zip(true, pred))
    ours = evalcore.evaluate_schemas(true, pred, labels=list(labels))
    assert_equal_to_nervaluate(ours, nervaluate_result(true, pred, labels, "dict"))


def _entities(tags):
    return nervaluate.list_to_spans(tags)


@slow_examples(BUDGET)
@given(bio_tag_corpus(ill_formed=False, max_tokens=15))
def test_equal_to_nervaluate_on_unambiguous_tags(corpus):
    true, pred = corpus
    keep = [i for i, (t, p) in enumerate(zip(_entities(true), _entities(pred))) if is_unambiguous(t, p)]
    true, pred = [true[i] for i in keep], [pred[i] for i in keep]
    if not true:
        return
    labels = ["PER", "LOC", "ORG"]
    assert_equal_to_nervaluate(evalcore.evaluate_schemas(true, pred, labels=labels, input="tags"),
                  nervaluate_result(true, pred, labels, "list"))


@slow_examples(BUDGET)
@given(bio_tag_corpus(ill_formed=True))
def test_ill_formed_tags_refused_where_nervaluate_refuses_them(corpus):
    true, pred = corpus
    try:
        nervaluate_result(true, pred, ["PER", "LOC", "ORG"], "list")
        refused = False
    except ValueError:
        refused = True
    try:
        evalcore.evaluate_schemas(true, pred, input="tags")
        ours = False
    except evalcore.EvaluationError as err:
        assert err.code == "SCHEMA_VIOLATION"
        ours = True
    assert ours == refused


@slow_examples(BUDGET)
@given(schema_spans())
def test_never_fewer_correct_pairs_than_nervaluate(corpus):
    """Anywhere, ambiguous inputs included: evalcore's matching has the most correct pairs
    (and in the partial schema the most credit), so its precision and recall are at least
    nervaluate's, and equal where nervaluate happened to find a best matching."""
    true, pred = corpus
    ours = evalcore.evaluate_schemas(true, pred)
    overall, _ = nervaluate_result(true, pred, SCHEMA_LABELS, "dict")
    for schema in SCHEMAS:
        assert credit(ours["overall"][schema], schema) >= credit(overall[schema], schema)
        for field in ("possible", "actual"):
            assert ours["overall"][schema][field] == overall[schema][field]
    if all(is_unambiguous(t, p) for t, p in zip(true, pred)):
        assert ours["overall"] == overall


# docs/schemas.md, "Where nervaluate's result depends on the order": one prediction
# overlapping two true entities, and a second prediction exactly on the first of them.
TRUE = [[{"label": "PER", "start": 0, "end": 1}, {"label": "PER", "start": 2, "end": 4}]]
PRED_FIRST = [[{"label": "PER", "start": 1, "end": 3}, {"label": "PER", "start": 0, "end": 1}]]
PRED_SECOND = [list(reversed(PRED_FIRST[0]))]


def test_nervaluate_depends_on_the_order_here_and_evalcore_does_not():
    first, _ = nervaluate_result(TRUE, PRED_FIRST, ["PER"], "dict")
    second, _ = nervaluate_result(TRUE, PRED_SECOND, ["PER"], "dict")
    assert first["strict"]["correct"] == 0 and first["strict"]["incorrect"] == 1 and first["strict"]["spurious"] == 1
    assert second["strict"]["correct"] == 1 and second["strict"]["incorrect"] == 1
    ours_first = evalcore.evaluate_schemas(TRUE, PRED_FIRST)
    assert ours_first == evalcore.evaluate_schemas(TRUE, PRED_SECOND)
    assert ours_first["overall"] == second  # the order where nervaluate's greedy choice is the best


def test_labels_outside_tags_are_left_out_as_nervaluate_does():
    true = [[{"label": "PER", "start": 0, "end": 1}, {"label": "XYZ", "start": 3, "end": 3}]]
    pred = [[{"label": "XYZ", "start": 0, "end": 1}, {"label": "XYZ", "start": 3, "end": 3}]]
    ours = evalcore.evaluate_schemas(true, pred, labels=["PER"])
    assert_equal_to_nervaluate(ours, nervaluate_result(true, pred, ["PER"], "dict"))
    assert list(ours["perLabel"]) == ["PER"] and ours["overall"]["strict"]["missed"] == 1


def test_empty_documents_count_as_nervaluate_counts_them():
    true = [[], [{"label": "PER", "start": 0, "end": 0}], []]
    pred = [[], [], [{"label": "LOC", "start": 2, "end": 5}]]
    assert_equal_to_nervaluate(evalcore.evaluate_schemas(true, pred), nervaluate_result(true, pred, SCHEMA_LABELS, "dict"))


def test_unequal_document_counts_refused_where_nervaluate_refuses_them():
    with pytest.raises(ValueError, match="Number of predicted documents"):
        nervaluate_result([[], []], [[]], SCHEMA_LABELS, "dict")
    with pytest.raises(evalcore.EvaluationError, match="pred has none for document 1"):
        evalcore.evaluate_schemas([[], []], [[]])
