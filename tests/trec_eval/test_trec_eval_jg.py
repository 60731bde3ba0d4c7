"""``evalcore trec -R qrels_jg`` on trec_eval 10's own judgment-group test files, read where
they are (a trec_eval source tree: EVALCORE_TREC_EVAL_SRC, else /work/peers/trec_eval_src;
nothing of it is copied here): its Makefile's two qrels_jg checks, byte for byte. The golden
cases of tests/data/trec_eval/cli (jg_*) cover files written for evalcore's tests; the
evalcore formats (table, json) read the same judgments."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = pathlib.Path(os.environ.get("EVALCORE_TREC_EVAL_SRC", "/work/peers/trec_eval_src"))
CLI = ROOT / "tests" / "data" / "trec_eval" / "cli"


def evalcore_trec(arguments, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *arguments], cwd=cwd, capture_output=True,
                          timeout=120)


@pytest.mark.skipif(not (SOURCE / "test" / "out.test.qrels_jg").is_file(),
                    reason="set EVALCORE_TREC_EVAL_SRC to a trec_eval 10 source tree (its test/ folder)")
@pytest.mark.parametrize("qrels", ["test/qrels.123", "test/qrels.comments.123"])
def test_trec_eval_own_qrels_jg_tests(qrels):
    # trec_eval's Makefile: ./trec_eval -m qrels_jg -q -R qrels_jg test/qrels.123 test/results.test
    done = evalcore_trec(["-m", "qrels_jg", "-q", "-R", "qrels_jg", qrels, "test/results.test"], cwd=SOURCE)
    assert (done.stderr, done.returncode) == (b"", 0)
    assert done.stdout == (SOURCE / "test" / "out.test.qrels_jg").read_bytes()


def test_json_format_reads_judgment_groups():
    done = evalcore_trec(["--format", "json", "-q", "-c", "-R", "qrels_jg", "-m", "map_avgjg", "-m", "P_avgjg.5",
                          str(CLI / "ties.qrels_jg"), str(CLI / "ties.run")])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["measures"] == ["map_avgjg", "P_avgjg_5"] and result["queryCount"] == 3
    trec = evalcore_trec(["-c", "-R", "qrels_jg", "-m", "map_avgjg", str(CLI / "ties.qrels_jg"), str(CLI / "ties.run")])
    assert trec.stdout.endswith(b"map_avgjg             \tall\t0.0573\n"), trec.stdout


def test_table_format_refuses_measures_of_other_judgments():
    # -R prefs reads preferences (tests/runs/test_prefs_measures.py); map cannot read them
    done = evalcore_trec(["--format", "table", "-R", "prefs", "-m", "map", "a", "b"])
    assert done.returncode == 2 and b"measure 'map' does not read preference judgments" in done.stderr
