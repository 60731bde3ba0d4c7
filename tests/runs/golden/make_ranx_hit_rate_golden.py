"""Writes ranx_hit_rate.json, ranx 0.3.21's hit_rate on evalcore's seeded inputs (issue 25 item 4, h25-ncg):
the queries of make_ranx_golden.py (seed 25) and as many again (seed 19), so that some have no relevant
judgment at a level. ranx compiles its metrics with numba on first use (about 40 s), too slow for the
default suite, so tests/runs/test_ncg_hit_rate.py compares against these committed values.
Run: pip install --only-binary=:all: ranx==0.3.21 && python tests/runs/golden/make_ranx_hit_rate_golden.py"""

from __future__ import annotations

import json
import os

from make_ranx_golden import seeded_queries
from ranx import Qrels, Run, evaluate

METRICS = ["hit_rate", "hit_rate@1", "hit_rate@3", "hit_rate@10-l2", "hit_rate-l3"]


def main() -> None:
    out = []
    for query, judged, scores in seeded_queries(25) + [(f"s{q}", j, s) for q, j, s in seeded_queries(19)]:
        values = evaluate(Qrels({query: judged}), Run({query: scores}), METRICS, make_comparable=True)
        out.append({"query": query, "qrels": judged, "run": scores, "ranx": {m: float(v) for m, v in values.items()}})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ranx_hit_rate.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
