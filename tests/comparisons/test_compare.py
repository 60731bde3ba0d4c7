"""evalcore.compare: native and reference agree bit for bit (tests/common.py's harness) on
generated runs and on raw resampling groups of any finite values; results do not depend on
threads or on the other pairs of the call; the generator is SplitMix64 as defined; the
randomization test compares exact sums; dropped queries are counted by reason; the
renderings; the errors. Agreement with scipy and statsmodels: test_compare_agreement.py."""

from __future__ import annotations

import inspect
import json
import struct
import subprocess
import sys
import textwrap
import threading
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, expect_result, run_all
from evalcore.comparisons.compare_runs import _Native
from evalcore.reference.comparisons import compare_runs as reference_compare
from compare_strategies import at_most, compare_inputs

ALL_TESTS = ("t", "wilcoxon", "randomization", "bootstrap")
ALL_INTERVALS = ("t", "bootstrap")
measure_sets = st.sampled_from([["P@3"], ["nDCG@5", "RR"], ["AP", "P@2"], ["R@4", "nDCG"]])


# Each example runs both implementations, the reference's resampling loops in Python (about
# 20-50 ms an example on the 2-core machine): 600 in the ci profile keep compare's share of CI
# near two minutes. The kernels' differential tests below add 400 and 600 more.
@at_most(600)
@given(data=compare_inputs(), measures=measure_sets, use_baseline=st.booleans(),
       missing=st.sampled_from(["skip", "zero"]), seed=st.integers(0, 2**64 - 1), resamples=st.integers(1, 40),
       threads=st.integers(1, 4), correction=st.sampled_from(["holm", "bonferroni", "bh", "none"]),
       confidence=st.sampled_from([0.95, 0.5, 0.999]))
def test_native_and_reference_agree_bit_for_bit(data, measures, use_baseline, missing, seed, resamples, threads,
                                                 correction, confidence):
    baseline = list(data["runs"])[-1] if use_baseline else None
    expect_result("compare", data["qrels"], data["runs"], measures, baseline=baseline, tests=ALL_TESTS,
                  intervals=ALL_INTERVALS, correction=correction, confidence=confidence, resamples=resamples, seed=seed,
                  threads=threads, missing=missing)


# Values that make the fixed-point sums take each of their forms: measure-like values (two
# carry-free digits), a span of about 120 bits (two words with carries), and any doubles
# (34 words), with signed zeros, subnormals and values whose sums overflow.
awkward_values = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, 0.5, 1 / 3, 0.1, 2 / 3, 5e-324, -5e-324, 1e-300, 1e300, -1e300, 1.7976931348623157e308]),
    st.floats(0, 1),
    st.floats(allow_nan=False, allow_infinity=False),
)


@st.composite
def resampling_groups(draw, values=awkward_values):
    groups = []
    for _ in range(draw(st.integers(1, 3))):
        series, n = draw(st.integers(1, 4)), draw(st.integers(1, 20))
        matrix = np.array([[draw(values) for _ in range(n)] for _ in range(series)], dtype=np.float64)
        pairs = draw(st.lists(st.tuples(st.integers(0, series - 1), st.integers(0, series - 1)), max_size=5))
        groups.append((matrix, pairs))
    return groups


def assert_outcomes_identical(native, reference):
    assert len(native) == len(reference)
    for a, b in zip(native, reference):
        assert_identical(a.means, b.means)
        assert_identical(a.deltas, b.deltas)
        assert a.sign_flip_counts == b.sign_flip_counts and a.bootstrap_counts == b.bootstrap_counts
        for mine, theirs in ((a.bootstrap_means, b.bootstrap_means), (a.bootstrap_deltas, b.bootstrap_deltas)):
            assert (mine is None) == (theirs is None)
            if mine is not None:
                assert_identical([[float(x) for x in row] for row in mine], [list(row) for row in theirs])


WIDE_TWO_WORDS = [1.0, 2.0**-66 * (1 + 2.0**-52), 0.75, -(2.0**-60)]  # about 119 bits apart: carries needed


# About 30 ms an example (up to 34-word sums, resampled in Python by the reference).
@at_most(400)
@given(groups=resampling_groups(), seed=st.integers(0, 2**64 - 1), resamples=st.integers(0, 30),
       threads=st.integers(1, 5))
