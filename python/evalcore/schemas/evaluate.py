"""nervaluate's SemEval-2013 schemas over a corpus, in the native core: :func:`evaluate_schemas`.
Twin: :mod:`evalcore.reference.schemas.evaluate_schemas`; docs/schemas.md."""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence

from .. import _core
from ..limits import LimitsLike, resolve_corpus_limits
from ..result_types import SchemasResult
from ._arguments import as_list, check_schema_options
from .display import schemas_result


def evaluate_schemas(
    true: Any,
    pred: Any,
    *,
    labels: Optional[Sequence[str]] = None,
    input: str = "spans",
    threads: Optional[int] = None,
    limits: LimitsLike = None,
) -> SchemasResult:
    """nervaluate's four SemEval-2013 schemas (strict, exact, partial, ent_type) over a corpus.

    Counts correct, incorrect, partial, missed, spurious, possible and actual entities and
    the precision, recall and F1 nervaluate's ``Evaluator(true, pred, tags=labels).evaluate()``
    gives, overall and per label. The pairs are a maximum matching (the most correct pairs,
    then the most pairs), so the result never depends on the order of the entities; it equals
    nervaluate's wherever no entity overlaps two of the other side (docs/schemas.md).

    Args:
        true: the true entities, one document each: with ``input="spans"`` lists of
            ``{"label": str, "start": int, "end": int}`` (nervaluate's "dict" loader, ``end``
            inclusive; other keys are ignored), with ``input="tags"`` lists of BIO tags
            (nervaluate's "list" loader): a list, a tuple or an iterator (a generator). With
            ``input="conll"`` one str (nervaluate's "conll" loader: a token, a tab and its BIO
            tag on each line, documents separated by a blank line; docs/schemas.md).
        pred: the predicted entities, in the same form, one document for each true one (for
            CoNLL strings, with the same lines as true, document by document).
        labels: the labels to score (nervaluate's ``tags=``); entities of other labels are
            left out. None (default): every label.
        input: ``"spans"`` (default), ``"tags"`` or ``"conll"``.
        threads: documents are matched on this many threads (default: every CPU), and
            two CoNLL strings read on two when it is 2 or more; the result does not depend on it.
        limits: only ``matching_steps`` (2,000,000) applies: the steps one document's
            matching may take (a mapping of it, or a :class:`Limits`).

    Returns:
        ``{"documentCount", "input", "matching", "overall", "perLabel"}``: ``overall`` maps
        each schema to its counts and scores, ``perLabel`` each label that occurs (and is
        among `labels`), in label order, to the same. The dict is a
        :class:`~evalcore.schemas.display.SchemasResultDict` (``==`` the plain dict), which
        Jupyter shows as its table of each schema's scores with counts (docs/report.md).

    Raises:
        EvaluationError: SCHEMA_VIOLATION for a value of the wrong type, documents of
            unequal count (the pointer names the shorter argument) or tags of unequal length,
            a tag that cannot start an entity; INVALID_SPAN for offsets out of order or
            range; MATCHING_LIMIT for a document needing more than ``matching_steps`` steps.
            The pointer names the argument, document and position (``/pred/3/5``). For CoNLL
            strings also SCHEMA_VIOLATION for a line without a tab and for a document with
            another number of lines in pred than in true; the message names the line.
        ValueError, TypeError: for a bad keyword argument.
    """
    wanted = check_schema_options(labels, input, threads)
    step_limit = resolve_corpus_limits(limits).matching_steps
    if input != "conll":
        true, pred = as_list(true), as_list(pred)
    return schemas_result(_core.evaluate_schemas(true, pred, wanted, input, threads or os.cpu_count() or 1, step_limit))
