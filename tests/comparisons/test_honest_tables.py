"""Issue 26, item 1: every table of a Comparison shows the means the tests compared, the
query counts, what was dropped and why, every test's decision and the options in force.
The regression case is the issue's: a run that lacks a query, whose unpaired mean used to
sit beside the other run's as if they had been compared."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import evalcore
from common import IMPLEMENTATIONS

FOLDER = pathlib.Path(__file__).resolve().parents[2] / "examples" / "compare"
QRELS = str(FOLDER / "qrels.txt")


def _runs_with_a_missing_query():
    """bm25 over all 30 queries, dense lacking query 401 (dropped from the pair)."""
    runs = {}
    for name in ("bm25", "dense"):
        lines = (FOLDER / f"{name}.txt").read_text().splitlines()
        if name == "dense":
            lines = [line for line in lines if not line.startswith("401 ")]
        runs[name] = lines
    return runs


def _comparison(tmp_path, implementation="native", **kwargs):
    paths = {}
    runs = _runs_with_a_missing_query()
    for name, lines in runs.items():
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        paths[name] = str(path)
    return IMPLEMENTATIONS[implementation].compare(QRELS, paths, ["nDCG@10"], resamples=200, **kwargs)


def test_the_pair_is_compared_on_shared_queries_and_every_table_says_so(tmp_path):
    with pytest.warns(evalcore.EvaluationWarning):
        result = _comparison(tmp_path, tests=("t", "randomization"))
    row = result.to_dict()["comparisons"][0]
    summary = {r["run"]: r for r in result.to_dict()["summary"]}
    assert row["queries"] == 29 and row["dropped"] == 1 and row["droppedReasons"]["missingInRun"] == 1
    assert summary["bm25"]["queries"] == 30 and summary["bm25"]["sharedQueries"] == 29
    assert row["baselineMean"] == summary["bm25"]["sharedMean"] != summary["bm25"]["mean"]
    shared, unpaired = f"{summary['bm25']['sharedMean']:.4f}", f"{summary['bm25']['mean']:.4f}"
    assert shared != unpaired

    markdown = result.to_markdown()
    assert "| a | bm25 | " + shared + " |" in markdown and "nDCG@10 (n=29)" in markdown
    assert f"| dense | bm25 | nDCG@10 | 29 | 1 | " in markdown  # the pair: paired queries and dropped
    assert "t p (adjusted)" in markdown and "randomization p (adjusted)" in markdown  # every test's decision
    assert "missing from dense: 1" in markdown and "left out there: 1 of bm25" in markdown
    assert "Options: evaluation relevantAtLeast 1.0, gain linear, ties score, missing skip" in markdown
    assert unpaired not in markdown

    latex = result.to_latex()
    assert f"bm25 & {shared}" in latex and "($n=29$)" in latex and "missing from dense: 1" in latex
    assert "randomization p (adjusted)" in latex and "Options: evaluation" in latex

    text = result.to_text()
    header = text.splitlines()[0].split()
    assert header[:9] == ["run", "baseline", "measure", "n", "dropped", "mean", "baseline", "mean", "delta"]
    assert re.search(rf"dense\s+bm25\s+nDCG@10\s+29\s+1\s+\S+\s+{shared}", text)
    assert "unpaired mean" in text and "unpaired: each run over its own n queries" in text
    assert "Options: evaluation" in text


def test_frames_carry_the_reasons_and_the_options(tmp_path):
    pytest.importorskip("pandas")
    with pytest.warns(evalcore.EvaluationWarning):
        result = _comparison(tmp_path)
    table, summary = result.table, result.summary
    assert table["dropped_reasons"].tolist() == ["missingInRun: 1"]
    assert table.attrs["options"].startswith("Options: evaluation")
    assert summary["paired"].tolist() == [False, False] and summary["shared_queries"].tolist() == [29, 29]
    assert summary["shared_mean"].tolist()[0] == table["baseline_mean"].tolist()[0]


def test_both_implementations_render_alike(tmp_path):
    with pytest.warns(evalcore.EvaluationWarning):
        native = _comparison(tmp_path, tukey="randomized")
    with pytest.warns(evalcore.EvaluationWarning):
        reference = _comparison(tmp_path, "reference", tukey="randomized")
    assert native.to_json() == reference.to_json()
    assert native.to_markdown() == reference.to_markdown() and native.to_text() == reference.to_text()
    assert json.loads(native.to_json())["tukeyHsd"]["nDCG@10"]["queries"] == 29


def test_display_hooks():
    # What Jupyter calls (IPython's DisplayFormatter asks for _repr_html_ and _repr_markdown_).
    runs = {name: str(FOLDER / f"{name}.txt") for name in ("bm25", "rm3", "dense")}
    result = evalcore.compare(QRELS, runs, ["nDCG@10"], resamples=50)
    html = result._repr_html_()
    assert "<table>" in html and "nDCG@10 (n=30)" in html and "<script" not in html and "http" not in html
    assert result._repr_markdown_() == result.to_markdown()
    assert "means over shared queries (nDCG@10 n=30)" in repr(result)
    evaluation = evalcore.evaluate_run(QRELS, runs["bm25"], ["nDCG@10", "P@5"])
    assert "<td>nDCG@10</td><td>" + f"{evaluation.mean['nDCG@10']:.4f}" + "</td><td>30</td>" in evaluation._repr_html_()
    assert "| nDCG@10 | " in evaluation._repr_markdown_() and "(n=30)" in repr(evaluation)
    per_query = evaluation.per_query
    assert "<td>defined</td><td>30</td>" in per_query._repr_html_() and "... 20 more" in per_query._repr_markdown_()
