"""Issue 25 item 2 (h25-gaps): two of cwl_eval's documented differences (docs/measures.md, "Where cwl_eval
differs, deliberately"), shown on both sides by running cwl_eval's command line itself on run files made
from examples/cwl/, and the warnings evalcore gives for them (no silent differences):

- a query whose lines are split over two stretches of the run file: cwl_eval scores each stretch as a
  query (two lines of figures for it), evalcore scores the query once, as on the sorted file;
- a run query without judgments: cwl_eval scores it (every gain 0), evalcore leaves it out, as for every
  measure; judging one of its documents 0 makes evalcore score it as cwl_eval does.

cwl_eval prints 4 decimals: a printed figure is within 5e-5 of its double, and evalcore's within 1e-12
of that (tests/runs/test_cwl_measures.py), hence the tolerance."""

from __future__ import annotations

import gzip
import math
import os
import subprocess
import sys
import warnings

import itertools
import tempfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import expect_result
from evalcore.runs import cwl_run_queries

pytest.importorskip("cwl.cwl_eval")

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples", "cwl")
GAINS = os.path.abspath(os.path.join(EXAMPLES, "gains.qrels"))
RUN = os.path.abspath(os.path.join(EXAMPLES, "run.txt"))
# cwl_eval's printed metric → evalcore's name (gains in [0, 1], read as they are: max_rel=1).
METRICS = {"INST-T=2.0": "INST(T=2,max_rel=1)", "RBP@0.8": "RBP(p=0.8,max_rel=1)", "NDCG-k@10": "SDCG(max_rel=1)@10"}
FIGURES = ("", ".ETU", ".EC", ".ETC", ".ED")  # cwl_eval's columns EU ETU EC ETC ED
NAMES = [m + f for m in METRICS.values() for f in FIGURES]


def _lines():
    with open(RUN, encoding="utf-8") as f:
        return f.read().splitlines(keepends=True)


def _cwl_eval(gains, run, cwd):
    """cwl_eval's printed lines: (topic, metric) → the list of its figure rows, in printed order."""
    out = subprocess.run([sys.executable, "-m", "cwl.cwl_eval", gains, run], cwd=cwd, check=True,
                         capture_output=True, text=True).stdout  # (cwd: it writes cwl.log there)
    rows = {}
    for line in out.splitlines():
        topic, metric, *figures = line.split("\t")
        if metric in METRICS:
            rows.setdefault((topic, metric), []).append([float(x) for x in figures])
    return rows


def _assert_close(result, query, printed):
    """evalcore's figures of `query` against cwl_eval's printed row of each metric."""
    i = list(result.query_ids).index(query)
    for metric, name in METRICS.items():
        for figure, want in zip(FIGURES, printed[(query, metric)]):
            got = float(result.values(name + figure)[i])
            assert abs(got - want) <= 5e-5 + 1e-9, (query, name + figure, got, want)


def test_a_query_split_over_two_stretches(tmp_path):
    lines = _lines()
    q301 = [line for line in lines if line.startswith("301 ")]
    others = [line for line in lines if not line.startswith("301 ")]
    q302 = [line for line in others if line.startswith("302 ")]
    q303 = [line for line in others if line.startswith("303 ")]
    split = tmp_path / "split.txt"
    split.write_text("".join(q301[:10] + q302 + q301[10:] + q303), encoding="utf-8")
    stretches = []
    for i, part in enumerate((q301[:10], q301[10:])):
        stretches.append(tmp_path / f"stretch{i}.txt")
        stretches[-1].write_text("".join(part), encoding="utf-8")

    # cwl_eval: two rows for 301, one per stretch, each the figures of that stretch alone.
    theirs = _cwl_eval(GAINS, str(split), tmp_path)
    assert all(len(theirs[("301", m)]) == 2 and len(theirs[("302", m)]) == 1 for m in METRICS)
    for i, stretch in enumerate(stretches):
        alone = expect_result("evaluate_run", GAINS, str(stretch), NAMES)
        _assert_close(alone, "301", {k: rows[i] for k, rows in theirs.items() if k[0] == "301"})
    assert theirs[("301", "INST-T=2.0")][0] != theirs[("301", "INST-T=2.0")][1]

    # evalcore: 301 once, as on the sorted file (which cwl_eval scores the same), and a warning.
    ours = expect_result("evaluate_run", GAINS, str(split), NAMES)
    sorted_file = expect_result("evaluate_run", GAINS, RUN, NAMES)
    assert ours.query_ids == ["301", "302", "303"] and ours == sorted_file
    _assert_close(ours, "301", {k: rows[0] for k, rows in _cwl_eval(GAINS, RUN, tmp_path).items()})
    assert ours.warnings == [
        "1 queries have their lines in more than one stretch of the run file, and were scored once each by "
        "INST(T=2,max_rel=1), INST(T=2,max_rel=1).ETU, INST(T=2,max_rel=1).EC and 12 more (evalcore groups a "
        "query's lines wherever they are; cwl_eval scores each stretch as a query of its own): '301'; sort the "
        "run file by query to have one score per query in both"]
    assert sorted_file.warnings == []


