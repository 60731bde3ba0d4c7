"""Writes the golden outputs of tests/trec_eval/test_trec_eval_golden.py by running a real trec_eval
binary: for each case below, NAME.cmd (the command line, run from the repository root),
NAME.stdout, NAME.stderr and NAME.status (its exit status).

    python tests/data/trec_eval/cli/generate.py /path/to/trec_eval

The outputs committed here come from trec_eval 10.0 (usnistgov/trec_eval f425365; see
README.md). Only the binary's outputs are stored, never its code.
"""

from __future__ import annotations

import pathlib
import shlex
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[3]
EXAMPLES = "examples/trec/qrels.txt examples/trec/run.txt"  # topic 306 is judged, not in the run
TIES = "tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run"

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
}


def main(binary: str) -> None:
    for name, arguments in CASES.items():
        words = shlex.split(arguments)
        stdin = None
        if "<" in words:
            at = words.index("<")
            stdin, words = words[at + 1], words[:at]
        with open(ROOT / stdin, "rb") if stdin else open("/dev/null", "rb") as feed:
            done = subprocess.run([binary, *words], cwd=ROOT, stdin=feed, capture_output=True, timeout=60)
        (HERE / f"{name}.cmd").write_text(f"trec_eval {arguments}\n", encoding="utf-8")
        (HERE / f"{name}.stdout").write_bytes(done.stdout)
        (HERE / f"{name}.stderr").write_bytes(done.stderr)
        (HERE / f"{name}.status").write_text(f"{done.returncode}\n", encoding="utf-8")
        print(f"{name}: exit {done.returncode}, {len(done.stdout)} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
