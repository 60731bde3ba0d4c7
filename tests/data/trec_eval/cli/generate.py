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
GAINS = "tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run"  # grades -2..6, ties, unjudged
RANK = "tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run"
INPUTS = "tests/data/trec_eval/inputs"  # the input cases' files (../inputs)
# -R qrels_jg: judgment groups written for these tests (README.md), against the same runs.
TIES_JG = "-R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run"
TIES_PREFS = "-R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run"
EXAMPLES_JG = "-R qrels_jg tests/data/trec_eval/cli/examples_jg.qrels examples/trec/run.txt"
Z = "tests/data/trec_eval/cli"  # the -Z files

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
    # trec_eval 10's rank-based measures: graded, negative (in the pool, unjudged) and unlisted
    # documents, score ties, a grade above 9, a topic without relevant documents, -c, -M, -J, -l.
    # yaap is asked for apart from rbp: trec_eval's rbp reads two uninitialized doubles (min and
    # max in m_rbp.c), and after yaap what that leaves on the stack rescales 0/1 gains
    # (docs/measures.md); evalcore takes the values the code means.
    "rank_q_c": f"-q -c -m all_trec {RANK}",
    "rank_params": f"-q -c -m Rprec_mult.0,0.3,0.5,2.5 -m unj.1,3,50 -m rbp.p=0.5 -m rbp_resid.x=1,p=0.95 -m infAP {RANK}",
    "rank_l2_M10": f"-q -c -l 2 -M 10 -m all_trec {RANK}",
    "rank_J": f"-q -c -J -m all_trec {RANK}",
    "rank_ties": f"-q -c -m all_trec {TIES}",
    "rank_examples": f"-c -m all_trec {EXAMPLES}",
    "rank_yaap": f"-q -c -m yaap -m infAP -m num_nonrel_judged_ret {RANK}",
    "rank_yaap_l2_J": f"-q -c -l 2 -J -m yaap -m infAP -m num_nonrel_judged_ret {RANK}",
    "rank_yaap_ties": f"-q -c -m yaap {TIES}",
    "rank_relstring": f"-q -c -m relstring.40 -m relstring.3 {RANK}",  # only the first parameters count
    "rank_relstring_J_M": f"-q -c -J -M 5 -m relstring.7.9,2 -m num_ret {RANK}",
    "rank_relstring_summary": f"-c -m relstring -m map {RANK}",  # relstring has no summary line
    "rank_rbp_malformed": f"-m rbp.p=0.5, {RANK}",
    # rbp with gains for levels (rbp.LEVEL=GAIN), each alone (see rank_q_c on m_rbp.c's min and
    # max): gains above 1, below 0 and within [0, 1] (no rescaling), and fractional grades (levels)
    "rbp_gains": f"-q -c -m rbp.1=2,p=0.8 {GAINS}",
    "rbp_gains_negative": f"-q -c -m rbp.0=-1,3=0.5 {RANK}",
    "rbp_gains_above_1": f"-q -c -m rbp.2=5,1=3,p=0.95 {TIES}",
    "rbp_gains_within": f"-q -m rbp.1=0.5,2=0.25 {GAINS}",
    "rbp_gains_resid": f"-q -c -m rbp_resid.1=2,p=0.8 {GAINS}",  # rbp_resid takes no gains
    "rbp_fraction": "-q -m rbp tests/data/trec_eval/cli/fraction.qrels tests/data/trec_eval/inputs/grades.run",
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
    # The gain measures (binG, G, dcg, ideal_dcg, ndcg with gains, ndcg_rel, Rndcg): gain lists with
    # fractional gains (trec_eval's sort takes gains less than 1 apart as equal), repeated levels,
    # levels -1 (unjudged) and -2 (negative grades), names that are not levels (ignored), -l, -M, -J.
    "gains_all_trec": f"-q -c -m all_trec {GAINS}",
    "gains_params": f"-q -c -m G.1=3,x=2,2=7.5,4=0.5 -m ndcg.1=0.5,2=0.7,3=9 -m ndcg_rel.0=1,-1=2,3=-1 "
                    f"-m Rndcg.2=1,1=1.4 -m binG {GAINS}",
    "gains_ndcg_ints": f"-q -c -m ndcg.1=1,2=3,3=7,4=15,6=63 -m G.4=1,1=4 -m ndcg_rel.2=0 -m Rndcg.6=2 {GAINS}",
    "gains_dcg": f"-q -c -m dcg.-2=1,1=3,1=5 {GAINS}",
    "gains_ideal_dcg": f"-q -c -m ideal_dcg.2=0.25,4=3,0=2 {GAINS}",
    "gains_l2_M10_J": f"-q -c -l 2 -M 10 -J -m binG -m G -m ndcg_rel -m Rndcg -m dcg {GAINS}",
    "gains_l3_M5": f"-q -c -l 3 -M 5 -m all_trec -m Rndcg.3=0,4=0,6=0 {GAINS}",
    "gains_examples": f"-q -c -m binG -m G.2=5 -m ideal_dcg -m ndcg_rel -m Rndcg {EXAMPLES}",
    "gains_malformed": f"-m G.1=3,2 {GAINS}",
    "gains_no_c": f"-q -m G {GAINS}",
    # The measures evalcore derives (cpp/runs/derived_measures.cpp) per topic, 11pt_avg's
    # points not ascending, and the spellings evaluate_run reads as the command line does.
    "derived_q_c": f"-q -c -m gm_map -m gm_bpref -m utility.1,-1,0.5,0 -m 11pt_avg.0.8,0.2,0.5 -m relative_P "
                   f"-m set_relative_P -m set_map -m num_q -m runid {TIES}",
    "derived_l2_q_c": f"-q -c -l 2 -m gm_map -m 11pt_avg -m relative_P.1,2 -m set {TIES}",
    "derived_examples_q_c": f"-q -c -m official -m set -m 11pt_avg.1,0,0.5 -m relative_P {EXAMPLES}",
    "spellings_q_c": f"-q -c -m iprec_at_recall..10,.20 -m P.23.4 -m ndcg_cut.10,20,23.4 {EXAMPLES}",
    # -R qrels_jg: map_avgjg, P_avgjg and Rprec_mult_avgjg averaged over each topic's judgment groups.
    "jg_q_c": f"-q -c -m qrels_jg {TIES_JG}",
    "jg_q": f"-q -m qrels_jg {TIES_JG}",  # t3 is judged, not in the run: exit 4 after t1 and t2
    "jg_params": f"-q -c -m P_avgjg.3,1,8 -m Rprec_mult_avgjg.3,0.5,1,0.1 -m map_avgjg {TIES_JG}",
    "jg_l2_J_M": f"-q -c -l 2 -J -M 6 -m qrels_jg {TIES_JG}",
    "jg_M0": f"-q -c -M 0 -m qrels_jg {TIES_JG}",
    "jg_examples": f"-q -c -m qrels_jg {EXAMPLES_JG}",
    "jg_examples_summary": f"-c -m map_avgjg -m P_avgjg.5,10 {EXAMPLES_JG}",
    "jg_examples_J": f"-q -c -J -m qrels_jg {EXAMPLES_JG}",
    # With judgment groups every other measure fails at the first topic (exit 4), as does an
    # unknown -R format (exit 2), and a measure's bad parameters (exit 2) come first.
    "jg_official": f"-c {EXAMPLES_JG}",
    "jg_prefs": f"-c -m prefs_simp -m map_avgjg {TIES_JG}",
    "jg_bad_format": f"-c -R bogus -m map_avgjg {TIES_QRELS} tests/data/trec_eval/cli/ties.run",
    "jg_bad_cutoff": f"-c -m P_avgjg.0 {TIES_JG}",
    # -R prefs and -R qrels_prefs: the 14 prefs_* measures over tied scores (ties broken by
    # document ID ascending there), unjudged and unretrieved documents, a topic missing.
    "pref_q_c": f"-q -c -m all_prefs {TIES_PREFS}",
    "pref_q": f"-q -m all_prefs {TIES_PREFS}",  # t3 is judged, not in the run: exit 4 after t1 and t2
    "pref_summary": f"-c -m prefs {TIES_PREFS}",
    "pref_M2": f"-q -c -M 2 -m all_prefs {TIES_PREFS}",
    "pref_qrels_ties": f"-q -c -m all_prefs -R qrels_prefs {TIES}",
    "pref_qrels_examples": f"-q -c -m all_prefs -R qrels_prefs {EXAMPLES}",
    "pref_J_l_n": f"-q -c -J -l 2 -n -m all_prefs {TIES_PREFS}",  # -J and -l do not apply to preferences
    "pref_param": f"-c -m prefs_simp.5 -m prefs_pair {TIES_PREFS}",  # a parameter it takes none of is ignored
    # With preferences every other measure fails at the first topic (exit 4).
    "pref_map": f"-c -m map {TIES_PREFS}",
    "pref_jg": f"-c -m prefs_simp -m map_avgjg {TIES_PREFS}",
    # -Z: z-scores against the means and standard deviations of *.zscores (README.md): values
    # found, missing (a topic, some measures), of standard deviation 0 equal to the mean or
    # not; counts, gm_map, num_q, runid and relstring; -c's stand-in topic, and without -c the
    # stop at the missing topic; judgment groups and preferences; the file's faults, and
    # which faults come first (a file fault's message is evalcore's: the order is tested in
    # tests/trec_eval/test_trec_eval_zscores.py).
    "z_q_c_all_trec": f"-q -c -m all_trec -Z {Z}/examples.zscores {EXAMPLES}",
    "z_official": f"-c -Z {Z}/examples.zscores {EXAMPLES}",
    "z_no_c": f"-q -Z {Z}/examples.zscores -m official {EXAMPLES}",
    "z_params": f"-q -c -m P.3,5 -m gm_bpref -m relstring.5 -m num_q -m utility.1,-1,0,0 -Z {Z}/examples.zscores {EXAMPLES}",
    "z_l2_M5": f"-q -c -l 2 -M 5 -m all_trec -Z {Z}/examples.zscores {EXAMPLES}",
    "z_ties": f"-q -c -m all_trec -Z {Z}/examples.zscores {TIES}",  # no topic of the file: all -1000000
    "z_jg": f"-q -c -m qrels_jg -Z {Z}/ties_jg.zscores {TIES_JG}",
    "z_prefs": f"-q -c -m all_prefs -Z {Z}/ties_prefs.zscores {TIES_PREFS}",
    "z_malformed": f"-c -Z {Z}/malformed.zscores {EXAMPLES}",
    "z_blank_line": f"-c -Z {Z}/blank_line.zscores {EXAMPLES}",
    "z_short_last": f"-c -Z {Z}/short_last.zscores {EXAMPLES}",
    "z_empty": f"-c -Z {INPUTS}/empty.run {EXAMPLES}",
    "z_nowhere": f"-c -Z {Z}/nowhere.zscores {EXAMPLES}",
    "z_before_setup": f"-c -m P.0,5 -Z {Z}/malformed.zscores {EXAMPLES}",  # P.0's fault (exit 2) comes after
    # trec_eval reads the numbers with atof: evalcore refuses atof.zscores (a number that is not
    # a decimal one) and prints for its twin, which spells out what atof read, what trec_eval prints.
    "z_atof": f"-q -c -m map -m P.5,10 -Z {Z}/atof.zscores {EXAMPLES}",
    "z_atof_as_read": f"-q -c -m map -m P.5,10 -Z {Z}/atof_as_read.zscores {EXAMPLES}",
}

# Cases evalcore refuses on purpose, each with its twin whose output trec_eval prints for it
# (the files as trec_eval reads them): tests/trec_eval/test_trec_eval_zscores.py.
READ_AS = {"z_atof": "z_atof_as_read"}

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
