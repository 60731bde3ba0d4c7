"""evalcore.trec_eval as pytrec_eval's whole module, against pytrec-eval-terrier itself:
parse_qrel, parse_run, compute_aggregated_measure, supported_measures, supported_nicknames
and RelevanceEvaluator (reused for several runs, over the measures both have)."""

from __future__ import annotations

import collections
import io
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import slow_examples
from evalcore import evaluate_run, trec_eval
from evalcore.testing import float32_scores, runs
from evalcore.trec_eval.pytrec_names import TREC_EVAL_TABLE
from test_trec_eval_dropin import pytrec_safe, rounding_agrees

pytrec_eval = pytest.importorskip("pytrec_eval")

# trec_eval 10's measures that pytrec-eval-terrier's trec_eval 9.0.8 lacks.
NEW_IN_TREC_EVAL_10 = {"dcg", "ideal_dcg", "yaap", "rbp", "rbp_resid", "unj"}
BOTH = sorted(trec_eval.supported_measures & pytrec_eval.supported_measures)
QRELS = {"q1": {"a": 3, "b": 1, "c": 0, "d": 2, "e": -1}, "q2": {"a": 0, "f": 1}, "q3": {"a": 0}}
RUN = {"q1": {"b": 3.0, "a": 2.0, "c": 1.0, "x": 0.5}, "q2": {"f": 1.0, "a": 1.0}, "q3": {"z": 2.0, "a": 1.0}}


def same_values(mine, theirs, qrels, level=1):
    """The same queries, keys in the same order, and equal values (NaN equal to NaN), but for
    the iprec_at_recall points where trec_eval 9's rounding gives another R, and runid, whose
    value pytrec_eval never sets (memory's: usually 0.0, seen 6.9e-310)."""
    assert list(mine) == list(theirs)
    for query, peer in theirs.items():
        assert list(mine[query]) == list(peer), query
        assert mine[query].get("runid", 0.0) == 0.0
        relevant = sum(1 for g in qrels[query].values() if g >= level)
        for key, value in peer.items():
            if key != "runid" and rounding_agrees(key, relevant):
                assert mine[query][key] == value or (math.isnan(value) and math.isnan(mine[query][key])), (
                    query, key, mine[query][key], value)


# ---- parse_qrel and parse_run ----------------------------------------------------------------

FIELD = st.sampled_from(["q1", "q2", "10", "d1", "d2", "é", "0", "Q0", "1", "-2", "+3", "1.5", "1.0", "abc", "inf",
                         "nan", "1e3", "-0", "1_0", "x"])
SPACE = st.sampled_from([" ", "\t", "  ", " \t "])


@st.composite
def lines(draw, fields):
    """Lines of about `fields` fields from a few tokens, so that documents repeat within a
    query and some numbers are not what int() or float() reads."""
    out = []
    for _ in range(draw(st.integers(0, 8))):
        count = draw(st.sampled_from([fields, fields, fields, fields - 1, fields + 1, 0]))
        parts = draw(st.lists(FIELD, min_size=count, max_size=count))
        line = draw(SPACE).join(parts)
        out.append(draw(st.sampled_from(["", " ", "\t"])) + line + draw(st.sampled_from(["\n", "\r\n", "", " \n"])))
    return out


def same_parse(ours, theirs, given_lines):
    """Both return equal dicts of the same types, or both raise: pytrec_eval's ValueError
    is a ValueError here, its AssertionError (a document twice) an AssertionError."""
    try:
        expected = theirs(given_lines)
    except (ValueError, AssertionError) as error:
        with pytest.raises(type(error)):
            ours(given_lines)
        return
    got = ours(given_lines)
    assert type(got) is collections.defaultdict and got.default_factory is dict
    assert list(got) == list(expected)  # (not got == expected: NaN scores are unequal)
    for query, docs in expected.items():
        assert list(got[query]) == list(docs)
        for doc, value in docs.items():
            assert type(got[query][doc]) is type(value)
            assert got[query][doc] == value or (value != value and got[query][doc] != got[query][doc])


@given(given_lines=lines(4))
def test_parse_qrel_as_pytrec_eval(given_lines):
    same_parse(trec_eval.parse_qrel, pytrec_eval.parse_qrel, given_lines)
    same_parse(trec_eval.parse_qrel, pytrec_eval.parse_qrel, [line.encode() for line in given_lines])


