"""evalcore against trec_eval 10.0 on the inputs of tests/data/trec_eval: the per-query
values where both read an input alike, and both sides of every input one of them refuses
or reads differently (README, "evalcore and trec_eval"). trec_eval's side is its committed
output (made by make_golden.py there; set EVALCORE_TREC_EVAL to a trec_eval 10.0 binary to
check that it still gives exactly those bytes); evalcore's side runs here, on the native
core and the reference alike (tests/common.py)."""

from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess
import sys

import pytest

from common import expect_result, run_all
from evalcore import RunEvaluation

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "trec_eval"
INPUTS = DATA / "inputs"
MANIFEST = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
CASES = MANIFEST["cases"]

# evalcore's measures and trec_eval's names for them (map_cut and recall divide by R, as ours).
TREC_NAMES = {"P@5": "P_5", "P@10": "P_10", "R@5": "recall_5", "R@10": "recall_10", "AP": "map", "AP@5": "map_cut_5",
              "RR": "recip_rank", "nDCG": "ndcg", "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10"}
MEASURES = list(TREC_NAMES)


def path(name: str) -> str:
    return str(INPUTS / name)


def stdout(case: str) -> bytes:
    return (DATA / "out" / f"{case}.stdout").read_bytes()


def stderr(case: str) -> bytes:
    return (DATA / "out" / f"{case}.stderr").read_bytes()


def returncode(case: str) -> int:
    return CASES[case]["returncode"]


def per_query(case: str) -> dict:
    """trec_eval's -q lines: {query ID (bytes): {measure: value text}}, without "all"."""
    table: dict = {}
    for line in stdout(case).splitlines():
        name, query, value = line.split(b"\t")
        if query != b"all":
            table.setdefault(query, {})[name.strip().decode()] = value.decode()
    return table


def summary(case: str) -> dict:
    return {name.strip().decode(): value.decode() for name, query, value in
            (line.split(b"\t") for line in stdout(case).splitlines()) if query == b"all"}


def evaluate(qrels, run, **options) -> RunEvaluation:
    """evalcore on inputs/ files (or dicts): native and reference, which must agree."""
    qrels = path(qrels) if isinstance(qrels, str) else qrels
    run = path(run) if isinstance(run, str) else run
    return expect_result("evaluate_run", qrels, run, MEASURES, **options)


def assert_same_values(result: RunEvaluation, case: str) -> None:
    """The same queries, and every value evalcore defines equal to trec_eval's printed one
    (4 decimals). Where evalcore leaves a value undefined (no relevant judgment), trec_eval
    prints 0 (README: R = 0)."""
    golden = per_query(case)
    assert sorted(q.encode() for q in result.query_ids) == sorted(golden), (result.query_ids, list(golden))
    compared = 0
    for q, query in enumerate(result.query_ids):
        for measure, name in TREC_NAMES.items():
            ours, theirs = float(result.values(measure)[q]), float(golden[query.encode()][name])
            if math.isnan(ours):
                assert theirs == 0.0, (case, query, measure, theirs)
            else:
                assert abs(ours - theirs) <= 0.5e-4 + 1e-12, (case, query, measure, ours, theirs)
                compared += 1
    assert compared > 0


def refused(qrels, run, line: int, message: str, **options) -> None:
    """evalcore refuses the input with this RunInputError (the file is the one on `line`)."""
    outcome = run_all("evaluate_run", path(qrels) if isinstance(qrels, str) else qrels,
                      path(run) if isinstance(run, str) else run, MEASURES, **options)
    assert outcome[0] == "error" and outcome[1][0] == "RunInputError", outcome
    _kind, text, source, at = outcome[1]
    assert at == line and text == f"{source}:{line}: {message}", outcome


# ---- the golden files ---------------------------------------------------------------------


