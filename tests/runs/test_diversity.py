"""evaluate_run with subtopic judgments (qrels_format="subtopics"): ndeval's diversity
measures equal pyndeval's per query and in the mean on generated inputs and on the shipped
example, native == reference (dicts and files), the names of ir_measures and pyndeval, the
deliberate differences (cutoffs past 20, refusals), and what each format refuses."""

from __future__ import annotations

import math
import pathlib
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import differential, run_all, slow_examples, trec_files
from evalcore.errors import RunInputError
from evalcore.testing.diversity import DIVERSITY_MEASURES, PYNDEVAL_MEASURES, subtopic_judgments, subtopic_lines

pyndeval = pytest.importorskip("pyndeval")
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def pyndeval_values(qrels, run, measures, rel=1, alpha=0.5, beta=0.5):
    """pyndeval's per-query values: qrels as its (query, subtopic, doc, grade) tuples in
    the dict's order, the run as (query, doc, score) tuples grouped by query."""
    tuples = [(q, s, d, g) for q, subs in qrels.items() for s, docs in subs.items() for d, g in docs.items()]
    ranked = [(q, d, float(v)) for q, docs in run.items() for d, v in docs.items()]
    evaluator = pyndeval.RelevanceEvaluator(tuples, measures, relevance_level=rel, alpha=alpha, beta=beta)
    return evaluator.evaluate(ranked)


def exact_mean(values):
    kept = [v for v in values if not math.isnan(v)]
    return math.fsum(kept) / len(kept) if kept else None  # the exact sum rounded once, then divided (contract §5)


def assert_equals_pyndeval(result, expected, ours, theirs):
    assert result.query_ids == list(expected), (result.query_ids, list(expected))
    for mine, other in zip(ours, theirs):
        got = [float(v) for v in result.values(mine)]
        want = [expected[q][other] for q in result.query_ids]
        assert [repr(v) for v in got] == [repr(v) for v in want], (mine, got, want)
        assert result.mean[mine] == exact_mean(want), (mine, result.mean[mine], want)


@slow_examples(100)  # pyndeval builds its qrels per example (a few ms); 100 examples take about 2 s
@given(subtopic_judgments(), st.integers(1, 2), st.sampled_from([(0.5, 0.5), (0.3, 0.8), (1.0, 0.5), (0.0, 0.9)]))
def test_equals_pyndeval(value, rel, alpha_beta):
    alpha, beta = alpha_beta
    ours = [f"{m.split('@')[0]}(alpha={alpha}{f', beta={beta}' if 'NRBP' in m else ''})"
            f"{'@' + m.split('@')[1] if '@' in m else ''}" if "alpha" in m or "NRBP" in m or "ERR" in m else m
            for m in DIVERSITY_MEASURES]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evalcore.evaluate_run(value["qrels"], value["run"], ours, qrels_format="subtopics",
                                       relevant_at_least=rel)
    expected = pyndeval_values(value["qrels"], value["run"], list(PYNDEVAL_MEASURES), rel, alpha, beta)
    assert_equals_pyndeval(result, expected, ours, PYNDEVAL_MEASURES)


@differential
@given(subtopic_judgments(), st.sampled_from(["score", "input"]), st.sampled_from(["skip", "zero"]),
       st.sampled_from([None, 0, 3]), st.booleans())
def test_native_equals_reference_dicts(value, ties, missing, max_retrieved, judged_only):
    run_all("evaluate_run", value["qrels"], value["run"], list(DIVERSITY_MEASURES), qrels_format="subtopics",
            ties=ties, missing=missing, max_retrieved=max_retrieved, judged_only=judged_only)


@differential
@given(subtopic_judgments())
def test_native_equals_reference_files(value):
    run_text = "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, docs in value["run"].items() for d, s in docs.items())
    with trec_files("\n".join(subtopic_lines(value["qrels"])) + "\n", run_text) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, list(DIVERSITY_MEASURES), qrels_format="subtopics")
    dict_result = evalcore.evaluate_run(value["qrels"], value["run"], list(DIVERSITY_MEASURES), qrels_format="subtopics")
    assert outcome[0] == "ok"
    assert outcome[1].mean == dict_result.mean  # a file reads as the same dicts


