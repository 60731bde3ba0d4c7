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

#: What each tie rule does, against trec_eval's (the CLI's notes: trec_eval/option_notes.py).
TIE_RULE_TEXT: Dict[str, str] = {
    "score": "tied documents by document ID descending, as trec_eval",
    "input": "documents in the order given, not sorted by score as trec_eval sorts them",
    "average": "each value the exact expectation over every order of each group of tied scores (McSherry and "
               "Najork), not the value of trec_eval's order (document ID descending)",
    "optimistic": "tied documents by grade, highest first (unjudged last), not by document ID as trec_eval",
    "pessimistic": "tied documents by grade, lowest first (unjudged first), not by document ID as trec_eval",
}

#: Kinds whose ``ties="average"`` value is the exact expectation over the orders of the tied
#: groups (cpp/runs/tie_average.hpp derives each).
AVERAGE_KINDS = frozenset({"P", "R", "RR", "AP", "nDCG", "Success", "ERR", "Rprec", "Judged",
                           # issue 25 item 3, second round: trec_eval's (cpp/runs/tie_average_trec.cpp)
                           "Bpref", "RelP", "RprecMult", "Unjudged", "RBP", "RBPResid", "trec_binG", "trec_dcg",
                           "trec_ideal_dcg", "trec_ndcg", "trec_Rndcg", "trec_ndcg_rel",
                           "Hits", "F1", "RanxRBP",  # and ranx's hits, f1 and graded rbp
                           "NCG",  # NCG: issue 25 item 4 (h25-ncg)
                           # h25-ties3: the C/W/L measures whose continuation reads no gain (each figure
                           # linear in the gains: cpp/runs/cwl_measures.hpp), and ir_measures' Accuracy
                           "CwlRBP", "CwlINSQ", "CwlSDCG", "Accuracy"})
#: Kinds that read the set of retrieved documents, not their order: the same value whatever
#: the tie rule.
ORDER_FREE_KINDS = frozenset({"NumRet", "NumRel", "NumRelRet", "SetP", "SetR", "SetF", "SetRelP", "SetMAP",
                              "NumNonrelJudgedRet", "Utility", "NumQ", "RunId"})


_BOUNDED = "ties='optimistic' and 'pessimistic' bound it (it grows with relevance), or ties='score'"
_NOT_BOUNDED = "ties='score' ('optimistic' and 'pessimistic' are one order each, not bounds of it)"
#: Why ties="average" refuses a measure, and what to use instead (docs/measures.md, "Ties"). The
#: expectation over the (finitely many, equally likely) orders of the tied groups exists for every
#: number a measure gives, so the refusal says "not implemented" and why, except where
#: NOT_DEFINED_AVERAGE says there is no number to take the expectation of.
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
    # h25-ties3: the remaining common names and the C/W/L measures whose continuation reads the gains
    "trec_G": ("each rank's discount log2(2 + ideal cost - cumulative gain) depends on the gains above it: its "
               "expectation needs the distribution of the sums of gains above each position of a tied group, "
               "which evalcore does not compute", _NOT_BOUNDED),
    # h25-ties3: Compat, and the C/W/L measures whose continuation reads the gains
    "Compat": ("its expectation is tractable (each depth's overlap with the ideal ranking is linear in whether "
               "each document is in that prefix of the run, and the ideal ranking follows the scores, not the order "
               "within a group), but evalcore's Compat kernel reads one order and does not compute it yet",
               _NOT_BOUNDED),
    "CwlINST": ("INST's continuation at each rank reads T minus the gains above it, so no figure is linear in the "
                "gains: the expectation needs the distribution of each tied group's order, which evalcore does not "
                "compute (RBP, INSQ and SDCG, whose continuations read no gain, take ties='average')", _NOT_BOUNDED),
    "CwlBPM": ("BPM's continuation stops where the cumulative gain reaches T, which depends on the order of the "
               "gains: the expectation needs the distribution of each tied group's order, which evalcore does not "
               "compute (RBP, INSQ and SDCG take ties='average')", _NOT_BOUNDED),
    "CwlNERR8": ("NERR's continuation at each rank is 1 minus that rank's gain, so the weights depend on the order "
                 "of the gains: the expectation needs the distribution of each tied group's order, which evalcore "
                 "does not compute (RBP, INSQ and SDCG take ties='average')", _NOT_BOUNDED),
}
REFUSED_AVERAGE["CwlBPMD"] = (REFUSED_AVERAGE["CwlBPM"][0].replace("BPM's continuation", "the dynamic BPM's "
                              "continuation (its T moved by each gain)"), _NOT_BOUNDED)
