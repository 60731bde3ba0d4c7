"""``evalcore trec QRELS RUN``: trec_eval's command line, and evalcore's.

    evalcore trec [-q] [-c] [-n] [-l N] [-M N] [-J] [-R qrels|qrels_jg|prefs|qrels_prefs] [-Z ZMEAN_FILE]
                  [-m NAME[.PARAMS]]... QRELS RUN|-
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
``--missing zero``, ``-l`` is ``--relevant-at-least``, which trec_eval format takes when it
is an integer, as ``-l``).

One rule for judged queries the run lacks, whatever the format and the measures' spelling:
trec_eval 10's. Without ``-c`` or ``--missing`` they stop the evaluation (exit 4); ``-c``
(``--missing zero``) scores them, ``--missing skip`` leaves them out (trec_eval 9.x's
topics) with a warning on stderr naming how many and the first ones.

``-R qrels_jg`` reads trec_eval's judgment groups (jg_output.py) for ``map_avgjg``,
``P_avgjg`` and ``Rprec_mult_avgjg``; ``-R prefs`` and ``-R qrels_prefs`` preferences
(prefs_output.py); ``-R qrels`` (the default) ordinary qrels. ``-Z`` prints z-scores
(zscores.py), in trec_eval format only.

RUN may be ``-`` (stdin) and either file may be gzip-compressed (``*.gz``; stdin when it
starts like gzip); both are decompressed or copied to a temporary file in chunks first.

Exit status: 0; 1 when an input cannot be read (2 in trec_eval format, as trec_eval), or
for a measure trec_eval refuses or evalcore lacks in trec_eval format; 2 for usage
errors; 4 when a qrels topic is missing from the run without ``-c`` or ``--missing``
(trec_eval 10's behaviour), or in trec_eval format when a measure cannot be computed on
ordinary qrels (``utility`` with other than 4 coefficients, the ``prefs`` and ``qrels_jg``
measures, as trec_eval 10); 7 in trec_eval format when no topic is evaluated.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import sys
from typing import IO, TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import jg_output as jg
from . import prefs_output as prefs
from . import output_format as te
from . import topic_table
from .topic_table import TopicTable
from .guidance import illegal_measure_hint, left_out_notice
from .option_notes import say_options
from .zscores import read_zscores
from ..errors import RunInputError
from ..progress import ProgressBar, terminal_bar
from ..runs.result import (DEFAULT_MAX_LINE_BYTES, VALID_MEASURES, RunEvaluation, dropped_warning, named_queries,
                           parse_measures)
from ..runs.sources import is_gzip_path, open_regular, spooled_copy
from .._lazy_numpy import import_numpy_beside, lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

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
    parser.add_argument("-R", "--Rel_info_format", dest="rel_format", default="qrels", metavar="FORMAT",
                        help="the judgments' format, as trec_eval's -R: qrels (default), qrels_jg (query group document "
                             "grade: map_avgjg, P_avgjg, Rprec_mult_avgjg), prefs (query group subgroup document "
                             "rel_level) or qrels_prefs (a qrels file read as preferences): the prefs_* measures")
    parser.add_argument("-Z", "--Zscore", dest="zscores", metavar="ZMEAN_FILE",
                        help="print z-scores: each value's deviation from the file's mean for its topic and measure, "
                             "in units of its standard deviation (lines: topic measure mean stddev; trec_eval's -Z; "
                             "trec_eval format only; default: none, the values themselves)")
    parser.add_argument("--format", choices=("trec_eval", "table", "json", "csv"), default=None,
                        help="output format (default: trec_eval when every -m is spelled as trec_eval spells it, else table)")
    parser.add_argument("--relevant-at-least", type=float, default=None, metavar="G",
                        help="the grade from which a document is relevant (default: 1); in trec_eval format an integer, as -l")
    parser.add_argument("--gain", choices=("linear", "exponential"), default=None, help="nDCG gain (default: linear)")
    parser.add_argument("--ties", choices=("score", "input", "average", "optimistic", "pessimistic"), default=None,
                        help="score: by score, ties by doc ID descending, as trec_eval (default); input: file order; "
                             "average: each measure's expectation over the orders of tied documents; optimistic / "
                             "pessimistic: tied documents by grade, highest / lowest first (not in trec_eval format)")
    parser.add_argument("--missing", choices=("skip", "zero"), default=None,
                        help="judged queries missing from the run: skip them (with a warning) or score them as empty "
                             "rankings (trec_eval -c) (default: neither: they are an error, exit 4, as in trec_eval 10)")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: all CPUs)")
    parser.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES, metavar="N",
                        help=f"the longest line a file may have, in bytes (default: {DEFAULT_MAX_LINE_BYTES:,})")
    parser.add_argument("--costs", default=None, metavar="FILE",  # issue 25 item 2, cwl2 (runs/cwl_costs.py)
                        help="cwl_eval's cost file (element_type cost lines) for the C/W/L measures (default: none)")
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
    if args.rel_format not in jg.SUPPORTED_REL_FORMATS:
        parser.error(f"-R {args.rel_format}: evalcore reads -R {' and -R '.join(jg.SUPPORTED_REL_FORMATS)}")
    return {"relevant_at_least": 1.0 if level is None else level, "gain": args.gain or "linear",
            "ties": args.ties or "score", "missing": "zero" if args.complete else (args.missing or "skip"),
            "threads": args.threads, "max_line_bytes": args.max_line_bytes, "max_retrieved": max_retrieved,
            "judged_only": args.judged_only, "qrels_format": args.rel_format}


def _evalcore_format(parser: argparse.ArgumentParser, args: argparse.Namespace, form: str) -> int:
    from ..runs.cwl_clipping import with_cwl_policies
    from ..runs.evaluate import _evaluate_run

    measures = args.measure or ["official"]
    options = _evalcore_options(parser, args, form)
    if args.zscores is not None:
        parser.error("-Z: z-scores are printed in trec_eval format (--format trec_eval, with trec_eval's measure names)")
    try:
        parse_measures(measures)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        with run_file(args.run) as (path, name), _progress(args) as bar:
            import_numpy_beside()  # while the core reads the files (_lazy_numpy.py)
            evaluation = with_cwl_policies(lambda specs: _evaluate_run(  # (C/W/L clipping and costs said)
                args.qrels, path, specs, options.pop("relevant_at_least"), options.pop("gain"), options.pop("ties"),
                options.pop("missing"), options.pop("threads"), run_name=name, progress=bar, **options),
                parse_measures(measures), args.costs, path)
    except (RunInputError, OSError) as err:
        sys.stderr.write(_input_fault(err))
        return 1
    except ValueError as exc:  # an option out of range
        parser.error(str(exc))
    missing = evaluation.missing_query_ids
    if missing and not (args.complete or args.missing):
        sys.stderr.write(_missing_stops(missing, len(evaluation.query_ids) + len(missing)))
        return 4
    for warning in evaluation.warnings:  # nothing evaluated, or queries left out: say so, with the counts
        if missing and warning == dropped_warning(missing, len(evaluation.query_ids) + len(missing)):
            warning = _dropped(missing, len(evaluation.query_ids) + len(missing))
        sys.stderr.write(f"evalcore trec: warning: {warning}\n")
    say_options(evaluation.options, form, sys.stdout, sys.stderr)  # issue 25 item 3: options not trec_eval's
    _write(evaluation, form, args.per_query, not args.no_summary, sys.stdout)
    sys.stdout.flush()
    return 0


def _missing_stops(missing: Sequence[str], judged: int) -> str:
    """The error of judged queries the run lacks without -c or --missing (trec_eval 10's rule,
    whatever the format)."""
    return (f"evalcore trec: {len(missing):,} of the {judged:,} judged queries are not in the run: "
            f"{named_queries(missing)}; as in trec_eval 10 that stops the evaluation: give -c (or --missing zero) "
            "to score them as empty rankings (value 0), or --missing skip to leave them out of the means\n")


def _dropped(missing: Sequence[str], judged: int) -> str:
    """The warning of --missing skip, in the command line's terms."""
    return dropped_warning(missing, judged, "--missing skip", "-c (--missing zero)")


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

