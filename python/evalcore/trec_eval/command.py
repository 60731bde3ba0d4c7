"""``evalcore trec QRELS RUN``: trec_eval's command line, and evalcore's.

    evalcore trec [-q] [-c] [-n] [-l N] [-M N] [-J] [-m NAME[.PARAMS]]... QRELS RUN|-
                  [--format trec_eval|table|json|csv] [--relevant-at-least G] [--gain ...]
                  [--ties ...] [--missing ...] [--threads N] [--max-line-bytes N]

``--format trec_eval`` prints what trec_eval 10 prints for the same command line and files,
byte for byte (trec_eval_format.py says how); it is the default when every ``-m`` names a
trec_eval measure as trec_eval spells it (``map``, ``P.5,10``, ``official``), or there is no
``-m`` (trec_eval's default, ``official``). Otherwise (ir_measures or ranx names such as
``nDCG@10``, ``P_10``, ``ndcg@10``) the default is ``table``: evalcore's conventions, one
line per (measure, query or ``all``, value), 4 decimals, ``null`` where a value is
undefined and ``all`` the exact mean over the queries defining it; json and csv give
every value in full. The trec_eval flags mean the same in every format (``-c`` is
``--missing zero``, ``-l`` is ``--relevant-at-least``).

RUN may be ``-`` (stdin) and either file may be gzip-compressed (``*.gz``; stdin when it
starts like gzip); both are decompressed or copied to a temporary file in chunks first.

Exit status: 0; 1 when an input cannot be read (2 in trec_eval format, as trec_eval), or
for a measure trec_eval refuses or evalcore lacks in trec_eval format; 2 for usage
errors; 4 in trec_eval format when a qrels topic is missing from the run without ``-c``
(trec_eval 10's behaviour) or a measure cannot be computed on ordinary qrels (``utility``
with other than 4 coefficients, the ``prefs`` and ``qrels_jg`` measures, as trec_eval 10),
7 when no topic is evaluated.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import sys
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

import numpy as np
from . import output_format as te
from ..errors import RunInputError
from ..progress import ProgressBar, terminal_bar
from ..runs.result import DEFAULT_MAX_LINE_BYTES, VALID_MEASURES, RunEvaluation, parse_measures
from ..runs.sources import is_gzip_path, open_regular, spooled_copy

STDIN_NAME = "<stdin>"  # what messages call a run read from stdin


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evalcore trec", description="Evaluate a TREC run file against TREC qrels, as trec_eval does.")
    parser.add_argument("qrels", help="qrels file: query iteration document grade (*.gz: gzip)")
    parser.add_argument("run", help="run file: query Q0 document rank score tag (- : stdin; *.gz: gzip)")
    parser.add_argument("-m", "--measure", action="append", metavar="NAME",
                        help=f"a measure, repeatable (default: official): {VALID_MEASURES}")
    parser.add_argument("-q", "--per-query", "--query_eval_wanted", action="store_true", dest="per_query",
                        help="also print each query's values")
    parser.add_argument("-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
                        help="judged queries the run lacks count (trec_eval -c; --missing zero in other formats)")
    parser.add_argument("-n", "--nosummary", action="store_true", dest="no_summary",
                        help="no summary ('all') lines")
    parser.add_argument("-l", "--level_for_rel", dest="level", metavar="N",
                        help="the grade from which a document is relevant (default: 1)")
    parser.add_argument("-M", "--Max_retrieved_per_topic", dest="max_retrieved", metavar="N",
                        help="only the first N documents of each ranking count (default: all)")
    parser.add_argument("-J", "--Judged_docs_only", action="store_true", dest="judged_only",
                        help="drop documents without a judgment of grade >= 0 from the rankings")
    parser.add_argument("--format", choices=("trec_eval", "table", "json", "csv"), default=None,
                        help="output format (default: trec_eval when every -m is spelled as trec_eval spells it, else table)")
    parser.add_argument("--relevant-at-least", type=float, default=None, metavar="G",
                        help="the grade from which a document is relevant (default: 1); not in trec_eval format: use -l")
    parser.add_argument("--gain", choices=("linear", "exponential"), default=None, help="nDCG gain (default: linear)")
    parser.add_argument("--ties", choices=("score", "input"), default=None,
                        help="score: by score, ties by doc ID descending, as trec_eval (default); input: file order")
    parser.add_argument("--missing", choices=("skip", "zero"), default=None,
                        help="judged queries missing from the run: skip (default) or score 0 (trec_eval -c)")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: all CPUs)")
    parser.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES, metavar="N",
                        help=f"the longest line a file may have, in bytes (default: {DEFAULT_MAX_LINE_BYTES:,})")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (one is drawn on stderr when it is a terminal and reading takes over a second)")
    return parser


@contextlib.contextmanager
def _progress(args: argparse.Namespace) -> Iterator[Optional[ProgressBar]]:
    """The bar of the files' bytes read, or None (--quiet, or stderr not a terminal)."""
    bar = terminal_bar("evalcore trec: reading", "bytes", args.quiet)
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def trec_eval_spelled(measures: Optional[Sequence[str]]) -> bool:
    """Whether every -m names a measure or nickname of trec_eval's table as its command line
    spells it (NAME or NAME.PARAMS); no -m is trec_eval's default."""
    return all(m.partition(".")[0] in te.TABLE or m.partition(".")[0] in te.NICKNAMES for m in measures or [])


