"""`evalcore trec`, run as a user runs it, on examples/trec: evalcore's own formats (the
default for ir_measures and ranx names), the trec_eval flags in them, stdin and .gz runs,
and the trec_eval format's refusals. test_trec_eval_golden.py compares the trec_eval format
with trec_eval's own outputs."""

import csv
import gzip
import io
import json
import pathlib
import subprocess
import sys

import pytest

import evalcore
from evalcore.trec_eval import output_format as te

ROOT = pathlib.Path(__file__).resolve().parents[2]
QRELS = str(ROOT / "examples" / "trec" / "qrels.txt")
RUN = str(ROOT / "examples" / "trec" / "run.txt")
MEASURES = ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100"]


def trec(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *args], capture_output=True, timeout=120,
                          text=True, input=stdin)


def measure_flags(measures=MEASURES):
    return [flag for m in measures for flag in ("-m", m)]


def test_table_is_shaped_like_trec_eval():
    proc = trec(QRELS, RUN, *measure_flags(), "--missing", "skip")  # topic 306 is judged, not in the run
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.evaluate_run(QRELS, RUN, MEASURES)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(MEASURES)
    for line, measure in zip(lines, MEASURES):
        name, query, value = line.split("\t")
        assert name == f"{measure:<22}" and query == "all" and value == f"{expected.mean[measure]:.4f}"


def test_per_query_csv_gives_every_value_in_full():
    proc = trec(QRELS, RUN, *measure_flags(), "--per-query", "--format", "csv", "--missing", "skip")
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
    assert trec(QRELS, RUN, "-m", "P@1", "--relevant-at-least", "0").returncode == 2
    assert trec(QRELS, RUN, "-m", "P@1", "-l", "2", "--relevant-at-least", "2").returncode == 2
    assert trec(QRELS, RUN, "-m", "P@1", "-c", "--missing", "skip").returncode == 2
    assert trec(QRELS, RUN, "-m", "P@1", "-M", "-1").returncode == 2


