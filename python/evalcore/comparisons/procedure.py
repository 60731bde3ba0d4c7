"""What :func:`evalcore.compare` and its reference twin share: the checks of the arguments,
the evaluation and pairing of the runs, and the assembly of the result from what a backend
computes (moments, signed ranks, resampling). Nothing here imports the compiled core: the
native backend (evalcore/compare_runs.py) and the reference (evalcore/reference/compare_runs.py)
each bring their own kernels, and everything else is this one code, so the two can only
differ where their kernels do.

docs/compare.md defines every number; the comments here say where each step is decided.
"""

from __future__ import annotations

import math
import os
from typing import Any, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import corrections, distributions, tukey as _tukey
from .comparison import Comparison
from ..runs.result import RunEvaluation, check_max_line_bytes, check_options, options_dict, parse_measures
from ..runs.measures import MeasureSpec

TESTS = ("t", "wilcoxon", "randomization", "bootstrap")
INTERVALS = ("t", "bootstrap")
EVALUATION_OPTIONS = ("relevant_at_least", "gain", "ties", "missing", "max_retrieved", "judged_only", "max_line_bytes")
MAX_RESAMPLES = 10_000_000
_EVALUATION_DEFAULTS: Dict[str, Any] = {"relevant_at_least": 1, "gain": "linear", "ties": "score", "missing": "skip",
                                         "max_retrieved": None, "judged_only": False}

class PairedSummary(NamedTuple):
    """What a backend computes of one pair's paired differences d = run − baseline (binary64)."""

    n: int
    mean: float  # exact sum of d rounded once, / n
    ss: float  # Σ (d − mean)², exact sum of binary64 squares rounded once
    zeros: int
    r_plus2: int
    tie_term: int
    has_ties: bool
    ranks2: Tuple[int, ...]


class GroupOutcome(NamedTuple):
    """What a backend's resampling returns for one group (see cpp/stats/resampling.hpp)."""

    means: List[float]
    deltas: List[float]
    sign_flip_counts: Optional[List[int]]
    bootstrap_counts: Optional[List[int]]
    bootstrap_means: Any  # per series, its resampled means sorted ascending (numpy rows or lists); or None
    bootstrap_deltas: Any  # per pair, likewise its resampled deltas


class Options(NamedTuple):
    baseline: Optional[str]
    tests: Tuple[str, ...]
    intervals: Tuple[str, ...]
    correction: str
    alpha: float
    confidence: float
    resamples: int
    seed: int
    threads: int


def _choice_tuple(value: Any, valid: Sequence[str], name: str) -> Tuple[str, ...]:
    items = (value,) if isinstance(value, str) else value
    try:
        items = tuple(items)
    except TypeError:
        raise TypeError(f"{name} must be a name or a sequence of names from {', '.join(valid)}") from None
    for item in items:
        if item not in valid:
            raise ValueError(f"{name}: unknown {item!r}; choose from {', '.join(valid)}")
    if len(set(items)) != len(items):
        raise ValueError(f"{name}: {list(items)!r} names one twice")
    return items


def _probability(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise ValueError(f"{name} must be a number with 0 < {name} < 1, got {value!r}")
    return float(value)


def check_compare_options(runs: Any, baseline: Any, tests: Any, intervals: Any, correction: Any, alpha: Any,
                          confidence: Any, resamples: Any, seed: Any, threads: Any) -> Options:
    """compare()'s own keywords, checked; ValueError/TypeError name the argument."""
    if not isinstance(runs, Mapping):
        raise TypeError(f"runs must be a mapping of names to runs, got {type(runs).__name__}")
    if len(runs) < 2:
        raise ValueError(f"compare needs at least two runs, got {len(runs)}")
    for name in runs:
        if not isinstance(name, str) or not name:
            raise TypeError(f"run names must be non-empty str, got {name!r}")
    if baseline is not None and baseline not in runs:
        raise ValueError(f"baseline {baseline!r} is not one of the runs ({', '.join(map(repr, runs))})")
    if correction not in corrections.CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(map(repr, corrections.CORRECTIONS))}, got {correction!r}")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or not 1 <= resamples <= MAX_RESAMPLES:
        raise ValueError(f"resamples must be an int from 1 to {MAX_RESAMPLES:,}, got {resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed!r}")
    if threads is None:
        threads = os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    return Options(baseline, _choice_tuple(tests, TESTS, "tests"), _choice_tuple(intervals, INTERVALS, "intervals"),
                   correction, _probability(alpha, "alpha"), _probability(confidence, "confidence"), resamples, seed,
                   min(threads, 256))


