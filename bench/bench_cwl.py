"""Benchmark the C/W/L measures (issue 25 items 2 and 6): evalcore against cwl_eval 1.0.12 on
a seeded run of ``--queries`` queries (10,000) x ``--docs`` documents (100).

The qrels judge 30 documents a query (20 of them retrieved) with gains 0, 1/3, 2/3 or 1 (cwl_eval
reads gains in [0, 1] as they are; evalcore's names say max_rel=1, the same reading). Nine
measures, each with cwl_eval's five figures (EU, ETU, EC, ETC, ED: 45 values a query): RBP
(p=0.8), INST (T=2), INSQ (T=2), BPM (T=1, K=10), SDCG@10, NERR8@10, NERR9@10, NERR10 (p=0.9),
NERR11 (T=2). Timed, the median of ``--repeats`` runs each, in this one process:

* the floor: evalcore reading both files and counting each query's documents (``NumRet``);
* evalcore: ``evaluate_run(qrels, run, 45 names, threads=1)`` (one thread, as cwl_eval has),
  and with all threads;
* cwl_eval: its own ``main`` (the loop of its command line: read the gains, walk the run file
  query by query, measure, print) with its ruler set to the nine metrics, stdout discarded.
  It takes about 25 ms a query, so it runs on the first ``--cwl-queries`` queries (500) and
  its time is scaled to all of them (its cost is per query: one ranking, nine metrics over its
  1000 ranks), which the output says.

The figures cwl_eval printed for those queries are checked against evalcore's (4 decimals).

``--scan-cost`` (h25-gaps) times instead what the C/W/L measures' scan of the run file costs (it
finds the run's queries without judgments and those split over stretches of the file, which
cwl_eval scores otherwise: runs/cwl_run_queries.py): evalcore, 1 thread, with the scan and
without it (the scan replaced by nothing), alternating, ``--repeats`` times each; cwl_eval is not run.

Run from the repository root:
  python bench/bench_cwl.py [--queries N] [--docs D] [--cwl-queries M] [--repeats R] [--scan-cost]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from typing import Callable, List

NAMES = ["RBP(p=0.8,max_rel=1)", "INST(T=2,max_rel=1)", "INSQ(T=2,max_rel=1)", "BPM(T=1,max_rel=1)@10",
         "SDCG(max_rel=1)@10", "NERR8(max_rel=1)@10", "NERR9(max_rel=1)@10", "NERR10(p=0.9,max_rel=1)",
         "NERR11(T=2,max_rel=1)"]
FIGURES = ("EU", "ETU", "EC", "ETC", "ED")


def write_files(folder: str, queries: int, docs: int, seed: int) -> None:
    rng = random.Random(seed)
    with open(os.path.join(folder, "gains"), "w") as qrels, open(os.path.join(folder, "run"), "w") as run:
        for q in range(queries):
            ranked = [f"d{rng.randrange(10 ** 6)}-{i}" for i in range(docs)]
            judged = rng.sample(ranked, 20) + [f"u{q}-{i}" for i in range(10)]
            for doc in judged:
                qrels.write(f"q{q} 0 {doc} {rng.choice(['0', '0', '0.3333333333333333', '0.6666666666666666', '1'])}\n")
            for rank, doc in enumerate(ranked, 1):
                run.write(f"q{q} Q0 {doc} {rank} {docs - rank}.5 bench\n")


def median(fn: Callable[[], object], repeats: int) -> float:
    times: List[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cwl_eval_main(gains: str, run: str) -> str:
    """cwl_eval's command line loop (cwl.cwl_eval.main) with the nine metrics; its output."""
    import logging

    import cwl.cwl_eval as cli
    from cwl.ruler import cwl_ruler as m

    logging.getLogger("cwl").disabled = True  # (main adds a handler writing cwl.log)

    def ruler(metrics_file: object, residuals: bool) -> object:
        r = m.CWLRuler(None, residuals)
        r.metrics = [m.RBPCWLMetric(0.8), m.INSTCWLMetric(2.0), m.INSQCWLMetric(2.0), m.BPMCWLMetric(1.0, 10),
                     m.NDCGCWLMetric(10), m.NERReq8CWLMetric(10), m.NERReq9CWLMetric(10), m.NERReq10CWLMetric(0.9),
                     m.NERReq11CWLMetric(2.0)]
        return r

    cli.CWLRuler = ruler  # type: ignore[assignment]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli.main(run, gains)
    return out.getvalue()


