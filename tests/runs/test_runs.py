"""evaluate_run: fixed examples in every input form, agreement with pytrec_eval
(trec_eval) and with ranking_evaluate, the options, edge cases and errors. The
native-vs-reference differential tests are in test_differential.py."""

from __future__ import annotations

import math
import re
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import assert_identical, expect_result, run_all, slow_examples
from evalcore import RunEvaluation, evaluate_run
from evalcore.runs.evaluate import _evaluate_run
from evalcore.testing import float32_scores, ranking_requests, runs

SEED_QRELS = {"q1": {"a": 3, "b": 1, "c": 0, "d": 2}}
SEED_RUN = {"q1": {"b": 3.0, "a": 2.0, "c": 1.0}}
SEED_MEASURES = ["P@3", "R@3", "RR@3", "AP@3", "nDCG@3"]
# docs/contract.md §2's fixed example (the seed): precision, recall, RR, AP and NDCG at k = 3.
SEED_VALUES = [0.6666666666666666, 0.6666666666666666, 1.0, 0.6666666666666666, 0.6074915180456525]


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def values_of(evaluation: RunEvaluation, query: str):
    i = evaluation.query_ids.index(query)
    return [float(evaluation.values(m)[i]) for m in evaluation.measures]


def test_seed_example_in_every_input_form(tmp_path):
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    qrels_file = write(tmp_path / "qrels", ["q1 0 a 3", "q1 0 b 1", "q1 0 c 0", "q1 0 d 2"])
    run_file = write(tmp_path / "run", ["q1 Q0 b 1 3.0 t", "q1 Q0 a 2 2 t", "q1 Q0 c 3 1 t"])
    qrels_frame = pd.DataFrame({"query_id": ["q1"] * 4, "doc_id": list("abcd"), "relevance": [3, 1, 0, 2]})
    run_frame = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["b", "a", "c"], "score": [3.0, 2.0, 1.0]})
    forms = [
        (SEED_QRELS, SEED_RUN),
        (SEED_QRELS, {"q1": ["b", "a", "c"]}),
        (qrels_file, run_file),
        (tmp_path / "qrels", tmp_path / "run"),  # os.PathLike
        (qrels_frame, run_frame),
        (pa.Table.from_pandas(qrels_frame), pa.Table.from_pandas(run_frame)),
        (qrels_file, run_frame),
    ]
    results = [expect_result("evaluate_run", q, r, SEED_MEASURES) for q, r in forms]
    for result in results:
        assert_identical(result, results[0])
    assert values_of(results[0], "q1") == SEED_VALUES
    assert results[0].mean == dict(zip(SEED_MEASURES, SEED_VALUES))
    assert results[0].defined_counts == dict.fromkeys(SEED_MEASURES, 1)


