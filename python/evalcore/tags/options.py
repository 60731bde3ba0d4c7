"""What :func:`evalcore.tags_to_spans` and :func:`evalcore.evaluate_tags` share with their
reference twins: the checks of the options, the scheme codes the cores take, the text built
from tokens, the Hugging Face shape and the warnings. Nothing here imports the compiled core."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from .display import tags_result

#: The schemes, in the order of their codes (the cores take the code). "BIO" is IOB2.
SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "auto")
SCHEME_ALIASES = {"BIO": "IOB2"}
MODES = ("default", "strict")
OUTPUTS = ("report", "huggingface")
#: Positions (tags, plus one "O" after each sentence of a corpus) one call may hold: chunk
#: offsets are 32-bit in the native core.
MAX_POSITIONS = 2**31 - 1


def check_tag_options(scheme: Any, mode: Any, suffix: Any) -> Tuple[int, bool]:
    """The scheme's code and whether the mode is strict; ValueError naming a bad option."""
    if isinstance(scheme, str) and scheme in SCHEME_ALIASES:
        scheme = SCHEME_ALIASES[scheme]
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of 'IOB1', 'IOB2' (or 'BIO'), 'IOE1', 'IOE2', 'IOBES', 'BILOU' "
                         f"or 'auto'; got {scheme!r}")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be 'default' (seqeval's default, conlleval-style chunks) or 'strict' "
                         f"(seqeval's mode='strict' with the scheme); got {mode!r}")
    if not isinstance(suffix, bool):
        raise ValueError(f"suffix must be a bool (True: the prefix ends the tag, as in 'PER-B'); got {suffix!r}")
    return SCHEMES.index(scheme), mode == "strict"


def check_evaluate_options(output: Any, threads: Any) -> None:
    """evaluate_tags' own options; ValueError naming a bad one."""
    if not isinstance(output, str) or output not in OUTPUTS:
        raise ValueError(f"output must be 'report' (seqeval's classification_report dict) or 'huggingface' "
                         f"(evaluate's seqeval metric); got {output!r}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads must be None or a positive int, got {threads!r}")


def tokens_text(tokens: Sequence[str], separators: Optional[Any] = None) -> str:
    """The text :func:`evalcore.tags_to_spans` measures offsets in when given tokens.

    Args:
        tokens: the sentence's tokens, one per tag.
        separators: what goes between two tokens: None (a space), one str for every gap,
            or a list with one str per gap (``len(tokens) - 1`` of them).

    Returns:
        ``tokens[0] + separators[0] + tokens[1] + ...``.

    Raises:
        TypeError: for a token or separator that is not a str.
        ValueError: for a list of separators of the wrong length.
    """
    gaps = _separators(tokens, separators)
    for j, token in enumerate(tokens):
        if not isinstance(token, str):
            raise TypeError(f"tokens[{j}] must be a str; got {type(token).__name__}")
    parts: List[str] = []
    for j, token in enumerate(tokens):
        if j:
            parts.append(gaps[j - 1])
        parts.append(token)
    return "".join(parts)


def _separators(tokens: Sequence[Any], separators: Any) -> List[str]:
    if not isinstance(tokens, list):
        raise TypeError(f"tokens must be a list of str, one per tag; got {type(tokens).__name__}")
    gaps = max(len(tokens) - 1, 0)
    if separators is None:
        return [" "] * gaps
    if isinstance(separators, str):
        return [separators] * gaps
    if not isinstance(separators, list):
        raise TypeError(f"separators must be None, a str or a list of str; got {type(separators).__name__}")
    if len(separators) != gaps:
        raise ValueError(f"separators has {len(separators)} entries but {len(tokens)} tokens have {gaps} gaps: "
                         f"give one separator per gap, or one str for all")
    for j, gap in enumerate(separators):
        if not isinstance(gap, str):
            raise TypeError(f"separators[{j}] must be a str; got {type(gap).__name__}")
    return list(separators)