def scan_cost(args: argparse.Namespace) -> None:
    """evalcore's 45 figures on one thread, with and without the run file's scan, alternating."""
    import evalcore
    from evalcore.runs import cwl_run_queries

    names = [n if f == "EU" else f"{n}.{f}" for n in NAMES for f in FIGURES]
    scan = cwl_run_queries.run_stretches
    times: dict = {"with the scan": [], "without": []}
    with tempfile.TemporaryDirectory() as folder:
        write_files(folder, args.queries, args.docs, args.seed)
        gains, run = os.path.join(folder, "gains"), os.path.join(folder, "run")
        try:
            for _ in range(args.repeats):
                for label in times:
                    cwl_run_queries.run_stretches = scan if label == "with the scan" else (lambda run: None)
                    start = time.perf_counter()
                    evalcore.evaluate_run(gains, run, names, threads=1)
                    times[label].append(time.perf_counter() - start)
        finally:
            cwl_run_queries.run_stretches = scan
    print(f"{args.queries:,} queries x {args.docs} documents, 45 C/W/L figures, 1 thread; medians of {args.repeats}")
    for label, values in times.items():
        print(f"  evalcore, {label:14} {statistics.median(values):9.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--cwl-queries", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--scan-cost", action="store_true", help="time the run scan of the C/W/L warnings only")
    args = parser.parse_args()
    import evalcore

    if args.scan_cost:
        return scan_cost(args)

    names = [n if f == "EU" else f"{n}.{f}" for n in NAMES for f in FIGURES]
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # (cwl_eval's main opens cwl.log in the current folder)
        write_files(folder, args.queries, args.docs, args.seed)
        gains, run = os.path.join(folder, "gains"), os.path.join(folder, "run")
        subset_run = os.path.join(folder, "run-subset")
        with open(run) as full, open(subset_run, "w") as part:
            part.writelines(line for line in full if int(line.split()[0][1:]) < args.cwl_queries)
        floor = median(lambda: evalcore.evaluate_run(gains, run, "NumRet", threads=1), args.repeats)
        one = median(lambda: evalcore.evaluate_run(gains, run, names, threads=1), args.repeats)
        every = median(lambda: evalcore.evaluate_run(gains, run, names), args.repeats)
        cwl_repeats = max(1, args.repeats // 2)
        printed = cwl_eval_main(gains, subset_run)
        cwl_subset = median(lambda: cwl_eval_main(gains, subset_run), cwl_repeats)
        cwl_scaled = cwl_subset * args.queries / args.cwl_queries
        with warnings.catch_warnings():  # (the queries past the subset are judged, not run: left out)
            warnings.simplefilter("ignore", evalcore.EvaluationWarning)
            result = evalcore.evaluate_run(gains, subset_run, names)
        index = {q: i for i, q in enumerate(result.query_ids)}
        worst = 0.0
        for line in printed.splitlines():
            topic, metric, *figures = line.split("\t")
            name = NAMES[[m.rstrip() for m in ("RBP@0.8", "INST-T=2.0", "INSQ-T=2.0", "BPM-Static-T=1.0-K=10",
                                               "NDCG-k@10", "NERR-EQ8@k=10", "NERR-EQ9@k=10", "NERR-EQ10@phi=0.9",
                                               "NERR-EQ11@T=2.0")].index(metric)]
            for figure, text in zip(FIGURES, figures):
                full_name = name if figure == "EU" else f"{name}.{figure}"
                worst = max(worst, abs(float(result.values(full_name)[index[topic]]) - float(text)))
        assert worst <= 5e-5 + 1e-9, worst
    print(f"{args.queries:,} queries x {args.docs} documents, 9 C/W/L measures x 5 figures; "
          f"medians of {args.repeats} runs (cwl_eval: {cwl_repeats})")
    print(f"  floor (evalcore NumRet, 1 thread)   {floor:9.3f} s")
    print(f"  evalcore, 1 thread                  {one:9.3f} s")
    print(f"  evalcore, {os.cpu_count()} threads                 {every:9.3f} s")
    print(f"  cwl_eval {args.cwl_queries:,} queries               {cwl_subset:9.3f} s"
          f" -> scaled to {args.queries:,}: {cwl_scaled:9.1f} s")
    print(f"  ratio cwl_eval / evalcore (1 thread): {cwl_scaled / one:,.0f}x; "
          f"largest difference from cwl_eval's printed figures {worst:.1e} (4 decimals printed)")


if __name__ == "__main__":
    sys.exit(main())