def _evaluation_options(given: Dict[str, Any]) -> Dict[str, Any]:
    unknown = [k for k in given if k not in EVALUATION_OPTIONS]
    if unknown:
        raise TypeError(f"compare() got an unexpected keyword argument {unknown[0]!r} "
                        f"(evaluate_run's options are {', '.join(EVALUATION_OPTIONS)})")
    options = dict(_EVALUATION_DEFAULTS)
    options.update({k: v for k, v in given.items() if k != "max_line_bytes"})
    checked = check_options(options["relevant_at_least"], options["gain"], options["ties"], options["missing"], None,
                            options["max_retrieved"], options["judged_only"])
    if "max_line_bytes" in given:
        check_max_line_bytes(given["max_line_bytes"])
    return options_dict(checked, options["gain"], options["ties"], options["missing"])  # as RunEvaluation.options


def evaluate_runs(backend: Any, qrels: Any, runs: Mapping[str, Any], measures: List[str],
                  given: Dict[str, Any], threads: int) -> Tuple[Dict[str, RunEvaluation], Dict[str, Any]]:
    """Each run as a RunEvaluation with every measure: evaluated here with the call's options,
    or given. All must share their evaluation options (comparing runs scored differently is
    a mistake): those of the call's keywords, else, when every run comes evaluated, theirs."""
    call_options = _evaluation_options(given)
    evaluated: Dict[str, RunEvaluation] = {}
    for name, run in runs.items():
        if isinstance(run, RunEvaluation):
            missing = [m for m in measures if m not in run.measures]
            if missing:
                raise ValueError(f"run {name!r} is a RunEvaluation without {', '.join(missing)}; "
                                 f"evaluate it with every measure compared")
            evaluated[name] = run
        else:
            if qrels is None:
                raise ValueError(f"run {name!r} needs qrels to be evaluated (qrels is None)")
            evaluated[name] = backend.evaluate_run(qrels, run, measures, threads=threads, **given)
    fixed_by_call = bool(set(given) - {"max_line_bytes"}) or any(not isinstance(r, RunEvaluation) for r in runs.values())
    reference_name, reference = ((None, call_options) if fixed_by_call else
                                 next((n, e.options) for n, e in evaluated.items()))
    for name, evaluation in evaluated.items():
        if evaluation.options != reference:
            differing = sorted(k for k in set(reference) | set(evaluation.options)
                               if reference.get(k) != evaluation.options.get(k))
            against = "the call's options" if reference_name is None else f"run {reference_name!r}"
            raise ValueError(f"run {name!r} was evaluated with other options than {against} ({', '.join(differing)}: "
                             f"{evaluation.options} vs {reference}); evaluate every run the same way")
    return evaluated, dict(reference)


class _Aligned(NamedTuple):
    """Every run's values over the union of their queries, sorted by ID (code point order):
    the one query order of the call, so a result does not depend on the order a run lists
    its queries in."""

    queries: List[str]
    present: Dict[str, np.ndarray]  # run -> bool mask: the run's evaluation has the query
    values: Dict[Tuple[str, str], np.ndarray]  # (run, measure) -> float64, NaN where undefined or absent
    lacking: Dict[str, FrozenSet[str]]  # run -> judged queries it lacks and its evaluation left out (missing="skip")


