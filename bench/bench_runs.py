"""Benchmark bulk run evaluation (evalcore.evaluate_run) against its peers.

Measures nDCG@10, AP@100, RR@10, P@10 and R@100 on a seeded run of 10,000 queries × 100
retrieved documents × 50 graded judgments (string IDs; run_generators.run_dicts):

* from the same Python dicts, end to end: evalcore.evaluate_run; pytrec-eval-terrier
  (RelevanceEvaluator built and .evaluate(run); trec_eval has no RR cutoff, so it computes
  recip_rank over the whole ranking - the same work or more); ranx (Qrels(...), Run(...)
  and evaluate(...), after a warm-up call so its numba JIT is excluded); ir_measures
  (calc_aggregate);
* from TREC files on disk: evalcore.evaluate_run(paths) vs pytrec_eval.parse_qrel +
  parse_run + evaluation;
* from pyarrow Tables built from the same data (rows shuffled in the shuffled order):
  evalcore.evaluate_run(tables) vs pytrec_eval with the nested dicts built from the tables
  (timed: a pytrec_eval user has to build them);
* from a TREC file of 1,000,000 queries × 100 (qrels: 10 judgments per query), evalcore
  alone (generated once into --data, 3.8 GB; skipped with --skip-big), the same run as a
  parquet file, and a 10 M-line run file (100,000 queries) with its lines shuffled;
* "same process": evalcore and pytrec_eval alternating on the same dict objects.

Every dict and file case runs twice: with documents inserted in random order (and the file's
lines shuffled, so not grouped by query), and presorted (rank order); --order picks one.

Each implementation runs in a fresh subprocess: it builds its input, records its resident
set, resets the peak, makes one untimed call, times --repeats calls, and reads the peak
resident set (VmHWM). Printed: medians, peak RSS (absolute and above the input-only
baseline) and ratios, all from one run. Not timed: evalcore's means against pytrec's
(|difference| <= 1e-12, RR against recip_rank where they coincide is not assumed),
ranx's and ir_measures' (<= 1e-9).

Run from the repository root, with the bench extra installed (pip install '.[bench]'):
  python bench/bench_runs.py [--queries N] [--repeats R] [--order shuffled|presorted|both] [--skip-big]
                            [--data DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from measure import dist_version, peak_mb, proc_status_mb, reset_peak  # noqa: E402
from run_generators import run_dicts, write_big_trec, write_trec_dicts  # noqa: E402

MEASURES = ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100"]
TREC_MEASURES = {"nDCG@10": "ndcg_cut_10", "AP@100": "map_cut_100", "RR@10": "recip_rank", "P@10": "P_10",
                 "R@100": "recall_100"}
RANX_MEASURES = {"nDCG@10": "ndcg@10", "AP@100": "map@100", "RR@10": "mrr@10", "P@10": "precision@10",
                 "R@100": "recall@100"}
DICT_WORKERS = ("evalcore", "pytrec_eval", "ranx", "ir_measures")
FILE_WORKERS = ("evalcore_files", "pytrec_eval_files")
TABLE_WORKERS = ("evalcore_tables", "pytrec_eval_tables")


# ---- the implementations: each returns {measure: mean} ----------------------------------


def evalcore_dicts(qrels, run):
    import evalcore

    return evalcore.evaluate_run(qrels, run, MEASURES).mean


def pytrec_dicts(qrels, run):
    import pytrec_eval

    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES.values())).evaluate(run)
    return {m: statistics.fmean(v[name] for v in per_query.values()) for m, name in TREC_MEASURES.items()}


def ranx_dicts(qrels, run):
    from ranx import Qrels, Run, evaluate

    scores = evaluate(Qrels(qrels), Run(run), list(RANX_MEASURES.values()))
    return {m: float(scores[name]) for m, name in RANX_MEASURES.items()}


def ir_measures_dicts(qrels, run):
    import ir_measures
    from ir_measures import AP, RR, P, R, nDCG

    result = ir_measures.calc_aggregate([nDCG @ 10, AP @ 100, RR @ 10, P @ 10, R @ 100], qrels, run)
    return {"nDCG@10": result[nDCG @ 10], "AP@100": result[AP @ 100], "RR@10": result[RR @ 10],
            "P@10": result[P @ 10], "R@100": result[R @ 100]}


def evalcore_files(qrels_path, run_path):
    import evalcore

    return evalcore.evaluate_run(qrels_path, run_path, MEASURES).mean


def pytrec_files(qrels_path, run_path):
    import pytrec_eval

    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    with open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES.values())).evaluate(run)
    return {m: statistics.fmean(v[name] for v in per_query.values()) for m, name in TREC_MEASURES.items()}


def table_rows(qrels, run, shuffled: bool, seed: int):
    """The dicts as pyarrow Tables (query_id, doc_id, relevance/score); with `shuffled`, the
    run's rows in a random order (not grouped by query), as a group-by or a join leaves them."""
    import numpy as np
    import pyarrow as pa

    def build(source, value_name, permute):
        rows = [(q, d, v) for q, entries in source.items() for d, v in entries.items()]
        if permute:
            order = np.random.default_rng(seed + 3).permutation(len(rows))
            rows = [rows[i] for i in order]
        return pa.table({"query_id": [r[0] for r in rows], "doc_id": [r[1] for r in rows],
                         value_name: pa.array([float(r[2]) for r in rows], pa.float64())})

    return build(qrels, "relevance", False), build(run, "score", shuffled)


