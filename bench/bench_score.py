"""Benchmark Mixpeek-compatible set scoring (evalcore.score) on a seeded 100,000-item batch.

Times, on the same request from ``generators.score_batch`` (100,000 items of ~10
predicted and ~10 ground-truth IDs, no "metrics", no "k"):

* ``evalcore.score(request)`` - the native core (GIL released, threaded);
* ``evalcore.reference.score`` (pure Python) on the first ``--reference-items`` items
  (10,000 by default), with the full-batch time extrapolated linearly and labelled so;
* scikit-learn: ``MultiLabelBinarizer(sparse_output=True)`` fitted on the union of the
  labels, ``transform`` of the ground-truth and predicted lists, then
  ``precision_recall_fscore_support(y_true, y_pred, average="samples", beta=1)`` and again
  with ``beta=2`` (for F2). The timed region includes the binarization of both sides.

Every implementation runs in its own fresh subprocess (``--worker NAME``), as in
bench_spans.py: it builds the request, records its resident set (the request-only
baseline), resets the peak, makes one untimed call and then the timed calls, and reads
the peak resident set (VmHWM). Not timed: evalcore's aggregate precision, recall, F1 and
F2 against scikit-learn's samples-averaged figures (max |difference| <= 1e-12), and
native == reference (exact, whole response) on the reference's items. The native worker
also times, after its memory reading, where its time goes: ``_core.compact_json`` of the
request (a proxy for reading the Python objects), ``_core.score`` with 1 thread and with
os.cpu_count() threads, a request asking for one metric (a quarter of the output), and
requests the core rejects (k = 0) right after reading them, before or after the items'
schema check.

Run from the repository root:
  python bench/bench_score.py [--items N] [--repeats R] [--quick] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # for generators.py

import evalcore  # noqa: E402
from generators import SCORE_VOCABULARY, compact_size, score_batch  # noqa: E402
from measure import (  # noqa: E402
    maxrss_mb as _maxrss_mb,
    proc_status_mb as _proc_status_mb,
    reset_peak as _reset_peak,
    peak_mb as _peak_mb,
    digest as _digest,
    time_calls as _time_calls,
    dist_version as _dist_version,
    mb as _mb,
    median_time as _median_time,
)

WORKERS = ("native", "reference", "sklearn")
METRICS = ("precision", "recall", "f1", "f2")
TOLERANCE = 1e-12


# ---------------------------------------------------------------------------------------
# Availability and the request
# ---------------------------------------------------------------------------------------


def missing_reason(worker: str) -> Optional[str]:
    """None if the implementation behind `worker` can run here, else why not."""
    if worker == "native":
        if not hasattr(evalcore, "score"):
            return (
                f"evalcore.score is missing in the installed evalcore {evalcore.__version__}; "
                "rebuild and reinstall it: pip install --no-build-isolation ."
            )
        return None
    if worker == "reference":
        try:
            import evalcore.reference as reference
        except ImportError as exc:  # pragma: no cover
            return f"evalcore.reference cannot be imported: {exc}"
        if not hasattr(reference, "score"):
            return "evalcore.reference.score is missing; reinstall evalcore"
        return None
    if worker == "sklearn":
        if importlib.util.find_spec("sklearn") is None:
            return "scikit-learn is missing: pip install scikit-learn"
        return None
    raise ValueError(worker)




def check_batch(request: Dict[str, Any]) -> None:
    """Assert what score_batch promises (raises AssertionError)."""
    assert set(request) == {"items"}, "no metrics, no k"
    for n, item in enumerate(request["items"]):
        assert set(item) == {"predicted", "ground_truth"}, n
        for side in ("predicted", "ground_truth"):
            ids = item[side]
            assert ids, (n, side, "empty")
            assert len(set(ids)) == len(ids), (n, side, "repeated ID")
            assert all(type(i) is str and i.startswith("doc") for i in ids), (n, side)


def batch_stats(request: Dict[str, Any]) -> Dict[str, Any]:
    items = request["items"]
    n = len(items)
    shared = [len(set(i["predicted"]) & set(i["ground_truth"])) for i in items]
    labels = set()
    for i in items:
        labels.update(i["predicted"])
        labels.update(i["ground_truth"])
    return {
        "items": n,
        "predicted_per_item": sum(len(i["predicted"]) for i in items) / n,
        "ground_truth_per_item": sum(len(i["ground_truth"]) for i in items) / n,
        "shared_per_item": sum(shared) / n,
        "shared_min": min(shared),
        "shared_max": max(shared),
        "items_with_no_shared": sum(1 for s in shared if s == 0),
        "distinct_ids": len(labels),
        "vocabulary": SCORE_VOCABULARY,
        "json_bytes": compact_size(request),
    }


# ---------------------------------------------------------------------------------------
# Worker: one implementation in a fresh process (memory helpers as in bench_spans.py)
# ---------------------------------------------------------------------------------------
















def run_worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    reason = missing_reason(name)
    if reason:
        return {"worker": name, "missing": reason}
    out: Dict[str, Any] = {"worker": name}
    n_items = min(args.reference_items, args.items) if name == "reference" else args.items
    out["items_timed"] = n_items

    # Import the implementation before the baseline, so its import is not "its" memory.
    if name == "sklearn":
        from sklearn.metrics import precision_recall_fscore_support
        from sklearn.preprocessing import MultiLabelBinarizer
    elif name == "reference":
        import evalcore.reference as reference

    request = score_batch(n_items, args.seed)
    if name == "sklearn":
        # scikit-learn's input: the two lists of label lists (references to the same str
        # objects; built before the baseline like evalcore's request, and not timed).
        predicted = [item["predicted"] for item in request["items"]]
        ground_truth = [item["ground_truth"] for item in request["items"]]
    gc.collect()
    out["rss_mb_generation_peak"] = _peak_mb()
    out["rss_mb_request_baseline"] = _proc_status_mb("VmRSS")
    out["peak_reset"] = _reset_peak()
    if out["rss_mb_request_baseline"] is None or not out["peak_reset"]:
        out["rss_mb_request_baseline"] = _maxrss_mb()  # fallback: the high-water mark so far

    if name == "sklearn":
        phases: List[Dict[str, float]] = []

        def call() -> Any:
            t0 = time.perf_counter()
            binarizer = MultiLabelBinarizer(sparse_output=True)
            binarizer.fit(predicted + ground_truth)  # classes: the union of both sides
            t1 = time.perf_counter()
            y_true = binarizer.transform(ground_truth)
            y_pred = binarizer.transform(predicted)
            t2 = time.perf_counter()
            f1 = precision_recall_fscore_support(y_true, y_pred, average="samples", beta=1)
            t3 = time.perf_counter()
            f2 = precision_recall_fscore_support(y_true, y_pred, average="samples", beta=2)
            t4 = time.perf_counter()
            phases.append({"fit": t1 - t0, "transform": t2 - t1, "prfs_beta1": t3 - t2, "prfs_beta2": t4 - t3})
            return binarizer, y_true, y_pred, f1, f2

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            binarizer, y_true, y_pred, f1, f2 = call()
        out["warnings"] = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
        out["matrix"] = {
            "type": type(y_true).__name__,
            "format": getattr(y_true, "format", None),
            "shape": list(y_true.shape),
            "classes": len(binarizer.classes_),
            "nnz_true": int(y_true.nnz) if hasattr(y_true, "nnz") else None,
            "nnz_pred": int(y_pred.nnz) if hasattr(y_pred, "nnz") else None,
        }
        out["aggregate"] = {"precision": float(f1[0]), "recall": float(f1[1]), "f1": float(f1[2]), "f2": float(f2[2])}
        out["aggregate_beta2_precision_recall"] = [float(f2[0]), float(f2[1])]
        del binarizer, y_true, y_pred, f1, f2
        phases.clear()
        out["call"] = (
            "MultiLabelBinarizer(sparse_output=True).fit(predicted + ground_truth); transform(ground_truth), "
            'transform(predicted); precision_recall_fscore_support(y_true, y_pred, average="samples", beta=1), '
            "then beta=2"
        )
    else:
        impl = evalcore.score if name == "native" else reference.score

        def call() -> Any:
            return impl(request)

        first = call()
        out["aggregate"] = first["aggregate"]
        out["response_head"] = {"metrics": first["metrics"], "k": first["k"], "count": first["count"]}
        if n_items <= args.reference_items:
            out["subset_digest"] = _digest(first)
        del first
        out["call"] = ("evalcore" if name == "native" else "evalcore.reference") + ".score(request)"

    times = _time_calls(call, args.repeats)
    out["rss_mb_peak"] = _peak_mb()
    out["ru_maxrss_mb"] = _maxrss_mb()
    out["seconds"] = times
    out["median_seconds"] = statistics.median(times)
    if name == "sklearn":
        out["phase_seconds"] = phases
        out["phase_median_seconds"] = {k: statistics.median(p[k] for p in phases) for k in phases[0]}

    if name == "native":
        # After the peak reading. The native core on the reference's items: the
        # reference/native ratio is then measured on identical inputs, not extrapolated.
        if n_items > args.reference_items:
            subset = {"items": request["items"][: args.reference_items]}
            out["subset_digest"] = _digest(evalcore.score(subset))
            out["subset_items"] = args.reference_items
            out["subset_median_seconds"] = _median_time(lambda: evalcore.score(subset), args.repeats)
        else:
            out["subset_items"] = n_items
            out["subset_median_seconds"] = out["median_seconds"]
        # Where the time goes (all on the full request, same repeats, medians).
        core = evalcore._core
        limits = evalcore.SCORE_LIMITS.as_tuple()
        cpus = os.cpu_count() or 1
        one_metric = {"items": request["items"], "metrics": ["f1"]}
        # The core reads the whole request into its own document first, then checks the
        # members in order: an invalid k before "items" stops it right after the reading,
        # after "items" right after the items' schema check (both raise EvaluationError).
        bad_k_first = {"k": 0, "items": request["items"]}
        bad_k_last = {"items": request["items"], "k": 0}

        def rejected(bad: Dict[str, Any]) -> Callable[[], None]:
            def run() -> None:
                try:
                    core.score(bad, limits, cpus)
                except core.EvaluationError:
                    return
                raise AssertionError("k = 0 was accepted")

            return run

        out["diagnostics"] = {
            "cpu_count": cpus,
            "compact_json_seconds": _median_time(lambda: core.compact_json(request), args.repeats),
            "core_score_1_thread_seconds": _median_time(lambda: core.score(request, limits, 1), args.repeats),
            f"core_score_{cpus}_threads_seconds": _median_time(lambda: core.score(request, limits, cpus), args.repeats),
            "score_metrics_f1_only_seconds": _median_time(lambda: evalcore.score(one_metric), args.repeats),
            "read_seconds": _median_time(rejected(bad_k_first), args.repeats),
            "read_and_items_schema_seconds": _median_time(rejected(bad_k_last), args.repeats),
        }
    return out


def spawn_worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--worker",
        name,
        "--items",
        str(args.items),
        "--repeats",
        str(args.repeats),
        "--reference-items",
        str(args.reference_items),
        "--seed",
        str(args.seed),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"worker": name, "failed": f"exit status {proc.returncode}: {proc.stderr.strip()[-2000:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------
# Parent: run every worker, compare, report
# ---------------------------------------------------------------------------------------


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=None, help="items in the batch (default 100000; --quick 10000)")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per implementation (default 5; --quick 2)")
    parser.add_argument(
        "--reference-items",
        type=int,
        default=None,
        help="items given to the pure-Python reference (default 10000; --quick 1000); its full-batch time is extrapolated",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the batch (default 0)")
    parser.add_argument("--quick", action="store_true", help="10000 items, 2 repeats: a smoke test, not for figures")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.items is None:
        args.items = 10_000 if args.quick else 100_000
    if args.repeats is None:
        args.repeats = 2 if args.quick else 5
    if args.reference_items is None:
        args.reference_items = 1000 if args.quick else 10_000
    if args.items < 1 or args.repeats < 1 or args.reference_items < 1:
        parser.error("--items, --repeats and --reference-items must be at least 1")

    if args.worker:
        print(json.dumps(run_worker(args.worker, args)))
        return 0

    started = time.perf_counter()
    load_average = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    request = score_batch(args.items, args.seed)
    check_batch(request)
    stats = batch_stats(request)
    del request

    results: Dict[str, Dict[str, Any]] = {}
    for name in WORKERS:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = spawn_worker(name, args)

    figures = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": load_average,
        "evalcore_version": evalcore.__version__,
        "sklearn_version": _dist_version("scikit-learn"),
        "scipy_version": _dist_version("scipy"),
        "numpy_version": _dist_version("numpy"),
        "seed": args.seed,
        "items": args.items,
        "repeats": args.repeats,
        "reference_items": min(args.reference_items, args.items),
        "batch": stats,
        "workers": results,
        "checks": checks(results),
        "ratios": ratios(results),
        "wall_seconds": None,
    }
    figures["wall_seconds"] = time.perf_counter() - started
    print_report(figures)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.json}")
    failed = [n for n, r in results.items() if "missing" in r or "failed" in r]
    bad = [k for k, v in figures["checks"].items() if k.endswith("_ok") and v is False]
    return 2 if failed else (1 if bad else 0)


def _ok(r: Dict[str, Any]) -> bool:
    return "median_seconds" in r


def checks(results: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    native, ref, sk = results["native"], results["reference"], results["sklearn"]
    if _ok(native) and _ok(sk):
        diffs = {m: abs(native["aggregate"][m] - sk["aggregate"][m]) for m in METRICS}
        out["native_vs_sklearn_abs_diff"] = diffs
        out["native_vs_sklearn_max_abs_diff"] = max(diffs.values())
        out["native_vs_sklearn_ok"] = max(diffs.values()) <= TOLERANCE
    if _ok(native) and _ok(ref):
        out["native_equals_reference_on_subset_ok"] = native.get("subset_digest") == ref.get("subset_digest")
    if _ok(sk):
        out["sklearn_warnings"] = sk["warnings"]
    return out


def ratios(results: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    native, ref, sk = results["native"], results["reference"], results["sklearn"]
    if _ok(sk) and _ok(native):
        out["sklearn/native"] = sk["median_seconds"] / native["median_seconds"]
    if _ok(ref) and _ok(native):
        # Same items, same run: measured, not extrapolated.
        out[f"reference/native (both on {ref['items_timed']} items)"] = ref["median_seconds"] / native["subset_median_seconds"]
    return out




def print_report(f: Dict[str, Any]) -> None:
    b = f["batch"]
    load = f.get("load_average")
    load_s = "" if load is None else f", load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start"
    print(f"python {f['python']} on {f['platform']}, {f['cpu_count']} CPUs{load_s}")
    print(
        f"evalcore {f['evalcore_version']}, scikit-learn {f['sklearn_version']} "
        f"(scipy {f['scipy_version']}, numpy {f['numpy_version']})"
    )
    print(
        f"batch (seed {f['seed']}): {b['items']} items, {b['predicted_per_item']:.2f} predicted and "
        f"{b['ground_truth_per_item']:.2f} ground-truth IDs per item, {b['shared_per_item']:.2f} shared "
        f"({b['shared_min']}..{b['shared_max']}; {b['items_with_no_shared']} items share none), "
        f"{b['distinct_ids']} distinct IDs of {b['vocabulary']}, {b['json_bytes'] / 1e6:.1f} MB as JSON; "
        "no repeats, no empty lists, no metrics, no k"
    )
    print()

    w = f["workers"]
    ch = f["checks"]
    print("aggregate (mean over items)")
    print(f"  {'source':<44}" + "".join(f"{m:>22}" for m in METRICS))
    for name, label in (("native", "evalcore.score"), ("sklearn", 'sklearn average="samples" (f2: beta=2)')):
        if _ok(w[name]):
            print(f"  {label:<44}" + "".join(f"{w[name]['aggregate'][m]!r:>22}" for m in METRICS))
    if _ok(w["reference"]):
        label = f"evalcore.reference.score, first {w['reference']['items_timed']}"
        print(f"  {label:<44}" + "".join(f"{w['reference']['aggregate'][m]!r:>22}" for m in METRICS))
    if "native_vs_sklearn_max_abs_diff" in ch:
        per = ", ".join(f"{m} {d:.1e}" for m, d in ch["native_vs_sklearn_abs_diff"].items())
        verdict = "OK" if ch["native_vs_sklearn_ok"] else "FAILED"
        print(
            f"  evalcore vs sklearn: max |difference| {ch['native_vs_sklearn_max_abs_diff']:.2e} ({per}); "
            f"<= {TOLERANCE:g}: {verdict}"
        )
    else:
        print("  evalcore vs sklearn: not checked (an implementation did not run)")
    if "native_equals_reference_on_subset_ok" in ch:
        print(
            f"  evalcore native == reference (whole response, first {f['reference_items']} items): "
            f"{ch['native_equals_reference_on_subset_ok']}"
        )
    if _ok(w["sklearn"]):
        m = w["sklearn"]["matrix"]
        warned = "; ".join(ch["sklearn_warnings"]) or "none"
        print(
            f"  sklearn: {m['type']} ({m['format']}) {m['shape'][0]} x {m['shape'][1]} indicator matrices "
            f"(nnz {m['nnz_true']} true, {m['nnz_pred']} predicted), warnings: {warned}"
        )
    print()

    n_items = f["items"]
    print(f"time for {n_items} items, median of {f['repeats']} calls after one untimed call; peak RSS per process")
    print(
        f"  {'implementation':<12}{'items':>8}{'median s':>10}{'items/s':>12}{'full batch s':>22}"
        f"{'peak MB':>9}{'+MB':>6}"
    )
    for name, r in w.items():
        if "missing" in r:
            print(f"  {name:<12}SKIPPED: {r['missing']}")
            continue
        if "failed" in r:
            print(f"  {name:<12}FAILED: {r['failed']}")
            continue
        items = r["items_timed"]
        full = r["median_seconds"] * n_items / items
        full_s = f"{full:.3f}" + (f" (extrap. x{n_items / items:g})" if items != n_items else "")
        print(
            f"  {name:<12}{items:>8}{r['median_seconds']:>10.4f}{items / r['median_seconds']:>12,.0f}{full_s:>22}"
            f"{_mb(r['rss_mb_peak']):>9}{_mb(r['rss_mb_peak'] - r['rss_mb_request_baseline']):>6}"
        )
    print(
        "  (peak MB: the process's peak resident set (VmHWM, reset once the request is built) during the"
        " untimed and timed calls; +MB: that minus its resident set with only the request built)"
    )
    for name, r in w.items():
        if "call" in r:
            print(f"  {name}: {r['call']}")
    if _ok(w["sklearn"]):
        ph = w["sklearn"]["phase_median_seconds"]
        print(
            "  sklearn phases (medians, s): "
            + ", ".join(f"{k} {v:.4f}" for k, v in ph.items())
            + f"; binarization {ph['fit'] + ph['transform']:.4f}, metrics {ph['prfs_beta1'] + ph['prfs_beta2']:.4f}"
        )
    if f["ratios"]:
        print()
        print("ratios (same run; > 1: evalcore native is faster)")
        for k, v in f["ratios"].items():
            print(f"  {k}: {v:.1f}")
    if _ok(w["native"]):
        d = w["native"]["diagnostics"]
        native_s = w["native"]["median_seconds"]
        cpus = d["cpu_count"]
        print()
        print(f"where evalcore's time goes ({n_items} items, medians of {f['repeats']} calls, s)")
        print(f"  evalcore.score(request)                              {native_s:.4f}")
        print(f"  _core.score(request, limits, 1)       1 thread       {d['core_score_1_thread_seconds']:.4f}")
        print(f"  _core.score(request, limits, {cpus})       {cpus} threads      {d[f'core_score_{cpus}_threads_seconds']:.4f}")
        print(f"  evalcore.score(..., metrics=['f1'])   1/4 the output {d['score_metrics_f1_only_seconds']:.4f}")
        print(f"  _core.compact_json(request)           read + write   {d['compact_json_seconds']:.4f}")
        print(f"  _core.score, k = 0 before items       read only      {d['read_seconds']:.4f}")
        print(f"  _core.score, k = 0 after items        read + schema  {d['read_and_items_schema_seconds']:.4f}")
        rest = d["core_score_1_thread_seconds"] - d["read_and_items_schema_seconds"]
        print(f"  1 thread minus read + schema          rest           {rest:.4f}  (unicode check, scoring, response)")
        if _ok(w["sklearn"]):
            print(f"  (20x faster than sklearn would need {w['sklearn']['median_seconds'] / 20:.4f} s)")
    print(f"\nwall time {f['wall_seconds']:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
