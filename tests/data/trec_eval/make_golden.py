"""Regenerates the golden trec_eval outputs of this folder (see README.md).

Runs a trec_eval binary on each case's inputs (in inputs/, which are written by hand and
committed), with the working directory inputs/ so that messages name the files as given,
and writes out/NAME.stdout, out/NAME.stderr and manifest.json (the command line, the
stdin file if any, and the exit status of every case). Nothing here is needed to run the
tests: they read the committed outputs.

    python tests/data/trec_eval/make_golden.py /path/to/trec_eval
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
OUT = HERE / "out"

# -q and the measures every case asks for: those evalcore computes (P@k, R@k, AP, AP@k, RR, nDCG,
# nDCG@k) and a few that show how trec_eval read the input (relstring_10: the grade of each
# of the first ten ranked documents, '-' not in the qrels, '.' a negative grade; runid).
FLAGS = ["-q", "-m", "P.5,10", "-m", "recall.5,10", "-m", "map", "-m", "map_cut.5", "-m", "recip_rank", "-m", "ndcg",
            "-m", "ndcg_cut.5,10", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret", "-m", "relstring.10",
            "-m", "runid"]

# name: (arguments after FLAGS, file given on stdin or None)
CASES = {
    # Read alike: comments, blank lines and extra columns in the run; single comments in the qrels.
    "agree": (["agree.qrels", "agree.run"], None),
    "stdin": (["agree.qrels", "-"], "agree.run"),
    "long_comment": (["one.qrels", "long_comment.run"], None),
    "precision": (["precision.qrels", "precision.run"], None),
    # qrels comments and blank lines trec_eval 10.0 does not skip.
    "qrels_two_comments": (["qrels_two_comments.qrels", "agree.run"], None),
    "qrels_indented_comment": (["qrels_indented_comment.qrels", "agree.run"], None),
    "qrels_final_comment": (["qrels_final_comment.qrels", "agree.run"], None),
    "qrels_blank_line": (["qrels_blank_line.qrels", "agree.run"], None),
    # Line numbers in messages: trec_eval counts data lines only.
    "malformed_run": (["one.qrels", "malformed.run"], None),
    "malformed_qrels": (["malformed.qrels", "agree.run"], None),
    # Empty files.
    "empty_run": (["one.qrels", "empty.run"], None),
    "empty_qrels": (["empty.qrels", "agree.run"], None),
    "comments_only_run": (["one.qrels", "comments_only.run"], None),  # -c: its runid is garbage
    # Numbers read with atof (scores) and atol (grades): each twin gives the same output.
    "scores": (["scores.qrels", "scores.run"], None),
    "scores_as_read": (["scores.qrels", "scores_as_read.run"], None),
    "grades_fraction": (["grades_fraction.qrels", "grades.run"], None),
    "grades_fraction_as_read": (["grades_fraction_as_read.qrels", "grades.run"], None),
    "grades_text": (["grades_text.qrels", "grades.run"], None),
    "grades_text_as_read": (["grades_text_as_read.qrels", "grades.run"], None),
    # Duplicate documents: fatal only in a topic that is evaluated.
    "dup_unjudged": (["agree.qrels", "dup_unjudged.run"], None),
    "dup_judged": (["agree.qrels", "dup_judged.run"], None),
    "dup_qrels": (["dup.qrels", "agree.run"], None),
    "dup_below_M": (["-M", "1", "agree.qrels", "dup_judged.run"], None),  # only the top 1 is checked
    # A judged topic (303) missing from the run: fatal without -c.
    "missing": (["agree.qrels", "missing_303.run"], None),
    "missing_c": (["-c", "agree.qrels", "missing_303.run"], None),
    # Query IDs that are not UTF-8; topics whose judgments are all negative.
    "not_utf8": (["not_utf8.qrels", "not_utf8.run"], None),
    "negative_first": (["negative.qrels", "negative.run"], None),
    "negative_second": (["negative_second.qrels", "negative_second.run"], None),
}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    version = subprocess.run([binary, "-v"], capture_output=True, text=True, check=True)
    OUT.mkdir(exist_ok=True)
    manifest = {"trec_eval": (version.stdout + version.stderr).strip(), "flags": FLAGS, "cases": {}}
    for name, (arguments, stdin) in CASES.items():
        argv = FLAGS + arguments
        with open(INPUTS / stdin, "rb") if stdin else open("/dev/null", "rb") as given:
            proc = subprocess.run([binary, *argv], cwd=INPUTS, stdin=given, capture_output=True, timeout=60)
        (OUT / f"{name}.stdout").write_bytes(proc.stdout)
        (OUT / f"{name}.stderr").write_bytes(proc.stderr)
        # returncode: the exit status, or minus the signal that ended it (-11: SIGSEGV).
        manifest["cases"][name] = {"argv": ["trec_eval", *argv], "stdin": stdin, "returncode": proc.returncode}
        print(f"{name}: {proc.returncode}")
    # One line per case, so that the file reads as the list of commands it is.
    cases = ",\n".join(f"  {json.dumps(name)}: {json.dumps(case)}" for name, case in manifest["cases"].items())
    text = (f'{{\n "trec_eval": {json.dumps(manifest["trec_eval"])},\n "flags": {json.dumps(FLAGS)},\n'
            f' "cases": {{\n{cases}\n }}\n}}\n')
    assert json.loads(text) == manifest
    (HERE / "manifest.json").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