def evalcore_tables(qrels_table, run_table):
    import evalcore

    return evalcore.evaluate_run(qrels_table, run_table, MEASURES).mean


def pytrec_tables(qrels_table, run_table):
    """What a pytrec_eval user does with a table: build the nested dicts, then evaluate."""
    def nested(table, value_name):
        out: Dict[str, Dict[str, Any]] = {}
        for q, d, v in zip(table.column("query_id").to_pylist(), table.column("doc_id").to_pylist(),
                           table.column(value_name).to_pylist()):
            out.setdefault(q, {})[d] = v
        return out

    qrels = {q: {d: int(g) for d, g in e.items()} for q, e in nested(qrels_table, "relevance").items()}
    return pytrec_dicts(qrels, nested(run_table, "score"))


def big_parquet(folder: str) -> Tuple[str, str]:
    """The big TREC run as parquet (query_id, doc_id, score; rows grouped by query, in
    row groups of 1,000,000), written once with pyarrow from the TREC file."""
    import pyarrow as pa
    import pyarrow.csv as csv
    import pyarrow.parquet as parquet

    qrels_path, run_path = write_big_trec(folder)
    out = os.path.join(folder, "run-big.parquet")
    if not os.path.exists(out):
        names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
        reader = csv.open_csv(run_path, read_options=csv.ReadOptions(column_names=names, block_size=64 << 20),
                              parse_options=csv.ParseOptions(delimiter=" "),
                              convert_options=csv.ConvertOptions(include_columns=["query_id", "doc_id", "score"],
                                                                 column_types={"query_id": pa.string(), "doc_id": pa.string(),
                                                                               "score": pa.float64()}))
        with parquet.ParquetWriter(out + ".part", reader.schema) as writer:
            for batch in reader:
                writer.write_batch(batch, row_group_size=1_000_000)
        os.replace(out + ".part", out)
    return qrels_path, out


def big_shuffled_file(folder: str, queries: int = 100_000) -> Tuple[str, str]:
    """A run of `queries` x 100 lines (10 M for 100,000) with its lines in random order:
    not grouped by query, so it is read whole."""
    import numpy as np

    qrels_path, run_path = write_big_trec(folder, queries=queries)
    out = run_path.replace(".txt", "-shuffled.txt")
    if not os.path.exists(out):
        data = np.fromfile(run_path, dtype=np.uint8)
        width = int(np.argmax(data == ord("\n"))) + 1  # fixed-width lines: the first one's length
        lines = data.reshape(-1, width)
        lines[np.random.default_rng(7).permutation(len(lines))].tofile(out + ".part")
        os.replace(out + ".part", out)
    return qrels_path, out


