"""Benchmark ties="average" (issue 25 items 3 and 6) against ties="score", in the same process,
on the same dicts: `python bench/bench_ties.py`.

The run is bench_runs.py's (run_generators.run_dicts: 10,000 queries × 100 retrieved × 50
graded judgments) with its scores as given (no ties: every score distinct) and rounded to
coarse values (`--levels` distinct scores per query, default 5: a BM25 with few distinct
values or an LLM's relevance labels; groups of about 20 tied documents). Two sets of measures,
each its own table: nDCG@10, AP@100, RR@10, P@10, R@100 and ERR@20 (the DP over the group the
cutoff falls in), and trec_eval's that ties="average" took second (bpref, binG, dcg, Rndcg,
ndcg_rel, rbp, rbp_resid, unj_10, relative_P_10, Rprec_mult_1.00: each reads the whole
ranking), and (h25-ties3) the C/W/L RBP, INSQ and SDCG and ir_measures' Accuracy. Each
(set, input, rule) is timed as the median of --repeats calls, alternating, and the ratio
average / score is printed per input; the issue's target is 1.5 at most.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import evalcore  # noqa: E402
from measure import time_calls  # noqa: E402
from run_generators import run_dicts  # noqa: E402

MEASURE_SETS = {
    "common": ["nDCG@10", "AP@100", "RR@10", "P@10", "R@100", "ERR@20"],
    "trec_eval's": ["bpref", "binG", "dcg", "Rndcg", "ndcg_rel", "rbp", "rbp_resid", "unj_10", "relative_P_10",
                    "Rprec_mult_1.00"],
    # h25-ties3: the C/W/L measures linear in the gains (cwl_eval's 1000 ranks each) and Accuracy
    "C/W/L and Accuracy": ["RBP(p=0.8,max_rel=3)", "INSQ(T=2,max_rel=3).ETU", "SDCG(max_rel=3)@10", "Accuracy",
                           "Accuracy@10"],
}


def coarse(run: dict, levels: int) -> dict:
    """Each query's scores replaced by `levels` values: its documents in their rank order cut
    into `levels` equal bands, the first band scoring `levels`, the last 1."""
    out = {}
    for query, docs in run.items():
        ranked = sorted(docs, key=docs.get, reverse=True)
        band = max(1, -(-len(ranked) // levels))
        out[query] = {d: float(levels - i // band) for i, d in enumerate(ranked)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--levels", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    qrels, run = run_dicts(args.queries)
    inputs = {"no ties (distinct scores)": run, f"coarse ({args.levels} distinct scores a query)": coarse(run, args.levels)}
    print(f"evalcore {evalcore.__version__}; {args.queries:,} queries x 100 retrieved x 50 judgments; "
          f"medians of {args.repeats}, alternating; threads={args.threads or 'default'}")
    for set_name, measures in MEASURE_SETS.items():
        print(f"\n{set_name} measures: {', '.join(measures)}\n")
        print("| input | ties=\"score\" s | ties=\"average\" s | average / score |")
        print("|---|---:|---:|---:|")
        for name, data in inputs.items():
            times = {"score": [], "average": []}
            for _ in range(args.repeats):
                for ties in times:
                    times[ties] += time_calls(lambda: evalcore.evaluate_run(qrels, data, measures, ties=ties,
                                                                            threads=args.threads), 1)
            score, average = (sorted(times[t])[len(times[t]) // 2] for t in ("score", "average"))
            print(f"| {name} | {score:.3f} | {average:.3f} | {average / score:.2f} |")


if __name__ == "__main__":
    main()