def main(argv: Sequence[str]) -> int:
    """Run ``evalcore trec``; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(list(argv))
    form = args.format or ("trec_eval" if trec_eval_spelled(args.measure) else "table")
    try:
        if form == "trec_eval":
            return _trec_eval(parser, args)
        return _evalcore_format(parser, args, form)
    except BrokenPipeError:  # `evalcore trec ... | head`: the reader left; not an error
        # Python's advice: point stdout at devnull so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


@contextlib.contextmanager
def run_file(run: str) -> Iterator[Tuple[str, Optional[str]]]:
    """The run as a regular file the cores read, and the name messages give it (None: its
    path): stdin and *.gz files are copied (decompressed) to a temporary file first."""
    if run == "-":
        with spooled_copy(sys.stdin.buffer, STDIN_NAME) as copy:
            yield copy, STDIN_NAME
    elif is_gzip_path(run):
        with open(run, "rb", opener=open_regular) as compressed, \
                spooled_copy(compressed, run, decompress=True, path=run) as copy:
            yield copy, run
    else:
        yield run, None


def _input_fault(err: Exception) -> str:
    if isinstance(err, OSError):
        return f"evalcore trec: cannot read {os.fsdecode(err.filename)}: {err.strerror}\n"
    return f"evalcore trec: {err}\n"


# ---- evalcore's formats ----------------------------------------------------------------------


def _evalcore_options(parser: argparse.ArgumentParser, args: argparse.Namespace, form: str) -> Dict[str, Any]:
    """The trec_eval flags in evalcore's terms (-c: missing zero, -l: relevant_at_least)."""
    if args.level is not None and args.relevant_at_least is not None:
        parser.error("-l and --relevant-at-least say the same; give one")
    if args.complete and args.missing == "skip":
        parser.error("-c and --missing skip contradict each other")
    if args.no_summary and form == "json":
        parser.error("-n applies to the trec_eval, table and csv formats")
    level = args.relevant_at_least
    if args.level is not None:
        try:
            level = float(args.level)
        except ValueError:
            parser.error(f"-l {args.level}: not a number")
    max_retrieved = None
    if args.max_retrieved is not None:
        try:
            max_retrieved = int(args.max_retrieved)
        except ValueError:
            parser.error(f"-M {args.max_retrieved}: not an integer")
    return {"relevant_at_least": 1.0 if level is None else level, "gain": args.gain or "linear",
            "ties": args.ties or "score", "missing": "zero" if args.complete else (args.missing or "skip"),
            "threads": args.threads, "max_line_bytes": args.max_line_bytes, "max_retrieved": max_retrieved,
            "judged_only": args.judged_only}