IMPLEMENTATIONS = {"evalcore": evalcore_dicts, "pytrec_eval": pytrec_dicts, "ranx": ranx_dicts,
                   "ir_measures": ir_measures_dicts, "evalcore_files": evalcore_files,
                   "pytrec_eval_files": pytrec_files, "evalcore_big": evalcore_files,
                   "evalcore_tables": evalcore_tables, "pytrec_eval_tables": pytrec_tables,
                   "evalcore_big_parquet": evalcore_files, "evalcore_big_shuffled": evalcore_files}
BIG = ("evalcore_big", "evalcore_big_parquet", "evalcore_big_shuffled")
DISTRIBUTIONS = {"evalcore": "evalcore", "pytrec_eval": "pytrec-eval-terrier", "ranx": "ranx",
                 "ir_measures": "ir-measures"}


# ---- a worker: one implementation in this process ---------------------------------------


def worker(name: str, args: argparse.Namespace) -> Dict[str, Any]:
    if name == "evalcore_big":
        inputs = write_big_trec(args.data)
    elif name == "evalcore_big_parquet":
        inputs = big_parquet(args.data)
    elif name == "evalcore_big_shuffled":
        inputs = big_shuffled_file(args.data)
    elif name.endswith("_tables"):
        inputs = table_rows(*run_dicts(args.queries, seed=args.seed, shuffled=args.order == "shuffled"),
                            args.order == "shuffled", args.seed)
    elif name.endswith("_files"):
        inputs = (os.path.join(args.folder, "qrels.txt"), os.path.join(args.folder, "run.txt"))
    else:
        inputs = run_dicts(args.queries, seed=args.seed, shuffled=args.order == "shuffled")
    if name == "same_process":
        return same_process(inputs, args.repeats)
    function = IMPLEMENTATIONS[name]
    baseline = proc_status_mb("VmRSS") or 0.0
    reset_peak()
    start = time.perf_counter()
    means = function(*inputs)  # warm-up: first-call costs (imports, ranx's JIT) are not timed
    first = time.perf_counter() - start
    repeats = 1 if name in BIG else args.repeats
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*inputs)
        times.append(time.perf_counter() - start)
    return {"name": name, "median_s": statistics.median(times) if name not in BIG else min(times + [first]),
            "first_call_s": first, "times_s": times, "baseline_mb": baseline, "peak_mb": peak_mb(),
            "means": {m: float(v) for m, v in means.items()}}


def same_process(inputs: Any, repeats: int) -> Dict[str, Any]:
    """evalcore and pytrec_eval alternating on the same objects in one process."""
    ours, theirs = [], []
    evalcore_dicts(*inputs), pytrec_dicts(*inputs)  # warm-up
    for _ in range(repeats):
        start = time.perf_counter()
        evalcore_dicts(*inputs)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        means = pytrec_dicts(*inputs)
        theirs.append(time.perf_counter() - start)
    return {"name": "same_process", "median_s": statistics.median(ours), "pytrec_median_s": statistics.median(theirs),
            "first_call_s": 0.0, "times_s": ours, "baseline_mb": 0.0, "peak_mb": peak_mb(), "means": means}


def run_worker(name: str, args: argparse.Namespace) -> Optional[Dict[str, Any]]:
    command = [sys.executable, __file__, "--worker", name, "--queries", str(args.queries), "--repeats", str(args.repeats),
               "--seed", str(args.seed), "--folder", args.folder, "--data", args.data, "--order", args.order]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"  {name}: FAILED\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- report -------------------------------------------------------------------------------


def check_agreement(results: Dict[str, Dict[str, Any]]) -> List[str]:
    notes = []
    ours = results.get("evalcore", {}).get("means")
    if ours is None:
        return ["evalcore did not run"]
    for peer, tolerance in (("pytrec_eval", 1e-12), ("ranx", 1e-9), ("ir_measures", 1e-9)):
        theirs = results.get(peer, {}).get("means")
        if theirs is None:
            continue
        compared = [m for m in MEASURES if not (peer == "pytrec_eval" and m == "RR@10")]
        worst = max(abs(ours[m] - theirs[m]) for m in compared)
        status = "agree" if worst <= tolerance else "DISAGREE"
        notes.append(f"{peer}: {status} on {', '.join(compared)} (max |diff| {worst:.2e}, tolerance {tolerance:g})")
    files = results.get("evalcore_files", {}).get("means")
    if files is not None:
        notes.append("evalcore from files == from dicts: " + str(files == ours))
    return notes


