"""What a user sees of a fault in the rows with evalcore.spark, run by tests/spark/test_spark.py in a
process of its own (Spark's JVM writes its log to this process's stderr, which pytest cannot
capture in its own process): a fresh local session at Spark's default log level (WARN), a run
listing a document twice, and the actions evalcore exposes. stdout gets one line per action
("mean: RunInputError: <message>"); stderr gets "== <action>" before each, so the test can
tell which log lines came with which action. Last, a task of the user's own that fails (not
evalcore's error): its log must still be printed.

Usage: python spark_errors_seen.py OUTPUT_FOLDER"""

import sys

from pyspark.sql import SparkSession

import evalcore.spark
from evalcore import RunInputError


def not_evalcores(batches):
    raise ValueError("a failure that is not evalcore's")
    yield from batches


def main(folder):
    session = (SparkSession.builder.master("local[1]").appName("evalcore-errors-seen")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    qrels = session.createDataFrame([("q", "a", 1.0)], "query_id string, doc_id string, relevance double")
    run = session.createDataFrame([("q", "a", 1.0), ("q", "a", 2.0)], "query_id string, doc_id string, score double")
    result = evalcore.spark.evaluate_run(qrels, run, ["AP"])
    actions = [("mean", lambda: result.mean), ("collect", result.per_query.collect),
               ("toPandas", result.per_query.toPandas),
               ("write", lambda: result.per_query.write.mode("overwrite").parquet(folder))]
    for name, action in actions:
        print(f"== {name}", file=sys.stderr, flush=True)
        try:
            action()
        except RunInputError as error:  # anything else escapes: the process fails
            print(f"{name}: RunInputError: {error}", flush=True)
    print("== not evalcore's", file=sys.stderr, flush=True)
    try:
        session.range(1).mapInArrow(not_evalcores, "id long").collect()
    except Exception as error:
        print(f"not evalcore's: {type(error).__name__}", flush=True)
    session.stop()


if __name__ == "__main__":
    main(sys.argv[1])
