"""Writes the golden outputs of tests/trec_eval/test_trec_eval_golden.py by running a real trec_eval
binary: for each case below, NAME.cmd (the command line, run from the repository root),
NAME.stdout, NAME.stderr and NAME.status (its exit status).

    python tests/data/trec_eval/cli/generate.py /path/to/trec_eval

The outputs committed here come from trec_eval 10.0 (usnistgov/trec_eval f425365; see
README.md). Only the binary's outputs are stored, never its code.
"""

from __future__ import annotations

import pathlib
import re
import shlex
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[3]
EXAMPLES = "examples/trec/qrels.txt examples/trec/run.txt"  # topic 306 is judged, not in the run
TIES = "tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run"
TIES_QRELS = "tests/data/trec_eval/cli/ties.qrels"
INPUTS = "tests/data/trec_eval/inputs"  # the input cases' files (../inputs)

# name -> trec_eval's arguments (a trailing "< FILE" feeds FILE on stdin).
CASES = {
    "default_c": f"-c {EXAMPLES}",
    "q_c": f"-q -c {EXAMPLES}",
    "q_c_all_trec": f"-q -c -m all_trec {TIES}",
    "P_map": f"-c -m P.5,10 -m map {EXAMPLES}",
    "l2": f"-q -c -l 2 {EXAMPLES}",
    "M10": f"-q -c -M 10 {EXAMPLES}",
    "J": f"-q -c -J {EXAMPLES}",
    "n_q": f"-n -q -c {EXAMPLES}",
    "no_c": f"-q {EXAMPLES}",
    "no_c_summary": f"{EXAMPLES}",
    "stdin": "-c examples/trec/qrels.txt - < examples/trec/run.txt",
    "params": f"-c -m iprec_at_recall..10,.25 -m P.23.4 -m set_F.0.5 -m utility.2,-1,0,1 -m 11pt_avg.0.2,0.5 "
              f"-m relative_P.3,50 -m ndcg_cut.5,1 -m P.5 -m P.10 -m gm_bpref -m set {EXAMPLES}",
    "ties_q_c": f"-q -c {TIES}",
    "ties_q_J": f"-q -c -J -m official -m ndcg -m set {TIES}",
    "ties_q_M0": f"-q -c -M 0 -m official -m 11pt_avg {TIES}",
    "ties_l2_M3": f"-q -c -l 2 -M 3 -m all_trec {TIES}",
    "bad_cutoff": f"-c -m P.0 {EXAMPLES}",
    "improper": f"-m P. {EXAMPLES}",
    # runid is the tag of the last data line: comments (indented or not, of any number of
    # fields) and blank lines after it are skipped; agree.run ends with "## the last line is a comment".
    "comment_last_c": f"-q -c {TIES_QRELS} tests/data/trec_eval/cli/final_comment.run",
    "comment_last_no_c": f"-q {TIES_QRELS} tests/data/trec_eval/cli/final_comment.run",  # t3 missing: exit 4
    "comment_last_tag": f"-c {INPUTS}/agree.qrels {INPUTS}/agree.run",
    # A run without data lines: the first qrels topic is missing (exit 4) without -c; with
    # -c every topic is scored, and runid is memory trec_eval never wrote (UNWRITTEN_RUNID).
    "comments_only": f"{TIES_QRELS} {INPUTS}/comments_only.run",
    "comments_only_c": f"-q -c {TIES_QRELS} {INPUTS}/comments_only.run",
    "empty_stdin_c": f"-c {TIES_QRELS} - < {INPUTS}/empty.run",
    # A run file of 0 bytes cannot be read (exit 2), before any measure is set up or computed.
    "empty_run": f"-c {TIES_QRELS} {INPUTS}/empty.run",
    "empty_run_utility": f"-c -m utility.1,2 {TIES_QRELS} {INPUTS}/empty.run",
    "empty_run_bad_cutoff": f"-c -m P.0 {TIES_QRELS} {INPUTS}/empty.run",
    # Computing a topic's value fails (exit 4): utility's coefficients are counted then, and the
    # preference and qrels_jg measures need judgments of another format than qrels.
    "utility_coefficients": f"-q -m utility.1,2 {EXAMPLES}",
    "all_prefs": f"-c -m all_prefs {EXAMPLES}",
    "prefs": f"-q -c -m prefs {EXAMPLES}",
    "qrels_jg": f"-q -m qrels_jg {EXAMPLES}",
    "prefs_no_data": f"-m prefs {TIES_QRELS} {INPUTS}/comments_only.run",  # the missing topic stops it first
}

# Cases whose runid trec_eval prints from memory it never wrote (a run without data lines:
# its one placeholder result is left uninitialized), different bytes on every run; their
# runid value is stored blank, as evalcore prints it. The measures after it are official's.
UNWRITTEN_RUNID = {"comments_only_c", "empty_stdin_c"}
_RUNID_VALUE = re.compile(rb"(runid {17}\tall\t)(.*?)(\nnum_q {17}\tall\t)", re.S)


def blank_unwritten_runid(stdout: bytes) -> bytes:
    """stdout with the runid value left out (whatever bytes trec_eval printed there, newlines too)."""
    blanked, count = _RUNID_VALUE.subn(rb"\1\3", stdout)
    assert count == 1, stdout
    return blanked


def run(binary: str, name: str):
    """(stdout, stderr, exit status) of trec_eval on case `name`, runid blanked where unwritten."""
    words = shlex.split(CASES[name])
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin, words = words[at + 1], words[:at]
    with open(ROOT / stdin, "rb") if stdin else open("/dev/null", "rb") as feed:
        done = subprocess.run([binary, *words], cwd=ROOT, stdin=feed, capture_output=True, timeout=60)
    stdout = blank_unwritten_runid(done.stdout) if name in UNWRITTEN_RUNID else done.stdout
    return stdout, done.stderr, done.returncode


def main(binary: str) -> None:
    for name, arguments in CASES.items():
        stdout, stderr, status = run(binary, name)
        (HERE / f"{name}.cmd").write_text(f"trec_eval {arguments}\n", encoding="utf-8")
        (HERE / f"{name}.stdout").write_bytes(stdout)
        (HERE / f"{name}.stderr").write_bytes(stderr)
        (HERE / f"{name}.status").write_text(f"{status}\n", encoding="utf-8")
        print(f"{name}: exit {status}, {len(stdout)} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
