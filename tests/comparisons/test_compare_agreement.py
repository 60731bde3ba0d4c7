"""evalcore.compare against scipy.stats and statsmodels (both in the test extra): the t and
Wilcoxon p-values equal scipy.stats.ttest_rel / wilcoxon on the same pairs to 1e-12
relative, the t intervals scipy's confidence_interval, the corrections statsmodels'
multipletests exactly (adjusted p-values to the last bit, and the rejections) — on generated
runs with ties, zeros and few queries, and on generated differences directly.

Two places where scipy is not the yardstick, both documented in docs/compare.md:
- for one degree of freedom and |t| < 1e-5, scipy's stdtr loses accuracy (2e-9 relative at
  t = 1.1e-8); there the p-value is checked against the closed form 1 − (2/π)·atan|t|;
- differences equal up to rounding (but not all equal) make t rounding noise in any
  implementation; there both p-values must be tiny, not equal."""

from __future__ import annotations

import functools
import gc
import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import evalcore
from evalcore.comparisons import corrections, distributions
from evalcore.comparisons import procedure as _comparing
from evalcore.comparisons.compare_runs import _Native
from compare_strategies import at_most, compare_inputs

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")
multitest = pytest.importorskip("statsmodels.stats.multitest")

RELATIVE = 1e-12


def close(ours, theirs, relative=RELATIVE):
    if math.isnan(theirs) or math.isnan(ours):
        return math.isnan(theirs) and math.isnan(ours)
    if theirs < 1e-300:  # below the normal range relative accuracy means nothing
        return ours < 1e-290
    return abs(ours - theirs) <= relative * abs(theirs)


def multipletests(p, alpha, method):
    """statsmodels' multipletests, without the gc.collect() its Holm branch runs on every
    call (0.1-0.2 s in a test process's heap, nearly all of this file's cost otherwise)."""
    collect, gc.collect = gc.collect, lambda *args: 0
    try:
        return multitest.multipletests(np.array(p), alpha=alpha, method=method)
    finally:
        gc.collect = collect


def scipy_t(a, b):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return stats.ttest_rel(a, b)


def scipy_wilcoxon(a, b):
    return _scipy_wilcoxon(np.asarray(a, dtype=np.float64).tobytes(), np.asarray(b, dtype=np.float64).tobytes())


@functools.lru_cache(maxsize=4096)
def _scipy_wilcoxon(a, b):
    # Cached: scipy's exact permutation branch (n <= 13 with ties or zeros) calls the
    # statistic once per sign pattern in Python, 0.2 s for n = 10.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return float(stats.wilcoxon(np.frombuffer(a), np.frombuffer(b)).pvalue)
        except ValueError:  # one zero difference: scipy's permutation test refuses a single value
            return math.nan


def nearly_constant(d):
    """Differences equal up to rounding, but not all equal."""
    return d.size >= 2 and 0 < np.std(d) <= 1e-9 * np.max(np.abs(d))


def check_t(ours_p, t, a, b):
    d = np.asarray(a) - np.asarray(b)
    if d.size < 2:
        assert math.isnan(ours_p)
        return
    result = scipy_t(a, b)
    if nearly_constant(d):  # t is noise (module docstring)
        assert ours_p < 1e-10 and result.pvalue < 1e-10, (ours_p, result.pvalue, d)
        return
    if d.size == 2 and abs(t) < 1e-5:  # scipy's stdtr(1, ·) near 0 (module docstring)
        assert close(ours_p, 1.0 - 2.0 / math.pi * math.atan(abs(t)), 1e-15)
        return
    assert close(ours_p, float(result.pvalue)), (ours_p, result.pvalue, d.tolist())
    if not math.isnan(result.statistic) and math.isfinite(t):
        # The mean of differences that nearly cancel is rounding noise in scipy's summation
        # (ours is exact): allow that noise, on the scale of mean |d| / standard error.
        noise = 1e-13 * float(np.mean(np.abs(d))) / (float(np.std(d, ddof=1)) / math.sqrt(d.size))
        assert abs(t - result.statistic) <= 1e-12 * abs(result.statistic) + noise, (t, result.statistic)


def paired_values(evaluations, row):
    """The pair's values on its paired queries, from separate evaluations (not compare's own alignment)."""
    values = {name: dict(zip(evaluations[name].query_ids, evaluations[name].values(row["measure"]).tolist()))
              for name in (row["run"], row["baseline"])}
    both = sorted(q for q in values[row["run"]] if q in values[row["baseline"]]
                  and not math.isnan(values[row["run"]][q]) and not math.isnan(values[row["baseline"]][q]))
    return (np.array([values[row["run"]][q] for q in both]), np.array([values[row["baseline"]][q] for q in both]))


