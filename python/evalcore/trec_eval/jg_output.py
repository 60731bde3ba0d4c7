"""``evalcore trec -R qrels_jg``: trec_eval 10's output for its judgment-group judgments,
byte for byte, built from evaluate_run's values with ``qrels_format="qrels_jg"``.

With qrels_jg judgments trec_eval computes map_avgjg, P_avgjg and Rprec_mult_avgjg (the
``qrels_jg`` nickname); every other measure fails at the first topic it evaluates, with
the message of the routine that reads its judgments (exit status 4), and so does evalcore.
Topics are the judged ones in strcmp order, as for ordinary qrels; with ``-c`` a topic the
run lacks scores 0 on every one of these measures, which trec_eval's stand-in ranking of
one unjudged document gives too. Nothing here imports the compiled core.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from ..runs.measures import KIND, RPREC_MULTIPLES, TREC_CUTOFFS, MeasureSpec
from . import output_format as te

#: What trec_eval's measures reading ordinary qrels say when given other judgments.
ORDINARY_QRELS_FORMAT = "trec_eval.form_res_qrels: rel_info format not qrels or results format not trec_results"
#: The -R formats: trec_eval 10's, and whether evalcore reads them.
REL_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")
SUPPORTED_REL_FORMATS = REL_FORMATS


def check_rel_format(rel_format: str) -> None:
    """trec_eval's refusal of an unknown -R format (exit 2, once the -m names are read)."""
    if rel_format not in REL_FORMATS:
        raise te.TrecEvalError(f"Illegal rel_format '{rel_format}'", 2)


def _multiples(text: Optional[str], name: str) -> List[float]:
    if text is None:
        return list(RPREC_MULTIPLES)
    multiples = te._double_cutoffs(text, name)
    te._doubles(text, name)  # evalcore refuses inf and nan (trec_eval's cast of them is undefined)
    return multiples


def plan(arguments: Sequence[str]) -> te.Plan:
    """The columns for -R qrels_jg, in trec_eval's order, and the measures they read."""
    marks = te.mark_measures(arguments)
    specs: List[MeasureSpec] = []
    columns: List[te.Column] = []

    def column(name: str, kind: str, cutoff: int = 0, parameter: float = 0.0) -> te.Column:
        specs.append(MeasureSpec(name, KIND[kind], cutoff, None, (), parameter))
        return te.Column(name, te._plain(len(specs) - 1))

    for base in marks.measures:
        text = marks.params.get(base)
        if base in ("runid", "num_q"):
            columns.extend(te._columns(base, None, te.SpecPool(), {}))
        elif base == "map_avgjg":
            columns.append(column(base, "MapAvgJG"))
        elif base == "P_avgjg":
            cutoffs = TREC_CUTOFFS if text is None else te._cutoffs(text, base)
            columns.extend(column(f"{base}_{k}", "PAvgJG", cutoff=k) for k in cutoffs)
        elif base == "Rprec_mult_avgjg":
            columns.extend(column(f"{base}_{x:3.2f}", "RprecMultAvgJG", parameter=x) for x in _multiples(text, base))
        else:  # reads ordinary qrels or preferences: fails at the first topic, as in trec_eval
            if text is not None and base in te._CUT_LONG:
                te._cutoffs(text, base)  # its parameters are read as it is set up (exit 2)
            reason = te.OTHER_QRELS_FORMAT.get(base, ORDINARY_QRELS_FORMAT)
            columns.append(te.Column(base, te._cannot_calculate(base, reason)))
    if not specs:  # the files are read (and their faults reported) all the same
        specs.append(MeasureSpec("#files", KIND["MapAvgJG"]))
    return te.Plan(columns, specs, {})
