"""Issue 25 item 3: evaluate_run's tie rules, and which measures ``ties="average"`` takes.

``"score"`` and ``"input"`` are trec_eval's rule and the order given; ``"average"`` is McSherry
and Najork's tie-aware measure (ECIR 2008): the exact expectation over every order of each
group of documents with equal scores; ``"optimistic"`` and ``"pessimistic"`` order each tied
group by grade, highest (lowest) first, which bound the orders of a group for every measure
that grows with relevance. docs/measures.md ("Ties") defines them. Nothing here imports the
compiled core.
"""

from __future__ import annotations

from typing import Dict, Sequence, Tuple

from .measures import MEASURE_KINDS, MeasureSpec

#: The values of evaluate_run's ``ties``, and the native core's number for each (0: by ID,
#: or the input order; cpp/runs/measures.hpp TieRule).
TIE_RULES: Dict[str, int] = {"score": 0, "input": 0, "average": 1, "optimistic": 2, "pessimistic": 3}

#: Kinds whose ``ties="average"`` value is the exact expectation over the orders of the tied
#: groups (cpp/runs/tie_average.hpp derives each).
AVERAGE_KINDS = frozenset({"P", "R", "RR", "AP", "nDCG", "Success", "ERR", "Rprec", "Judged",
                           # issue 25 item 3, second round: trec_eval's (cpp/runs/tie_average_trec.cpp)
                           "Bpref", "RelP", "RprecMult", "Unjudged", "RBP", "RBPResid", "trec_binG", "trec_dcg",
                           "trec_ideal_dcg", "trec_ndcg", "trec_Rndcg", "trec_ndcg_rel",
                           "Hits", "F1", "RanxRBP",  # and ranx's hits, f1 and graded rbp
                           "NCG"})  # NCG: issue 25 item 4 (h25-ncg)
#: Kinds that read the set of retrieved documents, not their order: the same value whatever
#: the tie rule.
ORDER_FREE_KINDS = frozenset({"NumRet", "NumRel", "NumRelRet", "SetP", "SetR", "SetF", "SetRelP", "SetMAP",
                              "NumNonrelJudgedRet", "Utility", "NumQ", "RunId"})


_BOUNDED = "ties='optimistic' and 'pessimistic' bound it (it grows with relevance), or ties='score'"
_NOT_BOUNDED = "ties='score' ('optimistic' and 'pessimistic' are one order each, not bounds of it)"
#: Why ties="average" refuses a measure, and what to use instead (docs/measures.md, "Ties").
REFUSED_AVERAGE: Dict[str, Tuple[str, str]] = {
    "IPrec": ("interpolated precision is a maximum of precision over the ranks below a point: its expectation is "
              "not a function of each rank's expected precision, and evalcore does not compute the distribution "
              "of that maximum over the joint orders of the tied groups", _BOUNDED),
    "infAP": ("each relevant document's term is a ratio of the relevant to the judged documents above it: its "
              "exact expectation needs their joint distribution within the tied group (O(m^3) terms for a group "
              "of m), which evalcore does not compute", "ties='score' ('optimistic' and 'pessimistic' are not "
              "bounds of infAP: a document in the pool without a judgment above a relevant one raises its term)"),
    "YAAP": ("log((1 + S) / (1 + R - S)) of AP's sum S is not linear in S: its expectation needs the distribution "
             "of S over every order of every tied group, which grows combinatorially, and is not computed", _BOUNDED),
    "GMAP": ("the expectation of ln(max(AP, 0.00001)) is not a function of E[AP]: it needs the distribution of AP "
             "over every order of every tied group, which grows combinatorially, and is not computed", _BOUNDED),
    "RankGrade": ("relstring lists the grade at each rank, one order of the documents, not a number to take the "
                  "expectation of", "ties='score', 'input', 'optimistic' or 'pessimistic'"),
    "trec_G": ("each rank's discount log2(2 + ideal cost - cumulative gain) depends on the gains above it: its "
               "expectation needs the distribution of the sums of gains above each position of a tied group, "
               "which evalcore does not compute", _NOT_BOUNDED),
}
#: ndcg_rel with a negative gain, or a gain for a negative level (documents then count as relevant
#: retrieved without being in the ideal): its sum can be negative, and is clamped to 0.
NEGATIVE_GAIN_NDCG_REL = ("with a negative gain, or a gain for level -1 (not in the qrels) or -2 (judged below 0), "
                          "trec_eval's sum of its terms can be negative and is clamped to 0, which is not linear in "
                          "them, so its expectation is not the sum of the terms' expectations (evalcore has those for "
                          "gains of 0 or more on levels 0 and up)", _NOT_BOUNDED)
REFUSED_AVERAGE["IPrecAvg"] = REFUSED_AVERAGE["IPrec"]
REFUSED_AVERAGE["GMBpref"] = (REFUSED_AVERAGE["GMAP"][0].replace("AP", "bpref"), _BOUNDED)


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
        negative_gain = kind == "trec_ndcg_rel" and any(gain < 0 or (level < 0 and gain != 0)
                                                        for level, gain in spec.gains)
        if negative_gain or (kind not in AVERAGE_KINDS and kind not in ORDER_FREE_KINDS):
            reason, instead = NEGATIVE_GAIN_NDCG_REL if negative_gain else REFUSED_AVERAGE.get(kind, (
                "evalcore has no exact expectation of it over the orders of tied documents, and does not approximate "
                "one", "ties='score', 'optimistic' or 'pessimistic'"))
            raise ValueError(f"ties='average' is not defined for measure {spec.name!r} ({kind}): {reason}; evaluate "
                             f"it with {instead}")
