"""`evalcore report QRELS RUN [RUN ...] -m nDCG@10 [-m AP@100 ...] [--baseline NAME]
[--tukey randomized] -o report.html` (issue 26): one self-contained HTML file. Each run is
evaluated once with the measures and IPrec@0.0 ... IPrec@1.0 (the precision-recall curves);
with two runs or more they are compared as `evalcore compare` compares them (the same
options; with three or more, the randomized Tukey HSD unless --tukey says otherwise) and the
page is ``Comparison.to_html``; with one, ``RunEvaluation.to_html``. Exit
0; 1 with the message on stderr when an input cannot be read; 2 for usage errors."""

from __future__ import annotations

import sys
from typing import Any, Dict, Sequence

from .command import compare_options, compare_parser, evaluation_options, parse_arguments, run_guarded
from .html_report import CURVE_MEASURES


def main(argv: Sequence[str]) -> int:
    """Run ``evalcore report``; returns the exit status."""
    from .compare_runs import compare
    from ..runs.evaluate import evaluate_run

    parser = compare_parser("evalcore report", "One HTML file of runs' results: tables, per-query charts, "
                            "precision-recall curves, provenance; no network needed to read it.",
                            runs_help="one or more run files (or NAME=PATH)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    args, runs = parse_arguments(parser, argv)
    if args.tukey is None and len(runs) >= 3:  # many systems: their groups, from one family of all pairs
        args.tukey = ["randomized"]
    measures = list(args.measure) + [m for m in CURVE_MEASURES if m not in args.measure]
    options = evaluation_options(args)
    command = ["evalcore", "report", *argv]
    inputs = [args.qrels, *runs.values()]

    def work() -> Any:
        evaluations: Dict[str, Any] = {name: evaluate_run(args.qrels, path, measures, threads=args.threads, **options)
                                       for name, path in runs.items()}
        if len(evaluations) == 1:
            ((name, evaluation),) = evaluations.items()
            return evaluation.to_html(args.output, name=name, inputs=inputs, command=command)
        comparison = compare(None, evaluations, args.measure, **compare_options(args))
        return comparison.to_html(args.output, inputs=inputs, command=command)

    outcome = run_guarded("report", parser, work)
    if isinstance(outcome, int):
        return outcome
    sys.stderr.write(f"evalcore report: wrote {args.output}\n")
    return 0
