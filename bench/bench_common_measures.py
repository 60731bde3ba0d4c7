"""Benchmark issue 25 item 4's Compat and Accuracy: evalcore against ir_measures' own compat and
accuracy providers, and NCG (no tool defines it: against evalcore's nDCG and the paper's formula in
Python), on a seeded run of ``--queries`` queries (200) x ``--docs`` documents (1,000),
100 judgments a query (90 of the run's, grades 0-2), distinct scores (so the values agree; they
are checked equal first). Each figure is the median of ``--repeats`` runs in this process, from
dicts already in memory, for both.

Run from the repository root:
  python bench/bench_common_measures.py [--queries N] [--docs D] [--repeats R]
"""

from __future__ import annotations

import argparse
import math
import random

import ir_measures
from measure import median_time  # (bench/ is the script's folder, so on sys.path)

import evalcore


def data(queries: int, docs: int, seed: int = 25):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(queries):
        ranked = [f"d{i}" for i in range(docs)]
        rng.shuffle(ranked)
        run[f"q{q}"] = {d: float(docs - i) for i, d in enumerate(ranked)}
        judged = rng.sample(ranked, 90) + [f"m{i}" for i in range(10)]
        qrels[f"q{q}"] = {d: rng.choice((0, 0, 1, 2)) for d in judged}
    return qrels, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    qrels, run = data(args.queries, args.docs)
    for measure, provider in ((ir_measures.Compat, ir_measures.compat), (ir_measures.Accuracy @ 100, ir_measures.accuracy)):
        name = str(measure)
        theirs = {m.query_id: m.value for m in provider.iter_calc([measure], qrels, run)}
        ours = evalcore.evaluate_run(qrels, run, [name])
        for query, value in zip(ours.query_ids, map(float, ours.values(name))):  # absent there: NaN here
            assert value == theirs[query] if query in theirs else math.isnan(value), (name, query)
        t_ours = median_time(lambda: evalcore.evaluate_run(qrels, run, [name]), args.repeats)
        t_theirs = median_time(lambda: list(provider.iter_calc([measure], qrels, run)), args.repeats)
        print(f"{name}: evalcore {t_ours * 1000:.1f} ms, ir_measures {t_theirs * 1000:.1f} ms, "
              f"{t_theirs / t_ours:.1f} x")
    ncg(qrels, run, args.repeats)


def _python_ncg(judged, ranked, k):
    """The paper's NCG@k in plain Python, the baseline (no tool defines NCG)."""
    ideal = sum(sorted((g for g in judged.values() if g > 0), reverse=True)[:k])
    return sum(max(judged.get(d, 0), 0) for d in ranked[:k]) / ideal if ideal else math.nan


def ncg(qrels, run, repeats: int) -> None:
    """Issue 25 item 4 (h25-ncg): NCG@100 against nDCG@100 (the same gain set, with discounts) and the
    paper's formula in Python; the unfavourable cases: the whole ranking (every judgment's gain sorted)
    and ties="average" on scores with 10 distinct values (every rank in a tied group)."""
    ranked = {q: sorted(docs, key=docs.__getitem__, reverse=True) for q, docs in run.items()}
    ours = evalcore.evaluate_run(qrels, run, ["NCG@100"])
    for query, value in zip(ours.query_ids, map(float, ours.values("NCG@100"))):
        assert math.isclose(value, _python_ncg(qrels[query], ranked[query], 100), rel_tol=1e-12), query
    coarse = {q: {d: float(int(s) % 10) for d, s in docs.items()} for q, docs in run.items()}
    cases = [("NCG@100", run, {}), ("nDCG@100", run, {}), ("NCG", run, {}), ("nDCG", run, {}),
             ("NCG@100", coarse, {"ties": "average"}), ("nDCG@100", coarse, {"ties": "average"})]
    times = {}
    for name, scores, options in cases:
        times[name, bool(options)] = median_time(lambda: evalcore.evaluate_run(qrels, scores, [name], **options), repeats)
        print(f"{name}{' ties=average, 10 distinct scores' if options else ''}: evalcore "
              f"{times[name, bool(options)] * 1000:.1f} ms")
    t_python = median_time(lambda: [_python_ncg(qrels[q], sorted(docs, key=docs.__getitem__, reverse=True), 100)
                                    for q, docs in run.items()], repeats)
    print(f"NCG@100: the paper's formula in Python {t_python * 1000:.1f} ms (from the same dicts), "
          f"{t_python / times['NCG@100', False]:.1f} x evalcore; NCG@100 / nDCG@100: "
          f"{times['NCG@100', False] / times['nDCG@100', False]:.2f}")


if __name__ == "__main__":
    main()
