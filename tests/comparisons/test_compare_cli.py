"""`evalcore compare`, run as a user runs it, on examples/compare."""

import json
import pathlib
import re
import subprocess
import sys

import evalcore

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "compare"
QRELS = str(FOLDER / "qrels.txt")
RUNS = [str(FOLDER / f"{name}.txt") for name in ("bm25", "rm3", "dense")]


def compare(*args):
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "compare", *args], capture_output=True, timeout=120,
                          text=True)


def test_json_is_the_api_result():
    proc = compare(QRELS, *RUNS, "-m", "nDCG@10", "-m", "AP@100", "--format", "json", "--resamples", "500")
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.compare(QRELS, dict(zip(("bm25", "rm3", "dense"), RUNS)), ["nDCG@10", "AP@100"], resamples=500)
    assert json.loads(proc.stdout) == json.loads(expected.to_json())


def test_table_lists_every_comparison_and_run():
    proc = compare(QRELS, *RUNS, "-m", "nDCG@10", "--test", "t", "--test", "wilcoxon", "--resamples", "200")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:6] == ["run", "baseline", "measure", "n", "dropped", "mean"]
    assert [line.split()[:3] for line in lines[1:4]] == [["rm3", "bm25", "nDCG@10"], ["dense", "bm25", "nDCG@10"],
                                                         ["dense", "rm3", "nDCG@10"]]
    assert "each test over its own family (t: 3, wilcoxon: 3 comparisons)" in proc.stdout
    assert sum(line.startswith(("bm25 ", "rm3 ", "dense ")) for line in lines[6:]) == 3


def test_markdown_and_latex_with_a_baseline():
    proc = compare(QRELS, *RUNS, "-m", "nDCG@10", "--baseline", "bm25", "--format", "markdown", "--resamples", "999")
    assert proc.returncode == 0, proc.stderr
    assert "| c | dense | **0.8229**ᵃ |" in proc.stdout  # better than the baseline only: the pair rm3-dense is not tested
    proc = compare(QRELS, f"first={RUNS[0]}", f"second={RUNS[2]}", "-m", "P@10", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert "a & first &" in proc.stdout and "\\begin{tabular}" in proc.stdout


def test_errors():
    proc = compare(QRELS, RUNS[0], str(FOLDER / "absent.txt"), "-m", "AP")
    assert proc.returncode == 1 and "cannot read" in proc.stderr and "absent.txt" in proc.stderr
    proc = compare(QRELS, *RUNS, "-m", "AP", "--baseline", "bm26")
    assert proc.returncode == 2 and "baseline 'bm26' is not one of the runs" in proc.stderr
    proc = compare(QRELS, *RUNS, "-m", "nDGC@10")
    assert proc.returncode == 2 and "nDCG" in proc.stderr
    proc = compare(QRELS, RUNS[0], RUNS[0], "-m", "AP")
    assert proc.returncode == 2 and "given twice" in proc.stderr
    proc = compare(QRELS, RUNS[0], "-m", "AP")
    assert proc.returncode == 2 and "at least two runs" in proc.stderr
    proc = compare(QRELS, *RUNS, "-m", "AP", "--resamples", "0")
    assert proc.returncode == 2 and "resamples" in proc.stderr


def test_evaluation_options_reach_the_runs():
    proc = compare(QRELS, *RUNS[:2], "-m", "AP@100", "--format", "json", "--resamples", "50", "--max-retrieved", "5",
                   "--judged-only", "--missing", "zero")
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.compare(QRELS, dict(zip(("bm25", "rm3"), RUNS[:2])), ["AP@100"], resamples=50, max_retrieved=5,
                                judged_only=True, missing="zero")
    assert json.loads(proc.stdout) == json.loads(expected.to_json())
    assert json.loads(proc.stdout)["evaluation"]["maxRetrieved"] == 5
    proc = compare(QRELS, *RUNS[:2], "-m", "AP", "--max-retrieved", "-1")
    assert proc.returncode == 2 and "max_retrieved must be an int >= 0" in proc.stderr


def test_the_docs_show_what_the_example_prints():
    page = (ROOT / "docs" / "comparing.md").read_text(encoding="utf-8")
    section = page[page.index("# Comparing runs"):]
    blocks = re.findall(r"```[a-z]*\n(.*?)```", section, flags=re.S)
    markdown_table = section.split("```\n\n", 1)[1].split("\n\nThe same on the command line", 1)[0]
    names = ("bm25", "rm3", "dense")
    api = evalcore.compare(QRELS, dict(zip(names, RUNS)), ["nDCG@10", "AP@100"]).to_markdown()
    assert api.rstrip("\n") == markdown_table
    assert blocks[1].split() == ["evalcore", "compare", "examples/compare/qrels.txt", *(f"examples/compare/{n}.txt" for n in names[:2]),
                                 "\\", f"examples/compare/{names[2]}.txt", "-m", "nDCG@10", "-m", "AP@100"]
    proc = compare(QRELS, *RUNS, "-m", "nDCG@10", "-m", "AP@100")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == blocks[2]
