"""Benchmark corpus-scale span evaluation on a seeded synthetic corpus.

Times, on the same corpus from ``generators.span_corpus`` (10,000 documents by default):

* ``evalcore.span_evaluate_corpus(documents, match="exact")`` - the native core;
* ``evalcore.span_evaluate_corpus(documents, match="overlap", minimum_iou=0.5)``;
* ``evalcore.reference.span_evaluate_corpus`` (pure Python), both modes, on the first
  ``--reference-documents`` documents (1,000 by default), with the full-corpus time
  extrapolated linearly and labelled so;
* nervaluate: ``Evaluator(true, pred, tags=[...], loader="dict").evaluate()`` on the same
  spans with inclusive ends (``end - 1``), which computes its four schemes at once.

Every implementation runs in its own fresh subprocess (``--worker NAME``) that generates
the corpus, records its resident set (the corpus-only baseline), resets the peak, makes one
untimed call and then the timed calls, and reads the peak resident set (VmHWM; ru_maxrss
where /proc is missing), so peak RSS figures do not mix. The parent computes the exact-match micro precision/recall/F1 by
plain set intersection of (label, start, end) per document and says whether evalcore's
exact-mode figures are identical (==) to it.

Run from the repository root:
  python bench/bench_spans.py [--documents N] [--repeats R] [--quick] [--json PATH]
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
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # for generators.py

import evalcore  # noqa: E402
from generators import (  # noqa: E402
    SPAN_LABELS,
    check_span_corpus,
    span_corpus,
    span_corpus_stats,
)
from measure import (  # noqa: E402
    maxrss_mb as _maxrss_mb,
    proc_status_mb as _proc_status_mb,
    reset_peak as _reset_peak,
    peak_mb as _peak_mb,
    digest as _digest,
    time_calls as _time_calls,
    dist_version as _dist_version,
    mb as _mb,
)

WORKERS = ("native-exact", "native-overlap", "reference-exact", "reference-overlap", "nervaluate")
MINIMUM_IOU = 0.5


# ---------------------------------------------------------------------------------------
# Availability
# ---------------------------------------------------------------------------------------


def missing_reason(worker: str) -> Optional[str]:
    """None if the implementation behind `worker` can run here, else why not."""
    if worker.startswith("native"):
        if not hasattr(evalcore, "span_evaluate_corpus"):
            return (
                f"evalcore.span_evaluate_corpus is missing in the installed evalcore {evalcore.__version__} "
                f"({os.path.dirname(evalcore.__file__)}); rebuild and reinstall it: "
                "pip install --no-build-isolation ."
            )
        return None
    if worker.startswith("reference"):
        try:
            import evalcore.reference as reference
        except ImportError as exc:  # pragma: no cover
            return f"evalcore.reference cannot be imported: {exc}"
        if not hasattr(reference, "span_evaluate_corpus"):
            return "evalcore.reference.span_evaluate_corpus is missing; reinstall evalcore"
        return None
    if worker == "nervaluate":
        if importlib.util.find_spec("nervaluate") is None:
            return "nervaluate is missing: pip install nervaluate"
        return None
    raise ValueError(worker)




# ---------------------------------------------------------------------------------------
# Inputs and checks that need no evalcore
# ---------------------------------------------------------------------------------------


def nervaluate_inputs(documents: List[Dict[str, Any]]) -> Tuple[List[List[Dict[str, Any]]], List[List[Dict[str, Any]]]]:
    """nervaluate's "dict" loader format. nervaluate treats ``end`` as inclusive (its
    overlap arithmetic adds 1), so half-open [start, end) becomes [start, end - 1]; for
    integer offsets this is a bijection, so "strict" = same label and same boundaries."""

    def side(name: str) -> List[List[Dict[str, Any]]]:
        return [
            [{"label": s["label"], "start": s["start"], "end": s["end"] - 1} for s in d[name]] for d in documents
        ]

    return side("references"), side("predictions")


def set_intersection_scores(documents: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Exact-match micro P/R/F1 by set intersection of (label, start, end) per document.

    Both sides hold no repeated (label, start, end) within a document, so the largest
    one-to-one exact matching has exactly |refs & preds| pairs.
    """
    matched = predictions = references = 0
    for d in documents:
        refs = {(s["label"], s["start"], s["end"]) for s in d["references"]}
        preds = {(s["label"], s["start"], s["end"]) for s in d["predictions"]}
        matched += len(refs & preds)
        predictions += len(preds)
        references += len(refs)
    p = matched / predictions if predictions else 0.0
    r = matched / references if references else 0.0
    return {
        "matched": matched,
        "predictions": predictions,
        "references": references,
        "precision": p,
        "recall": r,
        "f1": 2 * p * r / (p + r) if p + r else 0.0,  # harmonic mean of P and R
        "f1_counts": 2 * matched / (predictions + references) if predictions + references else 0.0,
    }