@example(groups=[(np.array([WIDE_TWO_WORDS, WIDE_TWO_WORDS[::-1]]), [(0, 1), (1, 0)])], seed=3, resamples=25, threads=2)
@example(groups=[(np.array([[0.1, 0.2, -0.3, 0.0], [0.0, 0.0, 0.0, 0.0]]), [(0, 1)])], seed=0, resamples=30, threads=3)
def test_resampling_kernels_agree_on_any_finite_values(groups, seed, resamples, threads):
    native = _Native.resample(groups, seed, resamples, threads, True, True)
    reference = reference_compare._Reference.resample(groups, seed, resamples, threads, True, True)
    assert_outcomes_identical(native, reference)


@at_most(600)  # about 10 ms an example
@given(values=st.lists(awkward_values, min_size=0, max_size=60), others=st.lists(st.floats(-1, 1), max_size=60),
       ranks=st.booleans())
def test_paired_summaries_agree(values, others, ranks):
    n = min(len(values), len(others))
    a, b = np.array(values[:n], dtype=np.float64), np.array(others[:n], dtype=np.float64)
    with np.errstate(all="ignore"):
        finite = bool(np.isfinite(a - b).all())
    items = [(a, None)] + ([(a, b)] if finite else [])
    native = _Native.paired_summaries(items, ranks, 2)
    reference = reference_compare._Reference.paired_summaries(items, ranks, 1)
    for x, y in zip(native, reference):
        assert_identical(list(x), list(y))


def test_both_implementations_have_one_signature():
    # The twins spell their signature out each (for help() and IDEs): it must not drift.
    assert inspect.signature(evalcore.compare) == inspect.signature(evalcore.reference.compare)
    assert inspect.signature(evalcore.compare).parameters["tests"].default == ("t", "randomization")


def test_the_generator_is_splitmix64():
    # SplitMix64's first outputs from seed 0 (Steele, Lea and Flood's reference values).
    assert [reference_compare.splitmix64(0, k) for k in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                                                        0x06C45D188009454F]
    assert reference_compare.SIGN_FLIP_DOMAIN == 0x7369676E666C6970
    assert reference_compare.BOOTSTRAP_DOMAIN == 0x626F6F7473747270
    draws = reference_compare.bootstrap_indices(7, 3, 1000)
    assert len(draws) == 1000 and all(0 <= i < 1000 for i in draws)
    assert sum(reference_compare.sign_flips(1, 0, 6400)) == pytest.approx(3200, abs=200)


def exact_sign_flip_count(differences, seed, resamples):
    """The randomization count from its definition, in rationals, independently of both cores."""
    d = [Fraction(x) for x in differences]
    observed = abs(sum(d))
    count = 0
    for r in range(resamples):
        signs = reference_compare.sign_flips(seed, r, len(d))
        count += abs(sum(-x if s else x for x, s in zip(d, signs))) >= observed
    return count


@pytest.mark.parametrize("differences", [[0.1, 0.2, -0.3], [0.1, 0.1], [1 / 3, 1 / 3, -2 / 3, 0.0], [0.0, 0.0, 0.0],
                                         [0.7, -0.1, -0.2, -0.4, 0.3, -0.3]])
def test_randomization_counts_ties_exactly(differences):
    # Flipping every sign gives -S, whose size equals |S| exactly; in binary64, 0.1 + 0.2 - 0.3
    # and -0.1 - 0.2 + 0.3 differ, so a floating-point count would miss such ties.
    runs = np.array([differences, [0.0] * len(differences)], dtype=np.float64)
    for threads in (1, 3):
        outcome = _Native.resample([(runs, [(0, 1)])], 11, 257, threads, True, False)[0]
        assert outcome.sign_flip_counts == [exact_sign_flip_count(differences, 11, 257)]


def test_all_zero_differences_give_p_one():
    qrels = {f"q{i}": {"a": 1, "b": 0} for i in range(12)}
    run = {q: ["a", "b"] for q in qrels}
    result = evalcore.compare(qrels, {"x": run, "y": dict(run)}, ["nDCG@5"], tests=ALL_TESTS, resamples=99)
    row = result.to_dict()["comparisons"][0]
    assert row["tests"]["randomization"]["p"] == 1.0 == row["tests"]["bootstrap"]["p"]
    assert row["tests"]["t"]["p"] is None  # 0/0: undefined, as scipy's NaN
    assert row["delta"] == 0.0 and row["effectSize"] is None