def test_integer_query_ids_in_tables_become_text():
    pd = pytest.importorskip("pandas")
    qrels = pd.DataFrame({"query_id": [7, 7], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": [7, 7], "doc_id": ["b", "a"], "score": [2.0, 1.0]})
    result = expect_result("evaluate_run", qrels, run, ["RR"])
    assert result.query_ids == ["7"] and result.mean == {"RR": 0.5}


# ---- the same definitions as ranking_evaluate -----------------------------------------


@slow_examples(500)
@given(request=ranking_requests(max_queries=4, max_docs=12), exponential=st.booleans())
def test_equals_ranking_evaluate(request, exponential):
    k = int(request.get("k", 10))
    request = dict(request, unjudged="nonrelevant", gain="exponential" if exponential else "linear")
    envelope = evalcore.ranking_evaluate(request)
    qrels = {q["id"]: {j["id"]: j["grade"] for j in q["judgments"]} for q in request["queries"]}
    run = {q["id"]: list(q["retrieved"]) for q in request["queries"]}
    measures = [f"P@{k}", f"R@{k}", f"RR@{k}", f"AP@{k}", f"nDCG@{k}"]
    result = expect_result("evaluate_run", qrels, run, measures, relevant_at_least=request.get("relevantAtLeast", 1),
                           gain=request["gain"], ties="input")
    keys = ["precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK"]
    # A query with no judgments is scored by ranking_evaluate (precision 0) but, as in
    # trec_eval, not by evaluate_run.
    judged = [q["id"] for q in request["queries"] if q["judgments"]]
    assert result.query_ids == judged
    for query in envelope["result"]["queries"]:
        if query["id"] not in judged:
            continue
        ours = values_of(result, query["id"])
        theirs = [query[key] for key in keys]
        assert [None if math.isnan(v) else v for v in ours] == [None if v is None else float(v) for v in theirs]
    # Means: docs/contract.md §5's exact sum of the same per-query values, one division (ranking_evaluate's
    # macro keeps docs/contract.md §2's left-to-right sum, which can differ in the last bits).
    for measure, key in zip(measures, keys):
        defined = [float(q[key]) for q in envelope["result"]["queries"] if q["id"] in judged and q[key] is not None]
        assert result.mean[measure] == (math.fsum(defined) / len(defined) if defined else None)


# ---- trec_eval (pytrec_eval) -----------------------------------------------------------

TREC_NAMES = {"P@5": "P_5", "R@10": "recall_10", "AP@10": "map_cut_10", "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10",
              "AP": "map", "RR": "recip_rank", "nDCG": "ndcg"}


@slow_examples(500)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores))
def test_matches_pytrec_eval(value):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = value["qrels"], value["run"]
    result = expect_result("evaluate_run", qrels, run, list(TREC_NAMES))
    trec = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_NAMES.values())).evaluate(run)
    # trec_eval scores a query only when it has judgments and is in the run, as we do.
    assert set(result.query_ids) == set(trec)
    for q in result.query_ids:
        relevant = any(g >= 1 for g in qrels[q].values())
        for measure, name in TREC_NAMES.items():
            ours = float(result.values(measure)[result.query_ids.index(q)])
            if relevant or measure.startswith("P@"):
                assert abs(ours - trec[q][name]) <= 1e-12, (q, measure, ours, trec[q][name])
            else:
                # The documented difference: with no relevant judgment (R = 0) trec_eval
                # reports 0 (and counts it in its mean); evalcore leaves recall, RR, AP and
                # nDCG undefined and out of the mean, as docs/contract.md §2 does.
                assert math.isnan(ours) and trec[q][name] == 0.0


def test_scores_compare_in_binary64_where_trec_eval_rounds_to_float32():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0 + 2**-40, "b": 1.0}}  # equal in float32: trec_eval breaks the tie by doc ID
    assert pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q"]["recip_rank"] == 0.5
    assert expect_result("evaluate_run", qrels, run, ["RR"]).mean["RR"] == 1.0


def test_r_zero_query_is_undefined_here_and_zero_in_trec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1}, "q2": {"x": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"x": 1.0}}
    result = expect_result("evaluate_run", qrels, run, ["P@1", "R@1", "AP", "nDCG"])
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"P_1", "recall_1", "map", "ndcg"}).evaluate(run)
    assert trec["q2"] == {"P_1": 0.0, "recall_1": 0.0, "map": 0.0, "ndcg": 0.0}
    assert values_of(result, "q2")[0] == 0.0 and all(math.isnan(v) for v in values_of(result, "q2")[1:])
    assert result.mean == {"P@1": 0.5, "R@1": 1.0, "AP": 1.0, "nDCG": 1.0}  # trec_eval's means: 0.5 each
    assert result.defined_counts == {"P@1": 2, "R@1": 1, "AP": 1, "nDCG": 1}


# ---- options and edge cases ------------------------------------------------------------


def test_ties_by_score_then_doc_id_descending_or_input_order():
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "c": 1.0, "b": 1.0, "z": 0.5}}
    by_score = expect_result("evaluate_run", qrels, run, ["RR"])
    assert by_score.mean["RR"] == 1 / 3  # c, b, a: ties go by doc ID descending
    as_given = expect_result("evaluate_run", qrels, run, ["RR"], ties="input")
    assert as_given.mean["RR"] == 1.0
    assert expect_result("evaluate_run", qrels, {"q": ["z", "a"]}, ["RR"]).mean["RR"] == 0.5  # lists: their order


