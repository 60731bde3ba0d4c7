"""The span corpus result shown (issue 26): :class:`SpanCorpusResultDict`, what
``span_evaluate_corpus`` returns in both cores (a dict that Jupyter shows as its table),
:func:`span_corpus_display` for a plain dict of that shape (one read back from JSON) and
:func:`span_corpus_to_html` for a self-contained page (per-label P/R/F1 table and chart)."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple, cast

from ..report.labels import Display, LabelPage, Rows
from ..result_types import SpanCorpusResult


def _rows(result: Mapping[str, Any]) -> List[Rows]:
    overall = result["overall"]
    summary: Rows = [["micro (overall)", overall["precision"], overall["recall"], overall["f1"], overall["references"]]]
    for name in ("macro", "weighted"):
        s = result[name]
        summary.append([name, s["precision"], s["recall"], s["f1"], overall["references"]])
    per_label: Rows = [[r["label"], r["precision"], r["recall"], r["f1"], r["references"]] for r in result["perLabel"]]
    return [summary, per_label]


def _notes(result: Mapping[str, Any]) -> List[str]:
    return [f"{result['documentCount']} documents ({result['documentsWithoutText']} without text), match "
            f"{result['match']}" + (f", minimum IoU {result['minimumIou']}" if result["match"] != "exact" else "") + "."]


class SpanCorpusResultDict(LabelPage):
    """What :func:`evalcore.span_evaluate_corpus` returns (the :class:`SpanCorpusResult`
    items): a dict, ``==`` the plain dict, that shows micro, macro, weighted and each
    label's precision, recall and F1 with its reference count."""

    __slots__ = ()
    page_title = "evalcore: span corpus"
    count_name = "references"

    def sections(self) -> Tuple[Rows, Rows, List[str]]:
        summary, per_label = _rows(self)
        return summary, per_label, _notes(self)


def span_corpus_result(items: SpanCorpusResult) -> SpanCorpusResult:
    """The items as a :class:`SpanCorpusResultDict` (both cores return one)."""
    return cast(SpanCorpusResult, SpanCorpusResultDict(items))


def span_corpus_display(result: Mapping[str, Any]) -> Display:
    """A span_evaluate_corpus result as Jupyter shows it: micro, macro, weighted and each
    label's precision, recall and F1 with its reference count. The result shows itself;
    this shows a plain dict of its shape (one read back from JSON) the same way."""
    shown = SpanCorpusResultDict(result)
    rows, notes = shown.table()
    return Display(dict(result), rows, shown.count_name, notes)


def span_corpus_to_html(result: Mapping[str, Any], path: Optional[str] = None, *, inputs: Sequence[Any] = (),
                        command: Optional[Sequence[str]] = None) -> str:
    """A self-contained HTML page of a span_evaluate_corpus result (no network): the
    summary, the per-label P/R/F1 table and chart, provenance, and the result as JSON in
    ``<script type="application/json" id="evalcore-data">``. Written to `path` unless None."""
    return SpanCorpusResultDict(result).to_html(path, inputs=inputs, command=command)
