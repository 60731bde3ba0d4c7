"""Measures whose per-query value is text: trec_eval's ``relstring`` (``relstring.N``).

trec_eval prints, for each topic, the grades of its first N ranked documents as one
character each (default N = 10): ``0``-``9`` the grade's integer part, ``>`` above 9, ``-``
a document not in the qrels, ``.`` one judged below 0 (in the pool, unjudged). evaluate_run
takes the same names as the command line: the text of each query is in
:attr:`RunEvaluation.texts <evalcore.runs.result.RunEvaluation.texts>`, not among the
numeric measures (it has no mean). Both cores compute it the same way, here: from the grade
at each rank (the ``RankGrade`` kind, which each core scores) and the ranking's length after
``max_retrieved`` and ``judged_only``.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Sequence, Union

from .measures import MEASURE_KINDS, MeasureNames, MeasureSpec
from .result import RunEvaluation
from .trec_numbers import c_atof

#: The longest relstring: trec_eval's own bound is memory; evalcore's keeps the hidden
#: per-rank measures it scores bounded.
MAX_RELSTRING_LENGTH = 10_000_000

# Names the hidden measures take: never a name a user can give (a NUL byte).
_HIDDEN = "\0relstring "


class TextRequest:
    """One relstring asked for: its name in results (the CLI's: ``relstring``,
    ``relstring_N``) and how many ranks it shows."""

    def __init__(self, name: str, length: int) -> None:
        self.name = name
        self.length = length


def is_text_measure(name: object) -> bool:
    """True for ``relstring`` and ``relstring.PARAMS``."""
    return isinstance(name, str) and (name == "relstring" or name.startswith("relstring."))


def text_request(name: str) -> TextRequest:
    """``relstring`` (10 ranks) or ``relstring.N``: N read as trec_eval reads it (C's atof, then
    truncated; below 1 an empty string), at most MAX_RELSTRING_LENGTH."""
    if name == "relstring":
        return TextRequest("relstring", 10)
    text = name[len("relstring."):]
    value = c_atof(text.split(",")[0])
    if not math.isfinite(value) or abs(value) > MAX_RELSTRING_LENGTH:
        raise ValueError(f"relstring: the length must be a number up to {MAX_RELSTRING_LENGTH}, got {text!r}")
    return TextRequest(f"relstring_{text}", max(0, int(value)))


def _listed(measures: MeasureNames) -> List[Any]:
    """evaluate_run's measures as a list: one name or one ir_measures object, or the sequence given."""
    from .ir_measure_objects import is_ir_measure

    return [measures] if isinstance(measures, str) or is_ir_measure(measures) else list(measures)


def check_text_format(measures: MeasureNames, qrels_format: str) -> None:
    """relstring reads ordinary qrels' grades: with judgment groups or preferences it is a
    ValueError saying so."""
    names = _listed(measures)
    if qrels_format != "qrels" and any(is_text_measure(n) for n in names):
        first = next(str(n) for n in names if is_text_measure(n))
        raise ValueError(f"{first!r} reads the grades of ordinary qrels: it needs qrels_format='qrels', "
                         f"not {qrels_format!r}")


def grade_character(grade: float) -> str:
    """A grade as relstring shows it (NaN: no judgment)."""
    if math.isnan(grade):
        return "-"
    if grade < 0:
        return "."
    return ">" if grade > 9 else str(int(grade))


def with_texts(evaluate: Callable[[List[MeasureSpec]], RunEvaluation], measures: MeasureNames,
               parse: Callable[[MeasureNames], List[MeasureSpec]]) -> RunEvaluation:
    """`evaluate` (one core's evaluation of a list of MeasureSpecs) for `measures`, relstrings
    included: they are scored as hidden per-rank grades and the ranking's length, then made
    text; the result has the other measures only, in their order, and the texts."""
    names: Sequence[Union[str, MeasureSpec]] = _listed(measures)
    requests = [text_request(str(n)) for n in names if is_text_measure(n)]
    if not requests:
        return evaluate(parse(measures))
    for i, request in enumerate(requests):
        if any(other.name == request.name for other in requests[:i]):
            raise ValueError(f"measure {request.name!r} is listed twice")
    others = [n for n in names if not is_text_measure(n)]
    specs = parse(others) if others else []
    longest = max(r.length for r in requests)
    rank_kind, length_kind = MEASURE_KINDS.index("RankGrade"), MEASURE_KINDS.index("NumRet")
    hidden = [MeasureSpec(_HIDDEN + "retrieved", length_kind)]
    hidden += [MeasureSpec(f"{_HIDDEN}{k}", rank_kind, cutoff=k) for k in range(1, longest + 1)]
    full = evaluate(specs + hidden)
    kept = len(specs)
    lengths = full.values(hidden[0].name)
    grades = [full.values(spec.name) for spec in hidden[1:]]
    texts: Dict[str, Dict[str, str]] = {}
    for request in requests:
        texts[request.name] = {
            query: "".join(grade_character(float(grades[k][q])) for k in range(min(request.length, int(lengths[q]))))
            for q, query in enumerate(full.query_ids)
        }
    names_kept = [s.name for s in specs]
    return RunEvaluation(names_kept, list(full.query_ids), full._columns[:kept].T,
                         [full.mean[n] for n in names_kept], [full.defined_counts[n] for n in names_kept],
                         full.options, full.missing_query_ids, texts=texts, policy_warnings=full.policy_warnings)
