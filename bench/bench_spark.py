"""evalcore on Spark against one machine and against Spark's own RankingEvaluator: a run of
100,000 queries x 100 documents (10 M rows) and its binary qrels, as Parquet files.

    python bench/bench_spark.py [--queries N] [--repeats N] [--folder DIR] [--driver-memory 2g] [--claims-only]

Times (median of --repeats after a warm-up, local[2]):
  - evalcore.spark.evaluate_run(qrels_df, run_df, MEASURES).mean: read the Parquet files,
    shuffle on the query, score, exact means (one pass);
  - the same, .warnings instead of .mean (h25-sparkpol): the pass that sums the hidden
    columns too (evaluate_run's warnings, and the means with them);
  - evalcore.evaluate_run on one machine, on the same data as pyarrow tables (2 threads;
    reading the Parquet files is timed apart), as read (rows in no order) and sorted by
    query (the sort timed apart);
  - pyspark.ml.evaluation.RankingEvaluator for its five metrics: each query's documents
    collected into an array ordered as evalcore orders them (score descending, then
    document ID descending) and its relevant documents into another, cached once, then
    the five evaluate() calls.
Then the means side by side (RankingEvaluator's differences, and why), and a table of tiny
examples that show each difference on its own (--claims-only prints only that one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import evalcore

# evalcore's measure -> RankingEvaluator's metric (k = 10)
PAIRS = [("AP", "meanAveragePrecision"), ("AP@10", "meanAveragePrecisionAtK"), ("P@10", "precisionAtK"),
         ("nDCG@10", "ndcgAtK"), ("R@10", "recallAtK")]
MEASURES = [m for m, _ in PAIRS]
K = 10


def write_data(folder: str, queries: int, retrieved: int, seed: int = 0):
    """run.parquet (query_id, doc_id int64, score double) and qrels.parquet (query_id,
    doc_id, relevance 0/1): per query 30 judgments, 25 of them among the retrieved
    documents; about 30% relevant; 2% of the queries have no relevant judgment."""
    os.makedirs(folder, exist_ok=True)
    run_path, qrels_path = os.path.join(folder, f"run-{queries}.parquet"), os.path.join(folder, f"qrels-{queries}.parquet")
    if os.path.exists(run_path) and os.path.exists(qrels_path):
        return qrels_path, run_path
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(queries, dtype=np.int64), retrieved)
    doc = query * 1000 + np.tile(np.arange(retrieved, dtype=np.int64), queries)
    score = np.round(rng.random(queries * retrieved) * 1000) / 8  # ties now and then
    order = rng.permutation(len(query))  # rows in no particular order, as a data lake has them
    pq.write_table(pa.table({"query_id": query[order], "doc_id": doc[order], "score": score[order]}), run_path,
                   row_group_size=1 << 20)
    judged_in = 25
    qq = np.repeat(np.arange(queries, dtype=np.int64), 30)
    picks = np.argsort(rng.random((queries, retrieved)), axis=1)[:, :judged_in]  # 25 retrieved documents
    outside = retrieved + np.arange(5)[None, :].repeat(queries, 0)  # 5 never retrieved
    qdoc = (np.arange(queries, dtype=np.int64)[:, None] * 1000 + np.concatenate([picks, outside], axis=1)).ravel()
    relevance = (rng.random(queries * 30) < 0.3).astype(np.int64)
    relevance[np.isin(qq, np.flatnonzero(rng.random(queries) < 0.02))] = 0
    pq.write_table(pa.table({"query_id": qq, "doc_id": qdoc, "relevance": relevance}), qrels_path)
    return qrels_path, run_path


def timed(function, repeats: int):
    result = function()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def warnings_read(result):
    """`result` once its warnings are computed (the pass timed)."""
    result.warnings
    return result


def session(driver_memory: str, partitions: int):
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("evalcore-bench")
             .config("spark.driver.memory", driver_memory).config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", str(partitions))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def ranking_evaluator_inputs(spark_qrels, spark_run):
    """One row per evaluated query: prediction (document IDs in evalcore's order) and label
    (the relevant ones), for the queries evalcore scores (run queries with judgments)."""
    import pyspark.sql.functions as F

    # Score descending, then document ID descending as evalcore compares IDs: by their text.
    ranked = spark_run.groupBy("query_id").agg(F.sort_array(F.collect_list(F.struct(
        F.col("score").alias("s"), F.col("doc_id").cast("string").alias("d"))), asc=False).alias("ranked"))
    prediction = ranked.select("query_id", F.expr("transform(ranked, x -> cast(x.d as double))").alias("prediction"))
    label = spark_qrels.groupBy("query_id").agg(
        F.collect_list(F.when(F.col("relevance") >= 1, F.col("doc_id").cast("double"))).alias("label"))
    return prediction.join(label, "query_id").select("prediction", "label")


def ranking_evaluator_means(data, subset: bool = False):
    """RankingEvaluator's five means; with `subset`, also over the queries with a relevant
    judgment only (where evalcore's R, AP and nDCG are defined)."""
    import pyspark.sql.functions as F
    from pyspark.ml.evaluation import RankingEvaluator

    cached = data.cache()
    cached.count()
    try:
        means = {metric: RankingEvaluator(metricName=metric, k=K).evaluate(cached) for _, metric in PAIRS}
        if subset:
            judged = cached.where(F.size("label") > 0)
            means.update({"relevant:" + metric: RankingEvaluator(metricName=metric, k=K).evaluate(judged)
                          for _, metric in PAIRS})
        return means
    finally:
        cached.unpersist()


def subset_mean(result, measure: str, where: str) -> float:
    """evalcore's mean of `measure` over the queries where `where` is defined (exact)."""
    values = result.values(measure)[~np.isnan(result.values(where))]
    return float(evalcore.ExactSum(values)) / len(values)


WHY = {
    "AP": "a query without relevant judgments counts as 0 in Spark's mean; evalcore leaves it out (AP is 0/0 there)",
    "AP@10": "Spark divides by min(R, k), evalcore (and trec_eval's map_cut) by R (the difference that remains on "
             "the queries with a relevant judgment); and the 0s above",
    "P@10": "same definition, and P is 0 (defined) without relevant judgments in both; the means differ in their "
            "last bits (Spark adds in floating point, evalcore exactly)",
    "nDCG@10": "the 0s of queries without relevant judgments (evalcore: undefined)",
    "R@10": "the 0s of queries without relevant judgments (evalcore: undefined)",
}


def claims(spark) -> list:
    """Tiny examples, each showing one difference: (what, evalcore's value, Spark's value)."""
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.mllib.evaluation import RankingMetrics

    sc = spark.sparkContext

    def spark_metrics(rows):
        return RankingMetrics(sc.parallelize(rows, 1))

    def ours(qrels, run, measure):
        try:
            return evalcore.evaluate_run(qrels, run, [measure]).mean[measure]
        except evalcore.RunInputError as error:
            return f"RunInputError: {error}"

    out = []
    # 1. a document listed three times: counted at every position
    dup = spark_metrics([([1.0, 1.0, 1.0, 2.0], [1.0, 2.0])])
    out.append(("run 1,1,1,2; relevant {1,2}: R@4", ours({"q": {"1": 1, "2": 1}}, {"q": ["1", "1", "1", "2"]}, "R@4"),
                dup.recallAt(4)))
    out.append(("same: P@4 / AP / nDCG@4", "RunInputError (as above)",
                f"{dup.precisionAt(4)} / {dup.meanAveragePrecision} / {dup.ndcgAt(4):.4f}"))
    # 2. AP@k divided by min(R, k)
    ap = spark_metrics([([float(i) for i in range(10)], [float(i) for i in range(20)])])
    qrels20 = {"q": {str(i): 1 for i in range(20)}}
    out.append(("20 relevant, ranks 1-10 all relevant: AP@2", ours(qrels20, {"q": [str(i) for i in range(10)]}, "AP@2"),
                ap.meanAveragePrecisionAt(2)))
    # 3. graded relevance dropped on the way from Python: the doc at rank 1 has grade 1, another grade 3
    graded = spark_metrics([([1.0, 2.0], [1.0, 2.0], [1.0, 3.0])])
    out.append(("ranking 1,2; grades {1: 1, 2: 3}: nDCG@1", ours({"q": {"1": 1, "2": 3}}, {"q": ["1", "2"]}, "nDCG@1"),
                graded.ndcgAt(1)))
    zero = spark_metrics([([1.0, 2.0], [1.0, 2.0], [0.0, 0.0])])
    out.append(("judged documents 1,2 of relevance 0 (passed as relevance values): nDCG@2",
                ours({"q": {"1": 0, "2": 0}}, {"q": ["1", "2"]}, "nDCG@2"), zero.ndcgAt(2)))
    # 4. queries without relevant judgments count as 0
    df = spark.createDataFrame([([1.0, 2.0], []), ([1.0], [1.0])], "prediction array<double>, label array<double>")
    ev = {m: RankingEvaluator(metricName=m, k=2).evaluate(df) for m in ("meanAveragePrecision", "ndcgAtK", "recallAtK")}
    qrels = {"a": {"1": 0, "2": 0}, "b": {"1": 1}}
    run = {"a": ["1", "2"], "b": ["1"]}
    out.append(("query a: no relevant judgment; query b: perfect: mean AP / nDCG@2 / R@2",
                " / ".join(str(ours(qrels, run, m)) for m in ("AP", "nDCG@2", "R@2")),
                " / ".join(str(ev[m]) for m in ("meanAveragePrecision", "ndcgAtK", "recallAtK"))))
    # 5. no reciprocal rank
    try:
        RankingEvaluator(metricName="meanReciprocalRank", k=2).evaluate(df)
        rr = "computed"
    except Exception as error:  # pyspark refuses the metric name
        rr = f"{type(error).__name__}: {str(error).splitlines()[0][:80]}"
    out.append(("reciprocal rank (RR)", ours(qrels, run, "RR"), rr))
    return out


def bits_equal(a: dict, b: dict) -> bool:
    return all((a[m] is None and b[m] is None) or struct.pack("<d", a[m]) == struct.pack("<d", b[m]) for m in a)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--retrieved", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", default=os.path.join(tempfile.gettempdir(), "evalcore-bench-spark"))
    parser.add_argument("--driver-memory", default="2g")
    parser.add_argument("--partitions", type=int, default=8, help="spark.sql.shuffle.partitions")
    parser.add_argument("--claims-only", action="store_true")
    args = parser.parse_args()
    import pyspark

    import evalcore.spark

    spark = session(args.driver_memory, args.partitions)
    print(f"pyspark {pyspark.__version__}, evalcore {evalcore.__version__}, local[2], driver memory "
          f"{args.driver_memory}, {os.cpu_count()} CPUs")
    if not args.claims_only:
        qrels_path, run_path = write_data(args.folder, args.queries, args.retrieved)
        rows = pq.ParquetFile(run_path).metadata.num_rows
        print(f"run: {args.queries:,} queries x {args.retrieved} = {rows:,} rows; qrels: "
              f"{pq.ParquetFile(qrels_path).metadata.num_rows:,} rows; median of {args.repeats}")
        read_time, (qt, rt) = timed(lambda: (pq.read_table(qrels_path), pq.read_table(run_path)), args.repeats)
        print(f"read: {read_time:.2f} s", flush=True)
        one_time, one = timed(lambda: evalcore.evaluate_run(qt, rt, MEASURES, threads=2), args.repeats)
        print(f"one machine: {one_time:.2f} s", flush=True)
        sort_time, (qs, rs) = timed(lambda: (qt.sort_by("query_id"), rt.sort_by("query_id")), args.repeats)
        sorted_time, one_sorted = timed(lambda: evalcore.evaluate_run(qs, rs, MEASURES, threads=2), args.repeats)
        print(f"one machine, grouped by query: {sorted_time:.2f} s (sorting {sort_time:.2f} s)", flush=True)
        assert one_sorted.mean == one.mean
        del qt, rt, qs, rs
        qdf, rdf = spark.read.parquet(qrels_path), spark.read.parquet(run_path)
        spark_time, spark_mean = timed(lambda: evalcore.spark.evaluate_run(qdf, rdf, MEASURES).mean, args.repeats)
        print(f"evalcore.spark: {spark_time:.2f} s", flush=True)
        warned_time, warned = timed(lambda: warnings_read(evalcore.spark.evaluate_run(qdf, rdf, MEASURES)),
                                    args.repeats)
        assert bits_equal(warned.mean, spark_mean)  # (given by the same pass, no further job)
        print(f"evalcore.spark, warnings: {warned_time:.2f} s", flush=True)
        ranking_time, theirs = timed(lambda: ranking_evaluator_means(ranking_evaluator_inputs(qdf, rdf)), args.repeats)
        print(f"RankingEvaluator: {ranking_time:.2f} s", flush=True)
        theirs = ranking_evaluator_means(ranking_evaluator_inputs(qdf, rdf), subset=True)
        identical = bits_equal(spark_mean, one.mean)
        print()
        print("| what | time (s) | rows/s |")
        print("|---|---|---|")
        for name, seconds in ((f"evalcore.spark.evaluate_run(...).mean, {len(MEASURES)} measures", spark_time),
                              ("evalcore.spark.evaluate_run(...).warnings (the means with them)", warned_time),
                              ("evalcore.evaluate_run, one machine, the tables as read (rows in no order; "
                               "2 threads)", one_time),
                              ("evalcore.evaluate_run, one machine, the tables sorted by query first", sorted_time),
                              ("  (reading the two Parquet files into pyarrow tables)", read_time),
                              ("  (sorting the two tables by query, pyarrow)", sort_time),
                              (f"RankingEvaluator, its {len(PAIRS)} metrics (arrays built and cached once)",
                               ranking_time)):
            print(f"| {name} | {seconds:.2f} | {rows / seconds / 1e6:.2f} M |")
        print(f"\nevalcore.spark's means bit-identical to evalcore.evaluate_run's: {'yes' if identical else 'NO'}")
        print(f"queries: {one.defined_counts}")
        print()
        print("| evalcore | RankingEvaluator | evalcore's mean | RankingEvaluator's | difference | same, queries with "
              "a relevant judgment only | why |")
        print("|---|---|---|---|---|---|---|")
        for measure, metric in PAIRS:
            ours_, theirs_ = one.mean[measure], theirs[metric]
            ours_rel, theirs_rel = subset_mean(one, measure, "R@10"), theirs["relevant:" + metric]
            print(f"| {measure} | {metric} | {ours_:.6f} | {theirs_:.6f} | {theirs_ - ours_:+.2e} | "
                  f"{ours_rel:.6f} vs {theirs_rel:.6f}: {theirs_rel - ours_rel:+.2e} | {WHY[measure]} |")
    print()
    print("| tiny example | evalcore | Spark RankingMetrics / RankingEvaluator |")
    print("|---|---|---|")
    for what, ours_, theirs_ in claims(spark):
        print(f"| {what} | {ours_} | {theirs_} |")
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
