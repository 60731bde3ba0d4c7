"""`evalcore trec`, run as a user runs it, on examples/trec."""

import csv
import io
import json
import pathlib
import subprocess
import sys

import evalcore

ROOT = pathlib.Path(__file__).resolve().parent.parent
QRELS = str(ROOT / "examples" / "trec" / "qrels.txt")
RUN = str(ROOT / "examples" / "trec" / "run.txt")
MEASURES = ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100"]


def trec(*args):
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *args], capture_output=True, timeout=120,
                          text=True)


def measure_flags(measures=MEASURES):
    return [flag for m in measures for flag in ("-m", m)]


def test_table_is_shaped_like_trec_eval():
    proc = trec(QRELS, RUN, *measure_flags())
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.evaluate_run(QRELS, RUN, MEASURES)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(MEASURES)
    for line, measure in zip(lines, MEASURES):
        name, query, value = line.split("\t")
        assert name == f"{measure:<22}" and query == "all" and value == f"{expected.mean[measure]:.4f}"


def test_per_query_csv_gives_every_value_in_full():
    proc = trec(QRELS, RUN, *measure_flags(), "--per-query", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == ["measure", "query", "value"]
    expected = evalcore.evaluate_run(QRELS, RUN, MEASURES)
    per_query = rows[1:-len(MEASURES)]
    assert len(per_query) == len(expected.query_ids) * len(MEASURES)
    for measure, query, value in per_query:
        want = float(expected.values(measure)[expected.query_ids.index(query)])
        assert (value == "" and want != want) or float(value) == want
    assert [(m, q, float(v)) for m, q, v in rows[-len(MEASURES):]] == [(m, "all", expected.mean[m]) for m in MEASURES]


def test_json_equals_to_json_and_options_pass_through():
    proc = trec(QRELS, RUN, "-m", "nDCG@5", "--format", "json", "--gain", "exponential", "--missing", "zero",
                "--ties", "input", "--relevant-at-least", "2", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.evaluate_run(QRELS, RUN, ["nDCG@5"], gain="exponential", missing="zero", ties="input",
                                     relevant_at_least=2)
    assert json.loads(proc.stdout) == json.loads(expected.to_json(per_query=False))
    assert "306" in expected.query_ids  # judged, not in the run: scored 0 with --missing zero


def test_input_errors_exit_1_with_file_and_line(tmp_path):
    bad = tmp_path / "run.txt"
    bad.write_text("301 Q0 FT9000001 1 2.0 t\n301 Q0 FT9000002 2 t\n", encoding="utf-8")
    proc = trec(QRELS, str(bad), "-m", "P@10")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"evalcore trec: {bad}:2: a run line has at least 6 fields: query Q0 document rank score tag, found 5\n"


def test_usage_errors_exit_2():
    proc = trec(QRELS, RUN, "-m", "nDGC@10")
    assert proc.returncode == 2 and "unknown measure 'nDGC@10'; did you mean 'nDCG@10'" in proc.stderr
    assert trec(QRELS, RUN).returncode == 2  # no measure
    assert trec(QRELS, RUN, "-m", "P@1", "--relevant-at-least", "0").returncode == 2
