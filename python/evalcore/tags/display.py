"""The NER reports shown (issue 26): :class:`TagsResultDict`, what ``evaluate_tags`` and
``evaluate_conll`` return in both cores (a dict that Jupyter shows as its table),
:func:`tags_display` for a plain dict of that shape (one read back from JSON) and
:func:`tags_to_html` for a self-contained page (seqeval's classification report: per label
and the averages)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar, cast

from ..report.labels import Display, LabelPage, Rows

_AVERAGES = ("micro avg", "macro avg", "weighted avg")


def _rows(result: Mapping[str, Any]) -> List[Rows]:
    if "report" not in result:  # Hugging Face's shape: overall_* and per type precision, recall, f1, number
        overall: Rows = [["overall", result["overall_precision"], result["overall_recall"], result["overall_f1"],
                          sum(r["number"] for r in result.values() if isinstance(r, dict))]]
        return [overall, [[name, r["precision"], r["recall"], r["f1"], r["number"]]
                          for name, r in result.items() if isinstance(r, dict)]]
    report = result["report"]
    summary: Rows = [[name, r["precision"], r["recall"], r["f1-score"], r["support"]]
                     for name, r in report.items() if name in _AVERAGES]
    per_label: Rows = [[name, r["precision"], r["recall"], r["f1-score"], r["support"]]
                       for name, r in report.items() if name not in _AVERAGES]
    return [summary, per_label]


def _notes(result: Mapping[str, Any]) -> List[str]:
    accuracy = result.get("accuracy", result.get("overall_accuracy"))
    notes = [f"Token accuracy {accuracy:.4f}."] if isinstance(accuracy, float) else []
    if "tokens" in result:  # evaluate_conll's counts, as conlleval prints them
        notes.append(f"Tokens {result['tokens']}, sentences {result['sentences']}: true phrases {result['phrases']}, "
                     f"found {result['found']}, correct {result['correct']}.")
    return notes


class TagsResultDict(LabelPage):
    """What :func:`evalcore.evaluate_tags` (either output) and :func:`evalcore.evaluate_conll`
    return: a dict, ``==`` the plain dict, that shows the averages and each type's precision,
    recall and F1 with its support (and token accuracy; evaluate_conll's counts)."""

    __slots__ = ()
    page_title = "evalcore: NER report"
    count_name = "support"

    def sections(self) -> Tuple[Rows, Rows, List[str]]:
        summary, per_label = _rows(self)
        return summary, per_label, _notes(self)


Result = TypeVar("Result", bound=Mapping[str, Any])


def tags_result(items: Result) -> Result:
    """The items as a :class:`TagsResultDict` (both cores return one)."""
    return cast(Result, TagsResultDict(cast(Dict[str, Any], items)))


def tags_display(result: Mapping[str, Any]) -> Display:
    """An evaluate_tags / evaluate_conll result as Jupyter shows it: the averages and each
    label's precision, recall and F1 with its support."""
    shown = TagsResultDict(result)
    rows, notes = shown.table()
    return Display(dict(result), rows, shown.count_name, notes)


def tags_to_html(result: Mapping[str, Any], path: Optional[str] = None, *, inputs: Sequence[Any] = (),
                 command: Optional[Sequence[str]] = None) -> str:
    """A self-contained HTML page of an evaluate_tags / evaluate_conll result (no network):
    the averages, the per-label P/R/F1 table and chart, provenance, and the result as JSON in
    ``<script type="application/json" id="evalcore-data">``. Written to `path` unless None."""
    return TagsResultDict(result).to_html(path, inputs=inputs, command=command)
