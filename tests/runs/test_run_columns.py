"""evaluate_run's query_col=, doc_col=, relevance_col=, score_col= (issue 23 item 5):
tables whose columns are named otherwise (PyTerrier's qid/docno/label/score, ranx's q_id),
and iterables' fields; a missing column's error lists the table's; a null or NaN cell's
names its column. Native == reference throughout."""

from __future__ import annotations

from collections import namedtuple

import pandas as pd
import pyarrow as pa
import pytest

import evalcore
from common import run_all

MEASURES = ["AP", "nDCG@10", "P@2"]
QRELS = {"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"], "relevance": [1, 2, 1]}
RUN = {"query_id": ["q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "d"], "score": [1.0, 0.5, 2.0, 3.0]}
TERRIER = {"query_id": "qid", "doc_id": "docno", "relevance": "label", "score": "score"}
KEYWORDS = dict(query_col="qid", doc_col="docno", relevance_col="label", score_col="score")


class StreamOnly:
    """A producer that speaks only __arrow_c_stream__ (as polars and DuckDB do), read by the native core's C reader."""

    def __init__(self, table):
        self._table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


def renamed(columns, names):
    return {names[k]: v for k, v in columns.items()}


@pytest.mark.parametrize("kind", ["pandas", "pyarrow", "stream"])
def test_pyterrier_columns_give_what_the_default_names_give(kind):
    expected = evalcore.evaluate_run(pa.table(QRELS), pa.table(RUN), MEASURES)
    qrels, run = pa.table(renamed(QRELS, TERRIER)), pa.table(renamed(RUN, TERRIER))
    if kind == "pandas":
        qrels, run = qrels.to_pandas(), run.to_pandas()
    elif kind == "stream":
        qrels, run = StreamOnly(qrels), StreamOnly(run)
    outcome = run_all("evaluate_run", qrels, run, MEASURES, **KEYWORDS)
    assert outcome[0] == "ok" and outcome[1].mean == expected.mean


def test_ranx_q_id_for_both_tables():
    qrels = pa.table(renamed(QRELS, {"query_id": "q_id", "doc_id": "doc_id", "relevance": "relevance"}))
    run = pa.table(renamed(RUN, {"query_id": "q_id", "doc_id": "doc_id", "score": "score"}))
    outcome = run_all("evaluate_run", qrels, run, MEASURES, query_col="q_id")
    assert outcome[0] == "ok" and outcome[1].query_ids == ["q1", "q2"]


@pytest.mark.parametrize("wrap", [lambda t: t, lambda t: t.to_pandas(), StreamOnly])
def test_a_missing_column_is_named_with_the_tables_columns(wrap):
    run = wrap(pa.table(renamed(RUN, TERRIER)))
    outcome = run_all("evaluate_run", pa.table(QRELS), run, MEASURES)
    assert outcome[1] == ("ValueError", "run table lacks the column(s) query_id, doc_id; it needs query_id, doc_id, "
                          "score; its columns are qid, docno, score (name them with evaluate_run's query_col=, "
                          "doc_col= and score_col=)")


@pytest.mark.parametrize("column, values, message", [
    ("label", [1, None, 1], "qrels table: row 1: the value is null (column 'label')"),
    ("docno", ["a", None, "c"], "qrels table: row 1: the document ID is null (column 'docno')"),
    ("qid", [None, "q1", "q2"], "qrels table: row 0: the query ID is null (column 'qid')"),
    ("label", [1.0, float("nan"), 1.0], "qrels table: row 1: the value must be a finite number (column 'label')"),
])
def test_a_null_or_nan_cell_names_its_column(column, values, message):
    columns = renamed(QRELS, TERRIER)
    columns[column] = values
    table = pa.table({k: pa.array(v, from_pandas=False) for k, v in columns.items()})
    outcome = run_all("evaluate_run", table, pa.table(renamed(RUN, TERRIER)), MEASURES, **KEYWORDS)
    assert outcome[0] == "error" and outcome[1][1] == message, outcome


def test_iterables_fields_are_renamed_too():
    Row = namedtuple("Row", "qid docno label")
    Hit = namedtuple("Hit", "qid docno score")
    qrels = [Row(*r) for r in zip(*QRELS.values())]
    run = [Hit(*r) for r in zip(*RUN.values())]
    expected = evalcore.evaluate_run(pa.table(QRELS), pa.table(RUN), MEASURES)
    outcome = run_all("evaluate_run", qrels, run, MEASURES, **KEYWORDS)
    assert outcome[0] == "ok" and outcome[1].mean == expected.mean


@pytest.mark.parametrize("keyword", ["query_col", "doc_col", "relevance_col", "score_col"])
@pytest.mark.parametrize("bad", ["", "a\0b", 3])
def test_a_name_must_be_a_non_empty_str(keyword, bad):
    outcome = run_all("evaluate_run", pa.table(QRELS), pa.table(RUN), MEASURES, **{keyword: bad})
    assert outcome[1] == ("ValueError", f"{keyword} must be a non-empty str without NUL (a column or field name), "
                          f"got {bad!r}")
