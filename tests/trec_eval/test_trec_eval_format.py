"""The trec_eval layer (evalcore.trec_eval.output_format) on its own: C's number parsing, -m's
marking rules, the run tag, and, on random inputs, its per-topic lines against
pytrec_eval (trec_eval 9.0.8 inside: its values equal trec_eval 10's for every measure
compared here, iprec_at_recall and 11pt_avg excepted, whose rounding changed)."""

from __future__ import annotations

import io
import math
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.trec_eval import command as trec_cli
from evalcore.trec_eval import output_format as te


@pytest.mark.parametrize("text, value", [("5", 5), ("  +7x", 7), ("23.4", 23), ("-3", -3), ("abc", 0), ("", 0),
                                         ("1e3", 1), ("99999999999999999999", (1 << 63) - 1)])
def test_atol(text, value):
    assert te.c_atol(text) == value


@pytest.mark.parametrize("text, value", [(".25", 0.25), ("0.333x", 0.333), ("1e-1", 0.1), ("abc", 0.0),
                                         ("0x10", 16.0), ("-2", -2.0), (" 5", 5.0)])
def test_atof(text, value):
    assert te.c_atof(text) == value
    assert math.isinf(te.c_atof("inf")) and math.isnan(te.c_atof("nan"))


def names(arguments):
    return [column.name for column in te.plan(arguments).columns]


def test_marking_follows_trec_eval():
    assert names(["P.5", "P.10"]) == ["P_5"]  # only the first NAME.PARAMS of a measure counts
    assert names(["P", "P.3"]) == names(["P.3", "P"]) == ["P_3"]
    assert names(["P.10,5", "map"]) == ["map", "P_5", "P_10"]  # table order, cutoffs ascending
    assert names(["P.23.4"]) == ["P_23"] and names(["map.5"]) == ["map"]  # atol; parameters a measure ignores
    assert names(["official", "P.5"])[-1] == "P_5" and names(["official"])[:2] == ["runid", "num_q"]
    assert names(["iprec_at_recall..10,.25"]) == ["iprec_at_recall_0.10", "iprec_at_recall_0.25"]
    assert names(["set_F.0.5,2", "utility.2,-1,0,0"]) == ["utility_2,-1,0,0", "set_F_0.5,2"]
    assert names([]) == names(["official"])
    every = names(["all_trec"])
    assert "relstring" in every and "infAP" in every and "gm_bpref" in every and every.index("ndcg") < every.index("ndcg_cut_5")


@pytest.mark.parametrize("arguments, status, text", [
    (["foo"], 1, "trec_eval: illegal measure 'foo'\n"),
    (["foo.5"], 1, "trec_eval: illegal measure 'foo'\n"),
    (["P."], 1, "trec_eval: improper measure in parameter 'P'\ntrec_eval: illegal measure 'P'\n"),
    (["P.0"], 2, "trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure 'P'\n"),
    (["recall.5,05"], 2, "trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure 'recall'\n"),
    (["iprec_at_recall.1,1.0"], 2,
     "trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure 'iprec_at_recall'\n"),
])
def test_refusals_are_trec_evals(arguments, status, text):
    with pytest.raises(te.TrecEvalError) as caught:
        te.plan(arguments)
    assert (caught.value.status, caught.value.stderr_text()) == (status, text)


def test_every_trec_eval_measure_is_supported_and_bad_parameters_are_refused():
    lacking = [m for m in te.TABLE if m not in te.SUPPORTED and m not in te.OTHER_QRELS_FORMAT]
    assert lacking == []  # all_trec leaves no family out
    te.plan(["rbp.2=3"])  # gains for relevance levels, as trec_eval 10 takes them
    for arguments in [["relstring.inf"], ["11pt_avg.0.5,-1"], ["all_trec", "relstring.inf"]]:
        with pytest.raises(te.TrecEvalError) as caught:
            te.plan(arguments)
        assert caught.value.stderr_text().startswith("evalcore trec: ")