# ---------------------------------------------------------------------------------------
# Worker: one implementation in a fresh process
# ---------------------------------------------------------------------------------------














def run_worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    reason = missing_reason(name)
    if reason:
        return {"worker": name, "missing": reason}
    out: Dict[str, Any] = {"worker": name}
    if name.startswith("reference"):
        n_docs = min(args.reference_documents, args.documents)
    else:
        n_docs = args.documents
    out["documents_timed"] = n_docs
    out["rss_mb_at_start"] = _proc_status_mb("VmRSS")

    # Import the implementation before the baseline, so its import is not "its" memory.
    if name == "nervaluate":
        from nervaluate import Evaluator
    elif name.startswith("reference"):
        import evalcore.reference as reference

    documents = span_corpus(n_docs, args.seed)
    gc.collect()
    # Corpus-only baseline: resident memory with the corpus built, before the
    # implementation touches it; then the peak is reset so that it measures the calls.
    out["rss_mb_corpus_generation_peak"] = _peak_mb()
    out["rss_mb_corpus_baseline"] = _proc_status_mb("VmRSS")
    out["peak_reset"] = _reset_peak()
    if out["rss_mb_corpus_baseline"] is None or not out["peak_reset"]:
        out["rss_mb_corpus_baseline"] = _maxrss_mb()  # fallback: the high-water mark so far

    if name == "nervaluate":
        true, pred = nervaluate_inputs(documents)
        tags = list(SPAN_LABELS)
        gc.collect()
        out["rss_mb_after_input_conversion"] = _proc_status_mb("VmRSS") or _maxrss_mb()

        def call() -> Any:
            return Evaluator(true, pred, tags=tags, loader="dict").evaluate()

        first = call()
        strict = first["overall"]["strict"]
        out["result"] = {
            "scheme": "strict",
            "correct": strict.correct,
            "incorrect": strict.incorrect,
            "missed": strict.missed,
            "spurious": strict.spurious,
            "actual": strict.actual,
            "possible": strict.possible,
            "precision": strict.precision,
            "recall": strict.recall,
            "f1": strict.f1,
        }
        del first, strict
        out["call"] = 'Evaluator(true, pred, tags=["PER", "ORG", "LOC", "MISC"], loader="dict").evaluate()'
    else:
        match = name.split("-", 1)[1]
        impl = evalcore.span_evaluate_corpus if name.startswith("native") else reference.span_evaluate_corpus
        kwargs: Dict[str, Any] = {"match": match}
        if match == "overlap":
            kwargs["minimum_iou"] = MINIMUM_IOU
        if args.threads is not None:
            kwargs["threads"] = args.threads

        def call() -> Any:
            return impl(documents, **kwargs)

        first = call()
        out["result"] = {"documentCount": first["documentCount"], "overall": first["overall"], "perLabel": first["perLabel"]}
        if n_docs <= args.reference_documents:
            out["subset_digest"] = _digest(first)
        del first
        qualified = "evalcore" if name.startswith("native") else "evalcore.reference"
        out["call"] = f"{qualified}.span_evaluate_corpus(documents, " + ", ".join(
            f"{k}={v!r}" for k, v in kwargs.items()
        ) + ")"

    times = _time_calls(call, args.repeats)
    out["rss_mb_peak"] = _peak_mb()
    out["ru_maxrss_mb"] = _maxrss_mb()
    out["seconds"] = times
    out["median_seconds"] = statistics.median(times)

    # The native core again on the reference's subset, after the peak RSS was taken: the
    # reference/native ratio is then measured on identical inputs, not extrapolated.
    if name.startswith("native") and n_docs > args.reference_documents:
        subset = documents[: args.reference_documents]

        def call_subset() -> Any:
            return impl(subset, **kwargs)

        out["subset_digest"] = _digest(call_subset())
        out["subset_documents"] = len(subset)
        out["subset_median_seconds"] = statistics.median(_time_calls(call_subset, args.repeats))
    elif name.startswith("native"):
        out["subset_documents"] = n_docs
        out["subset_median_seconds"] = out["median_seconds"]
    return out