def test_trec_eval_flags_in_evalcore_formats():
    proc = trec(QRELS, RUN, "-m", "nDCG@5", "-m", "NumRet", "-c", "-l", "2", "-M", "4", "-J", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    expected = evalcore.evaluate_run(QRELS, RUN, ["nDCG@5", "NumRet"], missing="zero", relevant_at_least=2,
                                     max_retrieved=4, judged_only=True)
    assert json.loads(proc.stdout) == json.loads(expected.to_json(per_query=False))
    assert max(expected.values("NumRet")) <= 4
    no_summary = trec(QRELS, RUN, "-m", "P@10", "-q", "-n", "--missing", "skip")
    lines = no_summary.stdout.splitlines()
    assert no_summary.returncode == 0 and len(lines) == 5 and all("\tall\t" not in line for line in lines)


def test_stdin_and_gz_runs_in_evalcore_formats(tmp_path):
    plain = trec(QRELS, RUN, *measure_flags(), "-q", "--format", "csv", "-c")
    assert plain.returncode == 0, plain.stderr
    with open(RUN, encoding="utf-8") as handle:
        assert trec(QRELS, "-", *measure_flags(), "-q", "--format", "csv", "-c", stdin=handle.read()).stdout == plain.stdout
    packed = tmp_path / "run.txt.gz"
    with open(RUN, "rb") as handle:
        packed.write_bytes(gzip.compress(handle.read()))
    assert trec(QRELS, str(packed), *measure_flags(), "-q", "--format", "csv", "-c").stdout == plain.stdout
    bad = trec(QRELS, "-", "-m", "P@10", stdin="301 Q0 a 1 x t\n")
    assert bad.returncode == 1 and bad.stderr == "evalcore trec: <stdin>:1: the score 'x' is not a finite number\n"
    (tmp_path / "bad.gz").write_bytes(b"not gzip")
    broken = trec(QRELS, str(tmp_path / "bad.gz"), "-m", "P@10")
    assert broken.returncode == 1 and broken.stderr.startswith(f"evalcore trec: {tmp_path / 'bad.gz'}: cannot decompress")


def test_default_format_follows_the_measure_names():
    assert trec(QRELS, RUN, "-c", "-m", "map").stdout == "map                   \tall\t0.0764\n"  # trec_eval's
    table = trec(QRELS, RUN, "-c", "-m", "AP").stdout
    assert table == f"AP                    \tall\t{evalcore.evaluate_run(QRELS, RUN, ['AP'], missing='zero').mean['AP']:.4f}\n"
    assert trec(QRELS, RUN, "-c", "-m", "P_10").stdout.startswith("P_10")  # pytrec_eval's spelling: evalcore's table


def test_trec_eval_format_refusals():
    gains = trec(QRELS, RUN, "-c", "-m", "rbp.2=3")  # gains for relevance levels: trec_eval 10's line
    assert (gains.returncode, gains.stdout, gains.stderr) == (0, "rbp_2=3               \tall\t0.0654\n", "")
    unsupported = trec(QRELS, RUN, "-c", "-m", "relstring.inf")
    assert unsupported.returncode == 2 and unsupported.stdout == ""
    assert unsupported.stderr.startswith("evalcore trec: relstring: the length must be a number up to 10000000")
    shared = trec(QRELS, RUN, "-c", "-m", "ndcg.1=3", "-m", "dcg")  # trec_eval 10 aborts (double free)
    assert shared.returncode == 2 and "shared parameter list" in shared.stderr
    illegal = trec(QRELS, RUN, "-m", "foo", "--format", "trec_eval")
    assert (illegal.returncode, illegal.stderr) == (1, "trec_eval: illegal measure 'foo'\n")
    level = trec(QRELS, RUN, "-c", "-l", "0")
    assert level.returncode == 1 and "relevance levels below 1 are not supported" in level.stderr
    mixed = trec(QRELS, RUN, "-c", "--gain", "exponential")
    assert mixed.returncode == 2 and "--gain: not trec_eval's" in mixed.stderr
    fractional = trec(QRELS, RUN, "-c", "--relevant-at-least", "1.5")
    assert fractional.returncode == 2 and "trec_eval format takes an integer level, as trec_eval's -l" in fractional.stderr
    missing = trec(QRELS, "nowhere.txt", "-c")
    assert (missing.returncode, missing.stderr) == (2, "evalcore trec: cannot read nowhere.txt: No such file or directory\n")


def test_all_trec_leaves_out_only_what_evalcore_lacks():
    done = trec(QRELS, RUN, "-q", "-c", "-m", "all_trec")
    printed = {line.split("\t")[0].rstrip() for line in done.stdout.splitlines()}
    assert {"runid", "num_q", "gm_map", "gm_bpref", "11pt_avg", "utility", "set_map", "relative_P_5", "ndcg"} <= printed
    # What evalcore lacks (output_format.SUPPORTED says) is left out, and only that ...
    lacking = [m for m in te.NICKNAMES["all_trec"] if m not in te.SUPPORTED]
    bases = {base for base in te.NICKNAMES["all_trec"] if any(n == base or n.startswith(base + "_") for n in printed)}
    assert bases == set(te.NICKNAMES["all_trec"]) - set(lacking)
    assert done.returncode == 0
    # ... and says so on stderr, in one line naming each (tests/trec_eval/test_cli_guidance.py)
    if lacking:
        assert done.stderr.count("\n") == 1 and all(m in done.stderr for m in lacking), done.stderr
    else:
        assert done.stderr == ""


@pytest.mark.parametrize("measures", [[], ["-m", "P@10"]], ids=["trec_eval format", "evalcore table"])
def test_a_reader_that_leaves_early_is_not_an_error(measures):
    # `evalcore trec -q ... | head -1`: the pipe closes while lines are still being written.
    proc = subprocess.Popen([sys.executable, "-m", "evalcore.cli", "trec", "-q", "-c", *measures, QRELS, RUN],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0 and b"Traceback" not in stderr, stderr


def test_quiet_is_accepted_and_nothing_but_results_is_written_when_stderr_is_no_terminal():
    # The progress bar goes to stderr only when it is a terminal (tests/runs/test_progress.py
    # draws one); here it is a pipe, with or without --quiet.
    for form in (["-c", "-m", "nDCG@10"], ["-c", "-m", "map", "-m", "P.10"]):
        plain, quiet = trec(QRELS, RUN, *form), trec(QRELS, RUN, *form, "--quiet")
        assert plain.returncode == quiet.returncode == 0, plain.stderr
        assert plain.stdout == quiet.stdout and plain.stdout
        assert plain.stderr == quiet.stderr == ""