def test_missing_queries_skip_or_zero():
    qrels = {"q1": {"a": 1}, "q2": {"b": 2}, "q3": {"c": 0}}
    run = {"q9": {"a": 1.0}, "q1": {"a": 1.0}}
    skip = expect_result("evaluate_run", qrels, run, ["P@1", "nDCG@1", "RR"])
    assert skip.query_ids == ["q1"] and skip.mean == {"P@1": 1.0, "nDCG@1": 1.0, "RR": 1.0}
    zero = expect_result("evaluate_run", qrels, run, ["P@1", "nDCG@1", "RR"], missing="zero")
    assert zero.query_ids == ["q1", "q2", "q3"]  # run order, then the missing ones in qrels order
    assert values_of(zero, "q2") == [0.0, 0.0, 0.0]
    p, ndcg, rr = values_of(zero, "q3")  # no relevant judgment: only precision is defined
    assert p == 0.0 and math.isnan(ndcg) and math.isnan(rr)
    assert zero.mean == {"P@1": 1 / 3, "nDCG@1": 0.5, "RR": 0.5}
    assert zero.defined_counts == {"P@1": 3, "nDCG@1": 2, "RR": 2}


def test_fractional_grades_and_threshold():
    qrels = {"q": {"a": 1.4, "b": 1.6, "c": 0.25}}
    run = {"q": ["a", "b", "c"]}
    result = expect_result("evaluate_run", qrels, run, ["P@2", "R@1", "AP", "nDCG@2"], relevant_at_least=1.5)
    p, r, ap, ndcg = values_of(result, "q")
    assert (p, r, ap) == (0.5, 0.0, 0.5)
    dcg = 1.4 / math.log2(2) + 1.6 / math.log2(3)
    ideal = 1.6 / math.log2(2) + 1.4 / math.log2(3)
    assert ndcg == dcg / ideal


def test_exponential_gain():
    qrels = {"q": {"a": 1, "b": 3}}
    result = expect_result("evaluate_run", qrels, {"q": ["a", "b"]}, ["nDCG"], gain="exponential")
    dcg = (math.pow(2, 1) - 1) / math.log2(2) + (math.pow(2, 3) - 1) / math.log2(3)
    ideal = (math.pow(2, 3) - 1) / math.log2(2) + (math.pow(2, 1) - 1) / math.log2(3)
    assert result.mean["nDCG"] == dcg / ideal


def test_negative_grades_add_no_gain_and_are_not_relevant():
    qrels = {"q": {"spam": -2, "a": 1}}
    result = expect_result("evaluate_run", qrels, {"q": ["spam", "a"]}, ["nDCG", "P@2", "RR"])
    assert values_of(result, "q") == [(1 / math.log2(3)) / 1.0, 0.5, 0.5]


def test_empty_run_and_empty_qrels():
    for qrels, run in [({"q": {"a": 1}}, {}), ({}, {"q": {"a": 1.0}}), ({}, {}), ({"q": {}}, {"q": {"a": 1.0}})]:
        result = expect_result("evaluate_run", qrels, run, ["P@1", "AP"])
        assert result.query_ids == [] and result.mean == {"P@1": None, "AP": None}
        assert result.defined_counts == {"P@1": 0, "AP": 0}
        assert result.to_dict()["queries"] == []
    zero = expect_result("evaluate_run", {"q": {"a": 1}}, {}, ["P@1", "AP"], missing="zero")
    assert zero.mean == {"P@1": 0.0, "AP": 0.0}


def test_qrels_with_only_zero_grades():
    result = expect_result("evaluate_run", {"q": {"a": 0, "b": 0}}, {"q": {"a": 2.0, "b": 1.0}},
                           ["P@2", "R@2", "RR", "AP", "nDCG"])
    assert result.mean == {"P@2": 0.0, "R@2": None, "RR": None, "AP": None, "nDCG": None}
    assert result.defined_counts == {"P@2": 1, "R@2": 0, "RR": 0, "AP": 0, "nDCG": 0}