# Four calls with every test and 300 resamples an example (about 60 ms); thread counts are
# also drawn by the differential tests above, whose reference runs on one.
@at_most(100)
@given(data=compare_inputs(max_runs=3), seed=st.integers(0, 2**64 - 1))
def test_results_do_not_depend_on_threads(data, seed):
    results = [evalcore.compare(data["qrels"], data["runs"], ["nDCG@5", "P@2"], tests=ALL_TESTS, resamples=300,
                                seed=seed, threads=t) for t in (1, 2, 3, 8)]
    for other in results[1:]:
        assert_identical(results[0], other)


def test_a_pair_does_not_depend_on_the_rest_of_the_call():
    rng = np.random.default_rng(5)
    qrels = {f"q{i}": {f"d{j}": int(g) for j, g in enumerate(rng.integers(0, 3, 6))} for i in range(40)}
    runs = {name: {q: [f"d{j}" for j in rng.permutation(6)[:4]] for q in qrels} for name in ("a", "b", "c")}
    two = evalcore.compare(qrels, {"a": runs["a"], "b": runs["b"]}, ["nDCG@5"], tests=ALL_TESTS, resamples=500, seed=9)
    three = evalcore.compare(qrels, runs, ["nDCG@5", "AP"], tests=ALL_TESTS, resamples=500, seed=9)
    pair = two.to_dict()["comparisons"][0]
    same = next(r for r in three.to_dict()["comparisons"] if (r["run"], r["baseline"], r["measure"]) == ("b", "a", "nDCG@5"))
    for test in ALL_TESTS:
        assert_identical(pair["tests"][test]["p"], same["tests"][test]["p"])
    assert_identical(pair["intervals"], same["intervals"])
    assert three.families["t"]["size"] == 6 and two.families["t"]["size"] == 1


def test_dropped_queries_are_counted_by_reason():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 0}, "q4": {"a": 2}, "q5": {"b": 1}, "q6": {"c": 1}}
    run = {"q1": ["a"], "q2": ["b", "a"], "q3": ["a"], "q4": ["a"], "q5": ["b"]}  # lacks q6
    lacking = {"q1": ["a"], "q3": ["a"], "q4": ["b"], "q5": ["a"]}  # lacks q2 and q6
    reasons = {"missingInBoth": 1, "missingInRun": 1, "missingInBaseline": 0, "undefinedInBoth": 1, "undefinedInRun": 0,
               "undefinedInBaseline": 0}
    # q6 is judged and in neither run; a third run that has it must not hide it from the pair.
    for runs in ({"full": run, "lacking": lacking}, {"full": run, "lacking": lacking, "third": {"q6": ["c"]}}):
        outcome = run_all("compare", qrels, runs, ["nDCG@3"], resamples=10)
        row = outcome[1].to_dict()["comparisons"][0]
        assert (row["run"], row["baseline"]) == ("lacking", "full")
        # q3 has no relevant judgment: nDCG undefined in both; q2 is not in "lacking" (missing="skip").
        assert row["droppedReasons"] == reasons
        assert row["queries"] == 3 and row["dropped"] == 3
    zero = run_all("compare", qrels, {"full": run, "lacking": lacking}, ["nDCG@3"], resamples=10, missing="zero")[1]
    row = zero.to_dict()["comparisons"][0]
    assert row["queries"] == 5 and row["dropped"] == 1 and row["droppedReasons"]["undefinedInBoth"] == 1