def costly_for_scipy(d):
    """scipy's Wilcoxon would enumerate 2^n sign patterns in Python (n <= 13 with ties or
    zeros) and n > 10: seconds a call at n = 13 on this machine."""
    nonzero = np.abs(d[d != 0])
    return 10 < d.size <= 13 and (nonzero.size < d.size or np.unique(nonzero).size < nonzero.size)


# At most 40 examples, Wilcoxon checked against scipy except where that costs seconds
# (costly_for_scipy): scipy's permutation branch is common here (few paired queries, ties),
# up to six calls an example. test_t_and_wilcoxon_equal_scipy_on_differences covers those
# sizes; this test is about the pairing of generated runs.
@at_most(40)
@given(data=compare_inputs(max_queries=40, max_runs=3), measures=st.sampled_from([["P@3", "nDCG@5"], ["RR", "AP"], ["R@2"]]),
       missing=st.sampled_from(["skip", "zero"]), confidence=st.sampled_from([0.95, 0.9, 0.99]))
def test_t_and_wilcoxon_equal_scipy_on_generated_runs(data, measures, missing, confidence):
    result = evalcore.compare(data["qrels"], data["runs"], measures, tests=("t", "wilcoxon"), intervals="t",
                              confidence=confidence, missing=missing)
    evaluations = {name: evalcore.evaluate_run(data["qrels"], run, measures, missing=missing)
                   for name, run in data["runs"].items()}
    for row in result.to_dict()["comparisons"]:
        a, b = paired_values(evaluations, row)
        assert row["queries"] == len(a)
        nan = float("nan")
        t = row["tests"]["t"]
        check_t(nan if t["p"] is None else t["p"], nan if t["statistic"] is None else t["statistic"], a, b)
        w = row["tests"]["wilcoxon"]["p"]
        if not costly_for_scipy(a - b):
            assert close(nan if w is None else w, scipy_wilcoxon(a, b)), (w, (a - b).tolist())
        low, high = row["intervals"]["t"]["low"], row["intervals"]["t"]["high"]
        if len(a) >= 2 and not nearly_constant(a - b) and np.std(a - b) > 0:
            interval = scipy_t(a, b).confidence_interval(confidence)
            scale = float(np.std(a - b))  # the bounds are mean ± q·se: compare on the scale of the spread
            assert abs(low - interval.low) <= 1e-12 * scale and abs(high - interval.high) <= 1e-12 * scale


differences = st.one_of(
    st.sampled_from([0.0, -0.0, 0.1, -0.1, 0.25, -0.25, 0.5, 1 / 3, -1 / 3, 1.0, -1.0]),  # ties and zeros
    st.floats(-1, 1, allow_nan=False),
)


# At most 300 examples (about 20 ms each, most of it scipy's permutation branch for short
# lists with ties, 0.2 s at n = 10); its costly sizes, 11 to 13, have the next test to themselves.
@given(a=st.lists(st.floats(0, 1), min_size=1, max_size=80), d=st.lists(differences, min_size=1, max_size=80))
@example(a=[0.5] * 14, d=[0.1] * 7 + [-0.1] * 7)  # 14 with ties: the normal approximation
@example(a=[0.5] * 13, d=[0.0] * 13)  # all zeros, permutation branch
@example(a=[0.5] * 60, d=[0.0] * 59 + [0.25])  # over 50, one nonzero
@example(a=[0.3, 0.7], d=[0.2, -0.2 + 2**-54])  # two queries, t near 0
@at_most(300)
def test_t_and_wilcoxon_equal_scipy_on_differences(a, d):
    n = min(len(a), len(d))
    x = np.array(a[:n])
    y = x - np.array(d[:n])  # y is whatever makes x − y (binary64) what it is
    (summary,) = _Native.paired_summaries([(x, y)], True, 1)
    t, p, _ = _comparing._t_test(summary)
    check_t(p, t, x, y)
    w, _ = distributions.wilcoxon_two_sided(summary.n, summary.zeros, summary.r_plus2, summary.tie_term,
                                            summary.has_ties, summary.ranks2)
    if not costly_for_scipy(x - y):
        assert close(w, scipy_wilcoxon(x, y)), (w, (x - y).tolist())


