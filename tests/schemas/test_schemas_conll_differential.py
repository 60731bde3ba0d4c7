"""evaluate_schemas(input="conll"): the native reader (cpp/schemas/conll_text.cpp) and its
pure-Python twin agree (tests/common.py) on CoNLL strings of every kind, hostile ones included,
and both name the document and the line of every fault in the same words; a CoNLL string of
BIO tags gives what the same tags give as lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from evalcore import EvaluationError
from evalcore.testing.schemas import bio_tag_corpus, conll_texts, tags_as_conll
from common import differential, expect_result, run_all

LABELS = st.sampled_from([None, ["PER"], ["LOC", "ORG", "XYZ"]])
# The @differential properties run the profile's examples (dev 300: 3 s for this file on this
# project's 2-core machine; CI's 2,000: about 20 s), each a few small strings on both twins.


@differential
@given(conll_texts(ill_formed=True), LABELS, st.integers(1, 2))
def test_conll_native_equals_reference(texts, labels, threads):
    true, pred = texts
    run_all("evaluate_schemas", true, pred, labels=labels, input="conll", threads=threads)


# Pieces of text in any order: newlines alone and in pairs, tabs, tags and their parts,
# whitespace of every width (kinds 1, 2 and 4 of a str), a lone surrogate, a zero-width
# space (not whitespace), "\r". Pred is true with some pieces other than newlines replaced,
# so that the two mostly have the same lines and reach the tags.
_PIECES = ["\n", "\n\n", "\t", " ", "O", "B-", "I-", "PER", "LOC", "B", "-", "x", "\r", "\u3000", "\x85", "\xa0",
           "\u00e9", "\U0001f600", "\ud800", "\u200b"]
_NOT_NEWLINES = [piece for piece in _PIECES if "\n" not in piece]


@differential
@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.data(), st.integers(1, 2))
def test_any_text_is_read_alike(pieces, data, threads):
    changed = [piece if "\n" in piece or data.draw(st.integers(0, 3)) else data.draw(st.sampled_from(_NOT_NEWLINES))
               for piece in pieces]
    run_all("evaluate_schemas", "".join(pieces), "".join(changed), input="conll", threads=threads)


# Every character Python strips (str.isspace) and its neighbours, the first 256, and the
# surrogates' and the planes' edges: where the native reader's whitespace table could differ.
_SPACES = [c for c in range(0x3100) if chr(c).isspace()]
_CHARACTERS = sorted({*range(256), *_SPACES, *(c + 1 for c in _SPACES), *(c - 1 for c in _SPACES),
                      0xD800, 0xDFFF, 0xFEFF, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF})


def test_whitespace_is_python_s_whitespace():
    for c in _CHARACTERS:
        line = f"a\tB-PER\n{chr(c)}\nb\tO"  # blank (skipped, the entity runs over it) or a line without a tab
        run_all("evaluate_schemas", line, line, input="conll")
        tail = f"a\tB-PER{chr(c)}"  # stripped at the end of the text (rstrip), or part of the type
        run_all("evaluate_schemas", tail, "a\tB-PER", input="conll")


@differential
@given(bio_tag_corpus(ill_formed=False), LABELS)
def test_conll_strings_equal_their_tag_lists(corpus, labels):
    true, pred = corpus
    # An empty document has no line: as a CoNLL string it would be one empty line, and the
    # last one would be stripped; give it one token.
    true = [doc or ["O"] for doc in true]
    pred = [doc or ["O"] for doc in pred]
    from_text = expect_result("evaluate_schemas", tags_as_conll(true), tags_as_conll(pred), labels=labels,
                              input="conll")
    from_lists = evalcore.evaluate_schemas(true, pred, labels=labels, input="tags")
    assert from_text == {**from_lists, "input": "conll"}


def _refusal(module, true, pred, **options):
    with pytest.raises(EvaluationError) as caught:
        module.evaluate_schemas(true, pred, input="conll", **options)
    return caught.value.code, caught.value.pointer, caught.value.message


_SHAPE = ("a line is a token, a tab and its BIO tag (nervaluate's conll loader reads the second tab-separated "
          "field): separate the token and its tag by a tab")
_BIO = ("which starts an entity: it must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as nervaluate's conll "
        "loader reads them); convert IOB1, IOE, IOBES or BILOU tags to BIO first")
_LINES = ("give both the same lines, a token each, and separate documents by one blank line (a third newline, or a "
          "line of spaces, is a line of the document: it counts in nervaluate's offsets)")

CASES = [
    (["a\tO"], "a\tO", "/true", "true must be a str of CoNLL lines (input='conll', nervaluate's conll loader: a token, "
     "a tab and its BIO tag on each line, documents separated by a blank line); got list"),
    ("a\tO\n\nb\tB-PER\nc\tI-PER", "a\tO\n\nb\tB-PER\n \nc\tI-PER", "/pred/1",
     f"document 1 (from line 3 of both) has 2 lines in true and 3 in pred: {_LINES}"),
    ("a\tO\n\nb\tO\n\n\nc\tO", "a\tO\n\nb\tO\n\nc\tO", "/pred/2",
     f"document 2 (from line 5 of both) has 2 lines in true and 1 in pred: {_LINES}"),
    ("a\tO\n\nb\tO\n\nc\tO\n", "a\tO\n\nb\tO", "/pred",
     "true has 3 documents and pred has 2 (documents are separated by a blank line): give one document of predictions "
     "for each true one (pred has none for document 2, which starts at line 5 of true)"),
    ("a\tO\n\nb\tO", "a\tO\nb\tO\n\n\n", "/pred/0",
     f"document 0 (from line 1 of both) has 1 lines in true and 2 in pred: {_LINES}"),
    ("a\tO\n\n \nb PER\nc\tO", "a\tO\n\n \nb\tO\nc\tO", "/true/1/1",
     f"true line 4 (document 1, offset 1) has no tab: 'b PER'; {_SHAPE}"),
    ("a\tO\nb\tB-PER", "a\tO\nb\tE-PER\tNNP", "/pred/0/1", f"pred line 2 (document 0, offset 1) has the tag 'E-PER', {_BIO}"),
    ("a\tO\r\nb\tO", "a\tO\nb\tO", "/true/0/0", f"true line 1 (document 0, offset 0) has the tag 'O\\r', {_BIO}; its "
     "line ends in '\\r\\n': give the string '\\n' line ends (text.replace('\\r\\n', '\\n'))"),
    ("w" * 70, "x", "/true/0/0", f"true line 1 (document 0, offset 0) has no tab: '{'w' * 60}'...; {_SHAPE}"),
    ("a\t\u00e9" * 3, "b\tO", "/true/0/0", f"true line 1 (document 0, offset 0) has the tag '\u00e9a', {_BIO}"),
]


@pytest.mark.parametrize("true, pred, pointer, message", CASES)
def test_faults_name_the_document_and_line_and_what_to_do(true, pred, pointer, message):
    for module in (evalcore, evalcore.reference):
        assert _refusal(module, true, pred) == ("SCHEMA_VIOLATION", pointer, message), module.__name__


def test_line_counts_are_checked_before_the_tags_and_true_before_pred():
    # A bad tag in true, a line more in pred's second document, a tag refused in pred too.
    true, pred = "a\tE-PER\n\nb\tO", "a\tS-PER\n\nb\tO\nc\tO"
    assert _refusal(evalcore, true, pred)[1] == "/pred/1"
    assert _refusal(evalcore, true, pred.replace("\nc\tO", ""))[1] == "/true/0/0"
    assert _refusal(evalcore.reference, true, pred.replace("\nc\tO", ""))[1] == "/true/0/0"
