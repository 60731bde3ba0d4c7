"""Benchmark ranking-evaluate on the "service-max" request.

Times, in one run and on the same seeded request:

* ``evalcore.ranking_evaluate`` - the native core, full envelope (evidence and hashes);
* ``evalcore.reference.ranking_evaluate`` - the pure-Python reference;
* pytrec_eval (pytrec-eval-terrier) - ``RelevanceEvaluator`` built *and* run per request,
  since a service gets new qrels with every request and cannot reuse an evaluator;

then SHA-256 throughput of the core's ``sha256_hex`` against ``hashlib``.

Before timing it checks that pytrec_eval's P_100, recall_100, map_cut_100 and
ndcg_cut_100 equal evalcore's metrics for every query, so the timings compare
implementations of the same numbers.

Run from the repository root:  python bench/bench_ranking.py  [--quick] [--json PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import sys
from typing import Any, Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # for generators.py

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402
from evalcore import _core  # noqa: E402
from generators import compact_size, count_json_values, service_max_request  # noqa: E402
from measure import dist_version as _dist_version  # noqa: E402
from measure import median_seconds_per_call  # noqa: E402

try:
    import pytrec_eval  # noqa: E402
except ImportError:  # pragma: no cover
    sys.exit("pytrec_eval is missing: pip install pytrec-eval-terrier  (or pip install '.[bench]')")

# evalcore metric -> pytrec_eval measure at k = 100.
MEASURES = {
    "precisionAtK": "P_100",
    "recallAtK": "recall_100",
    "averagePrecisionAtK": "map_cut_100",
    "ndcgAtK": "ndcg_cut_100",
}
TOLERANCE = 1e-9




def trec_inputs(request: Dict[str, Any]) -> Tuple[Dict[str, Dict[str, int]], Dict[str, Dict[str, float]]]:
    """qrels and run for pytrec_eval from an evalcore request.

    Scores fall strictly with rank (100 - rank), so trec_eval's sort by descending score
    reproduces the given ranking exactly and its docno tie-break never applies.
    """
    qrels = {q["id"]: {j["id"]: int(j["grade"]) for j in q["judgments"]} for q in request["queries"]}
    run = {
        q["id"]: {doc: float(100 - rank) for rank, doc in enumerate(q["retrieved"], start=1)}
        for q in request["queries"]
    }
    return qrels, run


def pytrec_evaluate(qrels: Dict[str, Dict[str, int]], run: Dict[str, Dict[str, float]]) -> Dict[str, Dict[str, float]]:
    """One request's worth of pytrec_eval work: build the evaluator, then evaluate."""
    return pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values())).evaluate(run)


def check_agreement(envelope: Dict[str, Any], trec: Dict[str, Dict[str, float]]) -> Dict[str, float]:
    """Largest |evalcore - pytrec_eval| per metric over all queries; exit on any mismatch.

    A mismatch is reported with the query and both values instead of being averaged away.
    """
    worst = {metric: 0.0 for metric in MEASURES}
    problems = []
    for q in envelope["result"]["queries"]:
        got = trec.get(q["id"])
        if got is None:
            problems.append(f"{q['id']}: missing from pytrec_eval's output")
            continue
        for metric, measure in MEASURES.items():
            if measure not in got:
                problems.append(f"{q['id']}: pytrec_eval did not report {measure}")
                continue
            ours = q[metric]
            if ours is None:  # evalcore: undefined; trec_eval would say 0
                problems.append(f"{q['id']}: {metric} is null in evalcore, {measure} = {got[measure]}")
                continue
            diff = abs(ours - got[measure])
            worst[metric] = max(worst[metric], diff)
            if diff > TOLERANCE:
                problems.append(f"{q['id']}: {metric} = {ours!r} but {measure} = {got[measure]!r}")
    if problems:
        sys.exit("evalcore and pytrec_eval disagree:\n  " + "\n  ".join(problems[:20]))
    return worst