@given(given_lines=lines(6))
def test_parse_run_as_pytrec_eval(given_lines):
    same_parse(trec_eval.parse_run, pytrec_eval.parse_run, given_lines)
    same_parse(trec_eval.parse_run, pytrec_eval.parse_run, [line.encode() for line in given_lines])


def test_parse_errors_name_the_line_and_what_to_do():
    with pytest.raises(trec_eval.DuplicateDocumentError, match=r"qrels:2: document 'd' is listed twice for query 'q'"):
        trec_eval.parse_qrel(io.StringIO("q 0 d 1\nq 0 d 2\n"))
    with pytest.raises(ValueError, match=r"run:1: a run line has 6 fields \(query Q0 document rank score tag\), found 5"):
        trec_eval.parse_run(["q Q0 d 1 2.0"])
    with pytest.raises(ValueError, match=r"qrels:1: the grade '1.0' is not an integer"):
        trec_eval.parse_qrel(["q 0 d 1.0"])
    with pytest.raises(ValueError, match=r"not one str: pass open\(path\)"):
        trec_eval.parse_qrel("qrels.txt")
    # pytrec_eval's check is an assert, gone under python -O; this one is an exception of both kinds
    assert issubclass(trec_eval.DuplicateDocumentError, AssertionError)
    assert issubclass(trec_eval.DuplicateDocumentError, ValueError)


@slow_examples(300)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores, unjudged=True, astral=False))
def test_files_parsed_and_evaluated_as_pytrec_eval(value):
    """TREC lines -> parse_qrel/parse_run -> RelevanceEvaluator, on both sides."""
    qrels, run = pytrec_safe(value["qrels"], value["run"])
    qrels = {q: {d: g for d, g in docs.items() if " " not in d} for q, docs in qrels.items()}
    run = {q: {d: s for d, s in docs.items() if " " not in d} for q, docs in run.items()}
    run = {q: docs for q, docs in run.items() if docs}
    qrels_lines = [f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()]
    run_lines = [f"{q} Q0 {d} {i + 1} {s!r} tag\n" for q, docs in run.items() for i, (d, s) in enumerate(docs.items())]
    ours_q, ours_r = trec_eval.parse_qrel(io.StringIO("".join(qrels_lines))), trec_eval.parse_run(iter(run_lines))
    theirs_q, theirs_r = pytrec_eval.parse_qrel(qrels_lines), pytrec_eval.parse_run(run_lines)
    assert (ours_q, ours_r) == (theirs_q, theirs_r)
    mine = trec_eval.RelevanceEvaluator(ours_q, {"official"}).evaluate(ours_r)
    peer = pytrec_eval.RelevanceEvaluator(theirs_q, {"official"}).evaluate(theirs_r)
    same_values(mine, peer, theirs_q)


# ---- compute_aggregated_measure ----------------------------------------------------------------

NAMES = st.sampled_from(["map", "P_10", "num_ret", "num_rel_ret", "num_q", "gm_map", "gm_bpref", "ndcg_cut_10"])


def exact_mean(values):
    return float(sum(Fraction(v) for v in values)) / len(values)


@np.errstate(over="ignore")  # exp past the largest float: inf on both sides, numpy warning
@given(measure=NAMES, values=st.lists(st.integers(-2 ** 20, 2 ** 20).map(lambda i: i / 1024), min_size=1, max_size=40))
def test_aggregated_as_pytrec_eval_where_its_sums_are_exact(measure, values):
    # gm_*: numpy's exp on both sides; math.exp differs in the last bit on AVX-512 CPUs (the
    # regression case below)
    assert trec_eval.compute_aggregated_measure(measure, values) == pytrec_eval.compute_aggregated_measure(measure, values)


def test_gm_uses_numpys_exp_as_pytrec_eval():
    # CI's machine (AVX-512): math.exp(21189 / 2048) is 31138.223851898474, numpy's and
    # pytrec_eval's 31138.22385189847; on other CPUs they agree, and so does this test.
    values = [0.0, 21189 / 1024]
    assert trec_eval.compute_aggregated_measure("gm_map", values) == float(np.exp(np.float64(21189 / 2048)))
    assert trec_eval.compute_aggregated_measure("gm_map", values) == pytrec_eval.compute_aggregated_measure("gm_map", values)