def test_run_evaluations_and_their_options():
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"a": 1}, "q3": {"c": 1}}
    runs = {"x": {"q1": ["a", "b"], "q2": ["b", "a"], "q3": ["c"]}, "y": {"q1": ["b"], "q2": ["a"], "q3": ["a", "c"]}}
    direct = expect_result("compare", qrels, runs, ["nDCG@2", "AP"], resamples=20, gain="exponential")
    evaluated = {k: evalcore.evaluate_run(qrels, v, ["AP", "nDCG@2", "P@1"], gain="exponential") for k, v in runs.items()}
    assert_identical(evalcore.compare(None, evaluated, ["nDCG@2", "AP"], resamples=20), direct)
    assert_identical(evalcore.compare(qrels, {"x": evaluated["x"], "y": runs["y"]}, ["nDCG@2", "AP"], resamples=20,
                                      gain="exponential"), direct)
    with pytest.raises(ValueError, match="other options"):
        evalcore.compare(qrels, {"x": evaluated["x"], "y": runs["y"]}, ["AP"], resamples=20)  # y: linear gain
    # trec_eval's -M and -J reach evaluate_run, and are options a RunEvaluation must share.
    cut = expect_result("compare", qrels, runs, ["AP"], resamples=20, max_retrieved=1, judged_only=True)
    evaluated = {k: evalcore.evaluate_run(qrels, v, ["AP"], max_retrieved=1, judged_only=True) for k, v in runs.items()}
    assert_identical(evalcore.compare(None, evaluated, ["AP"], resamples=20), cut)
    assert cut.evaluation["maxRetrieved"] == 1 and cut.evaluation["judgedOnly"] is True
    assert cut != evalcore.compare(qrels, runs, ["AP"], resamples=20)
    with pytest.raises(ValueError, match=r"other options than the call's options \(judgedOnly, maxRetrieved"):
        evalcore.compare(qrels, {"x": evaluated["x"], "y": runs["y"]}, ["AP"], resamples=20)


@pytest.mark.parametrize("kwargs, message", [
    (dict(baseline="z"), "baseline 'z' is not one of the runs"),
    (dict(tests=("t", "sign")), "tests: unknown 'sign'"),
    (dict(tests=("t", "t")), "names one twice"),
    (dict(intervals="normal"), "intervals: unknown 'normal'"),
    (dict(correction="fdr_by"), "correction must be one of"),
    (dict(resamples=0), "resamples must be an int from 1"),
    (dict(resamples=True), "resamples must be an int"),
    (dict(seed=-1), "seed must be an int with 0 <= seed < 2\\*\\*64"),
    (dict(seed=2**64), "seed must be"),
    (dict(alpha=1.0), "alpha must be a number with 0 < alpha < 1"),
    (dict(confidence=0), "confidence must be"),
    (dict(threads=0), "threads must be a positive int"),
    (dict(colour="red"), "unexpected keyword argument 'colour'"),
    (dict(missing="drop"), "missing must be 'skip' or 'zero'"),
    (dict(max_retrieved=-1), "max_retrieved must be an int >= 0 or None"),
    (dict(judged_only=1), "judged_only must be a bool"),
])
def test_errors_are_the_same_in_both(kwargs, message):
    qrels = {"q1": {"a": 1}}
    outcome = run_all("compare", qrels, {"x": {"q1": ["a"]}, "y": {"q1": []}}, ["AP"], **kwargs)
    assert outcome[0] == "error"
    assert pytest.importorskip("re").search(message, outcome[1][1]), outcome[1]


@pytest.mark.parametrize("measures, spellings", [
    (["nDCG@10", "ndcg@10"], "'nDCG@10' and 'ndcg@10'"),
    (["P@5", "P_5"], "'P@5' and 'P_5'"),
    (["AP", "map"], "'AP' and 'map'"),
    (["AP", "RR", "ndcg_cut.5", "nDCG@5"], "'ndcg_cut_5' and 'nDCG@5'"),
])
def test_aliases_of_one_measure_are_refused(measures, spellings):
    # One measure compared twice would double the correction's family (Bonferroni's p 0.24 -> 0.48).
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    outcome = run_all("compare", qrels, {"x": {"q1": ["a"], "q2": ["b"]}, "y": {"q1": [], "q2": ["b"]}}, measures)
    assert outcome[0] == "error", outcome
    assert f"name one measure twice: {spellings}" in outcome[1][1], outcome[1]


def test_distinct_measures_of_one_family_are_not_aliases():
    qrels = {"q1": {"a": 1}, "q2": {"b": 2}}
    runs = {"x": {"q1": ["a"], "q2": ["b"]}, "y": {"q1": [], "q2": ["b"]}}
    outcome = run_all("compare", qrels, runs, ["P@5", "P@10", "nDCG@5", "ndcg_cut.10"])
    assert outcome[0] == "ok", outcome


