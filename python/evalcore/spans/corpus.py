"""Span evaluation over a corpus: :func:`span_evaluate_corpus`, micro-averaged span scores
over many documents matched in parallel by the native core. Twin:
:mod:`evalcore.reference.spans.corpus`."""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping, Optional

from .. import _core
from ..limits import LimitsLike, resolve_corpus_limits
from ..progress import ProgressCallback, check_progress
from ..requests._arguments import check_corpus_options
from ..requests.conventions import SPAN_CONVENTIONS_TABLE
from ..result_types import SpanCorpusResult
from .display import span_corpus_result


def span_evaluate_corpus(
    documents: Iterable[Mapping[str, Any]],
    *,
    match: str = "exact",
    minimum_iou: float = 0.5,
    threads: Optional[int] = None,
    per_document: bool = False,
    limits: LimitsLike = None,
    progress: Optional[ProgressCallback] = None,
) -> SpanCorpusResult:
    """Micro, macro and weighted span scores over many documents, matched in parallel.

    Each document is ``{"text", "references", "predictions"}`` and is validated and matched
    exactly as :func:`span_evaluate` would, without the per-request size limits, except
    that (unlike a span-evaluate request) it may leave out:

    - ``text``: the document is scored by its offsets alone (integers, 0 <= start < end
      <= 2^53 - 1; no end-of-text or surrogate-pair check is possible) and counted in
      ``documentsWithoutText`` (``perDocumentTextChecked`` says which, per document);
    - its spans' ``id``: a list whose spans give no ``id`` has them numbered by position
      in that list, ``"0"``, ``"1"``, ... (so ``references[int(referenceId)]`` is the
      span); within one list either every span gives an ``id`` or none does.

    Results do not depend on `threads`, nor on the order of the labels or documents' spans.

    Args:
        limits: :data:`evalcore.limits.CORPUS_LIMITS` by default: ``json_depth`` (20) and
            ``matching_steps`` (2,000,000) apply to each document, ``json_nodes``
            (10,000,000) to the values of all documents together. Pass a mapping of these
            fields (or a :class:`Limits`) to change them.
        progress: ``progress(done, total)`` in documents scored, called on this thread
            about ten times a second and once at the end (:mod:`evalcore.progress`); if it
            raises, the call stops with that exception. None (default): nothing counted.

    Returns:
        ``{"documentCount", "documentsWithoutText", "match", "minimumIou", "overall",
        "macro", "weighted", "perLabel"}`` (plus ``"perDocumentTextChecked"`` and
        ``"perDocument"``, each document's span-evaluate ``result``, when asked), where
        ``overall`` (micro) and each ``perLabel`` entry hold ``matched``, ``predictions``,
        ``references`` (the support), ``precision``, ``recall``, ``f1`` and
        ``meanMatchedIou``; ``macro`` and ``weighted`` hold ``precision``, ``recall`` and
        ``f1``: the mean of the labels' scores, or their mean weighted by ``references``
        (scikit-learn's and seqeval's definitions, 0 where undefined), each an exact sum
        rounded once and divided once. The dict is a
        :class:`~evalcore.spans.display.SpanCorpusResultDict` (``==`` the plain dict), which
        Jupyter shows as its per-label table with counts (docs/report.md).

    Raises:
        EvaluationError: for the first faulty document; ``pointer`` starts with its index
            (``/3/references/0/id``) and ``message`` with ``document 3:``.
            SCHEMA_VIOLATION at a span that gives an ``id`` where its list's first span
            gives none, or the other way round. INPUT_LIMIT when a
            document nests deeper than ``json_depth``, contains itself, or the corpus holds
            more than ``json_nodes`` values.
        ValueError: for a bad keyword argument.
    """
    check_corpus_options(match, minimum_iou, threads)
    progress = check_progress(progress)
    docs = documents if type(documents) is list else list(documents)
    return span_corpus_result(_core.span_evaluate_corpus(
        docs,
        match == "overlap",
        float(minimum_iou),
        threads or os.cpu_count() or 1,
        bool(per_document),
        SPAN_CONVENTIONS_TABLE,
        resolve_corpus_limits(limits).as_tuple(),
        progress,
    ))