@given(measure=NAMES, values=st.lists(st.floats(-20, 20, allow_nan=False), min_size=1, max_size=300))
def test_aggregated_sums_exactly_and_within_rounding_of_pytrec_eval(measure, values):
    ours, theirs = trec_eval.compute_aggregated_measure(measure, values), pytrec_eval.compute_aggregated_measure(measure, values)
    if measure.startswith("num_"):
        assert ours == float(sum(Fraction(v) for v in values))
    elif measure.startswith("gm_"):
        assert ours == float(np.exp(np.float64(exact_mean(values))))  # numpy's exp, as pytrec_eval's
    else:
        assert ours == exact_mean(values)
    # numpy rounds each addition: the two differ by at most its rounding of the partial sums
    bound = len(values) * 2.0 ** -52 * sum(abs(v) for v in values) * (math.exp(20) if measure.startswith("gm_") else 1)
    assert abs(ours - theirs) <= bound


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy warns where it makes NaN; evalcore does not
@np.errstate(all="ignore")
def test_aggregated_edge_cases_as_pytrec_eval():
    for measure in ("num_ret", "map", "gm_map"):
        for values in ([math.inf, 1.0], [math.inf, -math.inf], [math.nan, 1.0], [-math.inf], []):
            ours, theirs = trec_eval.compute_aggregated_measure(measure, values), pytrec_eval.compute_aggregated_measure(
                measure, values)
            assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (measure, values)
    assert trec_eval.compute_aggregated_measure("num_q", []) == 0.0


@slow_examples(300)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores))
def test_aggregated_mean_is_evaluate_runs_mean(value):
    """Over per-query values the evaluator gives, the mean is evaluate_run's (§5's exact mean)."""
    qrels, run = pytrec_safe(value["qrels"], value["run"])
    per_query = trec_eval.RelevanceEvaluator(qrels, {"P_5", "num_ret"}).evaluate(run)
    if not per_query:
        return
    result = evaluate_run({q: qrels[q] for q in per_query}, {q: run[q] for q in per_query}, ["P_5", "num_ret"])
    assert trec_eval.compute_aggregated_measure("P_5", [v["P_5"] for v in per_query.values()]) == result.mean["P_5"]
    total = trec_eval.compute_aggregated_measure("num_ret", [v["num_ret"] for v in per_query.values()])
    assert total == sum(len(run[q]) for q in per_query)


# ---- supported_measures and supported_nicknames --------------------------------------------------

def test_supported_sets_are_pytrec_evals_where_it_has_the_measures():
    assert trec_eval.supported_measures - NEW_IN_TREC_EVAL_10 <= pytrec_eval.supported_measures
    assert trec_eval.supported_measures | trec_eval.unsupported_measures == set(TREC_EVAL_TABLE)
    assert not trec_eval.supported_measures & trec_eval.unsupported_measures
    for nickname, members in trec_eval.supported_nicknames.items():
        theirs = pytrec_eval.supported_nicknames[nickname]
        assert members - NEW_IN_TREC_EVAL_10 <= theirs, nickname
        # every measure of pytrec_eval's nickname that evalcore has is in evalcore's
        assert theirs & trec_eval.supported_measures <= members, nickname
    assert {"official", "set", "all_trec"} <= set(trec_eval.supported_nicknames)


@pytest.mark.parametrize("name", sorted(trec_eval.supported_measures) + sorted(trec_eval.supported_nicknames))
def test_every_supported_name_is_taken_and_as_pytrec_eval_computes_it(name):
    mine = trec_eval.RelevanceEvaluator(QRELS, {name}).evaluate(RUN)
    assert list(mine) == list(RUN) and all(mine[q] for q in mine)
    if name in pytrec_eval.supported_measures:
        same_values(mine, pytrec_eval.RelevanceEvaluator(QRELS, {name}).evaluate(RUN), QRELS)
    elif name in pytrec_eval.supported_nicknames:  # pytrec_eval's keys of the measures evalcore has
        peer = pytrec_eval.RelevanceEvaluator(QRELS, {name}).evaluate(RUN)
        same_values(mine, {q: {k: v for k, v in keys.items() if k in mine[q]} for q, keys in peer.items()}, QRELS)


