"""Benchmark evalcore.compare against ranx.compare and scipy loops.

5 runs x 10,000 queries (run_generators.run_dicts's qrels, 100 retrieved and 50 graded
judgments a query; the five runs are its run with seeded noise added to the scores, so they
differ and never tie), nDCG@10 and AP@100, every pair (10 pairs x 2 measures), Fisher's
randomization test with 10,000 resamples. Each implementation runs in a fresh subprocess
from the same Python dicts, makes one untimed call (ranx's numba JIT, imports) and times
--repeats calls (--slow-repeats for ranx and scipy); printed: medians and ratios, all from
one run.

* evalcore.compare(tests=("randomization",), intervals=()): the same work as ranx's
  (means and a randomization p-value per pair and measure), end to end from the dicts;
* evalcore.compare with its defaults (t and randomization tests, t intervals of every mean
  and delta), and with all four tests and both intervals (the percentile bootstrap too);
* ranx.compare(Qrels(qrels), [Run(run) ...], ["ndcg@10", "map@100"], stat_test="fisher",
  n_permutations=10000), Qrels and Run built from the dicts inside the timing (ranx tests
  every ordered pair, so 40 tests: its own choice);
* scipy: on per-query arrays given (evaluation not timed), for each pair and measure
  scipy.stats.ttest_rel, wilcoxon and permutation_test (permutation_type="samples",
  statistic the mean difference, vectorized, 10,000 resamples): the loop a user writes.

Checked, not timed: evalcore's means against ranx's (<= 1e-9) and its t and Wilcoxon
p-values against scipy's (<= 1e-12 relative); the randomization p-values of evalcore, ranx
and scipy against each other within 5 standard errors of the difference of two Monte Carlo
estimates.

Run from the repository root, with the bench and test extras installed (ranx is in bench,
scipy in test: pip install '.[bench,test]'):
  python bench/bench_compare.py [--queries N] [--runs K] [--resamples R] [--repeats N] [--slow-repeats N]
                                [--only NAME ...] [--json PATH]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from measure import dist_version, peak_mb, proc_status_mb, reset_peak  # noqa: E402
from run_generators import run_dicts  # noqa: E402

MEASURES = ["nDCG@10", "AP@100"]
RANX_MEASURES = {"nDCG@10": "ndcg@10", "AP@100": "map@100"}
WORKERS = ("evalcore", "evalcore_defaults", "evalcore_everything", "ranx", "scipy")


def inputs(args: argparse.Namespace):
    """The qrels and args.runs runs (dicts), the same in every worker."""
    import numpy as np

    qrels, base = run_dicts(args.queries, seed=args.seed)
    runs = {}
    for k in range(args.runs):
        rng = np.random.default_rng(1000 + k)
        runs[f"run{k + 1}"] = {q: dict(zip(ranked, (np.fromiter(ranked.values(), float) +
                                                    rng.normal(0.0, 2.0 + k, len(ranked))).tolist()))
                               for q, ranked in base.items()}
    return qrels, runs


# ---- the implementations: each returns {"means": {run: {measure: mean}}, "p": {"a|b|measure": {...}}} ----


def evalcore_compare(qrels, runs, args, **options):
    import evalcore

    result = evalcore.compare(qrels, runs, MEASURES, resamples=args.resamples, seed=args.seed, **options)
    data = result.to_dict()
    means = {r["run"]: {} for r in data["summary"]}
    for r in data["summary"]:
        means[r["run"]][r["measure"]] = r["mean"]
    p = {f"{r['baseline']}|{r['run']}|{r['measure']}": {t: v["p"] for t, v in r["tests"].items()}
         for r in data["comparisons"]}
    return {"means": means, "p": p}


def ranx_compare(qrels, runs, args):
    from ranx import Qrels, Run, compare

    report = compare(Qrels(qrels), [Run(run, name=name) for name, run in runs.items()],
                     list(RANX_MEASURES.values()), stat_test="fisher", n_permutations=args.resamples,
                     random_seed=args.seed, max_p=0.05)
    back = {v: k for k, v in RANX_MEASURES.items()}
    means = {name: {back[m]: float(v) for m, v in scores.items()} for name, scores in report.results.items()}
    p = {}
    for a, b in itertools.combinations(runs, 2):
        for m, result in report.comparisons[frozenset([a, b])].items():
            p[f"{a}|{b}|{back[m]}"] = {"randomization": float(result["p_value"])}
    return {"means": means, "p": p}


def per_query_arrays(qrels, runs):
    """{measure: {run: values on the common defined queries}} (from evalcore; not timed)."""
    import numpy as np

    import evalcore

    evaluations = {name: evalcore.evaluate_run(qrels, run, MEASURES) for name, run in runs.items()}
    order = sorted(evaluations[next(iter(runs))].query_ids)
    arrays = {}
    for m in MEASURES:
        columns = {name: dict(zip(e.query_ids, e.values(m).tolist())) for name, e in evaluations.items()}
        common = [q for q in order if all(not math.isnan(c.get(q, math.nan)) for c in columns.values())]
        arrays[m] = {name: np.array([c[q] for q in common]) for name, c in columns.items()}
    return arrays


def scipy_loops(arrays, args):
    import numpy as np
    from scipy import stats

    p = {}
    names = list(next(iter(arrays.values())))
    rng = np.random.default_rng(args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m, values in arrays.items():
            for a, b in itertools.combinations(names, 2):
                x, y = values[b], values[a]
                d = x - y
                permutation = stats.permutation_test((d,), lambda v, axis: np.mean(v, axis=axis), vectorized=True,
                                                     permutation_type="samples", n_resamples=args.resamples,
                                                     random_state=rng)
                p[f"{a}|{b}|{m}"] = {"t": float(stats.ttest_rel(x, y).pvalue),
                                     "wilcoxon": float(stats.wilcoxon(x, y).pvalue),
                                     "randomization": float(permutation.pvalue)}
    return {"means": {name: {m: float(np.mean(arrays[m][name])) for m in arrays} for name in names}, "p": p}


# ---- a worker: one implementation in this process -------------------------------------


def worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    qrels, runs = inputs(args)
    if name == "scipy":
        arrays = per_query_arrays(qrels, runs)
        function = lambda: scipy_loops(arrays, args)  # noqa: E731
    elif name == "ranx":
        function = lambda: ranx_compare(qrels, runs, args)  # noqa: E731
    else:
        options = {"evalcore": dict(tests=("randomization",), intervals=()), "evalcore_defaults": {},
                   "evalcore_everything": dict(tests=("t", "wilcoxon", "randomization", "bootstrap"),
                                               intervals=("t", "bootstrap"))}[name]
        function = lambda: evalcore_compare(qrels, runs, args, **options)  # noqa: E731
    baseline = proc_status_mb("VmRSS") or 0.0
    reset_peak()
    start = time.perf_counter()
    outcome = function()
    first = time.perf_counter() - start
    times = []
    for _ in range(args.repeats if name.startswith("evalcore") else args.slow_repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return {"name": name, "median_s": statistics.median(times), "first_call_s": first, "times_s": times,
            "baseline_mb": baseline, "peak_mb": peak_mb(), **outcome}


def run_worker(name: str, args: argparse.Namespace) -> Optional[Dict[str, Any]]:
    command = [sys.executable, __file__, "--worker", name, "--queries", str(args.queries), "--runs", str(args.runs),
               "--resamples", str(args.resamples), "--repeats", str(args.repeats), "--slow-repeats", str(args.slow_repeats),
               "--seed", str(args.seed)]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"  {name}: FAILED\n{proc.stderr[-3000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- report -------------------------------------------------------------------------------


def check_agreement(results: Dict[str, Dict[str, Any]], resamples: int) -> List[str]:
    notes = []
    ours = results.get("evalcore_everything") or results.get("evalcore")
    if ours is None:
        return ["evalcore did not run"]
    ranx = results.get("ranx")
    if ranx is not None:
        worst = max(abs(ours["means"][r][m] - ranx["means"][r][m]) for r in ours["means"] for m in MEASURES)
        notes.append(f"means vs ranx: max |diff| {worst:.2e} ({'agree' if worst <= 1e-9 else 'DISAGREE'}, tolerance 1e-9)")
    scipy = results.get("scipy")
    if scipy is not None and "t" in next(iter(ours["p"].values())):
        for test in ("t", "wilcoxon"):
            worst = max(abs(ours["p"][k][test] - v[test]) / v[test] for k, v in scipy["p"].items() if v[test] > 0)
            notes.append(f"{test} p vs scipy: max relative diff {worst:.2e} "
                         f"({'agree' if worst <= 1e-12 else 'DISAGREE'}, tolerance 1e-12)")
    for peer in ("ranx", "scipy"):
        theirs = results.get(peer)
        if theirs is None:
            continue
        worst = 0.0
        for k, v in theirs["p"].items():
            a, b = ours["p"][k]["randomization"], v["randomization"]
            # two independent Monte Carlo estimates of one p-value: the difference's standard error
            se = math.sqrt(2 * max(a * (1 - a), 1.0 / resamples) / resamples)
            worst = max(worst, abs(a - b) / se)
        notes.append(f"randomization p vs {peer}: max |diff| {worst:.2f} standard errors "
                     f"({'agree' if worst <= 5 else 'DISAGREE'}, tolerance 5)")
    return notes


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000, help="queries (10000)")
    parser.add_argument("--runs", type=int, default=5, help="runs, compared in every pair (5)")
    parser.add_argument("--resamples", type=int, default=10_000, help="randomization resamples (10000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls of each evalcore configuration (5)")
    parser.add_argument("--slow-repeats", type=int, default=1,
                        help="timed calls of ranx and scipy (1: one ranx call takes minutes)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", choices=WORKERS, help="run only these (repeatable)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args)))
        return 0

    results: Dict[str, Dict[str, Any]] = {}
    for name in args.only or WORKERS:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        outcome = run_worker(name, args)
        if outcome is not None:
            results[name] = outcome
    pairs = args.runs * (args.runs - 1) // 2
    print(f"\ncompare: {args.runs} runs x {args.queries} queries, {', '.join(MEASURES)}, every pair ({pairs} pairs), "
          f"{args.resamples} resamples; medians of {args.repeats} calls (ranx, scipy: {args.slow_repeats}) after one "
          f"warm-up; {os.cpu_count()} CPUs; "
          + ", ".join(f"{d} {dist_version(d)}" for d in ("evalcore", "ranx", "scipy", "numba")))
    print(f"{'implementation':<22}{'median s':>10}{'first call s':>14}{'peak RSS MB':>13}{'evalcore is':>16}")
    ours = results.get("evalcore")
    for name, r in results.items():
        ratio = "" if name.startswith("evalcore") or ours is None else f"{r['median_s'] / ours['median_s']:.1f}x faster"
        print(f"{name:<22}{r['median_s']:>10.3f}{r['first_call_s']:>14.3f}{r['peak_mb']:>13.0f}{ratio:>16}")
    for note in check_agreement(results, args.resamples):
        print("  " + note)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
