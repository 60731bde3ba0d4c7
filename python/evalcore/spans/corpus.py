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
    """Micro-averaged span scores over many documents, matched in parallel.

    Each document is ``{"text", "references", "predictions"}`` and is validated and matched
    exactly as :func:`span_evaluate` would, without the per-request size limits. Results do
    not depend on `threads`.

    Args:
        limits: :data:`evalcore.limits.CORPUS_LIMITS` by default: ``json_depth`` (20) and
            ``matching_steps`` (2,000,000) apply to each document, ``json_nodes``
            (10,000,000) to the values of all documents together. Pass a mapping of these
            fields (or a :class:`Limits`) to change them.
        progress: ``progress(done, total)`` in documents scored, called on this thread
            about ten times a second and once at the end (:mod:`evalcore.progress`); if it
            raises, the call stops with that exception. None (default): nothing counted.

    Returns:
        ``{"documentCount", "match", "minimumIou", "overall", "perLabel"}`` (plus
        ``"perDocument"``: each document's span-evaluate ``result``, when asked), where
        ``overall`` and each ``perLabel`` entry hold ``matched``, ``predictions``,
        ``references``, ``precision``, ``recall``, ``f1`` and ``meanMatchedIou``.

    Raises:
        EvaluationError: for the first faulty document; ``pointer`` starts with its index
            (``/3/references/0/id``) and ``message`` with ``document 3:``. INPUT_LIMIT when a
            document nests deeper than ``json_depth``, contains itself, or the corpus holds
            more than ``json_nodes`` values.
        ValueError: for a bad keyword argument.
    """
    check_corpus_options(match, minimum_iou, threads)
    progress = check_progress(progress)
    docs = documents if type(documents) is list else list(documents)
    return _core.span_evaluate_corpus(
        docs,
        match == "overlap",
        float(minimum_iou),
        threads or os.cpu_count() or 1,
        bool(per_document),
        SPAN_CONVENTIONS_TABLE,
        resolve_corpus_limits(limits).as_tuple(),
        progress,
    )
