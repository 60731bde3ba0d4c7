"""ir_measures' own calls through evalcore's provider (issue 25 item 5) against ir_measures'
default pipeline (pytrec_eval for the trec_eval family; cwl_eval for the C/W/L family; its
compat, accuracy and msmarco providers for ``--family others``): ``ir_measures.calc_aggregate``
and ``list(ir_measures.iter_calc(...))`` on the same dicts, medians over interleaved repeats,
the ratio from the same run; a large case and a tiny one (where the fixed costs dominate, the
unfavourable input for a provider that calls evaluate_run).
One command: python bench/bench_ir_measures_provider.py [--family trec|cwl|others] [--queries N] [--repeats R]"""

from __future__ import annotations

import argparse
import statistics

import ir_measures
from ir_measures import AP, INST, SDCG, P, R, RBP, RR, Accuracy, Bpref, Compat, nDCG

import evalcore.ir_measures
from measure import dist_version, time_calls
from run_generators import run_dicts

# family -> (its measures, the provider ir_measures uses for them without evalcore, default queries)
FAMILIES = {
    "trec": ([AP, nDCG @ 10, P @ 10, RR, R @ 100, Bpref], "pytrec_eval", 10_000),
    # cwl_eval's provider runs numpy over 1000 ranks per query and measure: fewer queries
    "cwl": ([INST(max_rel=3), SDCG(max_rel=3) @ 10, RBP(rel=1)], "cwl_eval", 1_000),
    "others": ([Compat, Accuracy @ 100, RR @ 10], "compat, accuracy, msmarco", 1_000),
}


def case(measures: list, queries: int, repeats: int, peer: str) -> None:
    qrels, run = run_dicts(queries=queries, retrieved=100, judgments=50)
    calls = {
        "calc_aggregate": lambda: ir_measures.calc_aggregate(measures, qrels, run),
        "iter_calc (list)": lambda: list(ir_measures.iter_calc(measures, qrels, run)),
    }
    for name, call in calls.items():
        times: dict = {peer: [], "evalcore": []}
        for _ in range(repeats):  # interleaved, so that a change of the machine's load hits both
            evalcore.ir_measures.unregister()
            times[peer] += time_calls(call, 1)
            evalcore.ir_measures.register()
            times["evalcore"] += time_calls(call, 1)
        evalcore.ir_measures.unregister()
        theirs, ours = statistics.median(times[peer]), statistics.median(times["evalcore"])
        print(f"{queries:>6,} queries x 100 docs, {name:<17} {peer} {theirs:8.4f} s  evalcore {ours:8.4f} s  "
              f"ratio {theirs / ours:5.2f}x  (medians of {repeats})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--family", choices=sorted(FAMILIES), default="trec")
    parser.add_argument("--queries", type=int, default=None, help="default: 10,000 (trec), 1,000 (the others)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    measures, peer, queries = FAMILIES[args.family]
    print(f"ir_measures {dist_version('ir-measures')}, pytrec-eval-terrier {dist_version('pytrec-eval-terrier')}, "
          f"cwl-eval {dist_version('cwl-eval')}, measures {', '.join(map(str, measures))}")
    case(measures, args.queries or queries, args.repeats, peer)
    case(measures, 10, args.repeats * 20, peer)


if __name__ == "__main__":
    main()
