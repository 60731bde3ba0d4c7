"""`evalcore compare QRELS RUN1 RUN2 [RUN...] -m nDCG@10 [-m AP@100 ...] [--baseline NAME]
[--test t --test randomization] [--tukey randomized] [--format table|markdown|latex|json]`.

Each RUN is a TREC run file, named by its file name without the extension (the path as
given when two runs would get one name), or NAME=PATH to name it. The table format prints every comparison on a line,
then every run's mean; markdown and latex print the ranx-style table of means with
significance superscripts; json prints Comparison.to_json(). Exit 0; 1 with the message on
stderr when an input cannot be read; 2 for usage errors (an unknown measure among them).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Dict, List, Sequence, Tuple

from .procedure import INTERVALS, MAX_RESAMPLES, TESTS
from .tukey import KINDS as TUKEY_KINDS
from .corrections import CORRECTIONS
from ..errors import RunInputError
from ..runs.result import DEFAULT_MAX_LINE_BYTES, VALID_MEASURES, parse_measures


def _names(arguments: Sequence[str]) -> Dict[str, str]:
    """name -> path for the RUN arguments."""
    pairs: List[List[str]] = []
    for argument in arguments:
        if "=" in argument and not os.path.exists(argument):
            name, path = argument.split("=", 1)
            pairs.append([name, path, "given"])
        else:
            stem = os.path.splitext(os.path.basename(argument))[0]
            pairs.append([stem or argument, argument, "file"])
    names = [p[0] for p in pairs]
    for p in pairs:
        if p[2] == "file" and names.count(p[0]) > 1:
            p[0] = p[1]  # two files of one stem: the paths tell them apart
    out: Dict[str, str] = {}
    for name, path, _ in pairs:
        if name in out or not name:
            raise ValueError(f"run name {name!r} is given twice or empty; name runs with NAME=PATH")
        out[name] = path
    return out


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): the reader names it
        return False


def _without_the_qrels(prog: str, qrels: str, runs: List[str]) -> List[str]:
    """The RUN arguments less the qrels file itself, which a glob of a folder of runs (``DIR/*.txt``)
    matches too: left out with a note on stderr, never silently."""
    kept = [r for r in runs if not _same_file(r, qrels)]
    if len(kept) < len(runs):
        sys.stderr.write(f"{prog}: {qrels} is the qrels file; left out of the runs (a glob such as DIR/*.txt "
                         f"matches it too)\n")
    return kept


def compare_parser(prog: str, description: str, runs_help: str = "two or more run files (or NAME=PATH)") -> argparse.ArgumentParser:
    """The arguments `evalcore compare` and `evalcore report` share."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("qrels", help="qrels file: query iteration document grade")
    parser.add_argument("runs", nargs="+", metavar="RUN", help=runs_help)
    parser.add_argument("-m", "--measure", action="append", required=True, metavar="NAME",
                        help=f"a measure, repeatable: {VALID_MEASURES}")
    parser.add_argument("--baseline", metavar="NAME", help="compare each run with this one (default: every pair)")
    parser.add_argument("--test", action="append", choices=TESTS, help="a test, repeatable (default: t, randomization)")
    parser.add_argument("--interval", action="append", choices=INTERVALS,
                        help="an interval kind, repeatable (default: t)")
    parser.add_argument("--tukey", action="append", choices=TUKEY_KINDS,
                        help="a Tukey HSD over all pairs of runs, repeatable (default: none)")
    parser.add_argument("--correction", choices=tuple(CORRECTIONS), default="holm", help="multiple comparisons (default: %(default)s)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (default: %(default)s)")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval confidence (default: %(default)s)")
    parser.add_argument("--resamples", type=int, default=10_000, help=f"resamples, up to {MAX_RESAMPLES:,} (default: 10,000)")
    parser.add_argument("--seed", type=int, default=0, help="resampling seed, 0 <= seed < 2**64 (default: %(default)s)")
    parser.add_argument("--relevant-at-least", type=float, default=1.0, metavar="G",
                        help="the grade from which a document is relevant (default: 1)")
    parser.add_argument("--gain", choices=("linear", "exponential"), default="linear", help="nDCG gain (default: %(default)s)")
    parser.add_argument("--ties", choices=("score", "input", "average", "optimistic", "pessimistic"), default="score",
                        help="score: by score, ties by doc ID descending, as trec_eval (default); input: file order; "
                             "average: each measure's expectation over the orders of tied documents; optimistic / "
                             "pessimistic: tied documents by grade, highest / lowest first")
    parser.add_argument("--missing", choices=("skip", "zero"), default="skip",
                        help="judged queries missing from a run: skip (default; dropped from its pairs) or score 0")
    parser.add_argument("--max-retrieved", type=int, default=None, metavar="N",
                        help="score only each ranking's first N documents (trec_eval -M; default: all)")
    parser.add_argument("--judged-only", action="store_true",
                        help="drop unjudged documents from the rankings before scoring (trec_eval -J)")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: all CPUs)")
    parser.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES, metavar="N",
                        help=f"the longest line a file may have, in bytes (default: {DEFAULT_MAX_LINE_BYTES:,})")
    return parser


def evaluation_options(args: argparse.Namespace) -> Dict[str, Any]:
    """evaluate_run's keywords from the parsed arguments."""
    return dict(relevant_at_least=args.relevant_at_least, gain=args.gain, ties=args.ties, missing=args.missing,
                max_retrieved=args.max_retrieved, judged_only=args.judged_only, max_line_bytes=args.max_line_bytes)


def compare_options(args: argparse.Namespace) -> Dict[str, Any]:
    """compare()'s own keywords from the parsed arguments."""
    return dict(baseline=args.baseline, tests=tuple(args.test or ("t", "randomization")),
                intervals=tuple(args.interval or ("t",)), tukey=tuple(args.tukey or ()), correction=args.correction,
                alpha=args.alpha, confidence=args.confidence, resamples=args.resamples, seed=args.seed,
                threads=args.threads)


def run_guarded(command: str, parser: argparse.ArgumentParser, work: Callable[[], Any]) -> Any:
    """work(), with an unreadable input as exit status 1 (message on stderr) and a bad
    option as a usage error (exit 2); returns work's result, or the int status."""
    try:
        return work()
    except RunInputError as err:
        sys.stderr.write(f"evalcore {command}: {err}\n")
        return 1
    except OSError as err:  # a file that cannot be opened or read
        sys.stderr.write(f"evalcore {command}: cannot read {os.fsdecode(err.filename)}: {err.strerror}\n")
        return 1
    except (TypeError, ValueError) as exc:  # an option out of range, a baseline that is not a run
        parser.error(str(exc))


def parse_arguments(parser: argparse.ArgumentParser, argv: Sequence[str]) -> Tuple[argparse.Namespace, Dict[str, str]]:
    """The parsed arguments and name -> path of the runs; a bad measure or run name is a
    usage error."""
    args = parser.parse_args(list(argv))
    args.runs = _without_the_qrels(parser.prog, args.qrels, args.runs)
    try:
        parse_measures(args.measure)
        return args, _names(args.runs)
    except ValueError as exc:
        parser.error(str(exc))


def main(argv: Sequence[str]) -> int:
    """Run ``evalcore compare``; returns the exit status."""
    from .compare_runs import compare

    parser = compare_parser("evalcore compare", "Compare TREC runs: paired significance tests, intervals, corrections.")
    parser.add_argument("--format", choices=("table", "markdown", "latex", "json"), default="table",
                        help="output format (default: %(default)s)")
    args, runs = parse_arguments(parser, argv)
    comparison = run_guarded("compare", parser, lambda: compare(args.qrels, runs, args.measure, **compare_options(args),
                                                                **evaluation_options(args)))
    if isinstance(comparison, int):
        return comparison
    writers: Dict[str, Callable[[], str]] = {"table": comparison.to_text, "markdown": comparison.to_markdown, "latex": comparison.to_latex,
               "json": lambda: comparison.to_json(indent=2) + "\n"}
    try:
        sys.stdout.write(writers[args.format]())
        sys.stdout.flush()
    except BrokenPipeError:  # `evalcore compare ... | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