def _align(evaluations: Dict[str, RunEvaluation], measures: List[str]) -> _Aligned:
    queries = sorted(set().union(*(e.query_ids for e in evaluations.values())))
    position = {q: i for i, q in enumerate(queries)}
    present, values, lacking = {}, {}, {}
    for name, evaluation in evaluations.items():
        lacking[name] = frozenset(evaluation.missing_query_ids) - set(evaluation.query_ids)
        rows = np.fromiter((position[q] for q in evaluation.query_ids), dtype=np.intp, count=len(evaluation.query_ids))
        mask = np.zeros(len(queries), dtype=bool)
        mask[rows] = True
        present[name] = mask
        for m in measures:
            column = np.full(len(queries), np.nan)
            column[rows] = evaluation.values(m)
            if np.isinf(column).any():
                raise ValueError(f"run {name!r}: {m} has an infinite per-query value; compare takes finite values")
            values[(name, m)] = column
    return _Aligned(queries, present, values, lacking)


def _pairs(names: List[str], baseline: Optional[str]) -> List[Tuple[str, str]]:
    """(run, baseline) rows: each run against the baseline, or every pair with the earlier
    run of the mapping as the baseline."""
    if baseline is not None:
        return [(name, baseline) for name in names if name != baseline]
    return [(names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))]


def _dropped(aligned: _Aligned, run: str, base: str, measure: str) -> Dict[str, int]:
    """Why judged queries are not paired: absent from both runs' evaluations or from one
    (missing="skip" leaves a judged query out of a run that lacks it), or undefined in one
    or both."""
    in_run, in_base = aligned.present[run], aligned.present[base]
    def_run = ~np.isnan(aligned.values[(run, measure)])
    def_base = ~np.isnan(aligned.values[(base, measure)])
    both = in_run & in_base
    return {
        "missingInBoth": len(aligned.lacking[run] & aligned.lacking[base]),
        "missingInRun": int(np.count_nonzero(in_base & ~in_run)),
        "missingInBaseline": int(np.count_nonzero(in_run & ~in_base)),
        "undefinedInBoth": int(np.count_nonzero(both & ~def_run & ~def_base)),
        "undefinedInRun": int(np.count_nonzero(both & ~def_run & def_base)),
        "undefinedInBaseline": int(np.count_nonzero(both & def_run & ~def_base)),
    }


class _Groups:
    """Series (a run's values of a measure on a set of queries) grouped by their query set:
    series of one set share the resamples' signs and draws, which is what pairs them."""

    def __init__(self) -> None:
        self.order: List[bytes] = []
        self.positions: Dict[bytes, np.ndarray] = {}
        self.series: Dict[bytes, List[Tuple[str, str]]] = {}
        self.pairs: Dict[bytes, List[Tuple[int, int]]] = {}

    def series_index(self, positions: np.ndarray, run: str, measure: str) -> Tuple[bytes, int]:
        key = positions.tobytes()
        if key not in self.positions:
            self.order.append(key)
            self.positions[key] = positions
            self.series[key], self.pairs[key] = [], []
        members = self.series[key]
        if (run, measure) not in members:
            members.append((run, measure))
        return key, members.index((run, measure))

    def add_pair(self, positions: np.ndarray, run: str, base: str, measure: str) -> Tuple[bytes, int]:
        key, a = self.series_index(positions, run, measure)
        _, b = self.series_index(positions, base, measure)
        self.pairs[key].append((a, b))
        return key, len(self.pairs[key]) - 1

    def matrices(self, aligned: _Aligned) -> List[Tuple[np.ndarray, List[Tuple[int, int]]]]:
        out = []
        for key in self.order:
            rows = [aligned.values[s][self.positions[key]] for s in self.series[key]]
            out.append((np.ascontiguousarray(np.vstack(rows)), list(self.pairs[key])))
        return out