# 4 examples and one fixed: each is one scipy call of 1 to 7 s (2^11 to 2^13 sign patterns in Python).
@at_most(4)
@given(d=st.lists(st.sampled_from([0.0, 0.1, -0.1, 0.25, -0.25, 0.5, -0.5, 1.0]), min_size=11, max_size=13))
@example(d=[0.0, 0.25, -0.25, 0.25, 0.5, -0.1, 0.1, 0.1, 1.0, -1.0, 0.25, 1 / 3])  # zeros and ties
def test_wilcoxon_equals_scipy_on_11_to_13_differences_with_ties(d):
    x = np.full(len(d), 0.5)
    y = x - np.array(d)
    (summary,) = _Native.paired_summaries([(x, y)], True, 1)
    w, method = distributions.wilcoxon_two_sided(summary.n, summary.zeros, summary.r_plus2, summary.tie_term,
                                                 summary.has_ties, summary.ranks2)
    assert close(w, scipy_wilcoxon(x, y)), (w, method, (x - y).tolist())


@at_most(1000)  # a few ms an example, mostly hypothesis's own
@given(t=st.one_of(st.floats(0, 40), st.floats(0, 1e6)), df=st.one_of(st.integers(1, 60), st.integers(1, 10**7)))
def test_student_t_tail_equals_scipy(t, df):
    ours = distributions.student_t_two_sided(t, df)
    if df == 1 and t < 1e-5:
        assert close(ours, 1.0 - 2.0 / math.pi * math.atan(t), 1e-15)
    else:
        assert close(ours, float(2 * special.stdtr(df, -t))), (t, df)


@at_most(1000)  # a few ms an example, mostly hypothesis's own
@given(p=st.one_of(st.floats(1e-30, 1 - 1e-16), st.sampled_from([0.025, 0.975, 0.005, 0.995, 0.05, 0.95])),
       df=st.one_of(st.integers(1, 60), st.integers(1, 10**7)))
def test_student_t_quantile_equals_scipy(p, df):
    ours = distributions.student_t_quantile(p, df)
    if abs(p - 0.5) >= 0.01:
        theirs = float(special.stdtrit(df, p))
        assert abs(ours - theirs) <= 1e-12 * abs(theirs), (p, df, ours, theirs)
    else:
        # Near 1/2, stdtrit itself is off (6.4e-10 relative at p = 0.50025, df = 4, by mpmath
        # at 40 digits; ours 1.1e-13): check that the quantile inverts the tail instead.
        assert abs(distributions.student_t_two_sided(ours, df) - 2 * min(p, 1 - p)) <= 4e-16


@at_most(1000)  # a few ms an example, mostly hypothesis's own
@given(z=st.floats(-38, 38))
def test_normal_tail_equals_scipy(z):
    assert close(distributions.normal_two_sided(z), float(2 * special.ndtr(-abs(z))), 1e-13)


# ---- corrections -------------------------------------------------------------------------

p_values = st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 0.05, 0.01, 0.5, 0.049999999999999996])),
                    min_size=1, max_size=40)
STATSMODELS = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}


@at_most(500)  # about 10 ms an example, mostly hypothesis's own (lists of 40 floats)
@given(p=p_values, method=st.sampled_from(list(STATSMODELS)), alpha=st.sampled_from([0.05, 0.01, 0.1, 0.5]))
@example(p=[0.01, 0.01, 0.04, 0.04, 0.2], method="holm", alpha=0.05)
@example(p=[0.02, 0.02, 0.02, 0.06], method="bh", alpha=0.05)
def test_corrections_equal_statsmodels_exactly(p, method, alpha):
    adjusted, reject = corrections.adjust(p, method, alpha)
    theirs_reject, theirs_adjusted, _, _ = multipletests(p, alpha, STATSMODELS[method])
    assert adjusted == theirs_adjusted.tolist()  # to the last bit
    assert reject == theirs_reject.tolist()


def test_compare_corrects_each_test_over_its_family():
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{j}": int(g) for j, g in enumerate(rng.integers(0, 3, 8))} for i in range(30)}
    runs = {name: {q: [f"d{j}" for j in rng.permutation(8)[:5]] for q in qrels} for name in "abcd"}
    for correction, method in STATSMODELS.items():
        result = evalcore.compare(qrels, runs, ["nDCG@5", "AP"], tests=("t", "randomization"), correction=correction,
                                  resamples=500)
        rows = result.to_dict()["comparisons"]
        assert len(rows) == 12
        for test in ("t", "randomization"):
            raw = [r["tests"][test]["p"] for r in rows]
            reject, adjusted, _, _ = multipletests(raw, 0.05, method)
            assert [r["tests"][test]["pAdjusted"] for r in rows] == adjusted.tolist()
            assert [r["tests"][test]["significant"] for r in rows] == reject.tolist()
