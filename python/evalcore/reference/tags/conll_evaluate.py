"""evaluate_conll, pure Python: the twin of cpp/conll/evaluate.cpp (and of
:func:`evalcore.evaluate_conll`). The file is checked sentence by sentence in the native
order (the pairing of two files, then each token's tags, gold before pred), then the tag
lists go through the reference's evaluate_tags, whose numbers are the native stream's."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from ...result_types import ConllEvaluation
from ...tags.conll_options import (MAX_LINE_BYTES, check_max_line_bytes, conll_tag_options, evaluation, opened,
                                   pair_columns)
from ...tags.options import MAX_POSITIONS, SCHEMES, finish_evaluation
from .chunks import ALLOWED, _prefix, chunks_of
from .conll_reader import Sentence, Sentences
from .evaluate import _read_corpus
from .scores import counts, report


def _check_same_tokens(g: Sentence, gold: str, p: Sentence, pred: str) -> None:
    for j, (a, b) in enumerate(zip(g.tokens, p.tokens)):
        if a != b:
            raise ValueError(f"{gold}:{g.first_line + j}: the token '{a.decode()}' is '{b.decode()}' at "
                             f"{pred}:{p.first_line + j}: the two files must hold the same tokens, line for line")
    if len(g.tokens) != len(p.tokens):
        raise ValueError(f"{gold}:{g.first_line}: the sentence has {len(g.tokens):,} tokens but the one at "
                         f"{pred}:{p.first_line} has {len(p.tokens):,}: the two files must hold the same sentences")


def _refused(where: str, tag: str, scheme: str, suffix: bool) -> ValueError:
    letters = ", ".join(c for c in "BEILOSU" if c in ALLOWED[scheme])
    return ValueError(f"{where}: the tag '{tag}': mode='strict' with scheme '{scheme}' takes tags whose "
                      f"{'last' if suffix else 'first'} character is one of {letters}, as seqeval does; pass the "
                      f"scheme the data is tagged in, or use mode='default', which reads any tag")


def _read_pairs(gold: Sentences, pred: Optional[Sentences], strict_scheme: Optional[str],
                suffix: bool) -> Tuple[List[List[str]], List[List[str]]]:
    y_true: List[List[str]] = []
    y_pred: List[List[str]] = []
    positions = 0
    while True:
        g = gold.next()
        if g is None:
            break
        p, pred_name, column = g, gold.name, 1
        if pred is not None:
            q = pred.next()
            if q is None:
                raise ValueError(f"{pred.name} ends before the sentence at {gold.name}:{g.first_line}: the two files "
                                 f"must hold the same sentences")
            _check_same_tokens(g, gold.name, q, pred.name)
            p, pred_name, column = q, pred.name, 0
        n = len(g.tokens)
        if n + 1 > MAX_POSITIONS - positions:
            raise ValueError(f"{gold.name}:{g.first_line}: the tags reach {MAX_POSITIONS:,} positions (tags plus one "
                             f"per sentence) at this sentence, the most one call takes; evaluate the file in parts")
        true_tags = [fields[0].decode("utf-8") for fields in g.tags]
        pred_tags = [fields[column].decode("utf-8") for fields in p.tags]
        if strict_scheme is not None:
            allowed = ALLOWED[strict_scheme]
            for j, (a, b) in enumerate(zip(true_tags, pred_tags)):
                if _prefix(a, suffix) not in allowed:
                    raise _refused(f"{gold.name}:{g.first_line + j}", a, strict_scheme, suffix)
                if _prefix(b, suffix) not in allowed:
                    raise _refused(f"{pred_name}:{p.first_line + j}", b, strict_scheme, suffix)
        y_true.append(true_tags)
        y_pred.append(pred_tags)
        positions += n + 1
    if pred is not None:
        q = pred.next()
        if q is not None:
            raise ValueError(f"{gold.name} ends before the sentence at {pred.name}:{q.first_line}: the two files "
                             f"must hold the same sentences")
    if not any(y_true):
        raise ValueError(f"{gold.name} holds no token line: token accuracy is undefined (seqeval's accuracy_score "
                         f"divides by zero); evaluate at least one token")
    return y_true, y_pred


def evaluate_conll(gold: Any, pred: Any = None, *, columns: Optional[Sequence[int]] = None, scheme: str = "IOB2",
                   mode: str = "default", suffix: bool = False,
                   max_line_bytes: int = MAX_LINE_BYTES) -> ConllEvaluation:
    """The reference twin of :func:`evalcore.evaluate_conll`."""
    scheme_code, strict = conll_tag_options(scheme, mode, suffix)
    wanted = pair_columns(columns, pred is not None)
    limit = check_max_line_bytes(max_line_bytes)
    strict_scheme = SCHEMES[scheme_code] if strict else None
    with opened(gold, "gold") as (gold_reader, gold_name):
        gold_sentences = Sentences(gold_reader, gold_name, wanted if pred is None else wanted[:1], limit)
        if pred is None:
            y_true, y_pred = _read_pairs(gold_sentences, None, strict_scheme, suffix)
        else:
            with opened(pred, "pred") as (pred_reader, pred_name):
                pred_sentences = Sentences(pred_reader, pred_name, wanted[1:], limit)
                y_true, y_pred = _read_pairs(gold_sentences, pred_sentences, strict_scheme, suffix)
    true, predicted_side = _read_corpus(y_true, y_pred)  # (checked above: it raises nothing here)
    true_chunks, _ = chunks_of(true, scheme_code, strict, suffix)
    pred_chunks, _ = chunks_of(predicted_side, scheme_code, strict, suffix)
    types, matched, predicted, supports = counts(true_chunks, pred_chunks)
    correct = sum(1 for a, b in zip(true.tags, predicted_side.tags) if a == b)
    scores = report(types, matched, predicted, supports)
    accuracy = correct / len(true.tags)
    finish_evaluation((scores, accuracy, types, supports, predicted), "report")
    seen = {tag for side in (y_true, y_pred) for sentence in side for tag in sentence}
    other = sum(1 for tag in seen if (tag[-1] if suffix else tag[0]) not in "BIO")
    return evaluation(scores, accuracy, types, supports, predicted, matched, len(true.tags), correct, len(y_true),
                      gold_sentences.documents, other)