# 300 examples: two files and three evaluations each; the unordered files of the test above
# (2,000 examples in CI) and the fuzzers cover the reader's other paths.
@slow_examples(300)
@given(subtopic_judgments(), st.booleans(), st.data())
def test_run_files_in_ranking_order_read_as_their_dicts(value, swap, data):
    # The reader flags each line that comes after the one before in the ranking (score
    # descending, then doc ID ascending), without a branch on the scores, and the scorer sorts
    # a query only when a flag says so: lines written in that order (tied scores among them,
    # written as different texts of one value), then with one pair of a query's neighbours
    # swapped, read as the dicts do, in both cores.
    texts = {0.0: ("0", "0.0", "-0"), 1.0: ("1", "1.0", "1.00"), 1.5: ("1.5", "1.50"), 2.0: ("2", "2.0"),
             -3.0: ("-3", "-3.0"), 7.25: ("7.25", "7.250")}
    lines = []
    for query, docs in value["run"].items():
        ranked = sorted(docs.items(), key=lambda item: (-item[1], item[0]))
        if swap and len(ranked) > 1:
            i = data.draw(st.integers(0, len(ranked) - 2))
            ranked[i], ranked[i + 1] = ranked[i + 1], ranked[i]
        lines += [f"{query} Q0 {doc} {rank} {data.draw(st.sampled_from(texts[score]))} t\n"
                  for rank, (doc, score) in enumerate(ranked, 1)]
    with trec_files("\n".join(subtopic_lines(value["qrels"])) + "\n", "".join(lines)) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, list(DIVERSITY_MEASURES), qrels_format="subtopics")
    dict_result = evalcore.evaluate_run(value["qrels"], value["run"], list(DIVERSITY_MEASURES), qrels_format="subtopics")
    assert outcome[0] == "ok"
    assert outcome[1].to_dict() == dict_result.to_dict()
    assert outcome[1].mean == dict_result.mean


def test_shipped_example_equals_pyndeval():
    qrels_path, run_path = EXAMPLES / "diversity.qrels", EXAMPLES / "diversity.run"
    qrels, run = {}, {}
    for line in qrels_path.read_text().splitlines():
        q, s, d, g = line.split()
        qrels.setdefault(q, {}).setdefault(s, {})[d] = int(g)
    for line in run_path.read_text().splitlines():
        q, _q0, d, _rank, score, _tag = line.split()
        run.setdefault(q, {})[d] = float(score)
    result = evalcore.evaluate_run(str(qrels_path), str(run_path), list(DIVERSITY_MEASURES), qrels_format="subtopics")
    assert_equals_pyndeval(result, pyndeval_values(qrels, run, list(PYNDEVAL_MEASURES)), DIVERSITY_MEASURES,
                           PYNDEVAL_MEASURES)
    assert result.options["ties"] == "score, then doc ID ascending (pyndeval)"


def test_values_by_hand():
    # Two subtopics; a covers 1 and 2, b covers 1, c nothing. Ranking b a c.
    qrels = {"q": {"1": {"a": 1, "b": 1, "c": 0}, "2": {"a": 1}}}
    run = {"q": {"b": 3.0, "a": 2.0, "c": 1.0}}
    result = evalcore.evaluate_run(qrels, run, ["alpha_DCG@2", "P_IA@2", "StRecall@1", "AP_IA", "ERR_IA@1"],
                                   qrels_format="subtopics")
    row = {m: float(result.values(m)[0]) for m in result.measures}
    # gains: b 1, a (1 - 0.5) + 1 = 1.5; the "ideal ideal" at rank 2: 2 + 2 * 0.5 / log2(3)
    assert row["alpha_DCG@2"] == (1.0 + 1.5 * (math.log(2.0) / math.log(3.0))) / (2 + 1.0 * (math.log(2.0) / math.log(3.0)))
    assert row["P_IA@2"] == 3 / 4
    assert row["StRecall@1"] == 1 / 2
    assert row["AP_IA"] == ((1 / 1 + 2 / 2) / 2 + (1 / 2) / 1) / 2
    assert row["ERR_IA@1"] == 1.0  # ndeval leaves the first rank unnormalised


def test_names_of_ir_measures_objects():
    ir_measures = pytest.importorskip("ir_measures")
    measures = [ir_measures.alpha_nDCG(alpha=0.8) @ 10, ir_measures.ERR_IA @ 20, ir_measures.nNRBP(beta=0.9),
                ir_measures.AP_IA, ir_measures.StRecall @ 5, ir_measures.P_IA(judged_only=True) @ 3]
    qrels = {"q": {"1": {"a": 1}, "2": {"b": 1}}}
    result = evalcore.evaluate_run(qrels, {"q": {"a": 1.0, "x": 2.0}}, measures, qrels_format="subtopics")
    assert list(result.measures) == [str(m) for m in measures]
    assert float(result.values("P_IA(judged_only=True)@3")[0]) == 1 / 6  # x leaves the ranking


