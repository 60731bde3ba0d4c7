"""`evalcore conll GOLD [PRED]`: a CoNLL file (or two) scored with evaluate_tags' chunks and
printed in conlleval's report layout, or as JSON. The layout's numbers are computed from the
counts as conlleval.pl computes them (percentages ``100 * correct / found``, FB1 from those,
``%6.2f``, type names right-aligned in 17 bytes), so that a file on which the chunk rules agree
prints conlleval's report byte for byte (tests/tags/test_conll_conlleval.py, docs/conll.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional, Sequence

from ..result_types import ConllEvaluation
from .conll_options import MAX_LINE_BYTES


def _ratio(numerator: int, denominator: int) -> float:
    return 100 * numerator / denominator if denominator > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def conlleval_report(result: ConllEvaluation) -> str:
    """conlleval.pl's report of the counts (its default output, without -l or -r)."""
    precision, recall = _ratio(result["correct"], result["found"]), _ratio(result["correct"], result["phrases"])
    lines = [f"processed {result['tokens']} tokens with {result['phrases']} phrases; found: {result['found']} "
             f"phrases; correct: {result['correct']}.",
             f"accuracy: {_ratio(result['correctTokens'], result['tokens']):6.2f}%; precision: {precision:6.2f}%; "
             f"recall: {recall:6.2f}%; FB1: {_fb1(precision, recall):6.2f}"]
    for name, counts in result["types"].items():
        p, r = _ratio(counts["correct"], counts["found"]), _ratio(counts["correct"], counts["phrases"])
        pad = " " * max(17 - len(name.encode("utf-8")), 0)  # perl's %17s counts bytes
        lines.append(f"{pad}{name}: precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {_fb1(p, r):6.2f}  {counts['found']}")
    return "\n".join(lines) + "\n"


def _columns(text: str) -> List[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected column numbers separated by a comma, such as 3,4 or -2,-1; "
                                         f"got {text!r}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """`evalcore conll`; returns the exit status (0, 1 for a fault of the input, 2 for usage)."""
    from .conll import evaluate_conll

    parser = argparse.ArgumentParser(
        prog="evalcore conll",
        description="Score a CoNLL file (true and predicted tags in its last two columns) or two files (the "
                    "same tokens; the true tags in GOLD, the predicted ones in PRED) with seqeval's chunks, "
                    "printed in conlleval's report layout (docs/conll.md).")
    parser.add_argument("gold", help="the CoNLL file (.gz is decompressed); with PRED, the file of true tags")
    parser.add_argument("pred", nargs="?", default=None,
                        help="the file of predicted tags, token lines as in GOLD (default: none; GOLD holds both)")
    parser.add_argument("--columns", type=_columns, default=None,
                        help="the true and the predicted tag columns, numbered from 0, negative from the end, "
                             "e.g. --columns 3,4 or --columns=-2,-1 (default: -2,-1 for one file, the last "
                             "column of each, -1,-1, for two)")
    parser.add_argument("--scheme", default="IOB2",
                        help="the scheme strict mode reads: IOB1, IOB2 (BIO), IOE1, IOE2, IOBES or BILOU "
                             "(default: IOB2)")
    parser.add_argument("--mode", default="default", choices=["default", "strict"],
                        help="seqeval's chunk rules: default (conlleval-style, lenient) or strict (the scheme's) "
                             "(default: default)")
    parser.add_argument("--format", default="text", choices=["text", "json"],
                        help="text: conlleval's report layout; json: the counts and seqeval's report "
                             "(default: text)")
    parser.add_argument("--max-line-bytes", type=int, default=MAX_LINE_BYTES,
                        help=f"the longest line read, in bytes (default: {MAX_LINE_BYTES:,})")
    args = parser.parse_args(argv)
    try:
        import warnings

        with warnings.catch_warnings():  # undefined per-type scores are 0.0, which the report shows
            warnings.simplefilter("ignore")
            result = evaluate_conll(args.gold, args.pred, columns=args.columns, scheme=args.scheme, mode=args.mode,
                                    max_line_bytes=args.max_line_bytes)
    except OSError as exc:
        sys.stderr.write(f"evalcore conll: cannot read {exc.filename}: {exc.strerror}\n")
        return 1
    except ValueError as exc:
        sys.stderr.write(f"evalcore conll: {exc}\n")
        return 1
    if args.format == "json":
        sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(conlleval_report(result))
        notes = [docstart_note(result), rules_note(result, args.mode)]
        for note in notes:
            if note is not None:
                sys.stderr.write(f"evalcore conll: note: {note}\n")
    return 0


def rules_note(result: ConllEvaluation, mode: str) -> Optional[str]:
    """Where the chunk rules of the report's numbers (seqeval's default mode) can differ from
    conlleval.pl's: tags whose prefix is not B, I or O (docs/conll.md)."""
    other = result["otherPrefixTags"]
    if other == 0 or mode != "default":
        return None
    tags = "tag has" if other == 1 else "tags have"
    return (f"{other} distinct {tags} a prefix other than B-, I- and O (such as S-, E- or none); their chunks "
            "follow seqeval's default mode, which conlleval.pl reads otherwise in places (S-X S-X is two chunks "
            "here, one for conlleval.pl); --mode strict --scheme IOBES reads them as that scheme defines "
            "(docs/conll.md)")


def docstart_note(result: ConllEvaluation) -> Optional[str]:
    """What the report's first two lines would say under conlleval.pl's rule, where the file
    has ``-DOCSTART-`` lines: conlleval counts each as a token tagged O correctly, evalcore
    counts none (docs/conll.md), so the token count and accuracy differ, and nothing else."""
    documents = result["documents"]
    if documents == 0:
        return None
    tokens, correct = result["tokens"] + documents, result["correctTokens"] + documents
    lines = "line is not counted as a token" if documents == 1 else "lines are not counted as tokens"
    return (f"{documents} -DOCSTART- {lines}; conlleval.pl counts each as a correctly "
            f"tagged token: processed {tokens} tokens, accuracy: {_ratio(correct, tokens):6.2f}% (docs/conll.md)")