def report(results: Dict[str, Dict[str, Any]], args: argparse.Namespace, order: str) -> None:
    documents = "documents and file lines in random order" if order == "shuffled" else "documents in rank order"
    print(f"\nbulk runs ({order}: {documents}): {args.queries} queries x 100 retrieved x 50 judgments, measures "
          f"{', '.join(MEASURES)}; medians of {args.repeats} calls after one warm-up; {os.cpu_count()} CPUs; "
          + ", ".join(f"{d} {dist_version(d)}" for d in DISTRIBUTIONS.values()))
    print(f"{'implementation':<22}{'median s':>10}{'first call s':>14}{'peak RSS MB':>13}{'above input MB':>16}{'evalcore is':>14}")
    base = {"dicts": results.get("evalcore"), "files": results.get("evalcore_files"),
            "tables": results.get("evalcore_tables")}
    for name, r in results.items():
        if name == "same_process":
            print(f"{'same process: evalcore':<22}{r['median_s']:>10.3f}{'':>43}")
            print(f"{'  vs pytrec_eval':<22}{r['pytrec_median_s']:>10.3f}{'':>43}{r['pytrec_median_s'] / r['median_s']:>10.1f}x faster")
            continue
        ref = base["files"] if name.endswith("_files") else base["tables"] if name.endswith("_tables") else base["dicts"]
        ratio = "" if name.startswith("evalcore") or ref is None else f"{r['median_s'] / ref['median_s']:.1f}x faster"
        print(f"{name:<22}{r['median_s']:>10.3f}{r['first_call_s']:>14.3f}{r['peak_mb']:>13.0f}"
              f"{r['peak_mb'] - r['baseline_mb']:>16.0f}{ratio:>14}")
    for note in check_agreement(results):
        print("  " + note)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000, help="queries of the dict/file benchmark (10000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per implementation (5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-big", action="store_true", help="skip the 1,000,000-query file")
    parser.add_argument("--data", default=os.path.join(tempfile.gettempdir(), "evalcore-bench-runs"),
                        help="where the 1M-query files are generated once and kept")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--order", choices=("shuffled", "presorted", "both"), default="both",
                        help="documents (and file lines) in random order, in rank order, or both runs (both)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--folder", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args)))
        return 0

    orders = ("shuffled", "presorted") if args.order == "both" else (args.order,)
    every: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for order in orders:
        args.order = order
        results: Dict[str, Dict[str, Any]] = {}
        with tempfile.TemporaryDirectory() as folder:
            args.folder = folder
            write_trec_dicts(*run_dicts(args.queries, seed=args.seed, shuffled=order == "shuffled"), folder,
                             shuffled=order == "shuffled", seed=args.seed)
            for name in DICT_WORKERS + FILE_WORKERS + TABLE_WORKERS + ("same_process",):
                print(f"running {name} ({order}) ...", file=sys.stderr, flush=True)
                outcome = run_worker(name, args)
                if outcome is not None:
                    results[name] = outcome
        every[order] = results
        report(results, args, order)
    if not args.skip_big:
        print("running evalcore on the 1,000,000-query file, its parquet form, and a shuffled 10 M-line file "
              "(generated once into --data) ...", file=sys.stderr, flush=True)
        every["big"] = {}
        for name, what in (("evalcore_big", "1,000,000 queries x 100, TREC file grouped by query"),
                           ("evalcore_big_parquet", "the same run as parquet (pyarrow.parquet, batch by batch)"),
                           ("evalcore_big_shuffled", "100,000 queries x 100, TREC file with its lines shuffled")):
            outcome = run_worker(name, args)
            if outcome is not None:
                every["big"][name] = outcome
                print(f"{name}: {outcome['median_s']:.3f} s (best of 2 calls), peak RSS {outcome['peak_mb']:.0f} MB"
                      f" - {what}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(every, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