def _evalcore_format(parser: argparse.ArgumentParser, args: argparse.Namespace, form: str) -> int:
    from ..runs.evaluate import _evaluate_run

    measures = args.measure or ["official"]
    options = _evalcore_options(parser, args, form)
    try:
        parse_measures(measures)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        with run_file(args.run) as (path, name), _progress(args) as bar:
            evaluation = _evaluate_run(args.qrels, path, measures, options.pop("relevant_at_least"), options.pop("gain"),
                                       options.pop("ties"), options.pop("missing"), options.pop("threads"),
                                       run_name=name, progress=bar, **options)
    except (RunInputError, OSError) as err:
        sys.stderr.write(_input_fault(err))
        return 1
    except ValueError as exc:  # an option out of range
        parser.error(str(exc))
    for warning in evaluation.warnings:  # nothing evaluated: say so, with the counts
        sys.stderr.write(f"evalcore trec: warning: {warning}\n")
    _write(evaluation, form, args.per_query, not args.no_summary, sys.stdout)
    sys.stdout.flush()
    return 0


def _rows(evaluation: RunEvaluation, per_query: bool, summary: bool) -> List[List[object]]:
    rows: List[List[object]] = []
    if per_query:
        columns = [evaluation.values(m).tolist() for m in evaluation.measures]
        for q, query in enumerate(evaluation.query_ids):
            for m, measure in enumerate(evaluation.measures):
                value = columns[m][q]
                rows.append([measure, query, None if value != value else value])
    if summary:
        for measure in evaluation.measures:
            rows.append([measure, "all", evaluation.mean[measure]])
    return rows


def _write(evaluation: RunEvaluation, form: str, per_query: bool, summary: bool, out: TextIO) -> None:
    if form == "json":
        out.write(evaluation.to_json(per_query=per_query) + "\n")
    elif form == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["measure", "query", "value"])
        for measure, query, value in _rows(evaluation, per_query, summary):
            writer.writerow([measure, query, "" if value is None else repr(value)])
    else:
        for measure, query, value in _rows(evaluation, per_query, summary):
            shown = "null" if value is None else f"{value:.4f}"
            out.write(f"{measure:<22}\t{query}\t{shown}\n")


# ---- trec_eval's format ----------------------------------------------------------------------

_EVALCORE_ONLY = ("relevant_at_least", "gain", "ties", "missing")


def _trec_eval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    given = [f"--{o.replace('_', '-')}" for o in _EVALCORE_ONLY if getattr(args, o) is not None]
    if given:
        parser.error(f"{', '.join(given)}: not trec_eval's; --format trec_eval prints what trec_eval prints "
                     "(use -l and -c, or another --format)")
    out = sys.stdout.buffer
    try:
        printed = _trec_eval_output(args, out)
    except te.TrecEvalError as err:
        out.flush()
        sys.stderr.write(err.stderr_text())
        return err.status
    except BrokenPipeError:  # the reader of stdout left (`| head`): main() handles it, not a file fault
        raise
    except (RunInputError, OSError) as err:
        sys.stderr.write(_input_fault(err))
        return 2  # trec_eval's status for a file it cannot read or parse
    out.flush()
    return printed


def _level(text: Optional[str]) -> float:
    """-l as trec_eval reads it (atol); levels below 1 would make grade 0 relevant, which
    evalcore's relevance threshold (> 0) cannot express."""
    level = 1 if text is None else te.c_atol(text)
    if level < 1:
        raise te.TrecEvalError(f"-l {text}: relevance levels below 1 are not supported", 1, "evalcore")
    return float(level)


def _max_retrieved(text: Optional[str]) -> Optional[int]:
    if text is None:
        return None
    value = te.c_atol(text)
    if value < 0:
        raise te.TrecEvalError(f"-M {text}: a negative number of documents is not supported", 1, "evalcore")
    return value