def test_the_golden_files_are_trec_eval_10s():
    assert MANIFEST["trec_eval"] == "trec_eval version 10.0-rc3"  # 10.0 (f425365) reports this
    for case, entry in CASES.items():
        assert entry["argv"][:len(MANIFEST["flags"]) + 1] == ["trec_eval", *MANIFEST["flags"]], case
        assert (DATA / "out" / f"{case}.stdout").exists() and (DATA / "out" / f"{case}.stderr").exists()
    # Small: the input cases here (the CLI's command-line cases live in cli/, counted there).
    assert sum(f.stat().st_size for f in DATA.rglob("*") if f.is_file() and "cli" not in f.relative_to(DATA).parts) < 64 << 10


@pytest.mark.skipif(not os.environ.get("EVALCORE_TREC_EVAL"), reason="set EVALCORE_TREC_EVAL to a trec_eval 10.0 binary")
@pytest.mark.parametrize("case", list(CASES))
def test_trec_eval_still_gives_the_golden_output(case):
    entry = CASES[case]
    with open(INPUTS / entry["stdin"] if entry["stdin"] else os.devnull, "rb") as given:
        proc = subprocess.run([os.environ["EVALCORE_TREC_EVAL"], *entry["argv"][1:]], cwd=INPUTS, stdin=given,
                              capture_output=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (entry["returncode"], stdout(case), stderr(case))


# ---- read alike: the same per-query values ------------------------------------------------

# trec_eval's case: what evalcore reads to give the same values. For "scores" and the
# "grades" cases, that is the input as trec_eval reads it (the *_as_read twins, on which
# trec_eval prints exactly what it prints on the original); evalcore refuses or reads the
# original differently (the tests further down).
SAME_VALUES = {
    "agree": ("agree.qrels", "agree.run", {}),
    "stdin": ("agree.qrels", "agree.run", {}),
    "long_comment": ("one.qrels", "long_comment.run", {}),
    "precision": ("precision.qrels", "precision.run", {}),
    "missing_c": ("agree.qrels", "missing_303.run", {"missing": "zero"}),
    "scores": ("scores.qrels", "scores_as_read.run", {}),
    "scores_as_read": ("scores.qrels", "scores_as_read.run", {}),
    "grades_fraction": ("grades_fraction_as_read.qrels", "grades.run", {}),
    "grades_fraction_as_read": ("grades_fraction_as_read.qrels", "grades.run", {}),
    "grades_text": ("grades_text_as_read.qrels", "grades.run", {}),
    "grades_text_as_read": ("grades_text_as_read.qrels", "grades.run", {}),
    "dup_unjudged": ("agree.qrels", "agree.run", {}),
    "negative_second": ("negative_second.qrels", "negative_second.run", {}),
}


@pytest.mark.parametrize("case", list(SAME_VALUES))
def test_per_query_values_equal_trec_eval_10s(case):
    qrels, run, options = SAME_VALUES[case]
    assert returncode(case) == 0
    assert_same_values(evaluate(qrels, run, **options), case)


def test_every_accepted_case_is_compared():
    accepted = {case for case in CASES if returncode(case) == 0}
    # evalcore refuses these (test_query_ids_must_be_utf8, test_a_document_twice_...).
    assert accepted - set(SAME_VALUES) == {"not_utf8", "dup_below_M"}


def test_run_comments_blank_lines_and_extra_fields_are_read_alike():
    # agree.run has comments (indented, inside a query, last), blank and whitespace-only
    # lines, CRLF ends and lines of 7 to 12 fields: trec_eval 10 reads it as evalcore does.
    text = (INPUTS / "agree.run").read_bytes()
    assert b"\n#" in text and b"\n   #" in text and b"\n\n" in text and b"\r\n" in text
    assert max(len(line.split()) for line in text.splitlines() if not line.lstrip().startswith(b"#")) > 6
    assert returncode("agree") == 0 and stderr("agree") == b""


def test_score_precision_is_binary64_in_trec_eval_10_too():
    # 1 + 2**-40 and 1.0 tie in float32 (trec_eval 9.x, pytrec_eval: tests/runs/test_runs.py);
    # trec_eval 10 stores scores as double, as evalcore does.
    assert per_query("precision")[b"p"]["recip_rank"] == "1.0000"
    assert evaluate("precision.qrels", "precision.run").mean["RR"] == 1.0


# ---- comments and blank lines trec_eval's qrels reader does not skip ----------------------

QRELS_VARIANTS = {
    "qrels_two_comments": (2, b"trec_eval.get_qrels: Malformed line 7\n"),
    "qrels_blank_line": (2, b"trec_eval.get_qrels: Malformed line 7\n"),
    "qrels_indented_comment": (4, b"trec_eval: result qid '#' not found in qrels\n"),  # read as qid '#'
    "qrels_final_comment": (-11, b""),  # SIGSEGV: reads past its buffer
}


@pytest.mark.parametrize("case", list(QRELS_VARIANTS))
def test_qrels_comments_and_blank_lines_anywhere(case):
    code, first_line = QRELS_VARIANTS[case]
    assert returncode(case) == code and stderr(case).startswith(first_line)
    # evalcore: any number of comments, indented or last, and blank lines: agree.qrels' values.
    result = evaluate(f"{case}.qrels", "agree.run")
    assert result == evaluate("agree.qrels", "agree.run")
    assert_same_values(result, "agree")


def test_line_numbers_are_physical_lines():
    # trec_eval counts data lines only; evalcore counts every line, as an editor does.
    assert stderr("malformed_run").startswith(b"trec_eval.get_results: Malformed line 2\n")
    refused("one.qrels", "malformed.run", 6, "a run line has at least 6 fields: query Q0 document rank score tag, found 5")
    assert stderr("malformed_qrels").startswith(b"trec_eval.get_qrels: Malformed line 2\n")
    refused("malformed.qrels", "agree.run", 4, "a qrels line has 4 fields: query iteration document grade, found 3")


def test_empty_files_are_empty_inputs():
    # trec_eval cannot read a 0-byte qrels or run file (exit 2); a run of only comments and
    # blank lines is a run without topics (then the missing-topic exit 4).
    assert returncode("empty_run") == 2 and stderr("empty_run").startswith(b"trec_eval.get_results: Cannot read")
    assert returncode("empty_qrels") == 2 and stderr("empty_qrels").startswith(b"trec_eval.get_qrels: Cannot read")
    assert returncode("comments_only_run") == 4
    for run in ("empty.run", "comments_only.run"):
        assert evaluate("one.qrels", run).query_ids == []
        zero = evaluate("one.qrels", run, missing="zero")
        assert zero.query_ids == ["q"] and zero.mean["P@5"] == 0.0 and zero.mean["nDCG"] == 0.0
    assert evaluate("empty.qrels", "agree.run").query_ids == []


def test_a_comment_longer_than_max_line_bytes():
    # trec_eval has no line bound; evalcore's (max_line_bytes, 1 MiB by default) holds for
    # comments too.
    assert returncode("long_comment") == 0
    refused("one.qrels", "long_comment.run", 1, "line longer than 1,024 bytes (the max_line_bytes limit)",
            max_line_bytes=1024)


# ---- numbers: scores by atof, grades by atol in trec_eval ---------------------------------


def differing_lines(original: str, as_read: str):
    pairs = zip((INPUTS / original).read_text().splitlines(), (INPUTS / as_read).read_text().splitlines())
    return [(number, a, b) for number, (a, b) in enumerate(pairs, start=1) if a != b]


def test_scores_trec_eval_reads_with_atof_are_refused(tmp_path):
    # trec_eval: 0x10 (16), inf, -INF, abc (0), 1,5 (1), 1e400 (inf), 2.5abc (2.5): its
    # output on scores.run is byte for byte its output on scores_as_read.run.
    assert stdout("scores") == stdout("scores_as_read") and returncode("scores") == 0
    lines = differing_lines("scores.run", "scores_as_read.run")
    tokens = [line.split()[4] for _number, line, _read in lines]
    assert tokens == ["0x10", "inf", "-INF", "abc", "1,5", "1e400", "2.5abc"]
    # evalcore: the first such line is the fault; each of them, and NaN, on its own too.
    refused("scores.qrels", "scores.run", lines[0][0], "the score '0x10' is not a finite number")
    for token in tokens + ["nan", "NaN", "-nan", "infinity", "1e309", "0x1p3", ""]:
        run = tmp_path / "run"
        run.write_text(f"s Q0 plain 1 3 t\ns Q0 odd 2 {token} t\n")
        if token:
            refused("scores.qrels", str(run), 2, f"the score '{token}' is not a finite number")
        else:  # 5 fields
            refused("scores.qrels", str(run), 2, "a run line has at least 6 fields: query Q0 document rank score tag, found 5")


def test_fractional_grades_trec_eval_reads_with_atol():
    # trec_eval: 1.9 -> 1, 5e-1 -> 5, 2.0 -> 2, 0.5 -> 0, 1e1 -> 1 (byte for byte the output
    # of grades_fraction_as_read.qrels). evalcore reads the numbers: 1.9, 0.5, 2, 0.5, 10.
    assert stdout("grades_fraction") == stdout("grades_fraction_as_read") and returncode("grades_fraction") == 0
    tokens = [line.split()[3] for _n, line, _r in differing_lines("grades_fraction.qrels", "grades_fraction_as_read.qrels")]
    assert tokens == ["1.9", "5e-1", "2.0", "0.5", "1e1"]
    result = evaluate("grades_fraction.qrels", "grades.run")
    assert result == evaluate({"g": {"a": 1.9, "b": 0.5, "c": 2.0, "d": 0.5, "e": 10.0, "f": 0.0}}, "grades.run")
    # So the values differ: b (5e-1) is relevant there (grade 5), not here (0.5 < 1).
    assert per_query("grades_fraction")[b"g"]["P_5"] == "0.6000" and result.mean["P@5"] == 0.4
    assert per_query("grades_fraction")[b"g"]["num_rel"] == "4"


def test_grades_that_are_not_numbers_are_refused(tmp_path):
    # trec_eval: abc -> 0, 2abc -> 2, 1_0 -> 1, -1x -> -1, 0x10 -> 0 (and +3 -> 3, which
    # evalcore reads too): its output is that of grades_text_as_read.qrels.
    assert stdout("grades_text") == stdout("grades_text_as_read") and returncode("grades_text") == 0
    lines = differing_lines("grades_text.qrels", "grades_text_as_read.qrels")
    tokens = [line.split()[3] for _n, line, _r in lines]
    assert tokens == ["abc", "2abc", "+3", "1_0", "-1x", "0x10"]
    refused("grades_text.qrels", "grades.run", 1, "the grade 'abc' is not a finite number")
    for token in tokens:
        qrels = tmp_path / "qrels"
        qrels.write_text(f"g 0 z 1\ng 0 a {token}\n")
        if token == "+3":
            assert evaluate(str(qrels), {"g": ["a"]}).mean["P@5"] == 0.2
        else:
            refused(str(qrels), "grades.run", 2, f"the grade '{token}' is not a finite number")


# ---- duplicates, missing topics, run IDs, query IDs -------------------------------------


def test_a_document_twice_is_refused_even_where_trec_eval_never_looks():
    # trec_eval finds a duplicate only when it evaluates that topic: in a run topic without
    # judgments (999) it is accepted; in a judged one, or in the qrels, it is exit 4.
    assert returncode("dup_unjudged") == 0 and stdout("dup_unjudged") == stdout("agree")
    assert returncode("dup_judged") == 4 and stderr("dup_judged").startswith(b"trec_eval.form_res_qrels: duplicate docs LA-3")
    assert returncode("dup_qrels") == 4 and stderr("dup_qrels").startswith(b"trec_eval.form_res_rels: duplicate docs x\n")
    # With -M 1 only each topic's first document is kept, and checked: accepted.
    assert returncode("dup_below_M") == 0 and per_query("dup_below_M")[b"302"]["num_ret"] == "1"
    # evalcore: always an error, at the second listing.
    refused("agree.qrels", "dup_unjudged.run", 20, "query '999' lists document 'FT-1' twice (first on line 18)")
    refused("agree.qrels", "dup_judged.run", 14, "query '302' lists document 'LA-3' twice (first on line 12)")
    refused("dup.qrels", "agree.run", 19, "query 'a7' lists document 'x' twice (first on line 16)")


def test_a_judged_topic_missing_from_the_run():
    # trec_eval 10 without -c: exit 4 at topic 303, after printing 301 and 302 (9.x skipped
    # it); with -c it scores a placeholder ranking (missing_c, compared above with
    # missing="zero"). evalcore's default (missing="skip") is 9.x's: the topics both have.
    assert returncode("missing") == 4 and stderr("missing") == b"trec_eval: result qid '303' not found in qrels\n"
    assert sorted(per_query("missing")) == [b"301", b"302"]
    skip = evaluate("agree.qrels", "missing_303.run")
    assert skip.query_ids == ["301", "302", "a7", "r0"]
    agree = per_query("agree")
    for q, query in enumerate(skip.query_ids):
        for measure, name in TREC_NAMES.items():
            ours = float(skip.values(measure)[q])
            assert math.isnan(ours) or abs(ours - float(agree[query.encode()][name])) <= 0.5e-4
    zero = evaluate("agree.qrels", "missing_303.run", missing="zero")
    assert zero.query_ids == ["301", "302", "a7", "r0", "303"] and zero.values("AP")[-1] == 0.0


def test_the_run_id_is_not_read(tmp_path):
    # trec_eval prints the 6th field of the run's last data line as runid (no consistency
    # check); evalcore ignores the 6th field and any after it.
    last = [line for line in (INPUTS / "agree.run").read_text().splitlines() if line.strip() and line.strip()[0] != "#"][-1]
    assert summary("agree")["runid"] == last.split()[5] == "runC"
    retagged = tmp_path / "run"
    retagged.write_text("".join(" ".join(line.split()[:5] + [f"tag{i}"]) + "\n" if line.strip() and line.strip()[0] != "#"
                                else line + "\n" for i, line in enumerate((INPUTS / "agree.run").read_text().splitlines())))
    assert evaluate("agree.qrels", str(retagged)) == evaluate("agree.qrels", "agree.run")


def test_query_ids_must_be_utf8():
    # trec_eval takes any bytes; evalcore's query IDs are str.
    assert returncode("not_utf8") == 0 and list(per_query("not_utf8")) == [b"q\xff"]
    refused("not_utf8.qrels", "not_utf8.run", 1, "the query ID is not valid UTF-8")
    refused("one.qrels", "not_utf8.run", 1, "the query ID is not valid UTF-8")


def test_a_topic_judged_only_negative():
    # trec_eval: exit 4 when such a topic is the first evaluated (qid order); accepted later
    # (negative_second, compared above). evalcore: a judged query with no relevant document.
    assert returncode("negative_first") == 4 and stderr("negative_first") == b"trec_eval: Can't calculate measure 'num_ret'\n"
    result = evaluate("negative.qrels", "negative.run")
    assert result.query_ids == ["n", "p"]
    assert result.values("P@5").tolist() == [0.0, 0.2] and math.isnan(result.values("AP")[0])


def test_a_run_on_stdin(tmp_path):
    # trec_eval reads stdin for a file name starting with '-'; so does `evalcore trec` for
    # "-" (it copies stdin to a temporary file: the Python API reads regular files only).
    assert returncode("stdin") == 0 and stdout("stdin") == stdout("agree")
    outputs = []
    for stdin_run in (True, False):
        with open(INPUTS / "agree.run", "rb") as given:
            run = "-" if stdin_run else path("agree.run")
            proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", path("agree.qrels"), run, "-m", "P@5"],
                                  cwd=tmp_path, stdin=given, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