def percentile_interval(sorted_values: Sequence[float], confidence: float) -> Tuple[float, float]:
    """The percentile bootstrap interval: the (1 − confidence)/2 and 1 − (1 − confidence)/2
    quantiles of the sorted resampled means, each by linear interpolation between the order
    statistics around (R − 1)·q (Hyndman and Fan's type 7, numpy's default)."""
    tail = (1.0 - confidence) / 2.0
    return _quantile(sorted_values, tail), _quantile(sorted_values, 1.0 - tail)


def _quantile(x: Sequence[float], q: float) -> float:
    h = (len(x) - 1) * q
    i = math.floor(h)
    low = float(x[i])
    g = h - i
    if g == 0.0 or i + 1 >= len(x):
        return low
    high = float(x[i + 1])
    return low if high == low else low + g * (high - low)


def _t_interval(n: int, mean: float, ss: float, confidence: float) -> Tuple[float, float]:
    """scipy's ttest_1samp(...).confidence_interval: mean ± t_q · sqrt(var/n), var = ss/(n−1),
    in scipy's order of operations."""
    if n < 2:
        return math.nan, math.nan
    nf = float(n)
    denominator = math.sqrt((ss / nf) * (nf / (nf - 1.0)) / nf)
    tail = (1.0 - confidence) / 2.0
    low = distributions.student_t_quantile(tail, n - 1) * denominator + mean
    high = distributions.student_t_quantile(1.0 - tail, n - 1) * denominator + mean
    return low, high


def _t_test(summary: PairedSummary) -> Tuple[float, float, float]:
    """(t, two-sided p, standardized effect mean/sd) as scipy.stats.ttest_rel computes t:
    v = mean((d − mean)²)·n/(n − 1), t = mean / sqrt(v/n)."""
    n = summary.n
    if n < 2:
        return math.nan, math.nan, math.nan
    nf = float(n)
    variance = (summary.ss / nf) * (nf / (nf - 1.0))
    denominator = math.sqrt(variance / nf)
    if denominator == 0.0:
        t = math.nan if summary.mean == 0.0 else math.copysign(math.inf, summary.mean)
    else:
        t = summary.mean / denominator
    sd = math.sqrt(variance)
    effect = summary.mean / sd if sd != 0.0 else math.nan
    return t, distributions.student_t_two_sided(t, n - 1), effect


def _wilcoxon(summary: PairedSummary) -> Tuple[float, float, str]:
    p, method = distributions.wilcoxon_two_sided(summary.n, summary.zeros, summary.r_plus2, summary.tie_term,
                                                 summary.has_ties, summary.ranks2)
    count = summary.n - summary.zeros
    r_plus = summary.r_plus2 / 2
    statistic = min(r_plus, count * (count + 1) / 2 - r_plus) if summary.n else math.nan  # scipy's two-sided statistic
    return statistic, p, method


def _distinct_measures(specs: List[MeasureSpec]) -> List[str]:
    """The measures' names, refusing two spellings of one measure ("nDCG@10" and "ndcg@10",
    "P@5" and "P_5"): it would be compared twice and count twice in the correction's family."""
    spelled: Dict[Tuple[Any, ...], str] = {}
    for spec in specs:
        identity = spec[1:]  # all but the name: the kind and its parameters
        if identity in spelled:
            raise ValueError(f"measures name one measure twice: {spelled[identity]!r} and {spec.name!r}; "
                             f"list it once")
        spelled[identity] = spec.name
    return [spec.name for spec in specs]


