"""What the tests of the distributed evaluate_run share (test_partitioned_runs.py runs the
tasks by hand, test_spark.py on Spark): qrels and runs as rows, and the check that per-query
values and means equal evalcore.evaluate_run's on the same data, bit for bit."""

from __future__ import annotations

import math
import struct
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import evalcore

# A row of per-query results: the query ID and one value per measure (None = undefined).
ResultRow = Tuple[str, Sequence[Optional[float]]]


def as_tables(data: dict) -> Tuple[dict, dict]:
    """run_inputs' qrels and run without the queries a table cannot hold (no rows)."""
    return ({q: e for q, e in data["qrels"].items() if e}, {q: e for q, e in data["run"].items() if e})


def qrels_rows(qrels: dict) -> List[Tuple[str, str, float]]:
    return [(q, d, float(g)) for q, entries in qrels.items() for d, g in entries.items()]


def run_rows(run: dict) -> List[Tuple[str, str, float, int]]:
    """(query, document, score, rank): the rank is the document's place in its dict (from 1),
    so that ranking by it ascending is evaluate_run's ties="input" on the dict."""
    return [(q, d, float(s), rank) for q, entries in run.items() for rank, (d, s) in enumerate(entries.items(), 1)]


def bits(value: Optional[float]) -> Optional[bytes]:
    return None if value is None else struct.pack("<d", value)


def assert_matches(rows: Iterable[ResultRow], mean: Dict[str, Optional[float]], counts: Dict[str, int],
                   want: evalcore.RunEvaluation) -> None:
    """Per-query rows (any order), mean and defined counts equal `want`'s, bit for bit."""
    got: Dict[str, List[Optional[bytes]]] = {}
    for query, values in rows:
        assert query not in got, f"query {query!r} scored twice"
        got[query] = [bits(v) for v in values]
    expected = {q: [None if math.isnan(want.values(m)[i]) else bits(float(want.values(m)[i])) for m in want.measures]
                for i, q in enumerate(want.query_ids)}
    assert got.keys() == expected.keys()
    for query, values in expected.items():
        assert got[query] == values, f"query {query!r}: {got[query]} != {values}"
    assert list(mean) == list(want.measures) and list(counts) == list(want.measures)
    assert {m: bits(v) for m, v in mean.items()} == {m: bits(v) for m, v in want.mean.items()}
    assert counts == want.defined_counts


def expected(qrels: dict, run: dict, measures: Any, options: Dict[str, Any]) -> evalcore.RunEvaluation:
    """evaluate_run on one machine, on the same data (with ties="input" ranked as run_rows' ranks)."""
    return evalcore.evaluate_run(qrels, run, measures, **options)