_EVALCORE_ONLY = ("gain", "ties", "costs")


def _trec_eval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.ties not in (None, "score", "input"):
        parser.error(f"--ties {args.ties}: --format trec_eval prints trec_eval's numbers, and trec_eval breaks ties "
                     "by document ID; give --format table, json or csv for tie-aware values")
    given = [f"--{o.replace('_', '-')}" for o in _EVALCORE_ONLY if getattr(args, o) is not None]
    if given:
        parser.error(f"{', '.join(given)}: not trec_eval's; --format trec_eval prints what trec_eval prints "
                     "(leave them out, or give another --format)")
    _trec_eval_level(parser, args)
    if args.complete and args.missing == "skip":
        parser.error("-c and --missing skip contradict each other")
    out = sys.stdout.buffer
    try:
        printed = _trec_eval_output(args, out)
    except te.TrecEvalError as err:
        out.flush()
        sys.stderr.write(err.stderr_text())
        if err.status == 1 and err.author == "trec_eval":  # an illegal measure: maybe evalcore's spelling
            hint = illegal_measure_hint(args.measure or [])
            if hint is not None:
                sys.stderr.write(f"evalcore trec: {hint}\n")
        return err.status
    except BrokenPipeError:  # the reader of stdout left (`| head`): main() handles it, not a file fault
        raise
    except (RunInputError, OSError) as err:
        sys.stderr.write(_input_fault(err))
        return 2  # trec_eval's status for a file it cannot read or parse
    out.flush()
    return printed


