"""ir_measures' own calls through evalcore's provider (issue 25 item 5) against ir_measures'
default pipeline (pytrec_eval for these measures): ``ir_measures.calc_aggregate`` and
``list(ir_measures.iter_calc(...))`` on the same dicts, medians over interleaved repeats, the
ratio from the same run; a large case and a tiny one (where the fixed costs dominate, the
unfavourable input for a provider that calls evaluate_run).
One command: python bench/bench_ir_measures_provider.py [--queries N] [--repeats R]"""

from __future__ import annotations

import argparse
import statistics

import ir_measures
from ir_measures import AP, P, R, RR, Bpref, nDCG

import evalcore.ir_measures
from measure import dist_version, time_calls
from run_generators import run_dicts

MEASURES = [AP, nDCG @ 10, P @ 10, RR, R @ 100, Bpref]


def case(queries: int, repeats: int) -> None:
    qrels, run = run_dicts(queries=queries, retrieved=100, judgments=50)
    calls = {
        "calc_aggregate": lambda: ir_measures.calc_aggregate(MEASURES, qrels, run),
        "iter_calc (list)": lambda: list(ir_measures.iter_calc(MEASURES, qrels, run)),
    }
    for name, call in calls.items():
        times = {"pytrec_eval": [], "evalcore": []}
        for _ in range(repeats):  # interleaved, so that a change of the machine's load hits both
            evalcore.ir_measures.unregister()
            times["pytrec_eval"] += time_calls(call, 1)
            evalcore.ir_measures.register()
            times["evalcore"] += time_calls(call, 1)
        evalcore.ir_measures.unregister()
        theirs, ours = statistics.median(times["pytrec_eval"]), statistics.median(times["evalcore"])
        print(f"{queries:>6,} queries x 100 docs, {name:<17} pytrec_eval {theirs:8.4f} s  evalcore {ours:8.4f} s  "
              f"ratio {theirs / ours:5.2f}x  (medians of {repeats})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"ir_measures {dist_version('ir-measures')}, pytrec-eval-terrier {dist_version('pytrec-eval-terrier')}, "
          f"measures {', '.join(map(str, MEASURES))}")
    case(args.queries, args.repeats)
    case(10, args.repeats * 20)


if __name__ == "__main__":
    main()