def spawn_worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--worker",
        name,
        "--documents",
        str(args.documents),
        "--repeats",
        str(args.repeats),
        "--reference-documents",
        str(args.reference_documents),
        "--seed",
        str(args.seed),
    ]
    if args.threads is not None:
        cmd += ["--threads", str(args.threads)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"worker": name, "failed": f"exit status {proc.returncode}: {proc.stderr.strip()[-2000:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------
# Parent: run every worker, compare, report
# ---------------------------------------------------------------------------------------


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=None, help="documents in the corpus (default 10000; --quick 1000)")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per implementation (default 5; --quick 2)")
    parser.add_argument(
        "--reference-documents",
        type=int,
        default=None,
        help="documents given to the pure-Python reference (default 1000; --quick 200); "
        "its full-corpus time is extrapolated",
    )
    parser.add_argument("--threads", type=int, default=None, help="threads= for the native core (default: its own)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the corpus (default 0)")
    parser.add_argument("--quick", action="store_true", help="1000 documents, 2 repeats: a smoke test, not for figures")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.documents is None:
        args.documents = 1000 if args.quick else 10_000
    if args.repeats is None:
        args.repeats = 2 if args.quick else 5
    if args.reference_documents is None:
        args.reference_documents = 200 if args.quick else 1000
    if args.documents < 1 or args.repeats < 1 or args.reference_documents < 1:
        parser.error("--documents, --repeats and --reference-documents must be at least 1")

    if args.worker:
        print(json.dumps(run_worker(args.worker, args)))
        return 0

    started = time.perf_counter()
    documents = span_corpus(args.documents, args.seed, with_kinds=True)
    stats = span_corpus_stats(documents)
    for d in documents:
        del d["_kinds"]
    check_span_corpus(documents)
    truth = set_intersection_scores(documents)
    truth_subset = set_intersection_scores(documents[: args.reference_documents])
    del documents

    results: Dict[str, Dict[str, Any]] = {}
    for name in WORKERS:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = spawn_worker(name, args)

    figures = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "evalcore_version": evalcore.__version__,
        "nervaluate_version": _dist_version("nervaluate"),
        "seed": args.seed,
        "documents": args.documents,
        "repeats": args.repeats,
        "reference_documents": min(args.reference_documents, args.documents),
        "threads": args.threads,
        "corpus": stats,
        "set_intersection": truth,
        "set_intersection_reference_subset": truth_subset,
        "workers": results,
        "checks": checks(results, truth, truth_subset),
        "ratios": ratios(results, args),
        "wall_seconds": None,
    }
    figures["wall_seconds"] = time.perf_counter() - started
    print_report(figures)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.json}")
    skipped = [n for n, r in results.items() if "missing" in r or "failed" in r]
    return 2 if skipped else 0


def _ok(r: Dict[str, Any]) -> bool:
    return "median_seconds" in r


