"""A RunEvaluation shown (issue 26): its compact table of means with counts (Jupyter's
``_repr_html_`` and ``_repr_markdown_``) and its HTML report (``RunEvaluation.to_html``):
the table, per measure the distribution of per-query values, the 11-point interpolated
precision-recall curve when IPrec@0.0 ... IPrec@1.0 were evaluated, provenance, and
``to_json()`` embedded."""

from __future__ import annotations

import html
import math
from typing import Any, Dict, List, Optional, Sequence

from ..report import Section, provenance, svg, write_page
from .measures import RECALL_POINTS

#: The measures of the precision-recall curves: trec_eval's iprec_at_recall points.
CURVE_MEASURES = tuple(f"IPrec@{x:.1f}" for x in RECALL_POINTS)


def _number(value: Optional[float]) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.4f}"


def rows(evaluation: Any) -> List[List[str]]:
    """measure, mean, queries where defined, of how many evaluated."""
    total = len(evaluation.query_ids)
    return [[m, _number(evaluation.mean[m]), str(evaluation.defined_counts[m]), str(total)] for m in evaluation.measures]


def notes(evaluation: Any) -> List[str]:
    o = evaluation.options
    out = ["Options: " + ", ".join(f"{k} {v}" for k, v in o.items()) + "."]
    if evaluation.missing_query_ids:
        out.append(f"{len(evaluation.missing_query_ids)} judged queries the run lacks "
                   f"({'left out' if o.get('missing') == 'skip' else 'scored as empty rankings'}, missing "
                   f"{o.get('missing')}): " + ", ".join(evaluation.missing_query_ids[:10])
                   + (" ..." if len(evaluation.missing_query_ids) > 10 else "") + ".")
    return out


def markdown(evaluation: Any) -> str:
    lines = ["| measure | mean | queries defined | queries evaluated |", "|---|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows(evaluation)]
    return "\n".join(lines) + "\n\n" + "\n\n".join(notes(evaluation)) + "\n"


def table_html(evaluation: Any) -> str:
    e = html.escape
    body = "".join("<tr>" + "".join(f"<td>{e(x)}</td>" for x in row) + "</tr>" for row in rows(evaluation))
    return ("<div class=\"evalcore-run\"><table><thead><tr><th>measure</th><th>mean</th><th>queries defined</th>"
            f"<th>queries evaluated</th></tr></thead><tbody>{body}</tbody></table>"
            + "".join(f"<p>{e(n)}</p>" for n in notes(evaluation)) + "</div>")


def curve_section(evaluations: Dict[str, Any]) -> Section:
    """The 11-point interpolated precision-recall curves of runs (name → RunEvaluation),
    from their mean IPrec@x; a note instead when they were not evaluated with them."""
    if not evaluations or any(not all(m in e.measures for m in CURVE_MEASURES) for e in evaluations.values()):
        return Section("Precision-recall curves", "<p>Not drawn: the runs were not evaluated with IPrec@0.0 ... "
                       "IPrec@1.0 (<code>evalcore report</code> evaluates them).</p>")
    series = {name: [(x, math.nan if e.mean[m] is None else e.mean[m]) for x, m in zip(RECALL_POINTS, CURVE_MEASURES)]
              for name, e in evaluations.items()}
    return Section("Precision-recall curves", svg.curves("Interpolated precision at 11 recall points", series,
                                                         "recall", "mean interpolated precision"))


def to_html(evaluation: Any, path: Optional[str], name: str, inputs: Sequence[Any] = (),
            command: Optional[Sequence[str]] = None) -> str:
    shown = [m for m in evaluation.measures if m not in CURVE_MEASURES]
    charts = "".join(svg.distributions(f"{m}: per-query scores", {name: evaluation.values(m).tolist()}, m)
                     for m in shown)
    sections = [Section("Summary", table_html(evaluation)), Section("Per-query scores", charts),
                curve_section({name: evaluation})]
    return write_page(path, f"evalcore: {name}", sections, evaluation.to_json(), provenance(inputs, command))