@pytest.mark.parametrize("text, tag", [
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n", "last"),
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last", "last"),  # no final newline
    (b"q Q0 a 1 2 first\nq Q0 b 2 1 last\n\n  \t\n", "last"),  # blank lines after it
    (b"q Q0 a 1 2 first\r\nq Q0 b 2 1 last\r\n", "last"),
    (b"", None), (b"\n\n", None),
    (b"q Q0 a 1 2 t\n" + b"q Q0 " + b"x" * 200 + b" 1 1 long\n", "long"),  # a last line longer than a block
])
def test_run_tag_is_the_last_lines(tmp_path, text, tag):
    path = tmp_path / "run"
    path.write_bytes(text)
    assert te.run_tag(str(path), block=16) == tag


def test_topics_in_strcmp_order():
    assert te.topic_order(["a", "B", "10", "9", "é", "07"]) == ["07", "10", "9", "B", "a", "é"]


# ---- per-topic lines against pytrec_eval ----------------------------------------------------

DOCS = [f"d{i}" for i in range(10)] + ["D", "a", "B", "9", "10"]
# Scores float32 holds exactly (pytrec_eval ranks float32 scores), with ties.
SCORES = st.one_of(st.sampled_from([0.0, 1.0, 1.5, 2.0, -3.0]), st.integers(-40, 40).map(lambda i: i / 8))


@st.composite
def trec_inputs(draw):
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "10", "9", "a"]), unique=True, min_size=1, max_size=4))
    qrels, run = {}, {}
    for q in queries:
        judged = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=8))
        grades = {d: draw(st.integers(-2, 3)) for d in judged}
        if all(g < 0 for g in grades.values()):  # trec_eval's all-negative quirk: README
            grades[judged[0]] = 0
        qrels[q] = grades
        if draw(st.integers(0, 4)) > 0:
            run[q] = {d: draw(SCORES) for d in draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=12))}
    if not run:  # trec_eval refuses an empty run
        run[queries[0]] = {DOCS[0]: 1.0}
    return qrels, run


def printed(value: float, integer: bool) -> str:
    return str(int(value)) if integer else f"{value:6.4f}"


@settings(max_examples=120, deadline=None)
@given(value=trec_inputs(), flags=st.sampled_from([[], ["-J"], ["-l", "2"], ["-M", "3"]]))
def test_per_topic_lines_match_pytrec_eval(value, flags):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = value
    if "-M" in flags:  # pytrec_eval has no -M: give it the cut rankings
        run = {q: dict(sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[:3])
               for q, docs in run.items()}
    level = int(flags[1]) if "-l" in flags else 1
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = os.path.join(folder, "qrels"), os.path.join(folder, "run")
        with open(qrels_path, "w", encoding="utf-8") as handle:
            handle.writelines(f"{q} 0 {d} {g}\n" for q, grades in qrels.items() for d, g in grades.items())
        with open(run_path, "w", encoding="utf-8") as handle:
            handle.writelines(f"{q} Q0 {d} 1 {s!r} tag\n" for q, docs in value[1].items() for d, s in docs.items())
        args = trec_cli._parser().parse_args(["-q", "-c", "-m", "all_trec", *flags, qrels_path, run_path])
        out = io.BytesIO()
        assert trec_cli._trec_eval_output(args, out) == 0
    ours = {}
    for text in out.getvalue().decode("utf-8").splitlines():
        name, query, shown = text.split("\t")
        ours[(name.rstrip(), query)] = shown
    measures = {"num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "P", "recall", "utility",
                "ndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P", "set_recall",
                "set_map", "set_F"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level,
                                               judged_docs_only_flag="-J" in flags)
    theirs = evaluator.evaluate({q: docs for q, docs in run.items() if q in qrels})
    assert set(theirs) == {q for q in run if q in qrels}
    integers = {"num_ret", "num_rel", "num_rel_ret"}
    for query, values in theirs.items():
        for key, number in values.items():
            assert ours[(key, query)] == printed(number, key in integers), (query, key, number)