def _trec_eval_level(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """--relevant-at-least in trec_eval format: -l, which takes an integer (trec_eval
    compares it with integer grades)."""
    given = args.relevant_at_least
    if given is None:
        return
    if args.level is not None:
        parser.error("-l and --relevant-at-least say the same; give one")
    if given != int(given):
        parser.error(f"--relevant-at-least {given:g}: trec_eval format takes an integer level, as trec_eval's -l "
                     "(give an integer, or another --format for a fractional level)")
    args.level = str(int(given))


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
    """The evaluated topics' values (evalcore's, by SpecPool index), from one evaluation or
    two (-c's stand-in rankings), as a table in any order of the topics."""

    def __init__(self, plan: te.Plan) -> None:
        self.plan = plan
        self._blocks: List[Any] = []
        self._bogus: List[bool] = []
        self._where: Dict[str, Tuple[int, int]] = {}

    def add(self, evaluation: RunEvaluation, bogus: bool) -> None:
        matrix = np.column_stack([evaluation.values(s.name) for s in self.plan.specs])  # topics x measures
        block = len(self._blocks)
        self._blocks.append(matrix)
        self._bogus.append(bogus)
        for i, query in enumerate(evaluation.query_ids):
            self._where[query] = (block, i)

    def __contains__(self, query: str) -> bool:
        return query in self._where

    def table(self, queries: Sequence[str]) -> TopicTable:
        """These topics' values, in this order."""
        width = len(self.plan.specs)
        stacked = np.vstack(self._blocks) if self._blocks else np.empty((0, width))
        starts = np.cumsum([0] + [len(m) for m in self._blocks])
        rows = np.array([starts[b] + i for b, i in (self._where[q] for q in queries)], dtype=np.int64)
        values = stacked[rows].reshape(len(queries), width)
        block_of = np.repeat(np.arange(len(self._blocks)), [len(m) for m in self._blocks])
        bogus = np.array(self._bogus, dtype=bool)[block_of[rows]] if len(rows) else np.zeros(0, dtype=bool)
        retrieved = values[:, self.plan.counts["NumRet"]].astype(np.int64)
        return TopicTable(values, retrieved, bogus)


def _trec_eval_output(args: argparse.Namespace, out: IO[bytes]) -> int:
    """Prints what trec_eval prints to `out`; returns the exit status or raises
    TrecEvalError (what trec_eval stops with) and input faults."""
    from ..runs.evaluate import _evaluate_run

    if args.rel_format != "qrels":
        return _judgment_groups_output(args, out)
    unready: Optional[te.TrecEvalError] = None
    try:
        plan = te.plan(args.measure or [])
        notice = left_out_notice(args.measure or [], plan.left_out)
        if notice is not None:  # what a nickname brought in and evalcore lacks: say it, as the first line
            sys.stderr.write(f"evalcore trec: {notice}\n")
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
        import_numpy_beside()  # while the core reads the files (_lazy_numpy.py)
        evaluation = _evaluate_run(args.qrels, path, plan.specs, level, "linear", "score", "skip", args.threads,
                                   run_name=name, progress=bar, **options)
        # trec_eval's runid for a run without data lines (only blank or comment lines, or
        # empty stdin) is memory it never wrote, different on every run: evalcore prints "".
        tag = te.run_tag(path) or ""
    zscores = read_zscores(args.zscores) if args.zscores is not None else None  # after the files, as trec_eval
    if unready is not None:
        raise unready
    topics = Topics(plan)
    topics.add(evaluation, False)
    complete = args.complete or args.missing == "zero"
    if complete and evaluation.missing_query_ids:
        # trec_eval 10 -c: each topic the run lacks is ranked as one unjudged document.
        stand_in = {query: {te.BOGUS_DOCNO: 1.0} for query in evaluation.missing_query_ids}
        topics.add(_evaluate_run(args.qrels, stand_in, plan.specs, level, "linear", "score", "skip", args.threads,
                                 **options), True)
    skipped = evaluation.missing_query_ids if args.missing == "skip" else []
    order = te.topic_order(list(evaluation.query_ids) + (evaluation.missing_query_ids if not skipped else []))
    if not order:
        raise te.TrecEvalError("No queries with both results and relevance info", 7)
    summary = te.Summary(plan.columns)
    # The topics up to the first the run lacks (without -c trec_eval 10 stops there, having
    # printed those before it), as one table: column by column, printed by the core.
    present = next((i for i, query in enumerate(order) if query not in topics), len(order))
    evaluated = order[:present]
    table = topics.table(evaluated)
    values = topic_table.column_table(plan.columns, table)
    if zscores is not None:  # trec_eval converts each topic's values before it prints or adds them
        values = zscores.convert(plan.columns, evaluated, values)
    summary.totals, summary.count = topic_table.summary_totals(values), len(evaluated)
    positive = int(table.values[:, plan.counts["NumRel1"]].sum())  # counts: integers, exact in any order
    if args.per_query:
        out.write(topic_table.topic_lines(plan.columns, evaluated, values, table, zscores is not None))
    if present < len(order):  # trec_eval 10 without -c; its message says it backwards
        out.flush()
        raise te.TrecEvalError(f"result qid '{order[present]}' not found in qrels", 4)
    if not args.no_summary:
        out.write(_encode(summary.lines(tag, positive if complete else None, zscores is not None)))
    if skipped:  # --missing skip: trec_eval 9.x's topics, and a word on what differs from 10's
        out.flush()
        sys.stderr.write(f"evalcore trec: warning: {_dropped(skipped, len(order) + len(skipped))}\n")
    return 0


def _judgment_groups_output(args: argparse.Namespace, out: IO[bytes]) -> int:
    """-R qrels_jg (jg_output.py), -R prefs and -R qrels_prefs (prefs_output.py): as
    _trec_eval_output, -c scoring the missing topics against an empty ranking."""
    from ..runs.evaluate import _evaluate_run

    plan_for = prefs.plan if args.rel_format in prefs.PREFERENCE_FORMATS else jg.plan
    unready: Optional[te.TrecEvalError] = None
    try:
        plan = plan_for(args.measure or [])
    except te.TrecEvalError as err:
        if err.status != 2:  # -m names trec_eval refuses
            raise
        plan, unready = plan_for(["runid"]), err  # set-up faults come after the files' faults
    jg.check_rel_format(args.rel_format)
    options = {"max_retrieved": _max_retrieved(args.max_retrieved), "judged_only": args.judged_only,
               "max_line_bytes": args.max_line_bytes, "qrels_format": args.rel_format}
    level = _level(args.level)
    with run_file(args.run) as (path, name):
        import_numpy_beside()  # while the core reads the files (_lazy_numpy.py)
        evaluation = _evaluate_run(args.qrels, path, plan.specs, level, "linear", "score",
                                   "zero" if args.complete else "skip", None, run_name=name, **options)
        if args.run != "-" and os.path.getsize(path) == 0:  # trec_eval cannot read it (see _empty_run_file)
            raise te.TrecEvalError(f"trec_eval.get_results: Cannot read results file '{args.run}'\n"
                                   f"trec_eval: Quit in file '{args.run}'\n", 2, "exact")
        tag = te.run_tag(path) or ""
    zscores = read_zscores(args.zscores) if args.zscores is not None else None
    if unready is not None:
        raise unready
    rows = {query: i for i, query in enumerate(evaluation.query_ids)}
    matrix = np.column_stack([evaluation.values(s.name) for s in plan.specs])
    order = te.topic_order(list(rows) + ([] if args.complete else evaluation.missing_query_ids))
    if not order:
        raise te.TrecEvalError("No queries with both results and relevance info", 7)
    summary = te.Summary(plan.columns)
    for query in order:
        if query not in rows:  # without -c, as trec_eval 10
            out.flush()
            raise te.TrecEvalError(f"result qid '{query}' not found in qrels", 4)
        values = te.topic_values(plan.columns, te.Row(matrix[rows[query]].tolist(), 0, False))
        if zscores is not None:
            values = zscores.convert_row(plan.columns, query, values)
        summary.add(values)
        if args.per_query:
            out.write(_encode(te.per_topic_lines(plan.columns, query, values, zscores is not None)))
    if not args.no_summary:
        out.write(_encode(summary.lines(tag, None, zscores is not None)))
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