def test_precision_denominator_is_k_and_cutoffs_past_the_ranking():
    result = expect_result("evaluate_run", {"q": {"a": 1}}, {"q": ["a"]}, ["P@10", "R@1000", "nDCG@1000000000"])
    assert values_of(result, "q") == [0.1, 1.0, 1.0]


def test_threads_and_block_sizes_give_identical_results(tmp_path):
    rng = np.random.default_rng(7)
    qrels_lines, run_lines = [], []
    for q in range(600):
        for d in rng.choice(80, size=15, replace=False):
            qrels_lines.append(f"q{q} 0 d{d} {rng.integers(0, 4)}")
        for rank, d in enumerate(rng.choice(80, size=40, replace=False)):
            run_lines.append(f"q{q} Q0 d{d} {rank + 1} {rng.integers(0, 10) / 2} run")
    qrels, run = write(tmp_path / "qrels", qrels_lines), write(tmp_path / "run", run_lines)
    measures = ["P@10", "R@20", "RR@10", "AP@100", "nDCG@10", "nDCG"]
    first = evaluate_run(qrels, run, measures, threads=1)
    assert len(first.query_ids) == 600
    for threads in (2, 3, 7):
        for block in (1 << 10, 1 << 16, 1 << 24):
            assert_identical(_evaluate_run(qrels, run, measures, 1, "linear", "score", "skip", threads, block), first)
    assert_identical(evalcore.reference.evaluate_run(qrels, run, measures), first)


def test_ungrouped_run_file_is_read_whole_with_the_same_result(tmp_path):
    qrels = write(tmp_path / "qrels", ["q1 0 a 1", "q2 0 b 1", "q2 0 c 2"])
    lines = ["q1 Q0 x 1 5 t", "q2 Q0 b 1 3 t", "q1 Q0 a 2 4 t", "q2 Q0 c 2 2 t"]
    run = write(tmp_path / "run", lines)
    grouped = {"q1": {"x": 5.0, "a": 4.0}, "q2": {"b": 3.0, "c": 2.0}}
    expected = evaluate_run(qrels, grouped, ["RR", "nDCG@2"])
    for block in (1, 16, 1 << 20):
        assert_identical(_evaluate_run(qrels, run, ["RR", "nDCG@2"], 1, "linear", "score", "skip", 2, block), expected)


def test_per_query_is_one_type_whatever_is_installed(monkeypatch):
    result = evaluate_run({"q1": {"a": 1}, "q2": {"b": 0}}, {"q1": ["a"], "q2": ["b"]}, ["P@1", "AP"])
    monkeypatch.setitem(sys.modules, "pandas", None)  # not needed for the type itself
    table = result.per_query
    assert type(table).__name__ == "PerQuery" and table.columns == ["query_id", "P@1", "AP"] and len(table) == 2
    assert table["query_id"] == ["q1", "q2"] and table["P@1"].dtype == np.float64 and table["P@1"].tolist() == [1.0, 0.0]
    assert table.to_dict() == {"query_id": ["q1", "q2"], "P@1": [1.0, 0.0], "AP": [1.0, None]}
    with pytest.raises(KeyError, match="no column 'nDCG'; the columns are query_id, P@1, AP"):
        table["nDCG"]
    with pytest.raises(ImportError):
        table.to_pandas()
    monkeypatch.undo()
    pd = pytest.importorskip("pandas")
    frame = table.to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["query_id", "P@1", "AP"]
    assert frame["AP"].isna().tolist() == [False, True]
    pa = pytest.importorskip("pyarrow")
    arrow = table.to_arrow()
    assert arrow.schema.names == ["query_id", "P@1", "AP"] and arrow.column("AP").to_pylist() == [1.0, None]
    assert arrow.schema.field("P@1").type == pa.float64()


