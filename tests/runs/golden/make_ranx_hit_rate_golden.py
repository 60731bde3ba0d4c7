"""Writes ranx_hit_rate.json, ranx 0.3.21's hit_rate on evalcore's seeded inputs (issue 25 item 4, h25-ncg):
the queries of make_ranx_golden.py (seed 25) and as many again (seed 19), so that some have no relevant
judgment at a level. ranx compiles its metrics with numba on first use (about 40 s), too slow for the
default suite, so tests/runs/test_ncg_hit_rate.py compares against these committed values.
Run: pip install --only-binary=:all: ranx==0.3.21 && python tests/runs/golden/make_ranx_hit_rate_golden.py"""

from __future__ import annotations

from make_ranx_golden import seeded_queries, write_golden

METRICS = ["hit_rate", "hit_rate@1", "hit_rate@3", "hit_rate@10-l2", "hit_rate-l3"]


def main() -> None:
    queries = seeded_queries(25) + [(f"s{q}", judged, scores) for q, judged, scores in seeded_queries(19)]
    write_golden("ranx_hit_rate.json", METRICS, queries)


if __name__ == "__main__":
    main()
