"""Issue 25 item 3: evaluate_run's tie rules, and which measures ``ties="average"`` takes.

``"score"`` and ``"input"`` are trec_eval's rule and the order given; ``"average"`` is McSherry
and Najork's tie-aware measure (ECIR 2008): the exact expectation over every order of each
group of documents with equal scores; ``"optimistic"`` and ``"pessimistic"`` order each tied
group by grade, highest (lowest) first, which bound the orders of a group for every measure
that grows with relevance. docs/measures.md ("Ties") defines them. Nothing here imports the
compiled core.
"""

from __future__ import annotations

from typing import Dict, Sequence

from .measures import MEASURE_KINDS, MeasureSpec

#: The values of evaluate_run's ``ties``, and the native core's number for each (0: by ID,
#: or the input order; cpp/runs/measures.hpp TieRule).
TIE_RULES: Dict[str, int] = {"score": 0, "input": 0, "average": 1, "optimistic": 2, "pessimistic": 3}

#: Kinds whose ``ties="average"`` value is the exact expectation over the orders of the tied
#: groups (cpp/runs/tie_average.hpp derives each).
AVERAGE_KINDS = frozenset({"P", "R", "RR", "AP", "nDCG", "Success", "ERR", "Rprec", "Judged",
                           "NCG"})  # NCG: issue 25 item 4 (h25-ncg)
#: Kinds that read the set of retrieved documents, not their order: the same value whatever
#: the tie rule.
ORDER_FREE_KINDS = frozenset({"NumRet", "NumRel", "NumRelRet", "SetP", "SetR", "SetF", "SetRelP", "SetMAP",
                              "NumNonrelJudgedRet", "Utility", "NumQ", "RunId"})


def check_ties(ties: str, specs: Sequence[MeasureSpec], max_retrieved: int, qrels_format: str) -> None:
    """The combinations of a tie rule with measures and options that evalcore refuses
    (ValueError naming the measure or option and what to give instead)."""
    if ties in ("score", "input"):
        return
    if qrels_format != "qrels":
        raise ValueError(f"ties={ties!r} takes qrels_format='qrels' (trec_eval's judgment groups and preferences "
                         "break ties by document ID): give ties='score' or 'input'")
    if ties != "average":
        return
    if max_retrieved >= 0:
        raise ValueError("ties='average' does not take max_retrieved: a tied group cut at rank max_retrieved makes "
                         "the set of retrieved documents depend on the order within the group; give "
                         "max_retrieved=None, or ties='score'")
    for spec in specs:
        kind = MEASURE_KINDS[spec.kind]
        if kind not in AVERAGE_KINDS and kind not in ORDER_FREE_KINDS:
            raise ValueError(
                f"ties='average' is not defined for measure {spec.name!r} ({kind}): evalcore has no exact "
                f"expectation of it over the orders of tied documents (only for {', '.join(sorted(AVERAGE_KINDS))}, "
                "and the set measures, which keep their value), and does not approximate one; evaluate it with "
                "ties='score', 'optimistic' or 'pessimistic'")