for _nerr in ("CwlNERR9", "CwlNERR10", "CwlNERR11"):
    REFUSED_AVERAGE[_nerr] = REFUSED_AVERAGE["CwlNERR8"]
#: The kinds whose ties="average" has no expectation to compute (their value is not a number).
NOT_DEFINED_AVERAGE = frozenset({"RankGrade"})
#: ndcg_rel with a negative gain, or a gain for a negative level (documents then count as relevant
#: retrieved without being in the ideal): its sum can be negative, and is clamped to 0.
NEGATIVE_GAIN_NDCG_REL = ("with a negative gain, or a gain for level -1 (not in the qrels) or -2 (judged below 0), "
                          "trec_eval's sum of its terms can be negative and is clamped to 0, which is not linear in "
                          "them, so its expectation is not the sum of the terms' expectations (evalcore has those for "
                          "gains of 0 or more on levels 0 and up)", _NOT_BOUNDED)
REFUSED_AVERAGE["IPrecAvg"] = REFUSED_AVERAGE["IPrec"]
REFUSED_AVERAGE["GMBpref"] = (REFUSED_AVERAGE["GMAP"][0].replace("AP", "bpref"), _BOUNDED)


#: Why each qrels_format other than "qrels" takes only ties="score" and "input" (h25-ties3): the
#: true reason for each, as docs/measures.md ("Ties") gives it.
_FORMAT_ORDERS = {
    "subtopics": ("the diversity measures order tied documents as ndeval/pyndeval does: score descending, then "
                  "document ID ascending (ties='score'), or as given (ties='input')"),
    "qrels_jg": ("trec_eval's judgment groups are scored in trec_eval's order (score, then document ID "
                 "descending; ties='score') or as given (ties='input')"),
}
_FORMAT_WHY = {
    ("subtopics", "average"): ("the expectation over the orders of a tied group is not implemented for them: a "
                               "document's gain depends on the subtopics the documents above it cover, so it is not "
                               "the value of each rank's mean gain, and evalcore does not compute it"),
    ("subtopics", "grade"): ("the grade orders are not defined for them: a document has a grade per subtopic, not "
                             "one grade to order a tied group by"),
}
_OTHER_FORMAT_WHY = "the grade orders and ties='average' are not implemented for them"


def format_refusal(ties: str, qrels_format: str) -> str:
    """The message refusing `ties` (not "score" or "input") with `qrels_format` (not "qrels")."""
    orders = _FORMAT_ORDERS.get(qrels_format, "trec_eval's preferences are scored in trec_eval's order (score, then "
                                              "document ID descending; ties='score') or as given (ties='input')")
    why = _FORMAT_WHY.get((qrels_format, "average" if ties == "average" else "grade"), _OTHER_FORMAT_WHY)
    return f"ties={ties!r} takes qrels_format='qrels': with qrels_format={qrels_format!r}, {orders}; {why}: give " \
           "ties='score' or 'input'"


def check_ties(ties: str, specs: Sequence[MeasureSpec], max_retrieved: int, qrels_format: str) -> None:
    """The combinations of a tie rule with measures and options that evalcore refuses
    (ValueError naming the measure or option, saying whether the expectation is not defined or
    not implemented and why, and what to give instead)."""
    if ties in ("score", "input"):
        return
    if qrels_format != "qrels":
        raise ValueError(format_refusal(ties, qrels_format))
    if ties != "average":
        return
    if max_retrieved >= 0:
        raise ValueError("ties='average' does not take max_retrieved (not implemented): a tied group cut at rank "
                         "max_retrieved makes the set of retrieved documents, and so every measure, depend on the "
                         "order within the group, which the expectations evalcore computes do not take; give "
                         "max_retrieved=None, or ties='score'")
    for spec in specs:
        kind = MEASURE_KINDS[spec.kind]
        negative_gain = kind == "trec_ndcg_rel" and any(gain < 0 or (level < 0 and gain != 0)
                                                        for level, gain in spec.gains)
        if negative_gain or (kind not in AVERAGE_KINDS and kind not in ORDER_FREE_KINDS):
            reason, instead = NEGATIVE_GAIN_NDCG_REL if negative_gain else REFUSED_AVERAGE.get(kind, (
                "evalcore does not compute its expectation over the orders of tied documents, and does not "
                "approximate one", "ties='score', 'optimistic' or 'pessimistic'"))
            status = "not defined" if kind in NOT_DEFINED_AVERAGE and not negative_gain else "not implemented"
            name = "relstring" if spec.name.startswith("\0relstring") else spec.name  # (text_measures' hidden name)
            raise ValueError(f"ties='average' is {status} for measure {name!r} ({kind}): {reason}; evaluate "
                             f"it with {instead}")