def test_shape_errors():
    qrels = {"q1": {"a": 1}}
    for runs, message in (({"x": {"q1": ["a"]}}, "at least two runs"), ([("x", {})], "must be a mapping"),
                          ({"": {}, "y": {}}, "non-empty str")):
        outcome = run_all("compare", qrels, runs, ["AP"])
        assert outcome[0] == "error" and message in outcome[1][1]
    evaluated = evalcore.evaluate_run(qrels, {"q1": ["a"]}, ["AP"])
    outcome = run_all("compare", qrels, {"x": evaluated, "y": {"q1": ["a"]}}, ["AP", "P@1"])
    assert outcome[0] == "error" and "without P@1" in outcome[1][1]
    outcome = run_all("compare", None, {"x": evaluated, "y": {"q1": ["a"]}}, ["AP"])
    assert outcome[0] == "error" and "needs qrels" in outcome[1][1]
    outcome = run_all("compare", qrels, {"x": {"q1": ["a"]}, "y": {"q1": ["a"]}}, ["AP@x"])
    assert outcome[0] == "error" and outcome[1][0] == "ValueError"


def significant_example():
    rng = np.random.default_rng(1)
    qrels = {f"q{i:02d}": {f"d{j}": 1 for j in range(3)} for i in range(40)}
    good = {q: ["d0", "d1", "d2", "x"] for q in qrels}
    bad = {q: ["x", "y", "z", "d0"] if rng.random() < 0.8 else ["d0"] for q in qrels}
    middle = {q: ["x", "d0", "d1"] for q in qrels}
    return qrels, {"bad_run": bad, "middle": middle, "good": good}


def test_renderings():
    qrels, runs = significant_example()
    result = evalcore.compare(qrels, runs, ["nDCG@3", "P@1"], tests=("randomization", "t"), resamples=999)
    markdown = result.to_markdown()
    assert markdown.splitlines()[0] == "| # | Run | nDCG@3 (n=40) | P@1 (n=40) |"  # the queries every run has
    good_row = next(line for line in markdown.splitlines() if "| good |" in line)
    assert "**1.0000**ᵃᵇ" in good_row  # best, and better than a (bad_run) and b (middle)
    assert "randomization test on the pair's own paired queries, holm correction over 6 comparisons" in markdown
    latex = result.to_latex()
    # the table of means (a header, 3 runs), then every comparison (a header, 3 pairs × 2 measures)
    assert "bad\\_run" in latex and "\\textbf{1.0000}$^{ab}$" in latex and latex.count("\\\\") == 4 + 7
    assert "\\toprule" in latex and "\\bottomrule" in latex
    data = json.loads(result.to_json())
    assert data["family"]["sizes"] == {"randomization": 6, "t": 6}
    assert data["conventions"]["pValue"].startswith("randomization and bootstrap: (count + 1) / (resamples + 1)")
    assert data["tests"] == ["randomization", "t"] and "threads" not in data
    text = result.to_text()
    assert text.splitlines()[0].split()[:9] == ["run", "baseline", "measure", "n", "dropped", "mean", "baseline", "mean",
                                                "delta"]
    with pytest.raises(ValueError, match="one of the tests compared"):
        result.to_markdown(test="wilcoxon")


def test_tables():
    pd = pytest.importorskip("pandas")
    qrels, runs = significant_example()
    result = evalcore.compare(qrels, runs, ["nDCG@3"], baseline="middle", tests=ALL_TESTS, intervals=ALL_INTERVALS,
                              resamples=200)
    table = result.table
    assert isinstance(table, pd.DataFrame) and len(table) == 2
    assert list(table.columns[:9]) == ["run", "baseline", "measure", "queries", "dropped", "mean", "baseline_mean",
                                       "delta", "effect_size"]
    for test in ALL_TESTS:
        assert {f"p_{test}", f"p_adjusted_{test}", f"significant_{test}"} <= set(table.columns)
    assert {"ci_low_t", "ci_high_t", "ci_low_bootstrap", "ci_high_bootstrap"} <= set(table.columns)
    assert list(table["baseline"]) == ["middle", "middle"] and list(table["run"]) == ["bad_run", "good"]
    summary = result.summary
    assert len(summary) == 3 and list(summary.columns[:4]) == ["run", "measure", "queries", "mean"]
    means = evalcore.evaluate_run(qrels, runs["good"], ["nDCG@3"]).mean["nDCG@3"]
    assert summary.loc[summary["run"] == "good", "mean"].item() == means
    low, high = summary.loc[summary["run"] == "middle", ["ci_low_bootstrap", "ci_high_bootstrap"]].iloc[0]
    middle_mean = summary.loc[summary["run"] == "middle", "mean"].item()
    assert low <= middle_mean <= high


