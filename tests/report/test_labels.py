"""Issue 26: the span corpus result and the NER reports get a page and a notebook display
(they are dicts, so the display is a wrapper): per-label P/R/F1 table and chart, the
result's JSON embedded, nothing external."""

from __future__ import annotations

import json
import pathlib
import warnings

import evalcore
from evalcore.spans.display import span_corpus_display, span_corpus_to_html
from evalcore.tags.display import tags_display, tags_to_html
from test_report import check_self_contained, read

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_span_corpus(tmp_path):
    result = evalcore.span_evaluate_corpus(json.loads((ROOT / "examples" / "span-corpus.json").read_text()))
    text = span_corpus_to_html(result, str(tmp_path / "spans.html"), inputs=[str(ROOT / "examples" / "span-corpus.json")])
    check_self_contained(text)
    page = read(text)
    assert json.loads(page.scripts[0]["text"]) == result
    per = {r["label"]: r for r in result["perLabel"]}
    assert f"{per['PER']['f1']:.4f}" in page.cells and [c["title"] for c in page.charts] == [
        "Precision, recall and F1 per label"]
    assert f"PER: precision {per['PER']['precision']:.4f}" in page.charts[0]["desc"]
    shown = span_corpus_display(result)
    assert shown.result == result and "<td>PER</td>" in shown._repr_html_()
    assert f"| micro (overall) | {result['overall']['precision']:.4f} |" in shown._repr_markdown_()


def test_ner_report(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evalcore.evaluate_tags([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]])
    text = tags_to_html(result, None)
    check_self_contained(text)
    page = read(text)
    assert json.loads(page.scripts[0]["text"]) == result
    assert "micro avg" in page.cells and "0.6667" in page.cells  # micro F1 of 1 found in 2
    assert "| PER | 1.0000 | 1.0000 | 1.0000 | 1 |" in tags_display(result)._repr_markdown_()
    assert "Token accuracy 0.7500." in tags_display(result)._repr_html_()