def test_values_takes_any_spelling_and_names_what_was_computed():
    result = evaluate_run({"q1": {"a": 1}}, {"q1": ["a"]}, ["nDCG@10", "AP"])
    assert result.values("ndcg_cut_10").tolist() == result.values("nDCG@10").tolist() == [1.0]
    assert result.values("map").tolist() == [1.0]
    with pytest.raises(KeyError, match="'AP@10' was not computed; this evaluation has nDCG@10, AP"):
        result.values("AP@10")


@pytest.mark.parametrize("qrels, run, missing, warning", [
    ({}, {"q1": ["a"]}, "skip", "nothing was evaluated: the qrels judge no query"),
    ({"q1": {}}, {}, "skip", "nothing was evaluated: the qrels judge no query"),
    ({"q1": {"a": 1}, "q2": {"b": 1}}, {"x": ["a"]}, "skip",
     "the run has none of the 2 judged queries (empty, or other query IDs); nothing was evaluated"),
    ({"q1": {"a": 1}}, {}, "zero",
     "the run has none of the 1 judged queries (empty, or other query IDs); with missing='zero' all 1 are scored"),
])
def test_nothing_evaluated_is_a_warning_in_both_cores(qrels, run, missing, warning):
    import warnings as python_warnings

    for module in (evalcore, evalcore.reference):
        with pytest.warns(evalcore.EvaluationWarning, match=re.escape(warning)):
            result = module.evaluate_run(qrels, run, ["P@1"], missing=missing)
        assert result.warnings and result.warnings[0].startswith(warning)
    with python_warnings.catch_warnings():
        python_warnings.simplefilter("error")
        assert evaluate_run({"q1": {"a": 1}}, {"q1": ["a"]}, ["P@1"]).warnings == []


def test_to_json_writes_null_for_undefined():
    import json

    result = evaluate_run({"q1": {"a": 1}, "q2": {"b": 0}}, {"q1": ["a"], "q2": ["b"]}, ["P@1", "AP"])
    data = json.loads(result.to_json())
    assert data["mean"] == {"P@1": 0.5, "AP": 1.0} and data["definedCounts"] == {"P@1": 2, "AP": 1}
    assert data["queries"][1] == {"id": "q2", "values": {"P@1": 0.0, "AP": None}}
    assert "queries" not in json.loads(result.to_json(per_query=False))


# ---- errors ----------------------------------------------------------------------------


def expect_run_error(qrels, run, message, line=None, measures=("P@1",), **kwargs):
    outcome = run_all("evaluate_run", qrels, run, list(measures), **kwargs)
    assert outcome[0] == "error", outcome
    assert outcome[1][0] == "RunInputError", outcome
    assert outcome[1][1] == message, outcome[1][1]
    assert outcome[1][3] == line


def test_malformed_lines_name_the_file_and_line(tmp_path):
    good_qrels = write(tmp_path / "good_qrels", ["q1 0 a 1"])
    run = write(tmp_path / "run", ["q1 Q0 a 1 2.5 t", "", "q1 Q0 b 2 x t"])
    expect_run_error(good_qrels, run, f"{run}:3: the score 'x' is not a finite number", 3)
    run = write(tmp_path / "run5", ["q1 Q0 a 1 2.5"])
    expect_run_error(good_qrels, run, f"{run}:1: a run line has at least 6 fields: query Q0 document rank score tag, found 5", 1)
    qrels = write(tmp_path / "qrels", ["q1 0 a 1", "q1 0 b 1 extra"])
    expect_run_error(qrels, {"q1": ["a"]}, f"{qrels}:2: a qrels line has 4 fields: query iteration document grade, found more", 2)
    qrels = write(tmp_path / "qrels_nan", ["q1 0 a nan"])
    expect_run_error(qrels, {"q1": ["a"]}, f"{qrels}:1: the grade 'nan' is not a finite number", 1)
    missing = str(tmp_path / "nowhere")  # a file fault is open()'s OSError (tests/runs/test_run_files.py)
    assert run_all("evaluate_run", missing, {}, ["P@1"]) == (
        "error", ("FileNotFoundError", 2, "No such file or directory", missing, None,
                  f"[Errno 2] No such file or directory: {missing!r}"))


