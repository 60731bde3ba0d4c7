"""evaluate_schemas(input="conll") against nervaluate 1.2.1's own conll loader
(``Evaluator(true, pred, tags, loader="conll")``): equal (==, every count and score, overall and
per label) on generated CoNLL strings where its greedy matching is unambiguous; refused wherever
nervaluate refuses, for the same kind of fault; refused beyond that only where a document has
other lines in pred than in true (docs/schemas.md)."""

from __future__ import annotations

import pytest
from hypothesis import given

import evalcore
from evalcore.testing.schemas import SCHEMA_LABELS, conll_texts, is_unambiguous
from common import slow_examples

nervaluate = pytest.importorskip("nervaluate")
from nervaluate.loaders import ConllLoader  # noqa: E402
from nervaluate_peer import BUDGET, SCHEMAS, assert_equal_to_nervaluate, credit, nervaluate_result  # noqa: E402

# The labels scored: BIO_TAGS' types, one that never occurs, and none of the ill-formed
# tags' types (nervaluate leaves those out of every count, as evalcore does).
LABELS = ["PER", "LOC", "ORG", "MISC"]
assert tuple(LABELS) == SCHEMA_LABELS


def _documents(text):
    """nervaluate's documents of `text`, as dicts, and the text of each (its own split)."""
    spans = [[{"label": e.label, "start": e.start, "end": e.end} for e in doc] for doc in ConllLoader().load(text)]
    return spans, text.rstrip().split("\n\n")


def _unambiguous_part(true, pred):
    """The documents where nervaluate's greedy matching has no choice to make, joined again."""
    (t_spans, t_texts), (p_spans, p_texts) = _documents(true), _documents(pred)
    keep = [i for i, (t, p) in enumerate(zip(t_spans, p_spans)) if is_unambiguous(t, p)]
    return "\n\n".join(t_texts[i] for i in keep), "\n\n".join(p_texts[i] for i in keep)


# BUDGET (nervaluate_peer.py) examples a property, in every profile: each example runs
# nervaluate's pure-Python loader and Evaluator on a corpus (about 5 ms: the strings are
# small), so the two properties below take under 2 s together on this project's 2-core
# machine, a small part of the suite's 10 minutes.
@slow_examples(BUDGET)
@given(conll_texts())
def test_equal_to_nervaluate_on_unambiguous_conll_strings(texts):
    true, pred = _unambiguous_part(*texts)
    ours = evalcore.evaluate_schemas(true, pred, labels=LABELS, input="conll")
    if not true and not pred:  # no document: nervaluate's overall is empty, evalcore's zeros
        assert ours["documentCount"] == 0 and ours["overall"]["strict"]["possible"] == 0
        return
    assert_equal_to_nervaluate(ours, nervaluate_result(true, pred, LABELS, "conll"))


def _outcome(function):
    try:
        return "ok", function()
    except ValueError as err:  # nervaluate's refusals, and EvaluationError
        return "refused", err


@slow_examples(BUDGET)
@given(conll_texts(ill_formed=True))
def test_refused_where_nervaluate_refuses_and_otherwise_never_worse(texts):
    true, pred = texts
    if not true and not pred:
        return  # no document (nervaluate's overall is empty): the test above
    theirs = _outcome(lambda: nervaluate_result(true, pred, LABELS, "conll"))
    ours = _outcome(lambda: evalcore.evaluate_schemas(true, pred, labels=LABELS, input="conll"))
    if ours[0] == "refused":
        err = ours[1]
        assert isinstance(err, evalcore.EvaluationError) and err.code == "SCHEMA_VIOLATION"
        if theirs[0] == "ok":  # evalcore's one refusal more: offsets of other lines
            assert "lines in true" in err.message, err.message
        elif "lines in true" not in err.message and "documents and pred has" not in err.message:
            # The same line: nervaluate names a line without a tab, or the tag it refuses.
            assert ("has no tab" in err.message) == ("does not contain a tab" in str(theirs[1])), (err, theirs[1])
        return
    assert theirs[0] == "ok", f"nervaluate refused ({theirs[1]}) what evalcore read"
    overall, _ = theirs[1]
    for schema in SCHEMAS:
        assert credit(ours[1]["overall"][schema], schema) >= credit(overall[schema], schema)
        for field in ("possible", "actual"):
            assert ours[1]["overall"][schema][field] == overall[schema][field]


def test_documents_and_offsets_as_nervaluate_counts_them():
    # Blank lines count in the offsets; an entity open at the end of a document ends at its
    # last line, blank or not ([0, 1] in true, [0, 0] in pred); a third newline starts the
    # next document with an empty line; only the text's end is stripped, so "I-LOC " inside
    # it has the type "LOC ".
    true = "a\tB-PER\n \n\n\nb\tB-LOC\nc\tI-LOC \nd\tO\n\n"
    pred = "a\tB-PER\nz\tO\n\n\nb\tB-LOC\nc\tI-LOC\nd\tO\n"
    labels = ["PER", "LOC", "LOC "]
    ours = evalcore.evaluate_schemas(true, pred, labels=labels, input="conll")
    assert_equal_to_nervaluate(ours, nervaluate_result(true, pred, labels, "conll"))
    assert ours["documentCount"] == 2
    assert list(ours["perLabel"]) == ["LOC", "LOC ", "PER"]
    per = ours["perLabel"]
    assert (per["PER"]["strict"]["correct"], per["PER"]["partial"]["partial"]) == (0, 1)
    assert (per["LOC"]["strict"]["correct"], per["LOC"]["partial"]["partial"]) == (0, 1)  # [1, 1] and [1, 2]
    assert per["LOC "]["strict"]["missed"] == 1


def test_empty_and_blank_strings_as_nervaluate_reads_them():
    # "" has no document; whitespace alone is one empty document.
    for true, pred, documents in (("", "", 0), (" \n", "\n\n", 1), ("\n\n\n\na\tB-PER", "\n\n\n\na\tO", 3)):
        ours = evalcore.evaluate_schemas(true, pred, labels=LABELS, input="conll")
        assert ours["documentCount"] == documents
        if documents:  # nervaluate's overall is empty when there are no documents
            assert_equal_to_nervaluate(ours, nervaluate_result(true, pred, LABELS, "conll"))
    with pytest.raises(ValueError, match="Number of predicted documents"):
        nervaluate_result("", " ", LABELS, "conll")
    with pytest.raises(evalcore.EvaluationError, match="true has 0 documents and pred has 1"):
        evalcore.evaluate_schemas("", " ", input="conll")