class Topics:
    """The evaluated topics' rows, built one at a time from evalcore's values."""

    def __init__(self, plan: te.Plan) -> None:
        self.plan = plan
        self._sources: Dict[str, Tuple[Any, int, bool]] = {}

    def add(self, evaluation: RunEvaluation, bogus: bool) -> None:
        matrix = np.column_stack([evaluation.values(s.name) for s in self.plan.specs])  # topics x measures
        for i, query in enumerate(evaluation.query_ids):
            self._sources[query] = (matrix, i, bogus)

    def __contains__(self, query: str) -> bool:
        return query in self._sources

    def row(self, query: str) -> te.Row:
        matrix, i, bogus = self._sources[query]
        values = matrix[i].tolist()
        return te.Row(values, int(values[self.plan.counts["NumRet"]]), bogus)


def _trec_eval_output(args: argparse.Namespace, out: IO[bytes]) -> int:
    """Prints what trec_eval prints to `out`; returns the exit status or raises
    TrecEvalError (what trec_eval stops with) and input faults."""
    from ..runs.evaluate import _evaluate_run

    unready: Optional[te.TrecEvalError] = None
    try:
        plan = te.plan(args.measure or [])
    except te.TrecEvalError as err:
        if err.status != 2:  # -m names trec_eval refuses as it reads its command line, or evalcore lacks
            raise
        # A measure trec_eval cannot set up (exit 2): it says so after reading both files,
        # whose faults come first; the files are read with the counts only.
        plan, unready = te.plan(["runid"]), err
    options = {"max_retrieved": _max_retrieved(args.max_retrieved), "judged_only": args.judged_only,
               "max_line_bytes": args.max_line_bytes}
    level = _level(args.level)
    with run_file(args.run) as (path, name), _progress(args) as bar:
        if args.run != "-" and os.path.getsize(path) == 0:
            _empty_run_file(args, plan, level, options)
        evaluation = _evaluate_run(args.qrels, path, plan.specs, level, "linear", "score", "skip", args.threads,
                                   run_name=name, progress=bar, **options)
        # trec_eval's runid for a run without data lines (only blank or comment lines, or
        # empty stdin) is memory it never wrote, different on every run: evalcore prints "".
        tag = te.run_tag(path) or ""
    if unready is not None:
        raise unready
    topics = Topics(plan)
    topics.add(evaluation, False)
    if args.complete and evaluation.missing_query_ids:
        # trec_eval 10 -c: each topic the run lacks is ranked as one unjudged document.
        stand_in = {query: {te.BOGUS_DOCNO: 1.0} for query in evaluation.missing_query_ids}
        topics.add(_evaluate_run(args.qrels, stand_in, plan.specs, level, "linear", "score", "skip", args.threads,
                                 **options), True)
    order = te.topic_order(list(evaluation.query_ids) + evaluation.missing_query_ids)
    if not order:
        raise te.TrecEvalError("No queries with both results and relevance info", 7)
    summary = te.Summary(plan.columns)
    positive = 0
    for query in order:
        if query not in topics:  # trec_eval 10 without -c; its message says it backwards
            out.flush()
            raise te.TrecEvalError(f"result qid '{query}' not found in qrels", 4)
        row = topics.row(query)
        values = te.topic_values(plan.columns, row)
        summary.add(values)
        positive += int(row.values[plan.counts["NumRel1"]])
        if args.per_query:
            out.write(_encode(te.per_topic_lines(plan.columns, query, values)))
    if not args.no_summary:
        out.write(_encode(summary.lines(tag, positive if args.complete else None)))
    return 0


def _empty_run_file(args: argparse.Namespace, plan: te.Plan, level: float, options: Dict[str, Any]) -> None:
    """trec_eval cannot read a run file of 0 bytes (it maps the file; stdin is read, and an
    empty one is a run without data lines): exit 2, after the qrels are read, whose faults
    come first."""
    from ..runs.evaluate import _evaluate_run

    _evaluate_run(args.qrels, {}, plan.specs, level, "linear", "score", "skip", args.threads, **options)
    raise te.TrecEvalError(f"trec_eval.get_results: Cannot read results file '{args.run}'\n"
                           f"trec_eval: Quit in file '{args.run}'\n", 2, "exact")


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")  # the run tag is the file's bytes
