"""Bulk run evaluation by the native core: whole TREC-style runs, thousands to millions of
queries, with docs/contract.md §2's per-query definitions. Twin: :mod:`evalcore.reference.runs`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from .. import _core
from .cwl_clipping import with_cwl_policies  # issue 25 item 2 (cwl2)
from .result import (DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_QRELS_ROWS, MeasureSpec, RunEvaluation, check_max_line_bytes,
                     check_options, issue_warnings, measure_specs, normalize_source, options_dict)
from .measures import MeasureNames, summaries
from ..progress import ProgressCallback, check_progress, file_bytes
from .iterables import RecordIterable, source_names
from .sources import readable
from .judgment_groups import check_qrels_format, evaluate_judgment_groups
from .diversity import SUBTOPIC_FORMAT, evaluate_diversity
from .text_measures import check_text_format, with_texts
from .preferences import PREFERENCE_FORMATS, evaluate_preferences
from .tables import DEFAULT_MAX_STREAM_ROWS, ArrowTable, check_max_stream_rows, interrupts_raised
from .ties import TIE_RULES, check_ties
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

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
    max_stream_rows: int = DEFAULT_MAX_STREAM_ROWS,
    max_retrieved: Optional[int] = None,
    judged_only: bool = False,
    progress: Optional[ProgressCallback] = None,
    max_qrels_rows: int = DEFAULT_MAX_QRELS_ROWS,
    query_col: str = "query_id",
    doc_col: str = "doc_id",
    relevance_col: str = "relevance",
    score_col: str = "score",
    qrels_format: str = "qrels",
    subtopic_col: str = "iteration",
    costs: Any = None,
) -> RunEvaluation:
    """Evaluate a whole run against qrels.

    Args:
        qrels: ``{query_id: {doc_id: grade}}`` (grades may be fractional; negative grades
            are allowed and add no gain), a TREC qrels file path (``query iteration doc
            grade``), a ``*.parquet`` path, or a table with ``query_id``, ``doc_id``,
            ``relevance`` columns: anything with ``__arrow_c_stream__`` or
            ``__arrow_c_array__`` (pyarrow, polars, DuckDB; pandas with pyarrow installed),
            read by the core from its Arrow buffers; or an iterable of records, read once:
            items with ``query_id``, ``doc_id``, ``relevance`` attributes, such as
            ir_datasets' ``qrels_iter()`` or ir_measures' ``read_trec_qrels()`` (docs/runs.md).
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}`` in rank order,
            a TREC run file path (``query Q0 doc rank score tag``, fields after the 6th
            ignored; read streaming when grouped by query), a ``*.parquet`` path, or a
            table with ``query_id``, ``doc_id``, ``score`` (as for the qrels; a run table
            grouped by query is scored batch by batch; a stream evalcore cannot ask for
            again, such as a ``RecordBatchReader``, is read once: see max_stream_rows); or an
            iterable of records with ``query_id``, ``doc_id``, ``score`` attributes
            (ir_datasets' ``scoreddocs_iter()``, ir_measures' ``read_trec_run()``, a list of
            ``ScoredDoc``), read once like a stream, batch by batch when grouped by query.
            In both TREC formats blank lines and comments (the first non-blank byte is
            ``#``) are skipped anywhere; line numbers count them.
        measures: names of ir_measures (``nDCG@10``, ``P(rel=2)@10``), trec_eval and
            pytrec_eval (``map``, ``P_10``, ``P.5,10``, ``official``) or ranx (``ndcg@10``,
            ``mrr@10``); docs/measures.md lists and defines them. An unknown name is a
            ValueError that suggests the closest valid ones.
        relevant_at_least: the grade from which a judged document is relevant (> 0).
        gain: ``"linear"`` (gain = grade) or ``"exponential"`` (2**grade - 1).
        ties: ``"score"``: rank by score descending, ties by doc ID descending (trec_eval's
            rule; scores compare as binary64, as in trec_eval 10, where 9.x and
            pytrec_eval first round them to float32);
            ``"input"``: the order given (dict insertion, file or table order);
            ``"average"``: by score, each measure the exact expectation over every order
            of each group of tied documents (McSherry and Najork's tie-aware measures:
            P, R, RR, AP, nDCG, Success, ERR, Rprec, Judged, bpref, binG, relative_P,
            Rprec_mult, unj, rbp, rbp_resid, dcg, ndcg with gains, ideal_dcg, ndcg_rel,
            Rndcg, ranx's hits, f1 and rbp; the set measures keep their value; the others,
            e.g. IPrec, infAP, yaap, gm_map, G, and ``max_retrieved`` are a ValueError saying
            why and what to give instead: docs/measures.md, "Ties");
            ``"optimistic"`` / ``"pessimistic"``: by score, each tied group ordered by
            grade, highest (lowest) first, unjudged documents last (first), then doc ID
            descending: the bounds of ``"average"`` for measures that grow with relevance.
            The rule used is ``RunEvaluation.options["ties"]`` (docs/measures.md, "Ties").
        missing: ``"skip"`` ignores judged queries the run lacks (as trec_eval 9.x did;
            10.0 stops with exit 4 unless -c), with an :class:`EvaluationWarning` giving
            how many and the first IDs; ``"zero"`` scores them as empty rankings
            (trec_eval -c, ir_measures). Run queries without judgments (absent from
            the qrels, or an empty dict there) are never scored; with a C/W/L measure
            (which cwl_eval scores them by) an EvaluationWarning says how many and which,
            for a dict, a DataFrame, a pyarrow Table or a run file (docs/measures.md,
            "Where cwl_eval differs").
        threads: worker threads (default: all CPUs); the result does not depend on it.
        max_line_bytes: the longest line a TREC file may have, in bytes, not counting its
            newline (default 1 MiB, 1,048,576); a longer line is a RunInputError on its
            line (``"run.txt:3: line longer than 1,048,576 bytes (the max_line_bytes
            limit)"``), found without reading past it, as a malformed line is; comment
            and blank lines too. Raise it for files with longer lines.
        max_stream_rows: a run stream read once (anything but a pyarrow Table or
            RecordBatch, a pandas or polars DataFrame, a parquet path) keeps its batches
            while they hold at most this many rows (default 5,000,000), so that one found
            not grouped by query is still grouped in memory; a longer ungrouped stream is a
            RunInputError naming the limit (docs/contract.md §5). 0 keeps none.
        max_retrieved: keep only the first ``max_retrieved`` documents of each query's
            ranking (after ordering it; trec_eval ``-M``); ``None`` (default) keeps all.
            Every measure, ``NumRet`` included, sees only those.
        judged_only: then drop the documents without a judgment of grade 0 or more
            (unjudged, or a negative grade), the ranks closing up (trec_eval ``-J``).
        max_qrels_rows: the most rows a qrels table (Arrow data, a ``*.parquet`` path) may
            have (default 100,000,000): the qrels are held whole, and a stream may never end.
            The batch that passes it is a RunInputError (``"qrels table: more than
            100,000,000 rows (the max_qrels_rows limit); raise it with max_qrels_rows=N"``),
            read no further. Dicts and TREC files are not counted.
        query_col, doc_col, relevance_col, score_col: the names of the query, document,
            grade (qrels) and score (run) columns of a table, or fields of an iterable's
            items (PyTerrier's ``qid``, ``docno``, ``label``; ranx's ``q_id``), for the qrels
            and the run alike (as :func:`evalcore.spark.evaluate_run` takes them). A table
            lacking one is a ValueError naming it and listing the table's columns.
        progress: ``progress(done, total)``, called on this thread about ten times a second
            while TREC files are read and once at the end, in bytes of the files
            (:mod:`evalcore.progress`); if it raises, the call stops with that exception.
            None (default): nothing is counted.
        qrels_format: ``"qrels"`` (default): the qrels as above. ``"qrels_jg"``: trec_eval's
            ``-R qrels_jg`` judgments, a TREC file path of ``query group document grade``
            lines (several judgment groups, i.e. assessors, per query; a document listed
            twice in one group is a RunInputError), scored with the measures that average
            over a query's groups, and only those: ``map_avgjg``, ``P_avgjg[.k,...]``,
            ``Rprec_mult_avgjg[.x,...]`` (nickname ``qrels_jg``; docs/measures.md); the run
            must be a TREC file path too, and ``gain``, ``threads``, ``max_stream_rows``,
            ``max_qrels_rows`` and ``progress`` do not apply. ``"prefs"``: trec_eval's
            ``-R prefs`` preference judgments, ``query group subgroup document rel_level``
            lines (rel_level a number >= 0; the documents of one sub-group are preferred by
            rel_level, sub-groups of one group combine transitively); ``"qrels_prefs"``: an
            ordinary qrels file read as preferences (its iteration column the group). Both
            are scored with trec_eval's 14 preference measures only (``prefs_simp``,
            ``prefs_pair``, ``prefs_avgjg``, ...; nicknames ``all_prefs`` and ``prefs``;
            docs/measures.md), ties broken by document ID ascending as trec_eval does there;
            TREC file paths only, and ``relevant_at_least``, ``judged_only``, ``gain``,
            ``threads``, ``max_stream_rows``, ``max_qrels_rows`` and ``progress`` do not
            apply. ``"subtopics"``: judgments per subtopic (intent) for the diversity
            measures of ndeval (``alpha_nDCG@k``, ``ERR_IA@k``, ``NRBP``, ``nNRBP``,
            ``P_IA@k``, ``AP_IA``, ``StRecall@k`` and their ndeval spellings), and only
            those: ndeval's ``query subtopic document grade`` file, ``{query: {subtopic:
            {doc: grade}}}``, a table with a subtopic column or an iterable of records
            (ir_measures' ``Qrel``, the subtopic in ``iteration``); ties by score are broken
            by document ID ascending, as pyndeval does (docs/measures.md); the queries
            are scored on ``threads`` threads; ``gain``, ``max_stream_rows``,
            ``max_qrels_rows`` and ``progress`` do not apply. A ValueError names any other value, and a measure the format cannot
            score.
        subtopic_col: with ``qrels_format="subtopics"``, the subtopic column of a qrels
            table or field of its records (default ``iteration``, ir_measures' place for it).
        costs: for the C/W/L measures (``INST(T=2,max_rel=3)``, ...), cwl_eval's cost file
            (its ``-c``): a path of ``element_type cost`` lines or a dict ``{element_type:
            cost}`` (costs finite, > 0). The run must then be a TREC run file whose lines share
            one element type (their second field, ``Q0`` in TREC runs; a run mixing types is a
            ValueError): its cost becomes every C/W/L measure's ``cost=`` unless the measure
            gives one; a type the costs lack leaves the items at ``max_cost`` (``min_cost``
            in the residuals), as cwl_eval does. ``options["cwlCosts"]`` says the element type
            and the cost applied. None (default): no cost file (docs/measures.md).

    Returns:
        :class:`RunEvaluation` with ``mean``, ``defined_counts``, ``per_query``, ``to_json()``.

    A path may be a ``str``, ``bytes`` or ``os.PathLike``; all are read the same way.
    It must name a regular file: a FIFO or a device (``/dev/stdin``, a shell's
    ``<(...)``) is refused without blocking (write its output to a file first). A path
    ending in ``.gz`` is decompressed (gzip) into a temporary file first, in chunks; a
    compressed file with another name is a RunInputError saying so. The qrels are read
    before the run.

    Raises:
        ValueError: unknown measure names (the message lists the valid ones) or options;
            a path holding a NUL byte: ``ValueError("embedded null byte")``, as ``open()``
            gives (checked before any file is opened).
        RunInputError: a malformed line (naming the file and line), a document listed
            twice for one query, a non-numeric grade or score, an ID that is not a str,
            a ``.gz`` file that does not decompress.
        OSError: a file that cannot be opened or read, raised as ``open(path, "rb")``
            raises it: the subclass its errno maps to (``FileNotFoundError``,
            ``IsADirectoryError``, ``PermissionError``, ...), ``strerror``'s text, and
            ``filename`` the path as ``os.fspath`` gives it (``str``, or ``bytes`` for a
            bytes path). A path that is not a regular file (nor a directory) is a plain
            ``OSError`` with ``errno.EINVAL`` and ``strerror`` ``"Not a regular file (a
            FIFO)"`` (or ``a character device``, ``a block device``, ``a socket``).
    """
    check_text_format(measures, qrels_format)
    return issue_warnings(with_texts(
        lambda specs: with_cwl_policies(  # issue 25 item 2: C/W/L clipping and costs= said
            lambda s: _evaluate_run(qrels, run, s, relevant_at_least, gain, ties, missing, threads,
                max_line_bytes=max_line_bytes, max_stream_rows=max_stream_rows, max_retrieved=max_retrieved,
                judged_only=judged_only, progress=progress, max_qrels_rows=max_qrels_rows, query_col=query_col,
                doc_col=doc_col, relevance_col=relevance_col, score_col=score_col, qrels_format=qrels_format,
                subtopic_col=subtopic_col), specs, costs, run, query_col),
        measures, measure_specs))


def _evaluate_run(qrels: Any, run: Any, measures: Union[str, Sequence[Union[str, MeasureSpec]]],
                  relevant_at_least: float, gain: str, ties: str, missing: str, threads: Union[int, None],
                  block_bytes: int = 4 << 20, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                  max_stream_rows: int = DEFAULT_MAX_STREAM_ROWS,
                  max_retrieved: Optional[int] = None, judged_only: bool = False,
                  run_name: Optional[str] = None, progress: Optional[ProgressCallback] = None,
                  max_qrels_rows: int = DEFAULT_MAX_QRELS_ROWS,
                  query_col: str = "query_id", doc_col: str = "doc_id", relevance_col: str = "relevance",
                  score_col: str = "score", qrels_format: str = "qrels",
                  subtopic_col: str = "iteration") -> RunEvaluation:
    # block_bytes: how much of a run file is read at a time at most (tests make it tiny; 4 MiB
    # measured faster than 16 on bench_trec_cli.py: 0.365 against 0.392 s on two threads).
    # measures may be MeasureSpecs already (the CLI's trec_eval names); run_name: what
    # messages call the run file (the CLI's copy of stdin is named "-").
    specs = measure_specs(measures)
    check_qrels_format(qrels_format, specs)
    options = check_options(relevant_at_least, gain, ties, missing, threads, max_retrieved, judged_only)
    check_ties(options.ties, specs, options.max_retrieved, qrels_format)
    progress = check_progress(progress)
    line_bound = min(check_max_line_bytes(max_line_bytes), _NATIVE_LINE_BOUND)
    if qrels_format in PREFERENCE_FORMATS:
        return evaluate_preferences(qrels, run, specs, options, gain, ties, missing, line_bound, qrels_format, run_name)
    if qrels_format == "qrels_jg":
        return evaluate_judgment_groups(qrels, run, specs, options, gain, ties, missing, line_bound, run_name)
    if qrels_format == SUBTOPIC_FORMAT:  # issue 25 item 1: diversity measures
        names = (*source_names("qrels", query_col, doc_col, relevance_col, score_col), score_col,
                 source_names("qrels", subtopic_col, doc_col, relevance_col, score_col)[0])
        return evaluate_diversity(qrels, run, specs, options, gain, ties, missing, line_bound, names, run_name)
    kept_rows = check_max_stream_rows(max_stream_rows)
    qrels_rows = min(check_max_line_bytes(max_qrels_rows, "max_qrels_rows"), 2**64 - 1)
    columns = (query_col, doc_col, relevance_col, score_col)
    qrels_source = normalize_source(qrels, "qrels", source_names("qrels", *columns))
    run_source = normalize_source(run, "run", source_names("run", *columns))
    if isinstance(qrels_source, RecordIterable):
        qrels_source.bounded(kept_rows, qrels_rows)
    if isinstance(run_source, RecordIterable):
        run_source.bounded(kept_rows, qrels_rows)
    # (an interrupt a table's producer raised is raised as itself)
    with interrupts_raised(qrels_source, run_source), \
            readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, copy_name):
        run_name = copy_name if run_name is None else run_name
        # A table speaking Arrow is handed over as what gives its capsules: one found not
        # grouped by query is asked for again and read whole, or, a stream read once, read
        # whole from the batches it kept.
        if isinstance(qrels_file, ArrowTable):
            qrels_file = qrels_file.provider(kept_rows)
        if isinstance(run_file, ArrowTable):
            run_file = run_file.provider(kept_rows)
        query_ids, values, mean, defined, missing_ids = _core.evaluate_run(
            qrels_file,
            run_file,
            [s.native() for s in specs],
            options.relevant_at_least,
            options.exponential,
            options.ties_by_score,
            options.missing_zero,
            options.threads,
            block_bytes,
            line_bound,
            options.max_retrieved,
            options.judged_only,
            b"" if qrels_name is None else os.fsencode(qrels_name),
            b"" if run_name is None else os.fsencode(run_name),
            progress,
            file_bytes(qrels_file, run_file) if progress is not None else 0,
            qrels_rows,
            TIE_RULES[options.ties],
        )
    return RunEvaluation(
        [s.name for s in specs],
        query_ids,
        np.frombuffer(values, dtype=np.float64),
        summaries([s.kind for s in specs], mean, defined),
        defined,
        options_dict(options, gain, ties, missing),
        missing_ids,
    )
