"""Properties of span-evaluate and its corpus form that must hold for every valid request."""

import random

from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, expect_result, is_unit_interval, slow_examples
from evalcore.testing import span_documents, span_requests


def _iou(p, r):
    inter = max(0, min(p["end"], r["end"]) - max(p["start"], r["start"]))
    return inter / ((p["end"] - p["start"]) + (r["end"] - r["start"]) - inter)


def maximum_matching_size(request):
    """An independent maximum bipartite matching (augmenting paths from the reference side)."""
    exact = request.get("match", "exact") == "exact"
    threshold = request.get("minimumIou", 0.5)
    preds, refs = request["predictions"], request["references"]
    edges = {
        j: [i for i, p in enumerate(preds) if p["label"] == r["label"]
            and ((p["start"], p["end"]) == (r["start"], r["end"]) if exact else _iou(p, r) >= threshold)]
        for j, r in enumerate(refs)
    }
    match_of_pred = {}

    def augment(j, seen):
        for i in edges[j]:
            if i in seen:
                continue
            seen.add(i)
            if i not in match_of_pred or augment(match_of_pred[i], seen):
                match_of_pred[i] = j
                return True
        return False

    return sum(augment(j, set()) for j in reversed(range(len(refs))))


@slow_examples(500)
@given(span_requests())
def test_matching_is_maximum_cardinality(request):
    result = expect_result("span_evaluate", request)["result"]
    assert result["matchedCount"] == maximum_matching_size(request)


@slow_examples(500)
@given(span_requests(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_span_order(request, rng):
    before = expect_result("span_evaluate", request)["result"]
    rng.shuffle(request["references"])
    rng.shuffle(request["predictions"])
    assert_identical(before, expect_result("span_evaluate", request)["result"])


@slow_examples(500)
@given(span_documents())
def test_exact_matches_are_overlap_matches_at_iou_one(document):
    exact = expect_result("span_evaluate", dict(document, match="exact"))["result"]
    overlap = expect_result("span_evaluate", dict(document, match="overlap", minimumIou=1))["result"]
    pairs = lambda r: {(m["predictionId"], m["referenceId"]) for m in r["matches"]}  # noqa: E731
    assert pairs(exact) <= pairs(overlap)
    assert all(m["exactBoundaries"] and m["iou"] == 1.0 for m in exact["matches"])


@slow_examples(500)
@given(span_requests())
def test_bounds_and_definitions(request):
    result = expect_result("span_evaluate", request)["result"]
    for key in ("precision", "recall", "f1"):
        assert is_unit_interval(result[key])
    assert result["precisionDefined"] == (result["predictionCount"] > 0)
    assert result["recallDefined"] == (result["referenceCount"] > 0)
    assert (result["meanMatchedIou"] is None) == (result["matchedCount"] == 0)
    assert len(result["matches"]) + len(result["unmatchedPredictionIds"]) == result["predictionCount"]
    assert len(result["matches"]) + len(result["unmatchedReferenceIds"]) == result["referenceCount"]
    assert [m["predictionId"] for m in result["matches"]] == sorted(m["predictionId"] for m in result["matches"])
    assert [entry["label"] for entry in result["perLabel"]] == sorted({entry["label"] for entry in result["perLabel"]})


@slow_examples(300)
@given(st.lists(span_documents(), max_size=8), st.sampled_from(["exact", "overlap"]))
def test_corpus_totals_are_sums_of_documents(documents, match):
    corpus = evalcore.span_evaluate_corpus(documents, match=match, per_document=True)
    singles = [evalcore.span_evaluate(dict(d, match=match))["result"] for d in documents]
    assert corpus["documentCount"] == len(documents)
    assert corpus["overall"]["matched"] == sum(s["matchedCount"] for s in singles)
    assert corpus["overall"]["predictions"] == sum(s["predictionCount"] for s in singles)
    assert corpus["overall"]["references"] == sum(s["referenceCount"] for s in singles)
    assert corpus["perDocument"] == singles
    for entry in corpus["perLabel"]:
        per = [e for s in singles for e in s["perLabel"] if e["label"] == entry["label"]]
        assert entry["matched"] == sum(e["matchedCount"] for e in per)
        assert entry["predictions"] == sum(e["predictionCount"] for e in per)


def test_corpus_result_does_not_depend_on_threads():
    rng = random.Random(3)
    documents = []
    for d in range(400):
        spans = lambda prefix: [  # noqa: E731
            {"id": f"{prefix}{i}", "label": rng.choice("XYZ"), "start": s, "end": s + rng.randint(1, 3)}
            for i, s in enumerate(sorted(rng.sample(range(0, 50, 4), 6)))
        ]
        documents.append({"text": "ab " * 20, "references": spans("r"), "predictions": spans("p")})
    results = [evalcore.span_evaluate_corpus(documents, match="overlap", minimum_iou=0.3, threads=t) for t in (1, 2, 4, 7)]
    for other in results[1:]:
        assert_identical(results[0], other)
    assert_identical(results[0], evalcore.reference.span_evaluate_corpus(documents, match="overlap", minimum_iou=0.3))


def test_a_prediction_displaced_to_its_second_candidate():
    # p1 overlaps r1 and r2 equally (IoU 0.8) and takes r1 (lower ID). p2 can only use r1, so
    # Kuhn re-places p1 on its second candidate r2: both match.
    request = {
        "text": "abcdefghij",
        "references": [{"id": "r1", "label": "A", "start": 0, "end": 4}, {"id": "r2", "label": "A", "start": 1, "end": 5}],
        "predictions": [{"id": "p1", "label": "A", "start": 0, "end": 5}, {"id": "p2", "label": "A", "start": 0, "end": 4}],
        "match": "overlap",
    }
    result = expect_result("span_evaluate", request)["result"]
    assert [(m["predictionId"], m["referenceId"], m["iou"]) for m in result["matches"]] == [("p1", "r2", 0.8), ("p2", "r1", 1.0)]
    assert result["meanMatchedIou"] == (0.8 + 1.0) / 2
    # Steps: p1 looks at r1 (1); p2 looks at r1 (2), p1 again: r1 visited (3), r2 (4).
    expect_result("span_evaluate", request, limits={"matching_steps": 4})
    assert evalcore.reference.requests.spans.matching_steps(request) == 4


def test_ties_go_to_the_lower_reference_id_and_total_iou_is_not_maximized():
    # p1 (first in ID order) prefers r_a (IoU 1) to r_b (IoU 1/3); p2 can use only r_a (IoU 0.6).
    # Kuhn keeps the cardinality at 2 by moving p1 to r_b, although that lowers the total IoU.
    request = {
        "text": "x" * 20,
        "references": [{"id": "r_a", "label": "L", "start": 0, "end": 10}, {"id": "r_b", "label": "L", "start": 5, "end": 15}],
        "predictions": [{"id": "p1", "label": "L", "start": 0, "end": 10}, {"id": "p2", "label": "L", "start": 0, "end": 6}],
        "match": "overlap", "minimumIou": 0.3,
    }
    result = expect_result("span_evaluate", request)["result"]
    assert [(m["predictionId"], m["referenceId"]) for m in result["matches"]] == [("p1", "r_b"), ("p2", "r_a")]
