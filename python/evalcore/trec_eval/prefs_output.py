"""``evalcore trec -R prefs`` and ``-R qrels_prefs``: trec_eval 10's output for its preference
judgments, byte for byte, built from evaluate_run's values with ``qrels_format="prefs"`` or
``"qrels_prefs"`` (the printing is jg_output's: -R qrels_jg's).

With preference judgments trec_eval computes the 14 prefs_* measures (nicknames ``all_prefs``
and ``prefs``); every other measure fails at the first topic it evaluates, with the message of
the routine that reads its judgments (exit status 4), and so does evalcore. The three
prefs_num_* counts print as integers and sum over the topics; the others are means. Topics are
the judged ones in strcmp order; with ``-c`` a topic the run lacks is scored against an empty
ranking (trec_eval's stand-in of one unjudged document counts the same). Nothing here imports
the compiled core.
"""

from __future__ import annotations

from typing import List, Sequence

from ..runs.measures import KIND, PREFERENCE_MEASURES, MeasureSpec
from . import output_format as te
from .jg_output import ORDINARY_QRELS_FORMAT

#: The -R formats this module prints.
PREFERENCE_FORMATS = ("prefs", "qrels_prefs")
_COUNTS = frozenset(PREFERENCE_MEASURES[:3])  # prefs_num_prefs_*: long, summed (te_calc_avg_meas_empty)
_JG_MEASURES = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")


def plan(arguments: Sequence[str]) -> te.Plan:
    """The columns for -R prefs and -R qrels_prefs, in trec_eval's order, and the measures they read."""
    marks = te.mark_measures(arguments)
    specs: List[MeasureSpec] = []
    columns: List[te.Column] = []
    for base in marks.measures:
        text = marks.params.get(base)
        if base in ("runid", "num_q"):
            columns.extend(te._columns(base, None, te.SpecPool(), {}))
        elif base in PREFERENCE_MEASURES:
            specs.append(MeasureSpec(base, KIND["PrefsNumPoss"] + PREFERENCE_MEASURES.index(base)))
            column = te.Column(base, te._plain(len(specs) - 1), "sum" if base in _COUNTS else "mean")
            column.integer = base in _COUNTS
            columns.append(column)
        elif base in _JG_MEASURES:  # reads qrels_jg judgments: its parameters are read first (exit 2)
            columns.append(te._other_qrels_format(base, text))
        else:  # reads ordinary qrels: fails at the first topic, as in trec_eval
            if text is not None and base in te._CUT_LONG:
                te._cutoffs(text, base)  # its parameters are read as it is set up (exit 2)
            columns.append(te.Column(base, te._cannot_calculate(base, ORDINARY_QRELS_FORMAT)))
    if not specs:  # the files are read (and their faults reported) all the same
        specs.append(MeasureSpec("#files", KIND["PrefsNumPoss"]))
    return te.Plan(columns, specs, {})