def test_unsupported_names_say_why():
    for name in sorted(trec_eval.unsupported_measures):
        with pytest.raises(ValueError, match=f"unsupported measure {name}: "):
            trec_eval.RelevanceEvaluator(QRELS, {name})
    with pytest.raises(ValueError, match="not a trec_eval measure name"):
        trec_eval.RelevanceEvaluator(QRELS, {"nDCG@10"})


# ---- RelevanceEvaluator: the measures both have, and reuse ------------------------------------

CUTOFF_BASES = ["P", "recall", "ndcg_cut", "map_cut", "success"]


@st.composite
def measure_sets(draw):
    """Names of the measures both have, bare or with cutoffs in pytrec_eval's spellings."""
    names = set(draw(st.lists(st.sampled_from(BOTH), min_size=1, max_size=6)))
    for base in draw(st.lists(st.sampled_from([b for b in CUTOFF_BASES if b in BOTH]), max_size=3)):
        cutoffs = draw(st.lists(st.integers(1, 12), min_size=1, max_size=3, unique=True))
        names.add(draw(st.sampled_from([f"{base}.{','.join(map(str, cutoffs))}", f"{base}_{cutoffs[0]}"])))
    if "iprec_at_recall" in BOTH and draw(st.booleans()):
        names.add("iprec_at_recall." + ",".join(draw(st.lists(st.sampled_from(["0.25", "0.5", "1"]), min_size=1,
                                                                           max_size=2, unique=True))))
    return names


@slow_examples(300)
@given(value=runs(grades=("integer",), ranked_lists=False, scores=float32_scores), measures=measure_sets(),
       level=st.sampled_from([1, 2]))
def test_measures_of_both_as_pytrec_eval(value, measures, level):
    qrels, run = pytrec_safe(value["qrels"], value["run"])
    mine = trec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)
    same_values(mine, pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run), qrels, level)


@slow_examples(200)
@given(values=st.lists(runs(grades=("integer",), ranked_lists=False, scores=float32_scores), min_size=2, max_size=4),
       measures=measure_sets())
def test_an_evaluator_reused_keeps_its_measures_and_cutoffs(values, measures):
    """cvangysel/pytrec_eval#38: pytrec_eval's evaluator returned one cutoff of each measure
    from its second run on. One evaluator here gives, run after run, what a new one gives,
    and what pytrec-eval-terrier (fixed in 0.5.4) gives."""
    qrels, _ = pytrec_safe(values[0]["qrels"], {})
    reused = trec_eval.RelevanceEvaluator(qrels, measures)
    peer = pytrec_eval.RelevanceEvaluator(qrels, measures)
    for value in values + values[:1]:
        run = {q: docs for q, docs in value["run"].items() if docs}
        got = reused.evaluate(run)
        assert got == trec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
        same_values(got, peer.evaluate(run), qrels)


def test_an_evaluator_reused_keeps_every_cutoff():
    """The issue's own example: ndcg_cut.10,100,2 keeps its three keys on the second run."""
    evaluator = trec_eval.RelevanceEvaluator(QRELS, {"map", "ndcg_cut.10,100,2"})
    first, second = evaluator.evaluate(RUN), evaluator.evaluate(RUN)
    assert first == second
    assert list(second["q1"]) == ["map", "ndcg_cut_2", "ndcg_cut_10", "ndcg_cut_100"]


def test_all_trec_gives_pytrec_eval_s_keys_and_values():
    # issue 23: {"all_trec"} gave 64 of pytrec-eval-terrier's 95 keys; relstring is 0.0 in both
    mine = trec_eval.RelevanceEvaluator(QRELS, {"all_trec"}).evaluate(RUN)
    theirs = pytrec_eval.RelevanceEvaluator(QRELS, {"all_trec"}).evaluate(RUN)
    assert len(theirs["q1"]) == 95 and all(list(mine[q]) == list(theirs[q]) for q in theirs)
    same_values(mine, theirs, QRELS)