@pytest.mark.parametrize("name, message", [
    ("alpha_nDCG", "needs a cutoff"), ("NRBP@10", "takes no cutoff"), ("alpha_nDCG(alpha=2)@5", "alpha must be"),
    ("P_IA(beta=0.5)@5", "takes no parameter beta"), ("StRecall(judged_only=True)@5", "takes no parameter"),
])
def test_name_refusals(name, message):
    with pytest.raises(ValueError, match=message):
        evalcore.evaluate_run({"q": {"1": {"a": 1}}}, {"q": {"a": 1.0}}, [name], qrels_format="subtopics")


def test_formats_refuse_each_others_measures():
    with pytest.raises(ValueError, match="qrels_format='subtopics'"):
        evalcore.evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["alpha_nDCG@5"])
    with pytest.raises(ValueError, match="does not read subtopic judgments"):
        evalcore.evaluate_run({"q": {"1": {"a": 1}}}, {"q": {"a": 1.0}}, ["P@5"], qrels_format="subtopics")


def test_cutoffs_past_20_extend_ndeval():
    # ndeval stops at rank 20; evalcore goes on with the same definitions. Up to 20 they agree.
    qrels = {"q": {"1": {f"d{i:02}": 1 for i in range(30)}}}
    run = {"q": {f"d{i:02}": float(-i) for i in range(30)}}
    result = evalcore.evaluate_run(qrels, run, ["StRecall@25", "P_IA@25", "alpha_nDCG@20"], qrels_format="subtopics")
    assert float(result.values("P_IA@25")[0]) == 1.0
    assert float(result.values("StRecall@25")[0]) == 1.0


def test_iterables_tables_and_tuples_read_alike():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = {"q1": {"1": {"a": 1, "b": 0}, "2": {"b": 2}}, "q2": {"7": {"c": 1}}}
    run = {"q1": {"a": 1.0, "b": 2.0, "z": 0.5}, "q2": {"c": 1.0}}
    expected = evalcore.evaluate_run(qrels, run, list(DIVERSITY_MEASURES), qrels_format="subtopics")
    records = [ir_measures.Qrel(q, d, g, s) for q, subs in qrels.items() for s, docs in subs.items()
               for d, g in docs.items()]
    tuples = [(q, s, d, g) for q, subs in qrels.items() for s, docs in subs.items() for d, g in docs.items()]
    scored = [ir_measures.ScoredDoc(q, d, v) for q, docs in run.items() for d, v in docs.items()]
    for qrels_source in (records, tuples):
        for api in (evalcore, evalcore.reference):
            got = api.evaluate_run(qrels_source, scored, list(DIVERSITY_MEASURES), qrels_format="subtopics")
            assert got.mean == expected.mean and got.query_ids == expected.query_ids
    pandas = pytest.importorskip("pandas")
    table = pandas.DataFrame(records)
    got = evalcore.evaluate_run(table, pandas.DataFrame(scored), list(DIVERSITY_MEASURES), qrels_format="subtopics")
    assert got.mean == expected.mean


def test_faults_in_both_cores():
    with pytest.raises(RunInputError, match="lists document 'a' twice"):
        evalcore.evaluate_run([("q", "1", "a", 1), ("q", "1", "a", 0)], {"q": {"a": 1.0}}, ["AP_IA"],
                              qrels_format="subtopics")
    outcome = None
    with trec_files("q 1 a 1\nq 1 a 0\n", "q Q0 a 1 1 t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, ["AP_IA"], qrels_format="subtopics")
    assert outcome[0] == "error" and "line 1" in str(outcome[1])
    with trec_files("q 1 a\n", "q Q0 a 1 1 t\n") as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, ["AP_IA"], qrels_format="subtopics")
    assert outcome[0] == "error" and "4 fields" in str(outcome[1])
    for bad, error in ((({"q": {"a": "1"}}), TypeError), ({"q": {"a": math.inf}}, ValueError)):
        for api in (evalcore, evalcore.reference):
            with pytest.raises(error, match="score must be"):
                api.evaluate_run({"q": {"1": {"a": 1}}}, bad, ["AP_IA"], qrels_format="subtopics")


def test_nnrbp_undefined_without_relevant_documents():
    # pyndeval's 0/0 is NaN; evalcore leaves the query out of the mean and counts it.
    result = evalcore.evaluate_run({"q": {"1": {"a": 0}}, "r": {"1": {"a": 1}}}, {"q": {"a": 1.0}, "r": {"a": 1.0}},
                                   ["nNRBP", "NRBP"], qrels_format="subtopics")
    assert math.isnan(float(result.values("nNRBP")[0])) and result.defined_counts["nNRBP"] == 1
    assert result.mean["nNRBP"] == 1.0
