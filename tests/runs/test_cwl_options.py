"""The C/W/L family's policies and options past its first round (issue 25 item 2, cwl2): graded
grades clipped into [min_rel, max_rel] said by a warning and the options (no silent
differences from cwl_eval, which refuses such gains); cwl_eval's options that change numbers
(depth=, max_gain=, cost=, max_cost=, min_cost=) and its dynamic BPM (BPMD), against cwl_eval
itself: its classes on generated inputs and its command line with a cost file."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import expect_result, slow_examples
from evalcore.testing import runs

import evalcore
import evalcore.reference

cwl_metrics = pytest.importorskip("cwl.ruler.cwl_ruler")
ranking_module = pytest.importorskip("cwl.ruler.ranking")
qrel_module = pytest.importorskip("cwl.seeker.trec_qrel_handler")

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples", "cwl")
CLIPPING = ["INST(T=2,max_rel=1)", "NERR8(min_rel=1,max_rel=2)@5", "RBP(p=0.5,rel=2)", "P@5"]


def _ranked(scores):
    """evalcore's order (score, then document ID, descending)."""
    return sorted(scores, key=lambda d: (scores[d], d), reverse=True)


def _clipped(value, low, high):
    """The oracle: per query, the ranked judged documents (first 1000) whose grade is outside
    [max(low, 0), high]."""
    counts = {}
    for query, scores in value["run"].items():
        judged = value["qrels"].get(query, {})
        if not judged:
            continue
        grades = [judged[d] for d in _ranked(scores)[:1000] if d in judged]
        counts[query] = sum(1 for g in grades if g < max(low, 0) or g > high)
    return counts