def test_no_test_and_no_interval():
    qrels, runs = significant_example()
    result = evalcore.compare(qrels, runs, ["P@1"], tests=(), intervals=())
    assert result.families == {} and "No test was run" in result.to_markdown()
    row = result.to_dict()["comparisons"][0]
    assert row["tests"] == {} and row["intervals"] == {} and row["delta"] is not None


def test_delta_is_the_exact_mean_difference():
    # docs/contract.md §5's rule for the differences: their exact sum, rounded once, divided by n.
    qrels = {f"q{i}": {"a": 1, "b": 1, "c": 1} for i in range(7)}
    runs = {"x": {q: ["a", "z", "b"] for q in qrels}, "y": {q: ["z", "a"] for q in qrels}}
    row = evalcore.compare(qrels, runs, ["nDCG@3"], resamples=5).to_dict()["comparisons"][0]
    x = evalcore.evaluate_run(qrels, runs["x"], ["nDCG@3"]).values("nDCG@3").tolist()
    y = evalcore.evaluate_run(qrels, runs["y"], ["nDCG@3"]).values("nDCG@3").tolist()
    exact_sum = sum(Fraction(b) - Fraction(a) for a, b in zip(x, y))
    assert struct.pack("<d", row["delta"]) == struct.pack("<d", float(exact_sum) / len(x))
    assert row["effectSize"] is None  # every query differs by the same amount: no spread to standardize by


def test_tables_without_pandas(monkeypatch):
    qrels, runs = significant_example()
    result = evalcore.compare(qrels, runs, ["nDCG@3"], baseline="middle", resamples=50)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    table, summary = result.table, result.summary
    assert isinstance(table, dict) and table["run"] == ["bad_run", "good"] and table["baseline"] == ["middle"] * 2
    assert table["p_randomization"] == [r["tests"]["randomization"]["p"] for r in result.to_dict()["comparisons"]]
    assert isinstance(summary, dict) and summary["run"] == ["bad_run", "middle", "good"]


def test_import_and_compare_leave_scipy_pandas_and_statsmodels_alone():
    # The t and Wilcoxon distributions are evalcore's own: the runtime dependency stays numpy.
    code = textwrap.dedent("""
        import sys
        import evalcore
        qrels = {f"q{i}": {"a": 1, "b": i % 3} for i in range(20)}
        runs = {"x": {q: ["a", "b"] for q in qrels}, "y": {q: ["b", "a"] for q in qrels}}
        result = evalcore.compare(qrels, runs, ["nDCG@2", "AP"], tests=("t", "wilcoxon", "randomization", "bootstrap"),
                                  intervals=("t", "bootstrap"), resamples=99)
        result.to_json(), result.to_markdown(), result.to_latex(), result.to_text()
        print(sorted(m for m in ("scipy", "pandas", "statsmodels", "pyarrow") if m in sys.modules))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_resampling_releases_the_gil():
    # One resampling call of about half a second on one worker thread: while it runs, this
    # thread must keep running Python code (it could not if the call held the GIL).
    rng = np.random.default_rng(0)
    values = rng.random((4, 20_000))
    groups = [(values, [(1, 0), (2, 0), (3, 1)])]
    start = time.perf_counter()
    _Native.resample(groups, 1, 20, 1, False, True)
    resamples = max(20, int(20 * 0.5 / max(time.perf_counter() - start, 1e-6)))
    span = {}

    def work():
        span["start"] = time.perf_counter()
        _Native.resample(groups, 1, resamples, 1, False, True)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    quarter = (span["end"] - span["start"]) / 4
    inside = [t for t in ticks if span["start"] + quarter < t < span["end"] - quarter]
    assert len(inside) > 100, (len(ticks), span)
