"""The HTML report of a :class:`~evalcore.Comparison` (issue 26; ``Comparison.to_html`` and
``evalcore report``): the summary tables, per measure and pair the sorted per-query
differences, the per-query distributions, the 11-point interpolated precision-recall
curves when the runs were evaluated with IPrec@0.0 ... IPrec@1.0, the Tukey HSD groups, the
provenance, and ``to_json()`` embedded. Every number drawn is the comparison's own."""

from __future__ import annotations

import html
from typing import Any, Dict, List, Optional, Sequence

from . import tables
from ..report import Section, provenance, write_page
from ..report import svg
from ..runs.html_report import CURVE_MEASURES, curve_section

__all__ = ["CURVE_MEASURES", "sections", "to_html"]

def sections(c: Any) -> List[Section]:
    """The report's sections for a Comparison, provenance excepted."""
    out = [Section("Summary", tables.html(c))]
    if c.tukey:
        out.append(Section("Tukey HSD", "".join(f"<p>{html.escape(line)}</p>" for line in tables.tukey_lines(c))))
    charts = []
    for m in c.measures:
        values = c.per_query(m)
        for r in c._rows:
            if r["measure"] != m:
                continue
            run, base = values[r["run"]], values[r["baseline"]]
            items = [(q, run[q] - base[q]) for q in run if q in base]
            charts.append(svg.differences(f"{m}: {r['run']} − {r['baseline']} per query", r["run"], r["baseline"],
                                          items))
    out.append(Section("Per-query differences", "".join(charts)))
    out.append(Section("Per-query scores", "".join(
        svg.distributions(f"{m}: per-query scores by run", {run: list(v.values()) for run, v in c.per_query(m).items()},
                          m) for m in c.measures)))
    out.append(curve_section(c._per_query.get("evaluations", {})))
    return out


def to_html(c: Any, path: Optional[str], inputs: Sequence[Any] = (), command: Optional[Sequence[str]] = None,
            title: Optional[str] = None) -> str:
    """The page's HTML (written to `path` unless None)."""
    return write_page(path, title or f"evalcore: {', '.join(c.runs)} on {', '.join(c.measures)}", sections(c),
                      c.to_json(), provenance(inputs, command))
