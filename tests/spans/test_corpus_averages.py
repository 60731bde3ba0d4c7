"""Macro and weighted averages of the span corpus (issue 24 item 5): scikit-learn's
definitions on the same counts, exact sums (the order of documents, spans, labels and the
thread count change no bit), 0 where undefined."""

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, differential, expect_result, slow_examples

# Examples per property: each compares whole corpora (and, against a peer, runs the peer's
# pure-Python code, 20-40 ms an example); 120 keep the README's test command under 10
# minutes on 2 cores while the well- and ill-formed cases the strategies draw still appear
# (hypothesis tries the boundary ones first). CI's profile does not raise it.
BUDGET = 120

from evalcore.testing import span_documents

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def _sklearn_on_counts(per_label, average):
    """precision_recall_fscore_support on label vectors made to have exactly these counts: per
    label, `matched` (label, label) pairs, the other references against a label outside the
    set, the other predictions against one outside too."""
    outside = "\x00outside"
    y_true, y_pred = [], []
    for entry in per_label:
        label, matched = entry["label"], entry["matched"]
        y_true += [label] * entry["references"] + [outside] * (entry["predictions"] - matched)
        y_pred += [label] * matched + [outside] * (entry["references"] - matched) + [label] * (entry["predictions"] - matched)
    labels = [entry["label"] for entry in per_label]
    p, r, f, _ = sklearn_metrics.precision_recall_fscore_support(
        y_true, y_pred, labels=labels, average=average, zero_division=0)
    return {"precision": float(p), "recall": float(r), "f1": float(f)}


def _close(ours, theirs):
    for key in ("precision", "recall", "f1"):
        assert ours[key] == pytest.approx(theirs[key], rel=1e-12, abs=1e-15), key


@slow_examples(BUDGET)
@given(st.lists(span_documents(), min_size=1, max_size=6), st.sampled_from(["exact", "overlap"]))
def test_averages_are_scikit_learns_on_the_same_counts(documents, match):
    result = expect_result("span_evaluate_corpus", documents, match=match)
    per_label = result["perLabel"]
    if not per_label:  # scikit-learn has no average over no label; ours is 0
        assert result["macro"] == result["weighted"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
        return
    _close(result["macro"], _sklearn_on_counts(per_label, "macro"))
    if sum(entry["references"] for entry in per_label) > 0:
        _close(result["weighted"], _sklearn_on_counts(per_label, "weighted"))
    else:  # no support: scikit-learn's zero_division (0), as ours
        assert result["weighted"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def _exactly_rounded_mean(values, weights):
    """sum(value * weight) / sum(weight), each product rounded as a float product is, the sum
    exact, rounded once, then divided once (what the result promises)."""
    total = float(sum(Fraction(v * w) for v, w in zip(values, weights)))
    return total / sum(weights)


@differential
@given(st.lists(span_documents(max_spans=4), max_size=5))
def test_averages_are_exact_sums_of_the_label_scores(documents):
    result = expect_result("span_evaluate_corpus", documents, match="overlap")
    per_label = result["perLabel"]
    if not per_label:
        return
    support = [entry["references"] for entry in per_label]
    for key in ("precision", "recall", "f1"):
        scores = [entry[key] for entry in per_label]
        assert result["macro"][key] == _exactly_rounded_mean(scores, [1] * len(scores))
        if sum(support):
            assert result["weighted"][key] == _exactly_rounded_mean(scores, support)
    assert 0.0 <= result["weighted"]["recall"] <= 1.0
    assert math.isclose(result["weighted"]["recall"], result["overall"]["recall"], rel_tol=1e-12, abs_tol=1e-15)


@slow_examples(BUDGET)
@given(st.lists(span_documents(), max_size=8), st.randoms(use_true_random=False))
def test_averages_do_not_depend_on_document_or_span_order(documents, rng):
    before = evalcore.span_evaluate_corpus(documents, match="overlap")
    shuffled = [dict(d, references=rng.sample(d["references"], len(d["references"])),
                     predictions=rng.sample(d["predictions"], len(d["predictions"]))) for d in documents]
    rng.shuffle(shuffled)
    after = evalcore.span_evaluate_corpus(shuffled, match="overlap")
    for key in ("documentCount", "documentsWithoutText", "macro", "weighted"):
        assert_identical(before[key], after[key])
    # Spans in another order may be numbered and matched otherwise (other IoUs, the same counts)
    counts = lambda r: [{k: v for k, v in e.items() if k != "meanMatchedIou"} for e in r["perLabel"]]  # noqa: E731
    assert_identical(counts(before), counts(after))
    # Documents in another order: the whole result, meanMatchedIou's exact sums included
    moved = list(documents)
    rng.shuffle(moved)
    assert_identical(before, evalcore.span_evaluate_corpus(moved, match="overlap"))


def test_averages_do_not_depend_on_threads():
    rng = random.Random(24)
    documents = []
    for _ in range(600):
        spans = [{"label": rng.choice("ABCDEFG"), "start": s, "end": s + rng.randint(1, 3)}
                 for s in sorted(rng.sample(range(0, 60, 4), 7))]
        documents.append({"references": spans[:5], "predictions": spans[2:]})
    results = [evalcore.span_evaluate_corpus(documents, threads=t) for t in (1, 2, 3, 8)]
    for other in results[1:]:
        assert_identical(results[0], other)
    assert_identical(results[0], evalcore.reference.span_evaluate_corpus(documents))


def test_averages_by_hand():
    # A: 1 of 2 predictions right, 1 of 1 reference found; B: nothing predicted of 3 references;
    # C: predicted once, no reference (support 0: in the macro mean, weightless in the weighted one).
    documents = [{
        "references": [{"label": "A", "start": 0, "end": 1}] + [{"label": "B", "start": i, "end": i + 1} for i in (3, 4, 5)],
        "predictions": [{"label": "A", "start": 0, "end": 1}, {"label": "A", "start": 1, "end": 2},
                        {"label": "C", "start": 7, "end": 8}],
    }]
    result = expect_result("span_evaluate_corpus", documents)
    assert [e["label"] for e in result["perLabel"]] == ["A", "B", "C"]
    f1_a = 2 * 0.5 * 1.0 / 1.5
    assert result["macro"] == {"precision": 0.5 / 3, "recall": 1.0 / 3, "f1": f1_a / 3}
    assert result["weighted"] == {"precision": 0.5 / 4, "recall": 1.0 / 4, "f1": f1_a / 4}
    assert result["overall"]["references"] == 4  # the support the weighted average uses
