"""tags_to_spans and evaluate_tags, pure Python: the twins of :mod:`evalcore.tags.convert`
and :mod:`evalcore.tags.evaluate` (and of cpp/tags/ behind them)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ...tags.conll_options import is_conll_source, tags_result_of_conll
from ...tags.options import check_evaluate_options, check_tag_options, finish_evaluation, finish_spans
from .chunks import Sentences, check_strict, chunks_of, read_sentence
from .scores import counts, report

Core = Tuple[Dict[str, Dict[str, Any]], float, List[str], List[int], List[int]]


def _read_tags(tags: Any) -> Sentences:
    if not isinstance(tags, list):
        raise TypeError(f"tags must be a list of str tags (one sentence) or a list of such lists (a corpus); "
                        f"got {type(tags).__name__}")
    nested = any(isinstance(s, list) for s in tags)
    sentences = Sentences("tags", nested)
    if not nested:
        read_sentence(sentences, 0, tags, 0)
        return sentences
    positions = 0
    for i, sentence in enumerate(tags):
        if not isinstance(sentence, list):
            raise TypeError(f"tags[{i}] must be a list of str tags, as the other sentences of tags are; "
                            f"got {type(sentence).__name__}")
        positions = read_sentence(sentences, i, sentence, positions)
    return sentences


def core_tags_to_spans(tags: Any, scheme_code: int, strict: bool, suffix: bool) -> Tuple[List[Dict[str, Any]], bool]:
    """The spans of the tags (positions of the concatenation) and whether tags was nested."""
    sentences = _read_tags(tags)
    chunks, scheme = chunks_of(sentences, scheme_code, strict, suffix)
    if scheme is not None:
        check_strict(sentences, scheme, suffix)
    return [{"label": name, "start": start, "end": end} for name, start, end in chunks], sentences.nested


def tags_to_spans(tags: Any, *, scheme: str = "IOB2", mode: str = "default", suffix: bool = False,
                  tokens: Optional[List[str]] = None, separators: Any = None) -> List[Dict[str, Any]]:
    """The reference twin of :func:`evalcore.tags_to_spans`."""
    scheme_code, strict = check_tag_options(scheme, mode, suffix)
    spans, nested = core_tags_to_spans(tags, scheme_code, strict, suffix)
    return finish_spans(spans, nested, len(tags), tokens, separators)


def _read_corpus(y_true: Any, y_pred: Any) -> Tuple[Sentences, Sentences]:
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        if not isinstance(value, list):
            raise TypeError(f"{name} must be a list of sentences, each a list of str tags; got {type(value).__name__}")
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true):,} sentences but y_pred has {len(y_pred):,}: they pair up "
                         f"sentence by sentence")
    true, pred = Sentences("y_true", True), Sentences("y_pred", True)
    positions = 0
    for i, (a, b) in enumerate(zip(y_true, y_pred)):
        for name, value in (("y_true", a), ("y_pred", b)):
            if not isinstance(value, list):
                raise TypeError(f"{name}[{i}] must be a list of str tags; got {type(value).__name__}")
        if len(a) != len(b):
            raise ValueError(f"y_true[{i}] has {len(a):,} tags but y_pred[{i}] has {len(b):,}: a prediction has one "
                             f"tag per token of its sentence")
        read_sentence(true, i, a, positions)
        positions = read_sentence(pred, i, b, positions)
    if not true.tags:
        raise ValueError("y_true holds no tag (no sentence, or only empty ones): token accuracy is undefined "
                         "(seqeval's accuracy_score divides by zero); evaluate at least one token")
    return true, pred


def core_evaluate_tags(y_true: Any, y_pred: Any, scheme_code: int, strict: bool, suffix: bool) -> Core:
    """(report, accuracy, types, supports, predicted counts)."""
    true, pred = _read_corpus(y_true, y_pred)
    true_chunks, scheme = chunks_of(true, scheme_code, strict, suffix)
    if scheme is not None:
        check_strict(true, scheme, suffix)
        check_strict(pred, scheme, suffix)
    pred_chunks, _ = chunks_of(pred, scheme_code, strict, suffix, detect_in=true)
    types, tp, predicted, supports = counts(true_chunks, pred_chunks)
    correct = sum(1 for a, b in zip(true.tags, pred.tags) if a == b)
    return report(types, tp, predicted, supports), correct / len(true.tags), types, supports, predicted


def evaluate_tags(y_true: Any, y_pred: Any = None, *, scheme: str = "IOB2", mode: str = "default",
                  suffix: bool = False, threads: Optional[int] = None, output: str = "report",
                  columns: Any = None) -> Dict[str, Any]:
    """The reference twin of :func:`evalcore.evaluate_tags`."""
    if is_conll_source(y_true) or columns is not None:
        from .conll_evaluate import evaluate_conll

        return tags_result_of_conll(evaluate_conll, y_true, y_pred, output, threads, columns=columns, scheme=scheme,
                                    mode=mode, suffix=suffix)
    scheme_code, strict = check_tag_options(scheme, mode, suffix)
    check_evaluate_options(output, threads)
    return finish_evaluation(core_evaluate_tags(y_true, y_pred, scheme_code, strict, suffix), output)