def test_a_document_twice_in_a_query_is_an_error(tmp_path):
    qrels = write(tmp_path / "qrels", ["q1 0 a 1", "q2 0 a 1", "q1 0 a 2"])
    expect_run_error(qrels, {}, f"{qrels}:3: query 'q1' lists document 'a' twice (first on line 1)", 3)
    good = write(tmp_path / "good", ["q1 0 a 1"])
    run = write(tmp_path / "run", ["q1 Q0 a 1 2 t", "q1 Q0 b 2 1 t", "q1 Q0 a 3 0 t"])
    expect_run_error(good, run, f"{run}:3: query 'q1' lists document 'a' twice (first on line 1)", 3)
    expect_run_error({"q1": {"a": 1}}, {"q1": ["a", "b", "a"]},
                     "run: query 'q1' lists document 'a' twice (positions 0 and 2)")


def test_table_errors_name_the_row():
    pd = pytest.importorskip("pandas")
    run = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "a"], "score": [1.0, 2.0, 3.0]})
    expect_run_error({"q": {"a": 1}}, run, "run table: row 2: query 'q' lists document 'a' twice (first on row 0)")
    run = pd.DataFrame({"query_id": ["q", None], "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    expect_run_error({"q": {"a": 1}}, run, "run table: row 1: the query ID is null (column 'query_id')")  # pandas: None/NaN, an Arrow null
    with pytest.raises(ValueError, match="lacks the column"):
        evaluate_run({"q": {"a": 1}}, pd.DataFrame({"query_id": ["q"], "doc": ["a"], "score": [1.0]}), ["P@1"])


class Id(int):
    def __str__(self):
        raise AssertionError("an ID is read by its stored value")

    __repr__ = __format__ = __index__ = __str__


def test_integer_ids_are_their_decimal_text_in_every_input():
    # One rule for dicts, ranked lists, tables and Spark: an int (not a bool) is the ID of
    # its decimal text, as an integer column's cells are.
    text = expect_result("evaluate_run", {"7": {"1": 1, "-2": 2}}, {"7": {"1": 0.5, "-2": 0.25, "3": 0.1}}, ["AP", "P@2"])
    as_ints = expect_result("evaluate_run", {7: {1: 1, -2: 2}}, {Id(7): {Id(1): 0.5, -2: 0.25, 3: 0.1}}, ["AP", "P@2"])
    assert as_ints == text and as_ints.query_ids == ["7"]
    ranked = expect_result("evaluate_run", {7: {1: 1}}, {7: [3, 1]}, ["RR"])
    assert ranked.mean["RR"] == 0.5
    largest, smallest = (1 << 64) - 1, -(1 << 63)  # the ends of the 64-bit range
    edges = expect_result("evaluate_run", {largest: {smallest: 1}}, {largest: [smallest]}, ["P@1"])
    assert edges.query_ids == ["18446744073709551615"] and edges.mean["P@1"] == 1.0


def test_integer_ids_outside_64_bits_and_text_twins_are_errors():
    expect_run_error({1 << 64: {"a": 1}}, {}, "qrels: a query ID is an integer outside the 64-bit range")
    expect_run_error({"q": {-(1 << 63) - 1: 1}}, {}, "qrels: query 'q': a document ID is an integer outside the 64-bit range")
    expect_run_error({}, {"q": [1, "1"]}, "run: query 'q' lists document '1' twice (positions 0 and 1)")


def test_dict_values_are_checked():
    expect_run_error({"q": {"a": True}}, {}, "qrels: query 'q': the grade of document 'a' must be a number, got bool")
    expect_run_error({"q": {"a": "1"}}, {}, "qrels: query 'q': the grade of document 'a' must be a number, got str")
    expect_run_error({"q": {"a": float("inf")}}, {}, "qrels: query 'q': the grade of document 'a' must be a finite number")
    expect_run_error({1.0: {"a": 1}}, {}, "qrels: a query ID must be a str or an int, got float")
    expect_run_error({True: {"a": 1}}, {}, "qrels: a query ID must be a str or an int, got bool")
    expect_run_error({"q": {"": 1}}, {}, "qrels: query 'q': a document ID must not be empty")
    expect_run_error({"q": ["a"]}, {}, "qrels: query 'q' must map to a dict {doc: grade}, got list")
    expect_run_error({}, {"q": ["a"], "r": {"a": 1.0}},
                     "run: query 'r' gives a dict but earlier queries give ranked lists; use one form for the whole run")
    expect_run_error({}, {"q": {"a\ud800": 1.0}}, "run: query 'q': a document ID is not valid Unicode (it holds a lone surrogate)")
    assert expect_result("evaluate_run", {"q": {"a": np.int64(1)}}, {"q": {"a": np.float32(0.5)}}, ["P@1"]).mean == {"P@1": 1.0}


@pytest.mark.parametrize(
    "measures, message",
    [
        (["R"], "R needs a cutoff"),
        (["nDCG@0"], "must be a positive integer"),
        (["P@1", "P@1"], "listed twice"),
        ([], "name at least one measure"),
        (["P@x"], "unknown measure 'P@x'"),
        (["nDGC@10"], "did you mean 'nDCG@10'"),
        (["ndcg_cutt.10"], "did you mean 'ndcg_cut_10'"),
        (["P(rel=2, foo=1)@10"], "no parameter foo"),
        (["P(gains={1: 2})@10"], "only nDCG and NCG take gains"),
        (["nDCG(rel=2)@10"], "nDCG takes no relevance level"),
        (["ndcg@10-l2"], "drops grades below 2"),
        (["P.5,5"], "lists a cutoff twice"),
        (["P(rel=__import__('os'))@5"], "parameters must be name=literal pairs"),
    ],
)
def test_unknown_or_repeated_measures(measures, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        evaluate_run({}, {}, measures)


@pytest.mark.parametrize("option", [{"relevant_at_least": 0}, {"relevant_at_least": True}, {"gain": "log"},
                                    {"ties": "random"}, {"missing": "drop"}, {"threads": 0}])
def test_bad_options(option):
    with pytest.raises((ValueError, TypeError)):
        evaluate_run({}, {}, ["P@1"], **option)


def test_not_a_source():
    with pytest.raises(TypeError, match="run must be a dict"):
        evaluate_run({}, 42, ["P@1"])
    # (a list is an iterable of records: tests/runs/test_run_iterables.py; plain tuples have no fields)
    with pytest.raises(evalcore.RunInputError, match="run iterable: row 0: a tuple has no field 'query_id'"):
        evaluate_run({}, [("q", "a")], ["P@1"])


@pytest.mark.parametrize("shape", ["sorted", "nearly", "reversed", "shuffled", "far"])
@pytest.mark.parametrize("measures", [["P@3", "nDCG@5"], ["AP", "RR@2"], ["P@300"]])
def test_rank_orders_of_every_shape(shape, measures):
    # The scorer insertion-sorts runs that arrive nearly in rank order and falls back to a
    # (partial) sort otherwise; every path must give the reference's ranks.
    rng = np.random.default_rng(len(shape))
    docs = [f"d{i:03d}" for i in range(200)]
    scores = np.round(rng.normal(size=200), 1).tolist()  # many ties
    order = sorted(range(200), key=lambda i: (scores[i], docs[i]), reverse=True)
    if shape == "reversed":
        order.reverse()
    elif shape == "shuffled":
        rng.shuffle(order)
    elif shape == "nearly":
        for i in range(0, 198, 17):
            order[i], order[i + 2] = order[i + 2], order[i]
    elif shape == "far":  # one descent, but the top 20 come last: the insertion runs out of moves
        order = order[20:] + order[:20]
    run = {"q": {docs[i]: scores[i] for i in order}}
    qrels = {"q": {docs[i]: int(rng.integers(0, 4)) for i in range(0, 200, 3)}}
    expect_result("evaluate_run", qrels, run, measures)
