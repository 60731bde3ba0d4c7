"""Benchmark the diversity measures (issue 25 items 1 and 6): evalcore against pyndeval on a
seeded run of ``--queries`` queries (200) x ``--docs`` documents (1,000), judged for
``--subtopics`` subtopics (5) each.

The data (seeded, ``diversity_data``): per query, 100 judged documents (90 of the run's, 10
it misses), each judged for every subtopic, relevant (grade 1 or 2) with probability 0.15;
run scores drawn from 200 values (ties). Measured, each the median of ``--repeats`` runs,
in this process:

* the floor: one pass over the run's (query, doc, score) entries in Python;
* evalcore on ndeval's qrels file and a TREC run file (the core reads both);
* evalcore on the dicts ``{query: {subtopic: {doc: grade}}}`` and ``{query: {doc: score}}``;
* pyndeval (``RelevanceEvaluator(qrels tuples).evaluate(run tuples)``, its own input form,
  already in memory), with the same measures: ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG at
  5, 10, 20; NRBP, nNRBP, MAP-IA; P-IA and strec at 5, 10, 20 (ndeval's default set).

The tools take turns within each repeat. Each line gives the median wall time and the median
of the repeats' ratios (pyndeval's time over this one's, taken moments apart), then the
median CPU time of the process (every thread's; evalcore reads and scores on all CPUs,
``threads=None``) and its ratio.

The values are checked equal first. ``--write-example DIR`` writes the small shipped example
(examples/diversity.qrels, diversity.run: 6 queries x 40 documents x 4 subtopics) instead.

Run from the repository root:
  python bench/bench_diversity.py [--queries N] [--docs D] [--subtopics S] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from typing import Any, Callable, Dict, List, Tuple

PYNDEVAL = ["ERR-IA@5", "ERR-IA@10", "ERR-IA@20", "nERR-IA@5", "nERR-IA@10", "nERR-IA@20", "alpha-DCG@5",
            "alpha-DCG@10", "alpha-DCG@20", "alpha-nDCG@5", "alpha-nDCG@10", "alpha-nDCG@20", "NRBP", "nNRBP",
            "MAP-IA", "P-IA@5", "P-IA@10", "P-IA@20", "strec@5", "strec@10", "strec@20"]
OURS = [m.replace("-IA", "_IA").replace("alpha-", "alpha_").replace("MAP_IA", "AP_IA").replace("strec", "StRecall")
        for m in PYNDEVAL]


def diversity_data(queries: int, docs: int, subtopics: int, seed: int = 25,
                   judged: int = 100) -> Tuple[Dict[str, Dict[str, Dict[str, int]]], Dict[str, Dict[str, float]]]:
    """Seeded subtopic qrels and run (see the module's docstring)."""
    rng = random.Random(seed)
    qrels: Dict[str, Dict[str, Dict[str, int]]] = {}
    run: Dict[str, Dict[str, float]] = {}
    for q in range(1, queries + 1):
        query = str(q)
        ranked = [f"d{q}-{i}" for i in range(docs)]
        run[query] = {doc: float(rng.randrange(200)) / 10 for doc in ranked}
        judged_docs = rng.sample(ranked, min(judged * 9 // 10, docs)) + [f"u{q}-{i}" for i in range(judged // 10)]
        qrels[query] = {str(s): {doc: (rng.choice((1, 2)) if rng.random() < 0.15 else 0) for doc in judged_docs}
                        for s in range(1, subtopics + 1)}
    return qrels, run


def write_files(qrels: Dict[str, Any], run: Dict[str, Any], folder: str, stem: str) -> Tuple[str, str]:
    qrels_path, run_path = os.path.join(folder, f"{stem}.qrels"), os.path.join(folder, f"{stem}.run")
    with open(qrels_path, "w") as handle:
        for query, subs in qrels.items():
            for subtopic, docs in subs.items():
                handle.writelines(f"{query} {subtopic} {doc} {grade}\n" for doc, grade in docs.items())
    with open(run_path, "w") as handle:
        for query, docs in run.items():
            ranked = sorted(docs.items(), key=lambda item: (-item[1], item[0]))
            handle.writelines(f"{query} Q0 {doc} {rank} {score} bench\n" for rank, (doc, score) in enumerate(ranked, 1))
    return qrels_path, run_path


def interleaved_seconds(works: Dict[str, Callable[[], Any]], repeats: int) -> Dict[str, Tuple[List[float], List[float]]]:
    """Each work's wall times and the process's CPU times (all its threads), the works taking
    turns within each repeat (the order rotating), so that a ratio compares times taken in the
    same state of the machine: on this shared VM the speed drifts by a quarter within seconds,
    and one work's repeats after another's made the ratios follow the drift."""
    times: Dict[str, Tuple[List[float], List[float]]] = {name: ([], []) for name in works}
    names = list(works)
    for repeat in range(repeats):
        for name in names[repeat % len(names):] + names[:repeat % len(names)]:
            start, cpu_start = time.perf_counter(), time.process_time()
            works[name]()
            times[name][0].append(time.perf_counter() - start)
            times[name][1].append(time.process_time() - cpu_start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--subtopics", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write-example", metavar="DIR")
    parser.add_argument("--baseline-bytes", action="store_true",
                        help="keep the TREC parsers to the x86-64 baseline's code, as on a processor without AVX2")
    args = parser.parse_args()
    if args.write_example:
        qrels, run = diversity_data(6, 40, 4, seed=2025, judged=20)
        print(*write_files(qrels, run, args.write_example, "diversity"))
        return
    import evalcore

    if args.baseline_bytes:
        evalcore._core._trec_bytes(baseline=True)
    import pyndeval

    qrels, run = diversity_data(args.queries, args.docs, args.subtopics)
    tuples = [(q, s, d, g) for q, subs in qrels.items() for s, docs in subs.items() for d, g in docs.items()]
    scored = [(q, d, v) for q, docs in run.items() for d, v in docs.items()]
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = write_files(qrels, run, folder, "bench")

        def ours_files() -> Any:
            return evalcore.evaluate_run(qrels_path, run_path, OURS, qrels_format="subtopics")

        def ours_dicts() -> Any:
            return evalcore.evaluate_run(qrels, run, OURS, qrels_format="subtopics")

        def theirs() -> Any:
            return pyndeval.RelevanceEvaluator(tuples, PYNDEVAL).evaluate(scored)

        def floor() -> int:
            return sum(1 for _q, _d, _v in scored)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result, expected = ours_files(), theirs()
            for mine, other in zip(OURS, PYNDEVAL):
                got = [float(v) for v in result.values(mine)]
                assert got == [expected[q][other] for q in result.query_ids], mine
            assert ours_dicts().mean == result.mean
            timings = interleaved_seconds({"floor (one Python pass over the run)": floor, "evalcore, files": ours_files,
                                           "evalcore, dicts": ours_dicts, "pyndeval": theirs}, args.repeats)
    print(f"{args.queries} queries x {args.docs} documents x {args.subtopics} subtopics "
          f"({len(tuples):,} judgments, {len(scored):,} run rows); {len(OURS)} measures; "
          f"median of {args.repeats}, the tools taking turns; Python {sys.version.split()[0]}; "
          f"the TREC parsers' code: {evalcore._core._trec_bytes()}")  # (runs/trec_bytes.hpp: avx2, sse2 or portable)
    theirs_wall, theirs_cpu = timings["pyndeval"]
    for name, (walls, cpus) in timings.items():
        # The ratio: the median of each repeat's ratio (times taken moments apart).
        ratio = statistics.median(t / w for t, w in zip(theirs_wall, walls))
        cpu_ratio = statistics.median(t / c for t, c in zip(theirs_cpu, cpus))
        print(f"  {name:40} {statistics.median(walls) * 1000:9.1f} ms   pyndeval / this: {ratio:6.1f}x   "
              f"CPU {statistics.median(cpus) * 1000:7.1f} ms ({cpu_ratio:5.1f}x)")


if __name__ == "__main__":
    main()
