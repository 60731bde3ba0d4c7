"""evaluate_schemas' properties: the result never depends on the order of the entities or the
documents, nor on the thread count; the counts add up; tags and their spans agree."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import differential, expect_result
from evalcore.testing.schemas import bio_tag_corpus, schema_spans

SCHEMAS = ("strict", "exact", "partial", "ent_type")


@differential
@given(schema_spans(max_entities=8, max_offset=15), st.randoms(use_true_random=False))
def test_order_of_entities_and_documents_changes_nothing(corpus, rng):
    true, pred = corpus
    expected = expect_result("evaluate_schemas", true, pred)
    order = list(range(len(true)))
    rng.shuffle(order)
    shuffled_true = [rng.sample(true[i], len(true[i])) for i in order]
    shuffled_pred = [rng.sample(pred[i], len(pred[i])) for i in order]
    assert expect_result("evaluate_schemas", shuffled_true, shuffled_pred) == expected


@given(schema_spans(max_documents=5))
def test_counts_add_up(corpus):
    true, pred = corpus
    result = evalcore.evaluate_schemas(true, pred)
    scopes = [result["overall"], *result["perLabel"].values()]
    for scope in scopes:
        for name in SCHEMAS:
            c = scope[name]
            assert c["correct"] + c["incorrect"] + c["partial"] + c["missed"] == c["possible"]
            assert c["correct"] + c["incorrect"] + c["partial"] + c["spurious"] == c["actual"]
            assert (c["partial"] == 0) or name == "partial"
            assert (c["incorrect"] == 0) or name != "partial"
    overall = result["overall"]
    assert overall["exact"]["correct"] == overall["partial"]["correct"]
    assert overall["strict"]["correct"] <= min(overall["exact"]["correct"], overall["ent_type"]["correct"])
    assert overall["strict"]["possible"] == sum(len(doc) for doc in true)


def test_threads_give_the_same_result():
    rng = random.Random(24)
    true, pred = [], []
    for _ in range(3000):
        def doc():
            out = []
            for _ in range(rng.randrange(5)):
                start = rng.randrange(30)
                out.append({"label": rng.choice("ABC"), "start": start, "end": start + rng.randrange(4)})
            return out
        true.append(doc())
        pred.append(doc())
    one = evalcore.evaluate_schemas(true, pred, threads=1)
    for threads in (2, 3, 8):
        assert evalcore.evaluate_schemas(true, pred, threads=threads) == one
    assert evalcore.reference.evaluate_schemas(true, pred) == one


@differential
@given(bio_tag_corpus(ill_formed=False))
def test_tags_equal_their_spans(corpus):
    """Tags are read into the token spans nervaluate's list loader makes of them."""
    import nervaluate

    true, pred = corpus
    from_tags = evalcore.evaluate_schemas(true, pred, input="tags")
    spans = evalcore.evaluate_schemas(nervaluate.list_to_spans(true), nervaluate.list_to_spans(pred))
    assert from_tags["overall"] == spans["overall"] and from_tags["perLabel"] == spans["perLabel"]
