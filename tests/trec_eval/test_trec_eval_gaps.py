"""Gaps against trec_eval 10 found by comparing with the real binary (issue 21, item 13),
beyond the golden command lines of tests/data/trec_eval/cli: the run tag under final
comments, read from the end across blocks; every measure that needs preference or qrels_jg
judgments, named alone; and the order of trec_eval's errors (the files before the measures'
parameters, those before what fails when a topic is computed). trec_eval's messages here
are the binary's (set EVALCORE_TREC_EVAL to a trec_eval 10.0 binary to check them again)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

from evalcore.trec_eval import command as trec_cli
from evalcore.trec_eval import output_format as te

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "trec_eval"
QRELS = DATA / "cli" / "ties.qrels"
RUN = DATA / "cli" / "ties.run"
PREFS = ("trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) or results format not "
         "trec_results\n")
JG = "trec_eval: rel_info format not qrels_jg or results format not trec_results\n"
NEEDS_PREFS = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
               "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
               "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp")
NEEDS_JG = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")


@pytest.mark.parametrize("text, tag", [
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n# end\n", "last"),
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n# q Q0 c 3 0 commented out\n", "last"),  # 6+ fields
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n \t# indented, six fields or more\n\n  \n", "last"),
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n#" + b"x" * 100 + b" a b c d e f\n#\n", "last"),  # comments past a block
    (b"q Q0 a 1 2 first\n# between\nq Q0 b 2 1 #last\n", "#last"),  # '#' inside a data line is a field
    (b"# only\n\n# comments a b c d e f g\n", None), (b"   #\n", None),
])
def test_run_tag_skips_final_comments(tmp_path, text, tag):
    path = tmp_path / "run"
    path.write_bytes(text)
    assert te.run_tag(str(path), block=16) == tag


def test_run_tag_is_trec_evals_on_a_run_ending_with_a_comment():
    # agree.run ends with "## the last line is a comment" (7 fields); trec_eval's runid there
    # (the input cases' golden output) is the last data line's tag.
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cases"]["agree"]["returncode"] == 0
    lines = (DATA / "out" / "agree.stdout").read_bytes().splitlines()
    runid = [line.split(b"\t")[2].decode() for line in lines if line.startswith(b"runid ")]
    assert (DATA / "inputs" / "agree.run").read_bytes().splitlines()[-1] == b"## the last line is a comment"
    assert runid == ["runC"] == [te.run_tag(str(DATA / "inputs" / "agree.run"))]


def evalcore_trec(capsysbinary, *arguments):
    status = trec_cli.main(["--format", "trec_eval", *arguments])
    captured = capsysbinary.readouterr()
    return captured.out, captured.err.decode(), status


def binary_agrees(arguments, stdout: bytes, stderr: str, status: int) -> None:
    """When EVALCORE_TREC_EVAL is set, trec_eval gives the same on the same command line."""
    binary = os.environ.get("EVALCORE_TREC_EVAL")
    if binary:
        done = subprocess.run([binary, *arguments], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        assert (done.stdout, done.stderr.decode(), done.returncode) == (stdout, stderr, status)


@pytest.mark.parametrize("measure", NEEDS_PREFS + NEEDS_JG)
def test_measures_needing_other_judgments_fail_as_trec_evals(capsysbinary, measure):
    arguments = ["-q", "-c", "-m", "P.5", "-m", measure, str(QRELS), str(RUN)]
    reason = PREFS if measure in NEEDS_PREFS else JG
    expected = (b"", f"{reason}trec_eval: Can't calculate measure '{measure}'\n", 4)
    assert evalcore_trec(capsysbinary, *arguments) == expected
    binary_agrees(arguments, *expected)
    assert set(te.OTHER_QRELS_FORMAT) == set(NEEDS_PREFS + NEEDS_JG)


@pytest.mark.parametrize("measures, stderr", [
    (["P_avgjg.5,0"], "trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure 'P_avgjg'\n"),
    (["Rprec_mult_avgjg.0.5,.5"],
     "trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure 'Rprec_mult_avgjg'\n"),
    (["utility.1,2", "P.0"], "trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure 'P'\n"),
])
def test_parameters_are_refused_before_any_topic_is_computed(capsysbinary, measures, stderr):
    arguments = [word for m in measures for word in ("-m", m)] + [str(QRELS), str(RUN)]
    assert evalcore_trec(capsysbinary, *arguments) == (b"", stderr, 2)
    binary_agrees(arguments, b"", stderr, 2)


def test_the_qrels_faults_come_before_an_empty_run_file(capsysbinary, tmp_path):
    # trec_eval reads the qrels first: a qrels fault is reported (exit 2) though the run
    # file cannot be read either; with good qrels, the run's "Cannot read".
    empty = tmp_path / "empty.run"
    empty.write_bytes(b"")
    out, err, status = evalcore_trec(capsysbinary, str(DATA / "inputs" / "malformed.qrels"), str(empty))
    assert (out, status) == (b"", 2) and err.startswith("evalcore trec: ") and "malformed.qrels:4:" in err
    out, err, status = evalcore_trec(capsysbinary, "-m", "utility.1,2", str(QRELS), str(empty))
    assert (out, err, status) == (b"", f"trec_eval.get_results: Cannot read results file '{empty}'\n"
                                       f"trec_eval: Quit in file '{empty}'\n", 2)