def compare(backend: Any, qrels: Any, runs: Mapping[str, Any], measures: Any, *, baseline: Optional[str],
            tests: Any, intervals: Any, correction: str, alpha: float, confidence: float, resamples: int, seed: int,
            threads: Optional[int], evaluation_options: Dict[str, Any], tukey: Any = ()) -> Comparison:
    """The body of compare() for a backend (see evalcore.compare for the arguments)."""
    options = check_compare_options(runs, baseline, tests, intervals, correction, alpha, confidence, resamples, seed,
                                    threads)
    tukey_kinds = _choice_tuple(tukey, _tukey.KINDS, "tukey")
    names = _distinct_measures(parse_measures(measures))
    evaluations, run_options = evaluate_runs(backend, qrels, runs, names, dict(evaluation_options), options.threads)
    aligned = _align(evaluations, names)
    run_names = list(runs)
    pairs = _pairs(run_names, options.baseline)

    groups = _Groups()
    run_rows: List[Dict[str, Any]] = []
    run_slots: List[Tuple[str, str, np.ndarray, Optional[Tuple[bytes, int]]]] = []
    for m in names:
        for name in run_names:
            positions = np.flatnonzero(~np.isnan(aligned.values[(name, m)]))
            slot = groups.series_index(positions, name, m) if positions.size else None
            run_slots.append((name, m, positions, slot))
    rows: List[Dict[str, Any]] = []
    pair_slots: List[Tuple[np.ndarray, Optional[Tuple[bytes, int]]]] = []
    for m in names:
        for run, base in pairs:
            positions = np.flatnonzero(~np.isnan(aligned.values[(run, m)]) & ~np.isnan(aligned.values[(base, m)]))
            if positions.size and not np.isfinite(aligned.values[(run, m)][positions] -
                                                  aligned.values[(base, m)][positions]).all():
                raise ValueError(f"{run!r} − {base!r} on {m} overflows binary64; compare takes finite differences")
            slot = groups.add_pair(positions, run, base, m) if positions.size else None
            pair_slots.append((positions, slot))
            reasons = _dropped(aligned, run, base, m)
            rows.append({"run": run, "baseline": base, "measure": m, "queries": int(positions.size),
                         "dropped": sum(reasons.values()), "droppedReasons": reasons})

    resampling = {"randomization", "bootstrap"} & set(options.tests) or "bootstrap" in options.intervals
    outcomes = dict(zip(groups.order, backend.resample(
        groups.matrices(aligned), options.seed, options.resamples if resampling else 0, options.threads,
        "randomization" in options.tests, "bootstrap" in options.tests or "bootstrap" in options.intervals)))

    moments = backend.paired_summaries([(aligned.values[(name, m)][positions], None)
                                        for name, m, positions, _ in run_slots], False, options.threads)
    for (name, m, positions, slot), summary in zip(run_slots, moments):
        row: Dict[str, Any] = {"run": name, "measure": m, "queries": int(positions.size), "mean": math.nan,
                               "intervals": {}}
        if slot is not None:
            outcome = outcomes[slot[0]]
            row["mean"] = outcome.means[slot[1]]
            if "t" in options.intervals:
                row["intervals"]["t"] = _t_interval(summary.n, summary.mean, summary.ss, options.confidence)
            if "bootstrap" in options.intervals:
                row["intervals"]["bootstrap"] = percentile_interval(outcome.bootstrap_means[slot[1]], options.confidence)
        for kind in options.intervals:
            row["intervals"].setdefault(kind, (math.nan, math.nan))
        run_rows.append(row)

    summaries = backend.paired_summaries(
        [(aligned.values[(r["run"], r["measure"])][positions], aligned.values[(r["baseline"], r["measure"])][positions])
         for r, (positions, _) in zip(rows, pair_slots)], "wilcoxon" in options.tests, options.threads)
    for row, (positions, slot), summary in zip(rows, pair_slots, summaries):
        series = groups.pairs[slot[0]][slot[1]] if slot is not None else None
        _fill_pair(row, slot, series, summary, outcomes, options)
    families = _correct(rows, options)
    # issue 26: every run's mean over the queries where every run of the call has the measure
    # (the means a table of all runs can set side by side), and the Tukey HSD over them.
    tukey_results: Dict[str, Any] = {}
    for m in names:
        shared = np.flatnonzero(np.logical_and.reduce([~np.isnan(aligned.values[(name, m)]) for name in run_names]))
        means = backend.paired_summaries([(aligned.values[(name, m)][shared], None) for name in run_names], False,
                                         options.threads)
        for row in run_rows:
            if row["measure"] == m:
                row["sharedQueries"] = int(shared.size)
                row["sharedMean"] = means[run_names.index(row["run"])].mean if shared.size else math.nan
        if tukey_kinds:
            matrix = np.ascontiguousarray(np.vstack([aligned.values[(name, m)][shared] for name in run_names]))
            tukey_results[m] = _tukey.tukey_hsd(backend, run_names, matrix, tukey_kinds, options,
                                                len(aligned.queries) - int(shared.size),
                                                [row["sharedMean"] for row in run_rows if row["measure"] == m])
    per_query = {"queries": list(aligned.queries), "values": aligned.values, "evaluations": evaluations}
    options_out = dict(options._asdict(), **({"tukey": list(tukey_kinds)} if tukey_kinds else {}))
    return Comparison(run_names, names, options_out, run_options, run_rows, rows, families, tukey_results, per_query)


