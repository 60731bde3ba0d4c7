"""Bulk run evaluation by the native core: whole TREC-style runs, thousands to millions of
queries, with SPEC §2's per-query definitions. Twin: :mod:`evalcore.reference.runs`."""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from . import _core
from .measures import MeasureNames
from .run_evaluation import (DEFAULT_MAX_LINE_BYTES, RunEvaluation, check_max_line_bytes, check_options,
                             normalize_source, parse_measures)

# The native core counts in size_t: a bound past any file's size is no bound.
_NATIVE_LINE_BOUND = 1 << 62


def evaluate_run(
    qrels: Any,
    run: Any,
    measures: MeasureNames,
    *,
    relevant_at_least: float = 1,
    gain: str = "linear",
    ties: str = "score",
    missing: str = "skip",
    threads: Union[int, None] = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> RunEvaluation:
    """Evaluate a whole run against qrels.

    Args:
        qrels: ``{query_id: {doc_id: grade}}`` (grades may be fractional; negative grades
            are allowed and add no gain), a TREC qrels file path (``query iteration doc
            grade``), or a pandas/pyarrow table with ``query_id``, ``doc_id``, ``relevance``.
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}`` in rank order,
            a TREC run file path (``query Q0 doc rank score tag``, fields after the 6th
            ignored; read streaming when grouped by query), or a table with ``query_id``,
            ``doc_id``, ``score``. In both TREC formats blank lines and comments (the
            first non-blank byte is ``#``) are skipped anywhere; line numbers count them.
        measures: ir_measures-style names: ``P@k``, ``R@k``, ``RR@k``, ``AP@k``,
            ``nDCG@k``, and ``RR``, ``AP``, ``nDCG`` over the whole ranking.
        relevant_at_least: the grade from which a judged document is relevant (> 0).
        gain: ``"linear"`` (gain = grade) or ``"exponential"`` (2**grade - 1).
        ties: ``"score"``: rank by score descending, ties by doc ID descending (trec_eval's
            rule; scores compare as binary64, as in trec_eval 10, where 9.x and
            pytrec_eval first round them to float32);
            ``"input"``: the order given (dict insertion, file or table order).
        missing: ``"skip"`` ignores judged queries the run lacks (as trec_eval 9.x did;
            10.0 stops with exit 4 unless -c); ``"zero"`` scores them as empty rankings
            (trec_eval -c). Run queries without judgments (absent from
            the qrels, or an empty dict there) are never scored.
        threads: worker threads (default: all CPUs); the result does not depend on it.
        max_line_bytes: the longest line a TREC file may have, in bytes, not counting its
            newline (default 1 MiB, 1,048,576); a longer line is a RunInputError on its
            line (``"run.txt:3: line longer than 1,048,576 bytes (the max_line_bytes
            limit)"``), found without reading past it, as a malformed line is; comment
            and blank lines too. Raise it for files with longer lines.

    Returns:
        :class:`RunEvaluation` with ``mean``, ``defined_counts``, ``per_query``, ``to_json()``.

    A path may be a ``str``, ``bytes`` or ``os.PathLike``; all are read the same way.
    It must name a regular file: a FIFO or a device (``/dev/stdin``, a shell's
    ``<(...)``) is refused without blocking (write its output to a file first). The qrels
    are read before the run.

    Raises:
        ValueError: unknown measure names (the message lists the valid ones) or options;
            a path holding a NUL byte: ``ValueError("embedded null byte")``, as ``open()``
            gives (checked before any file is opened).
        RunInputError: a malformed line (naming the file and line), a document listed
            twice for one query, a non-numeric grade or score, an ID that is not a str.
        OSError: a file that cannot be opened or read, raised as ``open(path, "rb")``
            raises it: the subclass its errno maps to (``FileNotFoundError``,
            ``IsADirectoryError``, ``PermissionError``, ...), ``strerror``'s text, and
            ``filename`` the path as ``os.fspath`` gives it (``str``, or ``bytes`` for a
            bytes path). A path that is not a regular file (nor a directory) is a plain
            ``OSError`` with ``errno.EINVAL`` and ``strerror`` ``"Not a regular file (a
            FIFO)"`` (or ``a character device``, ``a block device``, ``a socket``).
    """
    return _evaluate_run(qrels, run, measures, relevant_at_least, gain, ties, missing, threads,
                         max_line_bytes=max_line_bytes)


def _evaluate_run(qrels: Any, run: Any, measures: MeasureNames, relevant_at_least: float, gain: str,
                  ties: str, missing: str, threads: Union[int, None], block_bytes: int = 16 << 20,
                  max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> RunEvaluation:
    # block_bytes: how much of a run file is read at a time at most (tests make it tiny).
    specs = parse_measures(measures)
    options = check_options(relevant_at_least, gain, ties, missing, threads)
    line_bound = min(check_max_line_bytes(max_line_bytes), _NATIVE_LINE_BOUND)
    qrels_source = normalize_source(qrels, "qrels")
    run_source = normalize_source(run, "run")
    query_ids, values, mean, defined = _core.evaluate_run(
        qrels_source,
        run_source,
        [s.native() for s in specs],
        options.relevant_at_least,
        options.exponential,
        options.ties_by_score,
        options.missing_zero,
        options.threads,
        block_bytes,
        line_bound,
    )
    return RunEvaluation(
        [s.name for s in specs],
        query_ids,
        np.frombuffer(values, dtype=np.float64),
        mean,
        defined,
        {"relevantAtLeast": options.relevant_at_least, "gain": gain, "ties": ties, "missing": missing},
    )