def hash_throughput(sizes_mb: List[int], repeats: int, min_repeat_seconds: float) -> List[Dict[str, float]]:
    """GB/s (1e9 bytes/s) of the core's SHA-256 and hashlib's on seeded random buffers."""
    rows = []
    rng = random.Random(0)
    for mb in sizes_mb:
        data = rng.randbytes(mb * 1024 * 1024)
        assert _core.sha256_hex(data) == hashlib.sha256(data).hexdigest()
        core_s, _ = median_seconds_per_call(lambda: _core.sha256_hex(data), repeats, min_repeat_seconds)
        lib_s, _ = median_seconds_per_call(lambda: hashlib.sha256(data).hexdigest(), repeats, min_repeat_seconds)
        rows.append(
            {
                "mebibytes": mb,
                "evalcore_gb_per_s": len(data) / core_s / 1e9,
                "hashlib_gb_per_s": len(data) / lib_s / 1e9,
                "evalcore_over_hashlib": lib_s / core_s,  # > 1: evalcore is faster
            }
        )
    return rows


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed batches per implementation (default 7)")
    parser.add_argument("--quick", action="store_true", help="3 short batches each; for a smoke test, not for figures")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated request (default 0)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    repeats = 3 if args.quick else args.repeats
    min_repeat_seconds = 0.05 if args.quick else 0.5

    request = service_max_request(args.seed)
    body = json.dumps(request, separators=(",", ":")).encode()  # the same request as bytes
    envelope = evalcore.ranking_evaluate(request)
    reference_envelope = evalcore.reference.ranking_evaluate(request)
    qrels, run = trec_inputs(request)
    worst = check_agreement(envelope, pytrec_evaluate(qrels, run))

    timings = {}
    batch = {}
    for name, fn in (
        ("evalcore (native)", lambda: evalcore.ranking_evaluate(request)),
        ("evalcore.evaluate_json", lambda: evalcore.evaluate_json("ranking-evaluate", body)),
        ("evalcore.reference", lambda: evalcore.reference.ranking_evaluate(request)),
        ("pytrec_eval", lambda: pytrec_evaluate(qrels, run)),
    ):
        timings[name], batch[name] = median_seconds_per_call(fn, repeats, min_repeat_seconds)
    native = timings["evalcore (native)"]
    hashing = hash_throughput([1, 64], repeats, min_repeat_seconds)

    figures = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "evalcore_version": evalcore.__version__,
        "pytrec_eval_version": _dist_version("pytrec-eval-terrier"),
        "sha256_cpu_extensions": bool(_core.SHA256_CPU_EXTENSIONS),
        "seed": args.seed,
        "repeats": repeats,
        "request": {
            "queries": len(request["queries"]),
            "retrieved_per_query": len(request["queries"][0]["retrieved"]),
            "judgments_per_query": len(request["queries"][0]["judgments"]),
            "k": request["k"],
            "bytes": compact_size(request),
            "json_values": count_json_values(request),
        },
        "result_bytes": compact_size(envelope["result"]),
        "native_equals_reference": envelope == reference_envelope,
        "max_abs_diff_vs_pytrec_eval": worst,
        "ranking_us_per_request": {name: s * 1e6 for name, s in timings.items()},
        "calls_per_batch": batch,
        "ratios": {
            "reference/native": timings["evalcore.reference"] / native,
            "pytrec_eval/native": timings["pytrec_eval"] / native,
            "pytrec_eval/evaluate_json": timings["pytrec_eval"] / timings["evalcore.evaluate_json"],
        },
        "sha256": hashing,
    }
    print_report(figures)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.json}")
    return 0




def print_report(f: Dict[str, Any]) -> None:
    """The human-readable table."""
    r = f["request"]
    print(f"python {f['python']} on {f['platform']}")
    print(
        f"evalcore {f['evalcore_version']}, pytrec-eval-terrier {f['pytrec_eval_version']}, "
        f"SHA256_CPU_EXTENSIONS = {f['sha256_cpu_extensions']}"
    )
    print(
        f"request (seed {f['seed']}): {r['queries']} queries x {r['retrieved_per_query']} retrieved x "
        f"{r['judgments_per_query']} judgments, k = {r['k']}; {r['bytes']} bytes, {r['json_values']} JSON values"
    )
    print(f"result: {f['result_bytes']} bytes (compact JSON of envelope['result'])")
    print(f"native == reference envelope: {f['native_equals_reference']}")
    diffs = ", ".join(f"{m} {d:.1e}" for m, d in f["max_abs_diff_vs_pytrec_eval"].items())
    print(f"max |evalcore - pytrec_eval| per query: {diffs}")
    print()
    print(f"ranking-evaluate, median of {f['repeats']} batches")
    print(f"  {'implementation':<22}{'us/request':>12}{'calls/batch':>13}{'x native':>10}")
    native = f["ranking_us_per_request"]["evalcore (native)"]
    for name, us in f["ranking_us_per_request"].items():
        print(f"  {name:<22}{us:>12.1f}{f['calls_per_batch'][name]:>13}{us / native:>10.2f}")
    print(
        f"  reference/native = {f['ratios']['reference/native']:.2f}, "
        f"pytrec_eval/native = {f['ratios']['pytrec_eval/native']:.2f}, "
        f"pytrec_eval/evaluate_json = {f['ratios']['pytrec_eval/evaluate_json']:.2f}"
    )
    print()
    print("SHA-256 throughput (GB/s = 1e9 bytes/s)")
    print(f"  {'buffer':<10}{'evalcore':>10}{'hashlib':>10}{'evalcore/hashlib':>18}")
    for row in f["sha256"]:
        print(
            f"  {str(row['mebibytes']) + ' MiB':<10}{row['evalcore_gb_per_s']:>10.3f}"
            f"{row['hashlib_gb_per_s']:>10.3f}{row['evalcore_over_hashlib']:>18.2f}"
        )


if __name__ == "__main__":
    sys.exit(main())
