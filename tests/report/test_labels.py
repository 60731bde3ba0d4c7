"""Issue 26: the span corpus result and the NER results get a page and a notebook display:
per-label P/R/F1 table and chart, the result's JSON embedded, nothing external. The results
are dicts of a class per family (h26-report2) that shows itself, equal to the plain dict,
JSON-serialisable and picklable, the same class from both cores; Display shows a plain dict
of the same shape (one read back from JSON)."""

from __future__ import annotations

import json
import pathlib
import pickle
import warnings

import pytest

import evalcore
from common import expect_result
from evalcore.schemas.display import SchemasResultDict
from evalcore.spans.display import SpanCorpusResultDict, span_corpus_display, span_corpus_to_html
from evalcore.tags.display import TagsResultDict, tags_display, tags_to_html
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


def _results():
    """(operation, args, kwargs, class, count heading) of each family's results, small."""
    corpus = json.loads((ROOT / "examples" / "span-corpus.json").read_text(encoding="utf-8"))
    true, pred = [["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]]
    conll = "".join(f"w{i} {t} {p}\n" for i, (t, p) in enumerate(zip(true[0], pred[0]))).encode()
    entities = ([[{"label": "PER", "start": 0, "end": 1}, {"label": "LOC", "start": 3, "end": 3}]],
                [[{"label": "PER", "start": 0, "end": 0}, {"label": "LOC", "start": 3, "end": 3}]])
    return [("span_evaluate_corpus", (corpus,), {}, SpanCorpusResultDict, "references"),
            ("span_evaluate_corpus", (corpus,), {"per_document": True, "match": "overlap"}, SpanCorpusResultDict,
             "references"),
            ("evaluate_tags", (true, pred), {}, TagsResultDict, "support"),
            ("evaluate_tags", (true, pred), {"output": "huggingface"}, TagsResultDict, "support"),
            ("evaluate_tags", (conll,), {}, TagsResultDict, "support"),
            ("evaluate_conll", (conll,), {}, TagsResultDict, "support"),
            ("evaluate_schemas", entities, {}, SchemasResultDict, "true entities")]


@pytest.mark.parametrize("operation, args, kwargs, cls, count", _results(), ids=lambda x: x if isinstance(x, str) else "")
def test_results_show_themselves_and_stay_dicts(operation, args, kwargs, cls, count):
    result = expect_result(operation, *args, **kwargs)  # both cores: the same class, the same items
    assert type(result) is cls and isinstance(result, dict)
    plain = json.loads(json.dumps(result))
    assert result == plain and plain == result and type(plain) is dict  # == the plain dict, both ways
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is cls and again == result and list(again) == list(result)
    assert cls(plain) == result and cls(plain)._repr_html_() == result._repr_html_()
    html, markdown, text = result._repr_html_(), result._repr_markdown_(), repr(result)
    assert f"<th>{count}</th>" in html and f"| {count} |" in markdown.splitlines()[0]
    assert text.startswith(f"{cls.__name__} (dict(result) for its items):")
    assert "<script" not in html


def test_the_tables_hold_the_results_numbers_and_counts():
    corpus = json.loads((ROOT / "examples" / "span-corpus.json").read_text(encoding="utf-8"))
    spans = evalcore.span_evaluate_corpus(corpus)
    for row in spans["perLabel"]:
        cells = [row["label"], f"{row['precision']:.4f}", f"{row['recall']:.4f}", f"{row['f1']:.4f}",
                 str(row["references"])]
        assert "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>" in spans._repr_html_()
        assert "| " + " | ".join(cells) + " |" in spans._repr_markdown_()
    overall = spans["overall"]
    assert f"<td>micro (overall)</td><td>{overall['precision']:.4f}</td>" in spans._repr_html_()
    assert f"{spans['documentCount']} documents" in repr(spans)

    ner = evalcore.evaluate_conll(b"a B-PER B-PER\nb I-PER O\nc O O\nd B-LOC B-LOC\n")
    assert "| PER | 0.0000 | 0.0000 | 0.0000 | 1 |" in ner._repr_markdown_()
    assert "| micro avg | 0.5000 | 0.5000 | 0.5000 | 2 |" in ner._repr_markdown_()
    assert "Tokens 4, sentences 1: true phrases 2, found 2, correct 1." in ner._repr_html_()
    hf = evalcore.evaluate_tags([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]], output="huggingface")
    assert "| overall | 0.5000 | 0.5000 | 0.5000 | 2 |" in hf._repr_markdown_()
    assert "| LOC | 1.0000 | 1.0000 | 1.0000 | 1 |" in hf._repr_markdown_() and "Token accuracy 0.7500." in repr(hf)

    schemas = evalcore.evaluate_schemas([[{"label": "PER", "start": 0, "end": 1}]],
                                        [[{"label": "PER", "start": 0, "end": 0}, {"label": "LOC", "start": 3, "end": 3}]])
    partial = schemas["perLabel"]["PER"]["partial"]
    assert f"<tr><td>PER (partial)</td><td>{partial['precision']:.4f}</td><td>{partial['recall']:.4f}</td>" in \
        schemas._repr_html_()
    assert "| overall (strict) | 0.0000 | 0.0000 | 0.0000 | 1 |" in schemas._repr_markdown_()
    assert "true entities 1 (the count), predicted 2." in repr(schemas)


def test_display_still_shows_a_plain_dict_read_back_from_json():
    corpus = json.loads((ROOT / "examples" / "span-corpus.json").read_text(encoding="utf-8"))
    result = evalcore.span_evaluate_corpus(corpus)
    shown = span_corpus_display(json.loads(json.dumps(result)))
    assert shown._repr_html_() == result._repr_html_() and shown._repr_markdown_() == result._repr_markdown_()


def test_span_and_ner_results_write_their_own_page(tmp_path):
    corpus_path = ROOT / "examples" / "span-corpus.json"
    spans = evalcore.span_evaluate_corpus(json.loads(corpus_path.read_text(encoding="utf-8")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tags = evalcore.evaluate_tags([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]])
    command = ["evalcore", "example"]
    for result, page_of, name in [(spans, span_corpus_to_html, "spans"), (tags, tags_to_html, "tags")]:
        path = tmp_path / f"{name}.html"
        text = result.to_html(str(path), inputs=[str(corpus_path)], command=command)
        assert path.read_text(encoding="utf-8") == text
        assert text == page_of(result, None, inputs=[str(corpus_path)], command=command)
        assert json.loads(read(text).scripts[0]["text"]) == result