def _utf16_length(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def spans_in_text(spans: List[Dict[str, Any]], tags_count: int, tokens: Any, separators: Any) -> List[Dict[str, Any]]:
    """Token-offset spans moved to UTF-16 code-unit offsets of :func:`tokens_text`'s text."""
    if isinstance(tokens, list) and len(tokens) != tags_count:
        raise ValueError(f"tokens has {len(tokens)} entries but tags has {tags_count}: give one token per tag")
    tokens_text(tokens, separators)  # checks tokens and separators
    gaps = _separators(tokens, separators)
    starts: List[int] = []
    ends: List[int] = []
    offset = 0
    for j, token in enumerate(tokens):
        if j:
            offset += _utf16_length(gaps[j - 1])
        starts.append(offset)
        offset += _utf16_length(token)
        ends.append(offset)
    return [{"label": s["label"], "start": starts[s["start"]], "end": ends[s["end"] - 1]} for s in spans]


def huggingface_shape(report: Dict[str, Dict[str, Any]], accuracy: float) -> Dict[str, Any]:
    """What Hugging Face evaluate's seqeval metric makes of seqeval's report and accuracy."""
    report = dict(report)
    report.pop("macro avg")
    report.pop("weighted avg")
    overall = report.pop("micro avg")
    scores: Dict[str, Any] = {
        name: {"precision": row["precision"], "recall": row["recall"], "f1": row["f1-score"], "number": row["support"]}
        for name, row in report.items()
    }
    scores["overall_precision"] = overall["precision"]
    scores["overall_recall"] = overall["recall"]
    scores["overall_f1"] = overall["f1-score"]
    scores["overall_accuracy"] = accuracy
    return scores


def _named(names: List[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:5])
    return shown + (f" and {len(names) - 5:,} more" if len(names) > 5 else "")


def tag_warnings(types: List[str], supports: List[int], predicted: List[int]) -> List[str]:
    """The warnings where seqeval warns (UndefinedMetricWarning, numpy's mean of nothing):
    `types` the entity types in report order, `supports` and `predicted` their true and
    predicted chunk counts."""
    if not types:
        return ["no chunk in y_true or y_pred: the micro and weighted scores are 0.0 and the macro "
                "averages nan (seqeval's numpy mean of no types)"]
    out: List[str] = []
    unpredicted = [t for t, n in zip(types, predicted) if n == 0]
    unsupported = [t for t, n in zip(types, supports) if n == 0]
    if unpredicted:
        out.append(f"precision and F-score are 0.0 (undefined) for the types with no predicted chunk: "
                   f"{_named(unpredicted)}")
    if unsupported:
        out.append(f"recall and F-score are 0.0 (undefined) for the types with no true chunk (support 0): "
                   f"{_named(unsupported)}")
    return out


def finish_spans(spans: List[Dict[str, Any]], nested: bool, tags_count: int, tokens: Any,
                 separators: Any) -> List[Dict[str, Any]]:
    """The core's spans as tags_to_spans returns them: in UTF-16 offsets when given tokens."""
    if tokens is None:
        if separators is not None:
            raise ValueError("separators go with tokens: pass tokens=[...] too, or leave separators out")
        return spans
    if nested:
        raise ValueError("tokens go with one sentence (tags a flat list of str): call tags_to_spans per sentence")
    return spans_in_text(spans, tags_count, tokens, separators)


def finish_evaluation(core: Tuple[Dict[str, Dict[str, Any]], float, List[str], List[int], List[int]],
                      output: str, stacklevel: int = 3) -> Dict[str, Any]:
    """The core's (report, accuracy, types, supports, predicted) as evaluate_tags returns it,
    its warnings issued as :class:`evalcore.EvaluationWarning`."""
    report, accuracy, types, supports, predicted = core
    texts = tag_warnings(types, supports, predicted)
    if texts:
        import warnings

        from ..runs.result import EvaluationWarning  # only here: evalcore.runs brings numpy

        for text in texts:
            warnings.warn(text, EvaluationWarning, stacklevel=stacklevel)
    if output == "huggingface":
        return tags_result(huggingface_shape(report, accuracy))
    return tags_result({"report": report, "accuracy": accuracy})
