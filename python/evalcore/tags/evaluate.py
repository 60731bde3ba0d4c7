"""seqeval's numbers: :func:`evaluate_tags`, per-type precision, recall and F1 of a tagged
corpus with their averages and token accuracy, by the native core. Twin:
:mod:`evalcore.reference.tags.evaluate`."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from .. import _core
from .conll import evaluate_conll
from .conll_options import is_conll_source, tags_result_of_conll
from .options import check_evaluate_options, check_tag_options, finish_evaluation


def evaluate_tags(
    y_true: "List[List[str]] | str | os.PathLike[str] | bytes",
    y_pred: "List[List[str]] | str | os.PathLike[str] | bytes | None" = None,
    *,
    scheme: str = "IOB2",
    mode: str = "default",
    suffix: bool = False,
    threads: Optional[int] = None,
    output: str = "report",
    columns: Optional[Sequence[int]] = None,
) -> Dict[str, Any]:
    """seqeval's ``classification_report(output_dict=True)`` and ``accuracy_score``.

    The chunks of each side (as :func:`evalcore.tags_to_spans` finds them, sentence by
    sentence of the corpus) are counted by exact match: a predicted chunk is correct when
    a true chunk has its type, start and end. Every number equals seqeval 1.2.2's, bit for
    bit, with the same keys in the same order (seqeval's numpy floats computed in its
    order). Results do not depend on `threads`.

    Args:
        y_true: the reference tags, a list of sentences, each a list of str; or a CoNLL
            file (a path, ``.gz`` decompressed, or its bytes), read and scored as a stream by
            :func:`evalcore.evaluate_conll` (docs/conll.md).
        y_pred: the predicted tags, sentence for sentence and tag for tag; with a CoNLL
            y_true, None (one file holding both, conlleval's last two columns) or the CoNLL
            file of the predictions.
        scheme: used by ``mode="strict"`` (see :func:`evalcore.tags_to_spans`); with
            ``"auto"`` the scheme is detected on y_true, as seqeval does.
        mode: ``"default"`` (seqeval's default) or ``"strict"``.
        suffix: True when the prefix ends the tag (``"PER-B"``).
        threads: threads for the chunking; None: as many as CPUs.
        output: ``"report"`` or ``"huggingface"``.
        columns: with CoNLL files only: the true and the predicted tags' column numbers
            (from 0; negative from the end); None: ``(-2, -1)`` for one file, ``(-1, -1)`` for two.

    Returns:
        ``output="report"``: ``{"report": {type: {"precision", "recall", "f1-score",
        "support"}, ..., "micro avg": ..., "macro avg": ..., "weighted avg": ...},
        "accuracy": float}``, the report equal to seqeval's dict. ``output="huggingface"``:
        what Hugging Face evaluate's seqeval metric returns, ``{type: {"precision",
        "recall", "f1", "number"}, ..., "overall_precision", "overall_recall",
        "overall_f1", "overall_accuracy"}``. Either is a
        :class:`~evalcore.tags.display.TagsResultDict` (``==`` the plain dict), which Jupyter
        shows as its per-type table with supports (docs/report.md).

    Raises:
        TypeError: y_true, y_pred, a sentence or a tag of the wrong type (named, as
            ``y_pred[3][7]``).
        ValueError: a bad option; sentence counts or lengths that differ (naming the
            sentence and both lengths); no tag at all; an empty tag; in strict mode a tag
            the scheme does not take, or a scheme auto cannot detect.

    Warns:
        EvaluationWarning: where seqeval warns: types with no predicted or no true chunk
            (their undefined scores are 0.0), or no chunk at all (macro averages nan).
    """
    if is_conll_source(y_true) or columns is not None:
        return tags_result_of_conll(evaluate_conll, y_true, y_pred, output, threads, columns=columns, scheme=scheme,
                                    mode=mode, suffix=suffix)
    scheme_code, strict = check_tag_options(scheme, mode, suffix)
    check_evaluate_options(output, threads)
    core = _core.evaluate_tags(y_true, y_pred, scheme_code, strict, suffix, threads or os.cpu_count() or 1)
    return finish_evaluation(core, output)
