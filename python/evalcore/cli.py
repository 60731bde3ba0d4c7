"""The `evalcore` command: run an operation on a JSON request file (or stdin).

    evalcore --help | --version
    evalcore ranking-evaluate|span-evaluate|score [FILE|-] [--pretty] [--limits JSON]
    evalcore serve [--host H] [--port P] [--workers N] ...   (needs the server extra)
    evalcore trec [-q] [-c] [-m NAME]... QRELS RUN|-   (trec_eval's flags and output; trec_cli.py)
    evalcore conll GOLD [PRED] [--columns T,P] [--scheme S] [--mode default|strict] [--format text|json]
    evalcore compare QRELS RUN1 RUN2 [RUN...] -m nDCG@10 [--baseline NAME] [--test t ...] [--format table|markdown|latex|json]
    evalcore report QRELS RUN [RUN...] -m nDCG@10 [--baseline NAME] [--tukey randomized] -o report.html

For the first three, the body goes through evaluate_json, the native raw-JSON front door. Exit 0 with the
response on stdout; 1 with the error JSON (docs/contract.md §1.3) on stderr; 2 for usage errors.
Output numbers are written in ECMAScript form, as the hashes cover them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn, Optional, Sequence

from .errors import EvaluationError
from .limits import resolve_limits


def _pretty(value: Any, indent: str = "") -> str:
    # (imported here: the reference package is not needed by the other subcommands, and
    # importing it costs `evalcore trec` a tenth of its start-up)
    from .reference.requests._json import compact_json, ecma_number, json_string

    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = ",\n".join(f"{inner}{json_string(k)}: {_pretty(v, inner)}" for k, v in value.items())
        return "{\n" + items + "\n" + indent + "}"
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(inner + _pretty(v, inner) for v in value) + "\n" + indent + "]"
    if isinstance(value, float):
        return ecma_number(value)
    return compact_json(value).decode("utf-8")


# Every subcommand, with what `evalcore --help` says of it.
SUBCOMMANDS = {
    "ranking-evaluate": "P, R, RR, AP and nDCG at k of ranked lists against graded judgments (a JSON request)",
    "span-evaluate": "labeled text spans matched exactly or by IoU: P/R/F1 overall and per label (a JSON request)",
    "score": "P/R/F1/F2 of predicted vs ground-truth ID sets, in Mixpeek's shapes (a JSON request)",
    "trec": "a whole run against qrels (TREC files, .gz, parquet); trec_eval's flags and output",
    "compare": "compare runs on paired queries: t, Wilcoxon, randomization and bootstrap tests, intervals, corrections",
    "report": "one self-contained HTML file of runs and their comparison: tables, per-query charts, PR curves",
    "conll": "a CoNLL file (or two) scored with seqeval's chunks, in conlleval's report layout or JSON",
    "serve": "the HTTP service (needs the server extra: pip install 'evalcore-exact[server]')",
}


def _overview() -> str:
    from ._version import __version__

    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"usage: evalcore COMMAND [ARGS...]   (evalcore {__version__})", "",
             "Score supplied evaluation data deterministically.", "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, text in SUBCOMMANDS.items()]
    lines += ["", "options:", "  -h, --help     show this overview and exit",
              "  -V, --version  print evalcore's version and exit",
              "", "evalcore COMMAND --help describes a command's arguments and their defaults."]
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the `evalcore` console script; returns the exit status."""
    from .requests.operations import OPERATIONS, evaluate_json

    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] in (["--version"], ["-V"]):
        from ._version import __version__

        sys.stdout.write(f"evalcore {__version__}\n")
        return 0
    if not args_list or args_list[:1] in (["--help"], ["-h"]):
        (sys.stdout if args_list else sys.stderr).write(_overview())
        return 0 if args_list else 2
    if args_list[:1] == ["serve"]:
        from .server.serve import main as serve

        return serve(args_list[1:])
    if args_list[:1] == ["trec"]:
        from .trec_eval.command import main as trec

        return trec(args_list[1:])
    if args_list[:1] == ["conll"]:
        from .tags.conll_command import main as conll

        return conll(args_list[1:])
    if args_list[:1] == ["report"]:  # issue 26
        from .comparisons.report_command import main as report

        return report(args_list[1:])
    if args_list[:1] == ["compare"]:
        from .comparisons.command import main as compare

        return compare(args_list[1:])

    parser = argparse.ArgumentParser(prog="evalcore", description="Score supplied evaluation data deterministically.")
    parser.add_argument("operation", choices=OPERATIONS, help="the operation to run")
    parser.add_argument("file", nargs="?", default="-", help="request JSON file, or - for stdin (default: -)")
    parser.add_argument("--pretty", action="store_true", help="indent the response (default: compact, the text the hashes cover)")
    parser.add_argument("--limits", help='limit overrides as JSON, e.g. \'{"input_bytes": 500000}\' '
                        "(default: none, the contract's limits)")
    args = parser.parse_intermixed_args(args_list)
    try:
        limits = resolve_limits(json.loads(args.limits)) if args.limits else None
    except (ValueError, TypeError) as exc:
        parser.error(f"--limits: {exc}")
    try:
        if args.file == "-":
            body = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                body = handle.read()
    except OSError as exc:
        parser.error(f"cannot read {args.file}: {exc.strerror}")
    try:
        response = evaluate_json(args.operation, body, limits=limits)
    except EvaluationError as err:
        from .reference.requests._json import compact_json

        sys.stderr.write(compact_json(err.body).decode("utf-8") + "\n")
        return 1
    if args.pretty:
        sys.stdout.write(_pretty(json.loads(response)) + "\n")
    else:
        sys.stdout.buffer.write(response + b"\n")
    return 0


# The subcommands after which the process ends without the interpreter's teardown (console()).
# Not serve: uvicorn and multiprocessing clean up their workers in atexit handlers.
FAST_EXIT = ("trec", "compare")


def console() -> NoReturn:
    """Entry point of the `evalcore` console script and of ``python -m evalcore.cli``: main(),
    then, for ``trec`` and ``compare``, the process ends without the interpreter's teardown
    once main() has returned.

    Why: after ``evalcore trec`` on a run of 10 million lines, the teardown (every module
    and object freed one by one, the run's tables among them) took 35 ms of a 0.8 s command
    (bench/bench_trec_cli.py). Nothing is left for it to do there: main()'s context managers
    have closed and removed their temporary files, and the output is flushed here. An
    exception main() lets out takes the ordinary way (its traceback, exit status 1)."""
    if sys.argv[1:2] == ["trec"] and "numpy" not in sys.modules:
        # numpy's OpenBLAS starts a thread per core on import, which spins for a while
        # waiting for work that `evalcore trec` never gives it: on 2 cores it took CPU from
        # the core's own threads (perf: 5 to 9 % of the samples; 20 to 50 ms of a 0.75 s
        # command). `import evalcore` leaves numpy out until now (its __init__); a value the
        # user set is kept.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    status = main()
    if sys.argv[1:2] and sys.argv[1] in FAST_EXIT:
        try:
            sys.stdout.flush()
        except BrokenPipeError:  # the reader left before the last bytes: trec and compare say 0 then too
            pass
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    console()
