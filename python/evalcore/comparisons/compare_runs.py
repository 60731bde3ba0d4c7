"""Comparing systems: paired significance tests, confidence intervals and multiple-comparison
control over evaluated runs, with the resampling loops in the native core (threaded, the GIL
released). Twin: :mod:`evalcore.reference.compare`; definitions: docs/compare.md."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from .procedure import GroupOutcome, PairedSummary, compare as _compare
from .comparison import Comparison
from .tukey_hsd import TukeyHsd, tukey_hsd_of_runs, tukey_hsd_of_values
from ..runs.evaluate import evaluate_run


class _Native:
    """The native kernels (cpp/stats/, bound in cpp/bindings/register_stats.cpp)."""

    @staticmethod
    def evaluate_run(qrels: Any, run: Any, measures: List[str], threads: int, **options: Any) -> Any:
        return evaluate_run(qrels, run, measures, threads=threads, **options)

    @staticmethod
    def paired_summaries(items: List[Tuple[np.ndarray, Optional[np.ndarray]]], ranks: bool,
                         threads: int) -> List[PairedSummary]:
        return [PairedSummary(*t) for t in _core.paired_summaries(items, ranks, threads)]

    @staticmethod
    def randomized_tukey(values: np.ndarray, seed: int, resamples: int, threads: int) -> List[int]:
        return _core.randomized_tukey(values, seed, resamples, threads)

    @staticmethod
    def resample(groups: List[Tuple[np.ndarray, List[Tuple[int, int]]]], seed: int, resamples: int, threads: int,
                 sign_flip: bool, bootstrap: bool) -> List[GroupOutcome]:
        out = []
        for (values, pairs), raw in zip(groups, _core.resample(groups, seed, resamples, threads, sign_flip, bootstrap)):
            means, deltas, flips, boots, mean_bytes, delta_bytes = raw
            sorted_means = sorted_deltas = None
            if mean_bytes is not None and delta_bytes is not None:
                # A stable sort, as the reference's sorted(): -0.0 and 0.0 (a tiny negative mean
                # divided to zero) are equal keys and must keep the same order in both.
                resampled = np.frombuffer(mean_bytes, dtype=np.float64).reshape(values.shape[0], resamples)
                sorted_means = np.sort(resampled, axis=1, kind="stable")
                resampled = np.frombuffer(delta_bytes, dtype=np.float64).reshape(len(pairs), resamples)
                sorted_deltas = np.sort(resampled, axis=1, kind="stable")
            out.append(GroupOutcome(means, deltas, flips, boots, sorted_means, sorted_deltas))
        return out


def compare(
    qrels: Any,
    runs: Mapping[str, Any],
    measures: Union[str, Sequence[str]],
    *,
    baseline: Optional[str] = None,
    tests: Union[str, Sequence[str]] = ("t", "randomization"),
    intervals: Union[str, Sequence[str]] = ("t",),
    correction: str = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int = 0,
    threads: Optional[int] = None,
    tukey: Union[str, Sequence[str]] = (),
    **evaluate_run_options: Any,
) -> Comparison:
    """Compare runs on paired queries: significance tests, intervals, corrections.

    Args:
        qrels: what :func:`evalcore.evaluate_run` takes (dict, TREC file, table); may be
            None when every run is a RunEvaluation.
        runs: name → a run as evaluate_run takes it (dict, TREC file path, table), or a
            :class:`~evalcore.RunEvaluation` that has every measure. At least two.
        measures: measure names (evaluate_run's).
        baseline: a run name: each other run is compared with it. None: every pair, the
            run given earlier being the baseline of the pair.
        tests: any of ``"t"`` (paired Student's t, two-sided), ``"wilcoxon"`` (signed-rank,
            scipy's defaults), ``"randomization"`` (Fisher's paired sign-flip test) and
            ``"bootstrap"`` (paired bootstrap test of the mean difference).
        intervals: any of ``"t"`` (Student's t interval) and ``"bootstrap"`` (percentile
            bootstrap), for each run's mean and each pair's delta. The bootstrap costs
            about as much as the bootstrap test (a resampled sum of every series per
            resample), so it is asked for, not a default.
        correction: ``"holm"``, ``"bonferroni"``, ``"bh"`` (Benjamini–Hochberg) or
            ``"none"``, applied per test to every (pair, measure) comparison of the call.
        alpha: the significance level of the corrected tests.
        confidence: the intervals' confidence level.
        resamples: resamples of the randomization test and the bootstrap (1 to 10,000,000).
        seed: 0 <= seed < 2**64; the resampling results are a function of the inputs,
            resamples and seed alone (not of threads, platform or the other pairs).
        threads: worker threads (default: all CPUs), for evaluation and resampling.
        tukey: any of ``"randomized"`` (the randomized Tukey HSD, Carterette 2012, with the
            call's resamples and seed) and ``"classic"`` (statsmodels' pairwise_tukeyhsd;
            needs scipy): all pairs of the runs as one family, on the queries where every
            run has the measure (``Comparison.tukey``).
        **evaluate_run_options: relevant_at_least, gain, ties, missing, max_retrieved,
            judged_only, max_line_bytes, as evaluate_run takes them; a RunEvaluation given
            must have been computed with the same options (ValueError otherwise).

    Returns:
        :class:`~evalcore.Comparison`: ``.table`` (a row per run, baseline and measure),
        ``.summary`` (a row per run and measure), ``.to_markdown()``, ``.to_latex()``,
        ``.to_json()``.

    A pair is compared on the queries where the measure is defined for both runs (a judged
    query a run lacks follows ``missing`` as in evaluate_run); the others are dropped and
    counted by reason. docs/compare.md defines every number.
    """
    return _compare(_Native, qrels, runs, measures, baseline=baseline, tests=tests, intervals=intervals,
                    correction=correction, alpha=alpha, confidence=confidence, resamples=resamples, seed=seed,
                    threads=threads, evaluation_options=evaluate_run_options, tukey=tukey)


def tukey_hsd(
    qrels: Any,
    runs: Mapping[str, Any],
    measure: str,
    *,
    kind: str = "randomized",
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: int = 0,
    threads: Optional[int] = None,
    **evaluate_run_options: Any,
) -> TukeyHsd:
    """Tukey's HSD over all pairs of the runs, as one family, on one measure.

    The same numbers as ``compare(qrels, runs, [measure], tukey=kind, ...).tukey[measure][kind]``
    (the same readers, evaluation and code): the runs' per-query values on the queries
    where every run has the measure (the others dropped and counted), then

    - ``kind="randomized"``: the randomized Tukey HSD (Carterette 2012): per resample each
      query's values are shuffled among the runs by the counter-based generator of
      docs/compare.md (domain ``"tukeyhsd"``, keyed by `seed` and the resample), and a pair's
      p-value is (count + 1) / (resamples + 1), count the resamples whose range of the runs'
      means is at least the pair's observed difference; a function of the inputs, `resamples`
      and `seed` alone (not of `threads`);
    - ``kind="classic"``: Tukey's HSD of a one-way analysis of variance with the runs as
      groups, equal to statsmodels' ``pairwise_tukeyhsd`` on the same values (needs scipy).

    Args:
        qrels: what :func:`evalcore.evaluate_run` takes; may be None when every run is a
            :class:`~evalcore.RunEvaluation`.
        runs: name → a run as evaluate_run takes it, or a RunEvaluation that has `measure`.
            At least two.
        measure: one measure name (evaluate_run's).
        kind: ``"randomized"`` (default) or ``"classic"``.
        alpha: the significance level of the decisions (0 < alpha < 1).
        resamples: resamples of the randomized kind (1 to 10,000,000).
        seed: 0 <= seed < 2**64.
        threads: worker threads (default: all CPUs).
        **evaluate_run_options: as :func:`evalcore.compare` takes them.

    Returns:
        :class:`~evalcore.TukeyHsd`: the pairs with their p-values and decisions, the groups
        of runs not significantly different, ``to_json()`` and a notebook display.

    Raises:
        ValueError, TypeError: a bad argument (named); the evaluation's errors as
            :func:`evalcore.evaluate_run` raises them.
        ImportError: ``kind="classic"`` without scipy.
    """
    return tukey_hsd_of_runs(_Native, qrels, runs, measure, kind=kind, alpha=alpha, resamples=resamples, seed=seed,
                             threads=threads, evaluation_options=evaluate_run_options)


def tukey_hsd_values(
    values: Mapping[str, Mapping[str, float]],
    *,
    kind: str = "randomized",
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: int = 0,
    threads: Optional[int] = None,
) -> TukeyHsd:
    """:func:`tukey_hsd` on per-query values already computed (by evalcore or anything else).

    Args:
        values: run name → {query ID: value}; at least two runs. The queries used are those
            every run has a value for (NaN: no value), in query-ID order (code points); the
            others are dropped and counted. Values must be finite numbers (or NaN).
        kind, alpha, resamples, seed, threads: as :func:`tukey_hsd`.

    Returns:
        :class:`~evalcore.TukeyHsd` (its ``measure`` is None). With the values of
        :meth:`Comparison.per_query` it equals :func:`tukey_hsd` on the same runs.

    Raises:
        ValueError, TypeError: a bad argument or value (named).
        ImportError: ``kind="classic"`` without scipy.
    """
    return tukey_hsd_of_values(_Native, values, kind=kind, alpha=alpha, resamples=resamples, seed=seed,
                               threads=threads)
