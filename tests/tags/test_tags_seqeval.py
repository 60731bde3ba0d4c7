"""evaluate_tags and tags_to_spans against seqeval 1.2.2 itself, on generated sequences,
well- and ill-formed, in every scheme and mode: the same numbers bit for bit, the same keys
in the same order, an error where seqeval raises, a warning where it warns."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from evalcore.tags.options import SCHEMES
from evalcore.testing.tags import tag_corpora

from common import slow_examples

# Examples per property: each compares whole corpora (and, against a peer, runs the peer's
# pure-Python code, 20-40 ms an example); 120 keep the README's test command under 10
# minutes on 2 cores while the well- and ill-formed cases the strategies draw still appear
# (hypothesis tries the boundary ones first). CI's profile does not raise it.
BUDGET = 120

from seqeval_peer import assert_same_numbers, seqeval_report, seqeval_spans, strict_spans

pytest.importorskip("seqeval")

IMPLEMENTATIONS = [evalcore, evalcore.reference]
options = st.tuples(st.sampled_from(SCHEMES), st.sampled_from(["default", "strict"]), st.booleans())


def _ours(module, y_true, y_pred, scheme, mode, suffix):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = module.evaluate_tags(y_true, y_pred, scheme=scheme, mode=mode, suffix=suffix)
        except (TypeError, ValueError) as error:
            return "error", error, False
    return "ok", result, any(issubclass(w.category, evalcore.EvaluationWarning) for w in caught)


@slow_examples(BUDGET)
@given(st.data(), options, st.integers(1, 4), st.booleans())
def test_evaluate_tags_equals_seqeval(data, option, types, ill_formed):
    scheme, mode, suffix = option
    well_scheme = scheme if scheme != "auto" else "IOB2"
    y_true, y_pred = data.draw(tag_corpora(types=types, ill_formed=ill_formed, suffix=suffix, scheme=well_scheme))
    theirs = seqeval_report(y_true, y_pred, scheme, mode, suffix)
    for module in IMPLEMENTATIONS:
        ours = _ours(module, y_true, y_pred, scheme, mode, suffix)
        if theirs[0] == "error":
            assert ours[0] == "error", f"seqeval raised {theirs[1]!r}, {module.__name__} gave {ours[1]}"
            continue
        if ours[0] == "error":  # only where seqeval has no answer: no tag at all
            assert not any(y_true), f"{module.__name__} raised {ours[1]} where seqeval gave {theirs[1]}"
            continue
        assert_same_numbers(ours[1]["report"], theirs[1])
        assert_same_numbers(ours[1]["accuracy"], theirs[2])
        assert ours[2] == theirs[3], f"warned: evalcore {ours[2]}, seqeval {theirs[3]}"


@slow_examples(BUDGET)
@given(st.data(), st.sampled_from(["IOB2", "IOBES", "BILOU", "IOE2"]), st.integers(5, 12))
def test_many_types_use_numpy_pairwise_sums(data, scheme, types):
    # more than 8 types: numpy's mean and average switch to pairwise summation
    names = [f"T{k}" for k in range(types)]
    y_true, y_pred = [], []
    for _ in range(data.draw(st.integers(1, 6))):
        length = data.draw(st.integers(1, 12))
        y_true.append([data.draw(st.sampled_from(["O"] + [f"B-{n}" for n in names] + [f"I-{n}" for n in names]))
                       for _ in range(length)])
        y_pred.append([data.draw(st.sampled_from([t, "O", "I-" + names[0], "B-" + data.draw(st.sampled_from(names))]))
                       for t in y_true[-1]])
    theirs = seqeval_report(y_true, y_pred, "auto", "default", False)
    for module in IMPLEMENTATIONS:
        ours = _ours(module, y_true, y_pred, scheme, "default", False)
        assert_same_numbers(ours[1]["report"], theirs[1])


@slow_examples(BUDGET)
@given(st.data(), options, st.booleans())
def test_tags_to_spans_equals_seqeval(data, option, nested):
    scheme, mode, suffix = option
    y_true, _ = data.draw(tag_corpora(suffix=suffix, scheme=scheme if scheme != "auto" else "IOBES"))
    tags = y_true if nested else (y_true[0] if y_true else [])
    sentences = y_true if nested else [tags]
    if mode == "default":
        theirs = seqeval_spans(tags, suffix)
    elif scheme == "auto":
        theirs = None  # checked against detection in the error tests
    else:
        theirs = strict_spans(sentences, scheme, suffix)
    if theirs is None and (mode == "default" or scheme != "auto"):
        for module in IMPLEMENTATIONS:
            with pytest.raises((TypeError, ValueError)):
                module.tags_to_spans(tags, scheme=scheme, mode=mode, suffix=suffix)
        return
    if theirs is None:
        return
    for module in IMPLEMENTATIONS:
        ours = module.tags_to_spans(tags, scheme=scheme, mode=mode, suffix=suffix)
        assert [(s["label"], s["start"], s["end"]) for s in ours] == theirs


def test_huggingface_shape_of_the_metric_card_example():
    # Hugging Face evaluate's seqeval metric card: its example and the result it shows
    predictions = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    references = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    for module in IMPLEMENTATIONS:
        result = module.evaluate_tags(references, predictions, output="huggingface")
        assert result == {"MISC": {"precision": 0.0, "recall": 0.0, "f1": 0.0, "number": 1},
                          "PER": {"precision": 1.0, "recall": 1.0, "f1": 1.0, "number": 1},
                          "overall_precision": 0.5, "overall_recall": 0.5, "overall_f1": 0.5, "overall_accuracy": 0.8}
        assert list(result) == ["MISC", "PER", "overall_precision", "overall_recall", "overall_f1", "overall_accuracy"]


@slow_examples(BUDGET)
@given(tag_corpora(ill_formed=False), st.sampled_from(["default", "strict"]))
def test_huggingface_shape_follows_the_report(corpus, mode):
    y_true, y_pred = corpus
    if not any(y_true):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = evalcore.evaluate_tags(y_true, y_pred, mode=mode)
        hf = evalcore.evaluate_tags(y_true, y_pred, mode=mode, output="huggingface")
    report = full["report"]
    types = [k for k in report if k not in ("micro avg", "macro avg", "weighted avg")]
    assert list(hf) == types + ["overall_precision", "overall_recall", "overall_f1", "overall_accuracy"]
    for name in types:
        row = report[name]
        assert hf[name] == {"precision": row["precision"], "recall": row["recall"], "f1": row["f1-score"],
                            "number": row["support"]}
    assert (hf["overall_precision"], hf["overall_recall"], hf["overall_f1"], hf["overall_accuracy"]) == (
        report["micro avg"]["precision"], report["micro avg"]["recall"], report["micro avg"]["f1-score"],
        full["accuracy"])


@slow_examples(BUDGET)
@given(tag_corpora(), st.sampled_from(["default", "strict"]))
def test_threads_change_nothing(corpus, mode):
    y_true, y_pred = corpus
    outcomes = []
    for threads in (1, 2, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                outcomes.append(repr(evalcore.evaluate_tags(y_true, y_pred, mode=mode, scheme="auto", threads=threads)))
            except (TypeError, ValueError) as error:
                outcomes.append(str(error))
    assert outcomes[0] == outcomes[1] == outcomes[2]