def test_a_run_query_without_judgments(tmp_path):
    extra = tmp_path / "extra.txt"
    extra.write_text("".join(_lines()) + "999 Q0 zz 1 1.0 r\n", encoding="utf-8")

    # cwl_eval scores 999 (every gain 0: no utility, the costs and depth of an empty ranking).
    theirs = _cwl_eval(GAINS, str(extra), tmp_path)
    assert all(len(theirs[("999", m)]) == 1 and theirs[("999", m)][0][:2] == [0.0, 0.0] for m in METRICS)

    # evalcore leaves it out, says so, and scores it as cwl_eval does once one document is judged 0.
    ours = expect_result("evaluate_run", GAINS, str(extra), NAMES)
    assert ours.query_ids == ["301", "302", "303"] and ours == expect_result("evaluate_run", GAINS, RUN, NAMES)
    assert ours.warnings == [
        "1 of the 4 run queries have no judgments and were not scored by INST(T=2,max_rel=1), "
        "INST(T=2,max_rel=1).ETU, INST(T=2,max_rel=1).EC and 12 more (evalcore scores judged queries only, for "
        "every measure; cwl_eval scores them with every gain 0 and prints their figures): '999'; judge one "
        "document of each (grade 0) to score them as cwl_eval does"]
    with pytest.warns(evalcore.EvaluationWarning, match="1 of the 4 run queries have no judgments"):
        evalcore.evaluate_run(GAINS, str(extra), NAMES)
    judged = tmp_path / "judged.qrels"
    with open(GAINS, encoding="utf-8") as f:
        judged.write_text(f.read() + "999 0 zz 0\n", encoding="utf-8")
    scored = expect_result("evaluate_run", str(judged), str(extra), NAMES)
    assert scored.query_ids == ["301", "302", "303", "999"] and scored.warnings == []
    _assert_close(scored, "999", {k: rows[0] for k, rows in theirs.items()})


def test_the_warnings_from_dicts_and_compressed_files(tmp_path):
    qrels = {"q": {"a": 1}, "r": {}, "s": {"b": 0}}  # r: judged with nothing, as good as unjudged
    run = {"q": ["a", "x"], "r": ["a"], "u": ["y"], "s": ["b"], "v": []}  # v: nothing ranked, nothing to score
    result = expect_result("evaluate_run", qrels, run, ["RBP(p=0.5,rel=1)", "P@5"])
    assert result.query_ids == ["q", "s"] and result.warnings == [
        "2 of the 4 run queries have no judgments and were not scored by RBP(p=0.5,rel=1) (evalcore scores judged "
        "queries only, for every measure; cwl_eval scores them with every gain 0 and prints their figures): "
        "'r', 'u'; judge one document of each (grade 0) to score them as cwl_eval does"]
    assert expect_result("evaluate_run", qrels, run, ["P@5", "rbp.p=0.5"]).warnings == []  # no C/W/L measure
    text = "".join(f"{q} Q0 {d} {i} {9 - i} t\n" for q, d, i in [("b", "a", 1), ("b", "z", 2), ("a", "x", 1),
                                                                  ("c", "a", 1), ("a", "y", 2)])
    for name, opener in (("run.txt", open), ("run.txt.gz", gzip.open)):
        with opener(tmp_path / name, "wt", encoding="utf-8") as f:
            f.write(text)
        with warnings.catch_warnings(record=True):
            got = expect_result("evaluate_run", {"a": {"x": 1}, "b": {"z": 0}}, str(tmp_path / name),
                                ["INSQ(max_rel=1)"])
        assert [w.split(":")[0] for w in got.warnings] == [
            "1 of the 3 run queries have no judgments and were not scored by INSQ(max_rel=1) (evalcore scores "
            "judged queries only, for every measure; cwl_eval scores them with every gain 0 and prints their figures)",
            "1 queries have their lines in more than one stretch of the run file, and were scored once each by "
            "INSQ(max_rel=1) (evalcore groups a query's lines wherever they are; cwl_eval scores each stretch as a "
            "query of its own)"]
        assert "'c'; judge" in got.warnings[0] and "'a'; sort" in got.warnings[1]
        assert not any(math.isnan(v) for v in got.values("INSQ(max_rel=1)"))