# 100 examples: the reference twin walks cwl_eval's 1000 ranks in Python for each of the two
# graded measures (up to 25 ms an example): about 1 s in the dev profile, measured.
@slow_examples(100)
@given(value=runs(max_docs=8, ties=False, ranked_lists=False, grades=("integer", "fractional", "negative")))
def test_clipped_grades_are_counted_and_said(value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = expect_result("evaluate_run", value["qrels"], value["run"], CLIPPING)
    assert result.options["cwlGrades"] == "clip"
    assert list(result.measures) == CLIPPING  # the hidden counts are taken out
    said = {}
    for text in result.policy_warnings:
        if "were clipped into it" not in text:  # (run queries without judgments: test_cwl_peer_differences.py)
            continue
        total, low, high = re.match(r"([0-9,]+) judged documents .*? outside \[([^,]+), ([^\]]+)\]", text).groups()
        said[(float(low), float(high))] = int(total.replace(",", ""))
    for low, high in ((0, 1), (1, 2)):
        want = sum(_clipped(value, low, high).values())
        assert said.get((float(max(low, 0)), float(high)), 0) == want
    assert result.warnings[-len(result.policy_warnings) or len(result.warnings):] == result.policy_warnings


def test_the_warning_names_the_count_range_measures_and_queries():
    qrels = {"q1": {"a": 3, "b": 1, "c": 2}, "q2": {"a": 1, "z": 5}, "q3": {"a": -1}}
    run = {"q1": ["a", "b", "c"], "q2": ["a"], "q3": ["a"]}
    with pytest.warns(evalcore.EvaluationWarning) as caught:
        result = evalcore.evaluate_run(qrels, run, ["INST(T=2,max_rel=1)", "INSQ(max_rel=1)", "P@1"])
    expected = ("3 judged documents ranked in the first 1,000 of 2 queries have grades outside [0, 1] and were "
                "clipped into it for INST(T=2,max_rel=1), INSQ(max_rel=1) (options['cwlGrades'] == 'clip', as "
                "ir_measures' cwl_eval provider does; cwl_eval itself refuses gains outside [--min_gain, "
                "--max_gain]): 'q1', 'q3'; raise max_rel or max_gain (or lower min_rel) to score those grades as they "
                "are")
    assert result.warnings == result.policy_warnings == [expected]
    assert [str(w.message) for w in caught] == [expected]
    assert result.to_dict()["options"]["cwlGrades"] == "clip" and result.to_dict()["warnings"] == [expected]
    # (z, unranked, is not counted: only the grades the measures read)


@pytest.mark.parametrize("measures", [["P@5", "nDCG"], ["RBP(p=0.8,rel=1)"], ["INST(T=2,max_rel=3)"]])
def test_no_warning_when_nothing_is_clipped(measures):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = expect_result("evaluate_run", {"q": {"a": 3, "b": 0}}, {"q": ["a", "b"]}, measures)
    assert result.warnings == []
    graded = any("max_rel" in m for m in measures)
    assert ("cwlGrades" in result.options) == graded  # said whenever a graded C/W/L measure is asked for


def test_clipping_survives_text_measures_and_missing_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = expect_result("evaluate_run", {"q": {"a": 4}, "r": {"a": 9}}, {"q": ["a"]},
                               ["relstring", "INST(T=2,max_rel=2)"], missing="zero")
    assert result.texts["relstring"] == {"q": "4", "r": ""}
    assert len(result.policy_warnings) == 1 and "1 judged documents" in result.policy_warnings[0]
    assert math.isfinite(result.mean["INST(T=2,max_rel=2)"])


# ---- cwl_eval's options that change numbers (cwl2 items 2-4) ---------------------------------

# Between the sums' orders (numpy's pairwise sums and BLAS's dot against evalcore's sums in rank
# order), as in test_cwl_measures.py: 1e-12 relative.
CLOSE = {"rel_tol": 1e-12, "abs_tol": 1e-12}
FIGURES = ("EU", "ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResEC", "ResETC", "ResED")
# (evalcore's base name and parameters, cwl_eval's metric, cutoff, max_gain when raw: INST and
# NERR refuse gains above 1)
METRICS = [
    ("RBP(p=0.7", lambda: cwl_metrics.RBPCWLMetric(0.7), "", 2),
    ("INST(T=2", lambda: cwl_metrics.INSTCWLMetric(2.0), "", 0.5),
    ("BPM(T=1.5", lambda: cwl_metrics.BPMCWLMetric(1.5, 4), "@4", 2),
    ("BPMD(T=1,hb=0.5,hc=2,gain_med=0.25", lambda: cwl_metrics.BPMDCWLMetric(1.0, 5, 0.5, 2.0, 0.25), "@5", 2),
    ("BPMD(T=2", lambda: cwl_metrics.BPMDCWLMetric(2.0, 3), "@3", 2),
    ("NERR10(p=0.6", lambda: cwl_metrics.NERReq10CWLMetric(0.6), "", 0.5),
    ("SDCG(", lambda: cwl_metrics.NDCGCWLMetric(3), "@3", 2),
]


def _cwl_eval(make, qrels, ranked, query, raw, cost, max_cost, min_cost, depth):
    """cwl_eval's ten figures for one query: gains raw (as its gain files: clipped to [0, raw]
    here, which it would ask of the file) or scaled by 2 (ir_measures' max_rel=2), every
    ranked item of element type Q0 with cost `cost` (a cost file's line; None: no file)."""
    handler = qrel_module.TrecQrelHandler()
    for doc, grade in qrels.get(query, {}).items():
        handler.put_value(query, doc, min(max(grade, 0), raw) if raw else min(max(grade, 0), 2) / 2)
    maker = ranking_module.RankingMaker(query, handler, None if cost is None else {"Q0": cost},
                                        max_gain=float(raw) if raw else 1.0, max_cost=max_cost, min_cost=min_cost,
                                        max_n=depth)
    for doc in ranked:
        maker.add(doc, "Q0")
    metric = make()
    metric.residuals = True
    metric.measure(maker.get_ranking())
    return [metric.expected_utility, metric.expected_total_utility, metric.expected_cost, metric.expected_total_cost,
            metric.expected_items, metric.residual_expected_utility, metric.residual_expected_total_utility,
            metric.residual_expected_cost, metric.residual_expected_total_cost, metric.residual_expected_items]


def _name(base, cutoff, raw, cost, max_cost, min_cost, depth):
    params = [base[base.index("(") + 1:]] if not base.endswith("(") else []
    params.append(f"max_gain={raw}" if raw else "max_rel=2")
    if cost is not None:
        params.append(f"cost={cost}")
    params += [f"max_cost={max_cost}", f"min_cost={min_cost}", f"depth={depth}"]
    return f"{base[:base.index('(')]}({','.join(p for p in params if p)}){cutoff}"


# 60 examples: cwl_eval scores 7 metrics twice each over up to 1000 ranks with numpy (up to
# 40 ms an example): about 1.2 s in the dev profile, measured; the CI profile's 300 about 6 s.
@slow_examples(60)
@given(value=runs(max_docs=12, max_queries=2, ties=False, empty=False, ranked_lists=False),
       raw=st.booleans(), cost=st.sampled_from([None, 0.5, 2.0]), max_cost=st.sampled_from([1.0, 3.0]),
       min_cost=st.sampled_from([1.0, 0.25]), depth=st.sampled_from([1, 4, 30, 1000]))
def test_options_agree_with_cwl_eval(value, raw, cost, max_cost, min_cost, depth):
    names = {_name(base, cutoff, raw and top, cost, max_cost, min_cost, depth): (make, raw and top)
             for base, make, cutoff, top in METRICS}
    asked = [n if f == "EU" else f"{n}.{f}" for n in names for f in FIGURES]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (grades past 2 are clipped, and said: tested above)
        result = evalcore.evaluate_run(value["qrels"], value["run"], asked)
    for i, query in enumerate(result.query_ids):
        ranked = _ranked(value["run"][query])
        for name, (make, top) in names.items():
            expected = _cwl_eval(make, value["qrels"], ranked, query, top, cost, max_cost, min_cost, depth)
            for figure, want in zip(FIGURES, expected):
                got = float(result.values(name if figure == "EU" else f"{name}.{figure}")[i])
                assert math.isclose(got, want, **CLOSE), (query, name, figure, got, want)


OPTION_NAMES = ["BPMD(T=1.5,hb=0.5,gain_med=0.3,max_rel=3)@4", "BPMD(T=1,max_gain=2,cost=2,depth=20)@6.ETC",
                "INST(T=2,max_gain=0.75,depth=7).ResEU", "RBP(p=0.5,rel=1,cost=0.5,max_cost=2,min_cost=0.5).EC",
                "SDCG(max_rel=2,depth=3)@5.ResETC", "NERR11(T=2,max_gain=1,min_cost=0.25).ResETC"]


# 100 examples: the twin walks up to 1000 ranks in Python per measure (about 10 ms an example:
# 1 s in the dev profile, measured).
@slow_examples(100)
@given(value=runs(max_docs=10), max_retrieved=st.sampled_from([None, 3]), judged_only=st.booleans())
def test_both_cores_agree_on_the_options(value, max_retrieved, judged_only):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = expect_result("evaluate_run", value["qrels"], value["run"], OPTION_NAMES,
                               max_retrieved=max_retrieved, judged_only=judged_only)
    for name in result.measures:
        assert not any(math.isnan(v) for v in result.values(name)), name


def test_cwl_eval_command_with_a_cost_file_and_its_options(tmp_path):
    """cwl_eval's command line with a cost file (Q0, the example run's one element type, costs
    2.5), --max_cost, --min_cost and --max_depth on examples/cwl/, against evalcore with the
    same file (costs=) and with cost=2.5 in the names; it prints 4 decimals, hence 5e-5.
    (--max_gain above 1 makes its default INST refuse every query's residuals: max_gain=2 is
    compared with its classes above.)"""
    gains, run = (os.path.abspath(os.path.join(EXAMPLES, f)) for f in ("gains.qrels", "run.txt"))
    (tmp_path / "costs.txt").write_text("Q0 2.5\nother 9\n")
    command = [sys.executable, "-m", "cwl.cwl_eval", gains, run, "-r", "-c", str(tmp_path / "costs.txt"),
               "--max_cost", "3", "--min_cost", "0.5", "--max_depth", "40", "--max_gain", "1"]
    out = subprocess.run(command, cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    options = "max_gain=1,max_cost=3,min_cost=0.5,depth=40"
    names = {"RBP@0.8": f"RBP(p=0.8,{options})", "NDCG-k@10": f"SDCG({options})@10", "INST-T=2.0": f"INST(T=2,{options})"}
    asked = [n if f == "EU" else f"{n}.{f}" for n in names.values() for f in FIGURES]
    result = evalcore.evaluate_run(gains, run, asked, costs=tmp_path / "costs.txt")
    assert result.options["cwlCosts"] == {"elementType": "Q0", "cost": 2.5}
    named = evalcore.evaluate_run(gains, run, [a.replace("max_cost", "cost=2.5,max_cost") for a in asked])
    assert named.to_dict()["queries"] == [{"id": q["id"], "values": {k.replace("max_cost", "cost=2.5,max_cost"): v
                                                                     for k, v in q["values"].items()}}
                                          for q in result.to_dict()["queries"]]
    compared = 0
    for line in out.splitlines():
        topic, metric, *printed = line.split("\t")
        if metric in names:
            i = list(result.query_ids).index(topic)
            for figure, text in zip(FIGURES, printed):
                name = names[metric] if figure == "EU" else f"{names[metric]}.{figure}"
                assert abs(float(result.values(name)[i]) - float(text)) <= 5e-5 + 1e-9, (topic, metric, figure, text)
                compared += 1
    assert compared == 3 * len(names) * 10


def test_costs_in_both_cores(tmp_path):
    """costs= as a dict and as a file, in both cores; a type the costs lack leaves max_cost."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 a 1\nq 0 b 3\nr 0 a 2\n")
    run.write_text("q Q0 a 1 3 x\nq Q0 b 2 2 x\nq Q0 c 3 1 x\n# a comment\nr Q0 a 1 1 x\n")
    names = ["BPM(T=9,max_rel=3)@5.ETC", "INST(T=2,max_rel=3).EC", "INST(T=2,max_rel=3,cost=4).EC", "P@2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        priced = expect_result("evaluate_run", str(qrels), str(run), names, costs={"Q0": 2, "X": 7})
        unpriced = expect_result("evaluate_run", str(qrels), str(run), names, costs={"X": 7})
        plain = expect_result("evaluate_run", str(qrels), str(run), names)
    assert priced.options["cwlCosts"] == {"elementType": "Q0", "cost": 2.0}
    assert unpriced.options["cwlCosts"] == {"elementType": "Q0", "cost": None} and "cwlCosts" not in plain.options
    assert unpriced.to_dict()["queries"] == plain.to_dict()["queries"]
    ec = priced.values("INST(T=2,max_rel=3).EC")
    assert 1 < ec[0] < 2 and priced.values("INST(T=2,max_rel=3,cost=4).EC")[0] > ec[0]  # its own cost stays
    assert priced.values("P@2").tolist() == plain.values("P@2").tolist()


@pytest.mark.parametrize("costs, run_text, message", [
    ({"Q0": 0}, "q Q0 a 1 1 x\n", "a cost must be a finite number > 0"),
    ({"Q0": "2"}, "q Q0 a 1 1 x\n", "must be a number > 0"),
    ({"Q0": 1}, "q Q0 a 1 1 x\nq D a2 2 0 x\n", "run:2: element type 'D' after 'Q0'"),
    ("file", "q Q0 a 1 1 x\n", "costs:2: a line is 'element_type cost'"),
])
def test_refused_costs(tmp_path, costs, run_text, message):
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_text(run_text)
    (tmp_path / "costs").write_text("Q0 1\nQ0 1 2\n")
    costs = str(tmp_path / "costs") if costs == "file" else costs
    for evaluate in (evalcore.evaluate_run, evalcore.reference.evaluate_run):
        with pytest.raises(ValueError, match=re.escape(message)):
            evaluate(str(tmp_path / "qrels"), str(tmp_path / "run"), ["INST(max_rel=1)"], costs=costs)


def test_costs_need_a_run_file():
    with pytest.raises(ValueError, match="give the run as a file path"):
        evalcore.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, ["INST(max_rel=1)"], costs={"Q0": 2})


def test_dynamic_bpm_by_hand():
    """Grades 1, 0, 0 (max_rel=1), hb=1, gain_med=0.5. T=1: rank 1's cumulative gain 1 is not
    under T: the user stops there. T=1.5: under it at rank 1, T moves to 2; at rank 2 (1 < 2) to
    1.5; at rank 3 (1 < 1.5) to 1; at rank 4 (padding, 1 < 1 fails) the user stops: 4 ranks.
    Static BPM(T=1.5) never reaches 1.5 and stops at K=10."""
    qrels, run = {"q": {"a": 1, "b": 0, "c": 0}}, {"q": ["a", "b", "c"]}
    result = expect_result("evaluate_run", qrels, run, ["BPMD(T=1,max_rel=1)@10.ED", "BPMD(T=1.5,max_rel=1)@10.ED",
                                                        "BPM(T=1.5,max_rel=1)@10.ED", "BPMD(T=1.5,hc=7,max_rel=1)@10.ED"])
    values = [float(result.values(m)[0]) for m in result.measures]
    assert values == [1.0, 4.0, 10.0, 4.0]  # (hc moves nothing: cwl_eval's loop adds it to T after T is read)


@pytest.mark.parametrize("name, message", [
    ("INST(T=2,max_rel=1,depth=0)", "from 1 to 1,000,000"), ("INST(T=2,max_rel=1,depth=2.5)", "an integer"),
    ("INST(max_rel=1,cost=0)", "cost must be > 0"), ("INST(max_gain=2,max_rel=2)", "not both"),
    ("INST(max_gain=0)", "max_gain must be > 0"), ("NERR10(max_gain=2)", "at most 1"),
    ("BPMD(max_rel=1,hb='x')@5", "hb must be a finite number"), ("RBP(p=0.5,depth=10)", "needs max_rel"),
    ("BPMD(max_rel=1)", "needs a cutoff"), ("INST(max_rel=1,hb=1)", "no parameter hb"),
])
def test_refused_option_values(name, message):
    with pytest.raises(ValueError, match=message):
        evalcore.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, [name])


def test_the_command_line_takes_the_cost_file_and_says_the_clipping(tmp_path, capsys):
    """`evalcore trec --costs FILE` (the evalcore formats) as evaluate_run(costs=FILE); the
    clipping warning on stderr; --costs in trec_eval format is refused (not trec_eval's)."""
    import json

    from evalcore import cli

    gains, run = (os.path.abspath(os.path.join(EXAMPLES, f)) for f in ("gains.qrels", "run.txt"))
    (tmp_path / "costs.txt").write_text("Q0 2.5\n")
    names = ["INST(T=2,max_rel=0.5).EC", "BPM(T=1,max_rel=1)@4.ETC"]
    argv = ["trec", gains, run, "--format", "json", "-q", "--costs", str(tmp_path / "costs.txt"), "--quiet"]
    assert cli.main([*argv, *(a for n in names for a in ("-m", n))]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = evalcore.evaluate_run(gains, run, names, costs=str(tmp_path / "costs.txt"))
    assert printed["options"]["cwlCosts"] == {"elementType": "Q0", "cost": 2.5}
    assert printed["options"]["cwlGrades"] == "clip"
    assert printed["queries"] == expected.to_dict()["queries"]
    assert "clipped into it for INST(T=2,max_rel=0.5)" in captured.err
    with pytest.raises(SystemExit):
        cli.main(["trec", gains, run, "-m", "map", "--costs", str(tmp_path / "costs.txt")])
    assert "--costs" in capsys.readouterr().err


@pytest.mark.parametrize("depth", [math.nan, 0.0, -3.0, 1e300, 2e6])
def test_a_depth_out_of_range_is_undefined_in_both_cores(depth):
    """A MeasureSpec made by hand (the names refuse these depths) reaches each core's guard: NaN,
    never a conversion of NaN or 1e300 to an integer (undefined behaviour in C++)."""
    from evalcore.runs.measures import KIND, MeasureSpec

    spec = MeasureSpec("hand", KIND["CwlINST"], 0, parameter=1.0,
                       parameters=(0.0, 0.0, 1.0, 0.0, depth, 0.0, math.nan, 1.0, 1.0, 0.0, 0.0, 0.0))
    result = expect_result("evaluate_run", {"q": {"a": 1}}, {"q": ["a"]}, [spec])
    assert math.isnan(result.values("hand")[0])
