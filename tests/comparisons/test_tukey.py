"""Issue 26, item 5: the Tukey HSD over all pairs of a call's runs. The randomized one
(Carterette 2012) agrees bit for bit between the native kernel and the reference; the classic
one equals statsmodels' pairwise_tukeyhsd on the same per-query values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import slow_examples
from evalcore.comparisons import tukey
from evalcore.comparisons.compare_runs import _Native
from evalcore.reference.comparisons.compare_runs import _Reference

VALUES = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda x: x if abs(x) > 1e-300 else 0.0)


@st.composite
def matrices(draw, max_systems=5, max_queries=12):
    m = draw(st.integers(2, max_systems))
    n = draw(st.integers(1, max_queries))
    pool = draw(st.lists(VALUES, min_size=1, max_size=4))  # few distinct values: ties in sums and ranges
    cells = draw(st.lists(st.sampled_from(pool) | VALUES, min_size=m * n, max_size=m * n))
    return np.array(cells, dtype=np.float64).reshape(m, n)


# The reference's loop costs about m·n·resamples Python steps (up to 5·12·64 here, ~20 ms an
# example), so 200 examples keep the property near four seconds.
@slow_examples(200)
@given(matrices(), st.integers(0, 2**64 - 1), st.integers(1, 64))
def test_randomized_counts_native_equal_reference(matrix, seed, resamples):
    native = _Native.randomized_tukey(matrix, seed, resamples, 2)
    assert native == _Reference.randomized_tukey(matrix, seed, resamples, 1)
    assert native == _Native.randomized_tukey(matrix, seed, resamples, 1)  # threads change nothing
    assert all(0 <= c <= resamples for c in native)


def test_randomized_counts_are_a_valid_test():
    # Every resample's range is at least its own observed pair difference when no value moves
    # (one system's values repeated): the largest observed difference is never below 1/R.
    rng = np.random.default_rng(7)
    same = np.tile(rng.random(20), (3, 1))
    assert _Native.randomized_tukey(same, 0, 100, 2) == [100, 100, 100]  # no difference: every range >= 0
    far = np.vstack([rng.random(20), rng.random(20) + 5.0, rng.random(20)])
    counts = _Native.randomized_tukey(far, 0, 500, 2)
    assert counts[0] == 0 and counts[2] == 0 and counts[1] > 400  # a, b and b, c differ; a, c do not


def test_kernel_refuses_what_it_cannot_test():
    with pytest.raises(ValueError, match="two systems"):
        _Native.randomized_tukey(np.zeros((1, 3)), 0, 10, 1)
    with pytest.raises(ValueError, match="two systems"):
        _Reference.randomized_tukey(np.zeros((1, 3)), 0, 10, 1)


@slow_examples(25)  # statsmodels and scipy's studentized range: 0.33 s an example measured here, 8 s in all
@given(st.integers(3, 6), st.integers(2, 30), st.integers(0, 2**32 - 1), st.sampled_from([0.01, 0.05, 0.1]))
def test_classic_equals_statsmodels(m, n, seed, alpha):
    multicomp = pytest.importorskip("statsmodels.stats.multicomp")
    rng = np.random.default_rng(seed)
    matrix = np.round(rng.random((m, n)) + rng.random((m, 1)), int(rng.integers(1, 4)))  # ties too
    names = [f"r{i}" for i in range(m)]  # statsmodels sorts the groups by name: the same order
    theirs = multicomp.pairwise_tukeyhsd(matrix.ravel(), np.repeat(names, n), alpha=alpha)
    statistics, pvalues, intervals, reject = tukey._classic(matrix, alpha)
    assert pvalues == theirs.pvalues.tolist()
    assert intervals == [tuple(x) for x in theirs.confint.tolist()]
    assert reject == theirs.reject.tolist()


def test_compare_reports_groups():
    folder = "examples/compare"
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / folder
    runs = {name: str(root / f"{name}.txt") for name in ("bm25", "rm3", "dense")}
    result = evalcore.compare(str(root / "qrels.txt"), runs, ["nDCG@10"], tukey=("randomized", "classic"),
                              resamples=2000)
    for kind in ("randomized", "classic"):
        assert result.tukey["nDCG@10"][kind]["groups"] == [["dense"], ["rm3", "bm25"]]
        assert [p["significant"] for p in result.tukey["nDCG@10"][kind]["pairs"]] == [False, True, True]
    assert "runs not significantly different: {dense} {rm3, bm25}" in result.to_text()
    with pytest.raises(ValueError, match="tukey: unknown 'hsd'"):
        evalcore.compare(str(root / "qrels.txt"), runs, ["nDCG@10"], tukey="hsd")


def test_groups_are_maximal_stretches():
    names = ["a", "b", "c", "d"]
    means = [0.4, 0.3, 0.2, 0.1]
    significant = {(i, j): False for i in range(4) for j in range(i + 1, 4)}
    significant[(0, 2)] = significant[(0, 3)] = significant[(1, 3)] = True
    assert tukey.groups(names, means, significant) == [["a", "b"], ["b", "c"], ["c", "d"]]
    assert tukey.groups(names, [math.nan, 0.3, 0.2, 0.1], {k: False for k in significant}) == [["b", "c", "d", "a"]]
