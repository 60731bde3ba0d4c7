"""The NER reports shown (issue 26): :func:`tags_display` for a notebook and
:func:`tags_to_html` for a self-contained page, of an ``evaluate_tags`` or
``evaluate_conll`` result (seqeval's classification report: per label and the averages)."""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Optional, Sequence

from ..report.labels import Display, Rows, labels_page

_AVERAGES = ("micro avg", "macro avg", "weighted avg")


def _rows(result: Mapping[str, Any]) -> List[Rows]:
    report = result["report"]
    summary: Rows = [[name, r["precision"], r["recall"], r["f1-score"], r["support"]]
                     for name, r in report.items() if name in _AVERAGES]
    per_label: Rows = [[name, r["precision"], r["recall"], r["f1-score"], r["support"]]
                       for name, r in report.items() if name not in _AVERAGES]
    return [summary, per_label]


def _notes(result: Mapping[str, Any]) -> List[str]:
    return [f"Token accuracy {result['accuracy']:.4f}."] if isinstance(result.get("accuracy"), float) else []


def tags_display(result: Mapping[str, Any]) -> Display:
    """An evaluate_tags / evaluate_conll result as Jupyter shows it: the averages and each
    label's precision, recall and F1 with its support."""
    summary, per_label = _rows(result)
    return Display(dict(result), summary + per_label, "support", _notes(result))


def tags_to_html(result: Mapping[str, Any], path: Optional[str] = None, *, inputs: Sequence[Any] = (),
                 command: Optional[Sequence[str]] = None) -> str:
    """A self-contained HTML page of an evaluate_tags / evaluate_conll result (no network):
    the averages, the per-label P/R/F1 table and chart, provenance, and the result as JSON in
    ``<script type="application/json" id="evalcore-data">``. Written to `path` unless None."""
    summary, per_label = _rows(result)
    return labels_page(path, "evalcore: NER report", summary, per_label, "support",
                       json.dumps(result, ensure_ascii=False, allow_nan=False), _notes(result), inputs, command)
