"""evaluate_run with trec_eval's qrels_jg judgments (qrels_format="qrels_jg"): map_avgjg,
P_avgjg and Rprec_mult_avgjg, native == reference on generated judgment groups and runs,
the reader's faults (file, line, what to do) in both cores, values worked out by hand from
trec_eval's definitions, and the measures and sources each qrels_format refuses."""

from __future__ import annotations

import pathlib

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import differential, expect_result, run_all, trec_files
from evalcore.testing import run_options, trec_lines
from evalcore.testing.judgment_groups import JUDGMENT_GROUP_MEASURES, judgment_groups

RUN = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq1 Q0 d 4 0 t\n"


def evaluate_both(qrels_text, run_text, measures, **options):
    with trec_files(qrels_text, run_text) as (qrels, run):
        return run_all("evaluate_run", qrels, run, measures, qrels_format="qrels_jg", **options)


@differential
@given(judgment_groups(), st.lists(st.sampled_from(JUDGMENT_GROUP_MEASURES), unique=True, min_size=1, max_size=3),
       run_options())
def test_native_equals_reference(value, measures, options):
    options.pop("gain", None)
    outcome = evaluate_both(value["qrels_jg"], trec_lines(value, "run"), measures, **options)
    if outcome[0] == "ok":
        result = outcome[1]
        for name in result.measures:
            values = result.values(name)
            assert all(0.0 <= v <= 1.0 for v in values), (name, values)  # always defined, a mean of shares


def test_values_by_hand():
    # Two groups: g1 judges a and c relevant, g2 judges b relevant and a not. Ranking a b c d.
    qrels = "q1 g2 b 1\nq1 g1 a 1\nq1 g1 c 2\nq1 g2 a 0\n"
    result = evaluate_both(qrels, RUN, ["map_avgjg", "P_avgjg.1,2,10", "Rprec_mult_avgjg.0.5,1,2"])[1]
    row = {m: float(result.values(m)[0]) for m in result.measures}
    ap_g1, ap_g2 = (1 / 1 + 2 / 3) / 2, (1 / 2) / 1
    assert row["map_avgjg"] == (0.0 + ap_g1 + ap_g2) / 2
    assert row["P_avgjg_1"] == (0.0 + 1 / 1 + 0 / 1) / 2
    assert row["P_avgjg_2"] == (0.0 + 1 / 2 + 1 / 2) / 2
    assert row["P_avgjg_10"] == (0.0 + 2 / 10 + 1 / 10) / 2
    # cutoffs (long) (x * R + 0.9): g1 (R = 2) 1, 2, 4; g2 (R = 1) 1, 1, 2
    assert row["Rprec_mult_avgjg_0.50"] == (0.0 + 1 / 1 + 0.0) / 2
    assert row["Rprec_mult_avgjg_1.00"] == (0.0 + 1 / 2 + 0.0) / 2
    assert row["Rprec_mult_avgjg_2.00"] == (0.0 + 2 / 4 + 1 / 2) / 2


def test_one_group_is_map_and_precision():
    # One group: map_avgjg is trec_eval's map (0 without relevant documents), P_avgjg its P.
    qrels = "q1 x a 0\nq1 x b 1\nq1 x z 1\nq2 x a 0\n"
    run = RUN + "q2 Q0 a 1 1 t\n"
    jg = evaluate_both(qrels, run, ["map_avgjg", "P_avgjg.2"])[1]
    with trec_files(qrels.replace(" x ", " 0 "), run) as (plain, run_path):
        ordinary = evalcore.evaluate_run(plain, run_path, ["map", "P.2"], missing="zero")
    assert jg.values("map_avgjg").tolist() == [ordinary.values("map")[0], 0.0]
    assert math.isnan(ordinary.values("map")[1])  # evalcore's AP is undefined there; trec_eval's map_avgjg adds 0
    assert jg.values("P_avgjg_2").tolist() == ordinary.values("P_2").tolist()


def test_missing_queries():
    qrels = "q1 g a 1\nq9 g a 1\n"
    skipped = evaluate_both(qrels, RUN, ["map_avgjg"])[1]
    assert skipped.query_ids == ["q1"] and skipped.missing_query_ids == ["q9"]
    zero = evaluate_both(qrels, RUN, ["map_avgjg"], missing="zero")[1]
    assert zero.query_ids == ["q1", "q9"] and zero.values("map_avgjg").tolist() == [1.0, 0.0]


