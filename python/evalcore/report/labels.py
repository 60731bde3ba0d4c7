"""A page and a notebook display for per-label precision, recall and F1 (issue 26): the
span corpus result (``span_evaluate_corpus``) and the NER results (``evaluate_tags``,
``evaluate_conll``, ``evaluate_schemas``) are dicts of a :class:`LabelTable` subclass
(each room defines its own: which rows, which count), so Jupyter shows them as they are;
:class:`Display` shows a plain dict of the same shape (one read back from JSON), and
:func:`labels_page` writes the page."""

from __future__ import annotations

import html
import json
import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .page import Section, provenance, write_page
from . import svg

#: (label, precision, recall, F1, count) rows; the count's heading is given with them.
Rows = List[Sequence[Any]]


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.4f}"
    return "n/a" if value is None else str(value)


def table_html(rows: Rows, count_name: str, notes: Sequence[str] = ()) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in ("label", "precision", "recall", "F1", count_name))
    body = "".join("<tr>" + "".join(f"<td>{e(_cell(x))}</td>" for x in row) + "</tr>" for row in rows)
    return (f"<div class=\"evalcore-labels\"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            + "".join(f"<p>{e(n)}</p>" for n in notes) + "</div>")


def table_markdown(rows: Rows, count_name: str, notes: Sequence[str] = ()) -> str:
    lines = [f"| label | precision | recall | F1 | {count_name} |", "|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(_cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines) + "\n" + "".join(f"\n{n}\n" for n in notes)


def table_text(rows: Rows, count_name: str, notes: Sequence[str] = ()) -> str:
    """The table as aligned plain text (what a terminal shows of a result)."""
    lines = [["label", "precision", "recall", "F1", count_name]] + [[_cell(x) for x in row] for row in rows]
    widths = [max(len(line[k]) for line in lines) for k in range(5)]
    text = ["  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(line, widths))).rstrip()
            for line in lines]
    return "\n".join(text + list(notes))


class LabelTable(Dict[str, Any]):
    """A result dict (equal to the plain dict of the same items, JSON-serialisable, picklable)
    that shows its compact table: ``_repr_html_`` and ``_repr_markdown_`` for Jupyter, and a
    ``repr`` of the same table as text (``dict(result)`` for the items themselves). A room
    subclasses it and says which rows (:meth:`table`)."""

    __slots__ = ()
    #: the heading of the count column (the references, the support, the true entities).
    count_name = "count"

    def table(self) -> Tuple[Rows, List[str]]:
        """(rows, notes) of the table: what the subclass shows of its result."""
        raise NotImplementedError

    def _repr_html_(self) -> str:
        rows, notes = self.table()
        return table_html(rows, self.count_name, notes)

    def _repr_markdown_(self) -> str:
        rows, notes = self.table()
        return table_markdown(rows, self.count_name, notes)

    def __repr__(self) -> str:
        rows, notes = self.table()
        return f"{type(self).__name__} (dict(result) for its items):\n" + table_text(rows, self.count_name, notes)

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickled as the class of the plain dict's items, not the slots machinery's default.
        return (type(self), (dict(self),))


class LabelPage(LabelTable):
    """A :class:`LabelTable` whose rows fall into a summary and a per-label part, which also
    writes its own self-contained page (:meth:`to_html`): the span corpus and NER results.
    A room subclasses it and says which rows (:meth:`sections`) and the page's title."""

    __slots__ = ()
    #: the page's title (its <title> and heading).
    page_title = "evalcore"

    def sections(self) -> Tuple[Rows, Rows, List[str]]:
        """(summary rows, per-label rows, notes) of the result."""
        raise NotImplementedError

    def table(self) -> Tuple[Rows, List[str]]:
        summary, per_label, notes = self.sections()
        return summary + per_label, notes

    def to_html(self, path: Optional[str] = None, *, inputs: Sequence[Any] = (),
                command: Optional[Sequence[str]] = None) -> str:
        """This result's self-contained HTML page (no network): the summary, the per-label
        P/R/F1 table and chart, provenance (`inputs` that are files with their SHA-256,
        `command`), and the result as JSON in ``<script type="application/json"
        id="evalcore-data">``. Written to `path` unless None; the HTML is returned either way."""
        summary, per_label, notes = self.sections()
        return labels_page(path, self.page_title, summary, per_label, self.count_name,
                           json.dumps(self, ensure_ascii=False, allow_nan=False), notes, inputs, command)


class Display:
    """A result's compact table for Jupyter (``_repr_html_``, ``_repr_markdown_``); the
    result itself is ``.result``."""

    def __init__(self, result: Dict[str, Any], rows: Rows, count_name: str, notes: Sequence[str] = ()) -> None:
        self.result = result
        self._rows, self._count, self._notes = rows, count_name, list(notes)

    def _repr_html_(self) -> str:
        return table_html(self._rows, self._count, self._notes)

    def _repr_markdown_(self) -> str:
        return table_markdown(self._rows, self._count, self._notes)

    def __repr__(self) -> str:
        return "Display(" + "; ".join(f"{r[0]} F1={_cell(r[3])} ({self._count} {r[4]})" for r in self._rows) + ")"


def labels_page(path: Optional[Union[str, "os.PathLike[str]"]], title: str, rows: Rows, per_label: Rows,
                count_name: str, data_json: str, notes: Sequence[str] = (), inputs: Sequence[Any] = (),
                command: Optional[Sequence[str]] = None) -> str:
    """The page: the summary rows and the per-label table, a grouped bar chart of each
    label's precision, recall and F1, provenance, and the result's JSON."""
    bars = {str(r[0]): {"precision": _number(r[1]), "recall": _number(r[2]), "F1": _number(r[3])} for r in per_label}
    sections = [Section("Summary", table_html(rows, count_name, notes)),
                Section("Per label", table_html(per_label, count_name)
                        + (svg.bars("Precision, recall and F1 per label", bars, "score") if bars else ""))]
    return write_page(path, title, sections, data_json, provenance(inputs, command))


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)
