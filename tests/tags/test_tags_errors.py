"""Bad input to tags_to_spans and evaluate_tags: the exact errors, the same from both
implementations, naming the argument, the sentence and token, and what to do."""

from __future__ import annotations

import warnings

import pytest

import evalcore
import evalcore.reference

IMPLEMENTATIONS = [evalcore, evalcore.reference]


def raises_same(error_type, message, operation, *args, **kwargs):
    for module in IMPLEMENTATIONS:
        with pytest.raises(error_type) as caught:
            getattr(module, operation)(*args, **kwargs)
        assert str(caught.value) == message, f"{module.__name__}: {caught.value}"


@pytest.mark.parametrize("args, error_type, message", [
    # a str y_true is a CoNLL file's path (docs/conll.md): beside tag lists, the pairing is refused
    (("B-PER", [["O"]]), TypeError, "with a CoNLL file as y_true, y_pred is None or the CoNLL file of the "
                                    "predictions; got list"),
    ((("O",), [["O"]]), TypeError, "y_true must be a list of sentences, each a list of str tags; got tuple"),
    (([["O"]], [["O"], ["O"]]), ValueError, "y_true has 1 sentences but y_pred has 2: they pair up sentence by sentence"),
    (([["O"], ("O",)], [["O"], ["O"]]), TypeError, "y_true[1] must be a list of str tags; got tuple"),
    (([["O", "O"]], [["O"]]), ValueError,
     "y_true[0] has 2 tags but y_pred[0] has 1: a prediction has one tag per token of its sentence"),
    (([["O", 3]], [["O", "O"]]), TypeError, "y_true[0][1] must be a str tag; got int"),
    (([["O"], ["O", "B-X"]], [["O"], ["O", ""]]), ValueError,
     "y_pred[1][1] is an empty string: a tag is 'O' or a prefix and a type, such as 'B-PER'"),
    (([["\ud800"]], [["O"]]), ValueError,
     "y_true[0][0] holds a lone surrogate: a tag must be valid Unicode (encodable as UTF-8)"),
    (([[], []], [[], []]), ValueError,
     "y_true holds no tag (no sentence, or only empty ones): token accuracy is undefined (seqeval's accuracy_score "
     "divides by zero); evaluate at least one token"),
])
def test_reading_errors(args, error_type, message):
    raises_same(error_type, message, "evaluate_tags", *args)


def test_strict_mode_refuses_what_seqeval_refuses():
    raises_same(ValueError, "y_pred[0][1] = 'S-PER': mode='strict' with scheme 'IOB2' takes tags whose first character "
                "is one of B, I, O, as seqeval does; pass the scheme the data is tagged in, or use mode='default', "
                "which reads any tag", "evaluate_tags", [["B-PER", "O"]], [["B-PER", "S-PER"]], mode="strict")
    raises_same(ValueError, "y_true[0][0] = 'PER': scheme='auto' reads the first character of each tag of y_true as a "
                "prefix (one of B, E, I, L, O, S, U) and this one has none; pass mode='default', which reads any tag",
                "evaluate_tags", [["PER"]], [["O"]], mode="strict", scheme="auto")
    raises_same(ValueError, "scheme='auto' cannot tell the scheme of y_true: its tags have the prefixes I, O, which fit "
                "none of IOB2, IOE2, IOBES and BILOU (seqeval's auto_detect); pass the scheme (IOB1 and IOE1 are "
                "never detected)", "evaluate_tags", [["I-PER", "O"]], [["O", "O"]], mode="strict", scheme="auto")
    raises_same(ValueError, "tags[1][0] = 'É-X': mode='strict' with scheme 'BILOU' takes tags whose last character is "
                "one of B, I, L, O, U, as seqeval does; pass the scheme the data is tagged in, or use mode='default', "
                "which reads any tag", "tags_to_spans", [["X-B"], ["É-X"]], mode="strict", scheme="BILOU", suffix=True)


def test_options_and_tags_to_spans_errors():
    raises_same(ValueError, "scheme must be one of 'IOB1', 'IOB2' (or 'BIO'), 'IOE1', 'IOE2', 'IOBES', 'BILOU' or "
                "'auto'; got 'BIOES'", "tags_to_spans", ["O"], scheme="BIOES")
    raises_same(ValueError, "mode must be 'default' (seqeval's default, conlleval-style chunks) or 'strict' (seqeval's "
                "mode='strict' with the scheme); got None", "tags_to_spans", ["O"], mode=None)
    raises_same(ValueError, "output must be 'report' (seqeval's classification_report dict) or 'huggingface' "
                "(evaluate's seqeval metric); got 'dict'", "evaluate_tags", [["O"]], [["O"]], output="dict")
    raises_same(TypeError, "tags must be a list of str tags (one sentence) or a list of such lists (a corpus); got "
                "tuple", "tags_to_spans", ("O",))
    raises_same(TypeError, "tags[1] must be a list of str tags, as the other sentences of tags are; got str",
                "tags_to_spans", [["O"], "O"])
    raises_same(TypeError, "tags[2] must be a str tag; got NoneType", "tags_to_spans", ["O", "B-X", None])
    raises_same(ValueError, "tokens has 1 entries but tags has 2: give one token per tag", "tags_to_spans",
                ["B-X", "I-X"], tokens=["a"])
    raises_same(ValueError, "tokens go with one sentence (tags a flat list of str): call tags_to_spans per sentence",
                "tags_to_spans", [["B-X"]], tokens=["a"])


def test_warnings_name_the_types():
    for module in IMPLEMENTATIONS:
        with pytest.warns(evalcore.EvaluationWarning) as caught:
            module.evaluate_tags([["B-PER", "O", "B-LOC"]], [["B-PER", "B-ORG", "O"]])
        texts = [str(w.message) for w in caught]
        assert texts == ["precision and F-score are 0.0 (undefined) for the types with no predicted chunk: 'LOC'",
                         "recall and F-score are 0.0 (undefined) for the types with no true chunk (support 0): 'ORG'"]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            module.evaluate_tags([["B-PER"]], [["B-PER"]])  # nothing undefined: no warning