@given(lines=st.lists(st.tuples(st.sampled_from(["q", "q1", "1", "#c", ""]), st.sampled_from([" ", "\t", "  "]),
                                st.sampled_from(["", " ", "\t"])), max_size=30),
       chunk=st.integers(1, 40), last_newline=st.booleans())
def test_the_scan_finds_every_stretch(lines, chunk, last_newline):
    # The run file's scan (one match per stretch, read in chunks) against a line-by-line reading:
    # IDs that prefix others, tabs, indented and blank lines, comments, chunks cutting lines and
    # stretches anywhere, a last line without its newline.
    text = "\n".join(f"{lead}{q}{sep}Q0 d 1 1.0 r" if q else lead for q, sep, lead in lines)
    text += "\n" if last_newline and text else ""
    want = [k for k, _ in itertools.groupby(
        line.split()[0] for line in text.splitlines() if line.strip() and not line.split()[0].startswith("#"))]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        size, cwl_run_queries._CHUNK_BYTES = cwl_run_queries._CHUNK_BYTES, chunk
        try:
            assert cwl_run_queries.run_stretches(path) == want
        finally:
            cwl_run_queries._CHUNK_BYTES = size


@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_the_unjudged_warning_from_tables(kind):
    # A DataFrame or an Arrow Table is read again for its distinct query IDs (strings, or integers as
    # their decimal text, as the cores read them); named columns are taken from query_col.
    pd = pytest.importorskip("pandas")
    rows = {"qid": [7, 7, 8, 9, 9], "doc_id": ["a", "x", "a", "b", "c"], "score": [2.0, 1.0, 1.0, 2.0, 1.0]}
    frame = pd.DataFrame(rows)
    table = frame if kind == "pandas" else pytest.importorskip("pyarrow").Table.from_pandas(frame)
    qrels = {"7": {"a": 1}, "9": {"c": 0}}
    with warnings.catch_warnings(record=True):
        got = expect_result("evaluate_run", qrels, table, ["NERR8(max_rel=1)@5", "P@1"], query_col="qid")
    assert got.query_ids == ["7", "9"] and got.warnings == [
        "1 of the 3 run queries have no judgments and were not scored by NERR8(max_rel=1)@5 (evalcore scores judged "
        "queries only, for every measure; cwl_eval scores them with every gain 0 and prints their figures): '8'; "
        "judge one document of each (grade 0) to score them as cwl_eval does"]
    judged = dict(qrels, **{"8": {"z": 0}})
    assert expect_result("evaluate_run", judged, table, ["NERR8(max_rel=1)@5"], query_col="qid").warnings == []


def test_the_command_line_says_both(tmp_path, capsys):
    """`evalcore trec` with a C/W/L measure on a run file holding a split query and a query without
    judgments: both warnings on stderr, the values evaluate_run's."""
    import json

    from evalcore import cli

    lines = _lines()
    run = tmp_path / "run.txt"
    run.write_text("".join(lines[:5] + ["999 Q0 zz 1 1.0 r\n"] + lines[5:]), encoding="utf-8")  # 301 split by 999
    assert cli.main(["trec", GAINS, str(run), "--format", "json", "-m", "INST(T=2,max_rel=1)", "--quiet"]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = evalcore.evaluate_run(GAINS, RUN, ["INST(T=2,max_rel=1)"])
    assert printed["mean"] == expected.to_dict()["mean"]
    errors = [line for line in captured.err.splitlines() if line.startswith("evalcore trec: warning: ")]
    assert [e.split(": ")[2].split(" (")[0] for e in errors] == [
        "1 of the 4 run queries have no judgments and were not scored by INST(T=2,max_rel=1)",
        "1 queries have their lines in more than one stretch of the run file, and were scored once each by "
        "INST(T=2,max_rel=1)"]
    assert "'999'; judge" in errors[0] and "'301'; sort" in errors[1]