def _fill_pair(row: Dict[str, Any], slot: Optional[Tuple[bytes, int]], series: Optional[Tuple[int, int]],
               summary: PairedSummary, outcomes: Dict[bytes, GroupOutcome], options: Options) -> None:
    """A (pair, measure) row's numbers; `slot` is the pair's group and index there (None
    without paired queries), `series` its two rows in the group."""
    nan = math.nan
    row.update({"mean": nan, "baselineMean": nan, "delta": nan, "effectSize": nan, "intervals": {}, "tests": {}})
    outcome, k = (outcomes[slot[0]], slot[1]) if slot is not None else (None, 0)
    if outcome is not None and series is not None:
        row["mean"], row["baselineMean"], row["delta"] = outcome.means[series[0]], outcome.means[series[1]], outcome.deltas[k]
    t, p_t, effect = _t_test(summary)
    row["effectSize"] = effect
    resamples = float(options.resamples)

    def resampled(counts: Optional[List[int]]) -> Dict[str, Any]:
        count = counts[k] if outcome is not None and counts is not None else None
        return {"count": count, "p": (count + 1) / (resamples + 1) if count is not None else nan}

    for test in options.tests:
        if test == "t":
            row["tests"]["t"] = {"statistic": t, "p": p_t}
        elif test == "wilcoxon":
            statistic, p, method = _wilcoxon(summary) if summary.n else (nan, nan, "none")
            row["tests"]["wilcoxon"] = {"statistic": statistic, "p": p, "method": method}
        elif test == "randomization":
            row["tests"]["randomization"] = resampled(outcome.sign_flip_counts if outcome is not None else None)
        else:
            row["tests"]["bootstrap"] = resampled(outcome.bootstrap_counts if outcome is not None else None)
    for kind in options.intervals:
        if kind == "t":
            row["intervals"]["t"] = _t_interval(summary.n, summary.mean, summary.ss, options.confidence)
        elif outcome is not None and outcome.bootstrap_deltas is not None:
            row["intervals"]["bootstrap"] = percentile_interval(outcome.bootstrap_deltas[k], options.confidence)
        else:
            row["intervals"]["bootstrap"] = (nan, nan)


def _correct(rows: List[Dict[str, Any]], options: Options) -> Dict[str, Dict[str, Any]]:
    """Per test, one family: every (pair, measure) row of the call whose p-value is defined.
    Each test's p-values are corrected on their own: the tests are alternative analyses of
    the same hypotheses, and pooling them would count each hypothesis several times."""
    families = {}
    for test in options.tests:
        members = [i for i, row in enumerate(rows) if not math.isnan(row["tests"][test]["p"])]
        adjusted, reject = corrections.adjust([rows[i]["tests"][test]["p"] for i in members], options.correction,
                                              options.alpha)
        for row in rows:
            row["tests"][test].update({"pAdjusted": math.nan, "significant": False})
        for i, p, r in zip(members, adjusted, reject):
            rows[i]["tests"][test].update({"pAdjusted": p, "significant": bool(r)})
        families[test] = {"size": len(members), "undefined": len(rows) - len(members)}
    return families