def checks(results: Dict[str, Dict[str, Any]], truth: Dict[str, Any], truth_subset: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    native = results["native-exact"]
    if _ok(native):
        o = native["result"]["overall"]
        out["native_exact_vs_set_intersection"] = {
            k: o.get(k) == truth[k] for k in ("matched", "predictions", "references", "precision", "recall", "f1")
        }
        out["native_exact_f1_equals_count_form"] = o.get("f1") == truth["f1_counts"]
    ref = results["reference-exact"]
    if _ok(ref):
        o = ref["result"]["overall"]
        out["reference_exact_vs_set_intersection_on_subset"] = {
            k: o.get(k) == truth_subset[k] for k in ("matched", "predictions", "references", "precision", "recall", "f1")
        }
    for mode in ("exact", "overlap"):
        n, r = results[f"native-{mode}"], results[f"reference-{mode}"]
        if _ok(n) and _ok(r):
            out[f"native_equals_reference_on_subset_{mode}"] = n.get("subset_digest") == r.get("subset_digest")
    nv = results["nervaluate"]
    if _ok(nv):
        out["nervaluate_strict_correct_equals_set_intersection"] = nv["result"]["correct"] == truth["matched"]
    return out


def ratios(results: Dict[str, Dict[str, Any]], args: argparse.Namespace) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    nv = results["nervaluate"]
    for mode in ("exact", "overlap"):
        n, r = results[f"native-{mode}"], results[f"reference-{mode}"]
        if _ok(nv) and _ok(n):
            out[f"nervaluate/native-{mode}"] = nv["median_seconds"] / n["median_seconds"]
        if _ok(r) and _ok(n):
            # Same documents, same run: measured, not extrapolated.
            out[f"reference/native-{mode} (on {r['documents_timed']} documents)"] = (
                r["median_seconds"] / n["subset_median_seconds"]
            )
    return out




def print_report(f: Dict[str, Any]) -> None:
    c = f["corpus"]
    print(f"python {f['python']} on {f['platform']}, {f['cpu_count']} CPUs")
    threads = "the core's default" if f["threads"] is None else f["threads"]
    print(f"evalcore {f['evalcore_version']} (native threads: {threads}), nervaluate {f['nervaluate_version']}")
    print(
        f"corpus (seed {f['seed']}): {c['documents']} documents, text {c['text_chars_min']}..{c['text_chars_max']} "
        f"chars (mean {c['text_chars_mean']:.1f}), {c['references_per_doc']:.2f} references and "
        f"{c['predictions_per_doc']:.2f} predictions per document, {c['json_bytes'] / 1e6:.1f} MB as JSON"
    )
    shares = ", ".join(f"{k} {v:.1%}" for k, v in c["prediction_kind_shares"].items())
    iou = c["shifted_iou"]
    print(
        f"predictions: {shares}; shifted IoU median {iou['median']:.2f} "
        f"({iou['share_0.5_to_0.9']:.0%} in 0.5..0.9, min {iou['min']:.2f})"
    )
    print()

    t = f["set_intersection"]
    print("exact match, micro-averaged over the corpus")
    print(f"  {'source':<34}{'matched':>9}{'preds':>9}{'refs':>9}{'precision':>20}{'recall':>20}{'f1':>20}")
    print(
        f"  {'set intersection (no evalcore)':<34}{t['matched']:>9}{t['predictions']:>9}{t['references']:>9}"
        f"{t['precision']!r:>20}{t['recall']!r:>20}{t['f1']!r:>20}"
    )
    w = f["workers"]
    if _ok(w["native-exact"]):
        o = w["native-exact"]["result"]["overall"]
        print(
            f"  {'evalcore exact':<34}{o['matched']:>9}{o['predictions']:>9}{o['references']:>9}"
            f"{o['precision']!r:>20}{o['recall']!r:>20}{o['f1']!r:>20}"
        )
    if _ok(w["nervaluate"]):
        r = w["nervaluate"]["result"]
        print(
            f"  {'nervaluate strict':<34}{r['correct']:>9}{r['actual']:>9}{r['possible']:>9}"
            f"{r['precision']!r:>20}{r['recall']!r:>20}{r['f1']!r:>20}"
        )
    ch = f["checks"]
    if "native_exact_vs_set_intersection" in ch:
        same = ch["native_exact_vs_set_intersection"]
        verdict = "IDENTICAL (==)" if all(same.values()) else "DIFFERENT: " + ", ".join(k for k, v in same.items() if not v)
        print(f"  evalcore exact vs set intersection: {verdict}")
    else:
        print("  evalcore exact vs set intersection: not checked (native evalcore did not run)")
    if "nervaluate_strict_correct_equals_set_intersection" in ch:
        print(
            "  nervaluate strict correct == set intersection matched: "
            f"{ch['nervaluate_strict_correct_equals_set_intersection']}"
        )
    for mode in ("exact", "overlap"):
        key = f"native_equals_reference_on_subset_{mode}"
        if key in ch:
            print(f"  native == reference result ({mode}, first {f['reference_documents']} documents): {ch[key]}")
    if _ok(w["native-overlap"]):
        o = w["native-overlap"]["result"]["overall"]
        print(
            f"overlap (IoU >= {MINIMUM_IOU}), evalcore: matched {o['matched']}, precision {o['precision']:.4f}, "
            f"recall {o['recall']:.4f}, f1 {o['f1']:.4f}, meanMatchedIou {o['meanMatchedIou']:.4f}"
        )
    print()

    n_docs = f["documents"]
    print(f"time for {n_docs} documents, median of {f['repeats']} calls after one untimed call; peak RSS per process")
    header = f"  {'implementation':<28}{'docs':>7}{'median s':>10}{'us/doc':>10}{'full corpus s':>20}{'peak MB':>9}{'+MB':>6}"
    print(header)
    for name, r in w.items():
        if "missing" in r:
            print(f"  {name:<28}SKIPPED: {r['missing']}")
            continue
        if "failed" in r:
            print(f"  {name:<28}FAILED: {r['failed']}")
            continue
        docs = r["documents_timed"]
        full = r["median_seconds"] * n_docs / docs
        full_s = f"{full:.3f}" + (" (extrap.)" if docs != n_docs else "")
        print(
            f"  {name:<28}{docs:>7}{r['median_seconds']:>10.4f}{r['median_seconds'] / docs * 1e6:>10.1f}"
            f"{full_s:>20}{_mb(r['rss_mb_peak']):>9}{_mb(r['rss_mb_peak'] - r['rss_mb_corpus_baseline']):>6}"
        )
    print(
        "  (peak MB: the process's peak resident set (VmHWM, reset after building the corpus) during the"
        " untimed and timed calls; +MB: that minus its resident set with only the corpus built;"
        " nervaluate's includes its converted input"
        + (
            f", {w['nervaluate']['rss_mb_after_input_conversion'] - w['nervaluate']['rss_mb_corpus_baseline']:.0f} MB)"
            if _ok(w["nervaluate"])
            else ")"
        )
    )
    for name, r in w.items():
        if "call" in r:
            print(f"  {name}: {r['call']}")
    if f["ratios"]:
        print()
        print("ratios (same run; > 1: evalcore native is faster)")
        for k, v in f["ratios"].items():
            print(f"  {k}: {v:.1f}")
    print(f"\nwall time {f['wall_seconds']:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
