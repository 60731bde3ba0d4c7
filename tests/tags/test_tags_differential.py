"""The native tags_to_spans and evaluate_tags against their reference twins through
tests/common.py: identical results (floats bit for bit, key order), identical errors."""

from __future__ import annotations

import warnings

from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import differential, expect_result
from evalcore.tags.options import SCHEMES
from evalcore.testing.tags import any_tag, tag_corpora

options = st.tuples(st.sampled_from(SCHEMES), st.sampled_from(["default", "strict"]), st.booleans())


def same_outcome(operation, *args, **kwargs):
    """Both implementations give the same result (tests/common.py) or raise the same error."""
    errors = []
    for module in (evalcore, evalcore.reference):
        try:
            getattr(module, operation)(*args, **kwargs)
        except (TypeError, ValueError) as error:
            errors.append((type(error), str(error)))
    if not errors:
        return expect_result(operation, *args, **kwargs)
    assert len(errors) == 2 and errors[0] == errors[1], errors
    return None


@differential
@given(tag_corpora(), options, st.sampled_from(["report", "huggingface"]))
def test_evaluate_tags_native_equals_reference(corpus, option, output):
    scheme, mode, suffix = option
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_outcome("evaluate_tags", *corpus, scheme=scheme, mode=mode, suffix=suffix, output=output)


@differential
@given(st.one_of(st.lists(any_tag(), max_size=12), st.lists(st.lists(any_tag(), max_size=6), max_size=4)), options)
def test_tags_to_spans_native_equals_reference(tags, option):
    scheme, mode, suffix = option
    same_outcome("tags_to_spans", tags, scheme=scheme, mode=mode, suffix=suffix)


@differential
@given(st.lists(st.tuples(st.text(max_size=4), any_tag()), max_size=8), st.sampled_from([None, "", "  ", "\U0001F600"]))
def test_tokens_give_utf16_offsets_of_the_joined_text(pairs, separator):
    tokens, tags = [t for t, _ in pairs], [g for _, g in pairs]
    spans = same_outcome("tags_to_spans", tags, tokens=tokens, separators=separator)
    if spans is None:
        return
    token_spans = evalcore.tags_to_spans(tags)
    text = evalcore.tags.tokens_text(tokens, separator)
    units = text.encode("utf-16-le")
    sep = " " if separator is None else separator
    for span, token_span in zip(spans, token_spans):
        covered = units[2 * span["start"]:2 * span["end"]].decode("utf-16-le")
        assert covered == sep.join(tokens[token_span["start"]:token_span["end"]])
