"""`evalcore trec QRELS RUN -m nDCG@10 -m AP@100 [--per-query] [--format table|json|csv]`.

Output is shaped like trec_eval's: one line per (measure, query or ``all``, value); the
table format pads the measure and prints 4 decimals as trec_eval does, json and csv give
every value in full (shortest round-trip). An undefined value (no relevant judgment, zero
ideal DCG) is ``null`` in table and json, empty in csv; ``all`` is the mean over the
queries where the measure is defined. Exit 0; 1 with the message on stderr when an input
cannot be read; 2 for usage errors (an unknown measure among them).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from typing import List, Sequence, TextIO

from .errors import RunInputError
from .run_evaluation import DEFAULT_MAX_LINE_BYTES, VALID_MEASURES, RunEvaluation, parse_measures


def _rows(evaluation: RunEvaluation, per_query: bool) -> List[List[object]]:
    rows: List[List[object]] = []
    if per_query:
        columns = [evaluation.values(m).tolist() for m in evaluation.measures]
        for q, query in enumerate(evaluation.query_ids):
            for m, measure in enumerate(evaluation.measures):
                value = columns[m][q]
                rows.append([measure, query, None if value != value else value])
    for measure in evaluation.measures:
        rows.append([measure, "all", evaluation.mean[measure]])
    return rows


def main(argv: Sequence[str]) -> int:
    """Run ``evalcore trec``; returns the exit status."""
    from .runs import evaluate_run

    parser = argparse.ArgumentParser(prog="evalcore trec", description="Evaluate a TREC run file against TREC qrels.")
    parser.add_argument("qrels", help="qrels file: query iteration document grade")
    parser.add_argument("run", help="run file: query Q0 document rank score tag")
    parser.add_argument("-m", "--measure", action="append", required=True, metavar="NAME",
                        help=f"a measure, repeatable: {VALID_MEASURES}")
    parser.add_argument("-q", "--per-query", action="store_true", help="also print each query's values")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output format (table)")
    parser.add_argument("--relevant-at-least", type=float, default=1.0, metavar="G",
                        help="the grade from which a document is relevant (1)")
    parser.add_argument("--gain", choices=("linear", "exponential"), default="linear", help="nDCG gain (linear)")
    parser.add_argument("--ties", choices=("score", "input"), default="score",
                        help="score: by score, ties by doc ID descending, as trec_eval (default); input: file order")
    parser.add_argument("--missing", choices=("skip", "zero"), default="skip",
                        help="judged queries missing from the run: skip (default) or score 0 (trec_eval -c)")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (all CPUs)")
    parser.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES, metavar="N",
                        help=f"the longest line a file may have, in bytes ({DEFAULT_MAX_LINE_BYTES:,})")
    args = parser.parse_args(list(argv))
    try:
        parse_measures(args.measure)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        evaluation = evaluate_run(args.qrels, args.run, args.measure, relevant_at_least=args.relevant_at_least,
                                  gain=args.gain, ties=args.ties, missing=args.missing, threads=args.threads,
                                  max_line_bytes=args.max_line_bytes)
    except RunInputError as err:
        sys.stderr.write(f"evalcore trec: {err}\n")
        return 1
    except OSError as err:  # a file that cannot be opened or read
        sys.stderr.write(f"evalcore trec: cannot read {os.fsdecode(err.filename)}: {err.strerror}\n")
        return 1
    except ValueError as exc:  # an option out of range
        parser.error(str(exc))
    try:
        _write(evaluation, args.format, args.per_query, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # `evalcore trec ... | head`: the reader left; not an error
        # Python's advice: point stdout at devnull so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _write(evaluation: RunEvaluation, form: str, per_query: bool, out: TextIO) -> None:
    if form == "json":
        out.write(evaluation.to_json(per_query=per_query) + "\n")
    elif form == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["measure", "query", "value"])
        for measure, query, value in _rows(evaluation, per_query):
            writer.writerow([measure, query, "" if value is None else repr(value)])
    else:
        for measure, query, value in _rows(evaluation, per_query):
            shown = "null" if value is None else f"{value:.4f}"
            out.write(f"{measure:<22}\t{query}\t{shown}\n")