@pytest.mark.parametrize("text, line, message", [
    ("q1 g a\n", 1, "a qrels_jg line has 4 fields: query judgment_group document grade, found 3"),
    ("q1 g a 1\nq1 g b 1 x\n", 2, "a qrels_jg line has 4 fields: query judgment_group document grade, found more"),
    ("# a comment\n\nq1 g a one\n", 3, "the grade 'one' is not a finite number"),
    ("q1 g a 1\nq1 h a 0\nq1 g a 2\n", 3, "query 'q1' judgment group 'g' lists document 'a' twice (first on line 1)"),
    ("q1 g a 1\nq1 g a 2\nq1 g x\n", 2, "query 'q1' judgment group 'g' lists document 'a' twice (first on line 1)"),
    ("q1 g a 1\nq1 g b\nq1 g a 2\n", 2, "a qrels_jg line has 4 fields: query judgment_group document grade, found 3"),
])
def test_reader_faults(text, line, message):
    with trec_files(text, RUN) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, "map_avgjg", qrels_format="qrels_jg")
        assert outcome[1] == ("RunInputError", f"{qrels}:{line}: {message}", qrels, line)


def test_reader_faults_bytes_and_long_lines():
    with trec_files("x", RUN) as (qrels, run):
        with open(qrels, "wb") as handle:
            handle.write(b"q1 g a 1\n\xff g a 1\n")
        outcome = run_all("evaluate_run", qrels, run, "map_avgjg", qrels_format="qrels_jg")
        assert outcome[1][1] == f"{qrels}:2: the query ID is not valid UTF-8"
        with open(qrels, "w") as handle:
            handle.write("q1 g a 1\nq1 g " + "b" * 100 + " 1\n")
        outcome = run_all("evaluate_run", qrels, run, "map_avgjg", qrels_format="qrels_jg", max_line_bytes=50)
        assert outcome[1][1] == f"{qrels}:2: line longer than 50 bytes (the max_line_bytes limit)"
        outcome = run_all("evaluate_run", qrels + ".absent", run, "map_avgjg", qrels_format="qrels_jg")
        assert outcome[1][0] == "FileNotFoundError" and outcome[1][3] == qrels + ".absent"


def test_run_faults_name_the_run():
    with trec_files("q1 g a 1\n", "q1 Q0 a 1\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, "map_avgjg", qrels_format="qrels_jg")
        assert outcome[1][1].startswith(f"{run}:1: a run line has at least 6 fields")


@pytest.mark.parametrize("module", [evalcore, evalcore.reference])
def test_formats_and_measures_refused(module):
    with trec_files("q1 g a 1\n", RUN) as (qrels, run):
        with pytest.raises(ValueError, match="needs qrels_jg judgments.*qrels_format='qrels_jg'"):
            module.evaluate_run(qrels, run, ["map", "map_avgjg"])
        with pytest.raises(ValueError, match="'map' does not read qrels_jg judgments"):
            module.evaluate_run(qrels, run, ["map_avgjg", "map"], qrels_format="qrels_jg")
        with pytest.raises(ValueError, match="'map_avgjg' averages over judgment groups.*qrels_format='qrels_jg'"):
            module.evaluate_run(qrels, run, "map_avgjg", qrels_format="prefs")
        with pytest.raises(ValueError, match="qrels_format must be one of 'qrels', 'qrels_jg', 'prefs', 'qrels_prefs'"):
            module.evaluate_run(qrels, run, "map", qrels_format="jg")
        with pytest.raises(TypeError, match="qrels must be the path of a TREC file.*write it to a file first"):
            module.evaluate_run({"q1": {"a": 1}}, run, "map_avgjg", qrels_format="qrels_jg")
        with pytest.raises(TypeError, match="run must be the path of a TREC file"):
            module.evaluate_run(qrels, {"q1": {"a": 1.0}}, "map_avgjg", qrels_format="qrels_jg")
    with pytest.raises(ValueError, match="unknown measure 'PAvgJG@5'"):
        module.evaluate_run({"q1": {"a": 1}}, {"q1": ["a"]}, "PAvgJG@5")


def test_names():
    examples = pathlib.Path(__file__).resolve().parents[2] / "examples" / "trec"  # CI runs from outside the checkout
    result = expect_result("evaluate_run", str(examples / "qrels.txt"), str(examples / "run.txt"), "map", missing="zero")
    assert list(result.measures) == ["map"]  # ordinary qrels are read as before
    specs = evalcore.runs.measures.parse_measures("qrels_jg")
    assert [s.name for s in specs][:2] == ["map_avgjg", "P_avgjg_5"]
    assert [s.name for s in specs][-1] == "Rprec_mult_avgjg_2.00" and len(specs) == 1 + 9 + 10
