"""evalcore's own `conventions` sentences, one source for the native core and the reference.

They are part of `result` (and so of `outputSha256`), so both implementations must emit
exactly these strings. Each sentence states a fact the contract requires (docs/contract.md §2, §3).
"""

from __future__ import annotations

from typing import Tuple

_RANKING_COMMON_HEAD = (
    "precisionAtK is the number of relevant documents among the first k retrieved, divided by k itself; "
    "k stays the divisor even when fewer than k documents were retrieved.",
    "recallAtK and averagePrecisionAtK are divided by the number of supplied judgments whose grade is at "
    "least relevantAtLeast, retrieved or not; reciprocalRankAtK is 1/rank of the first relevant document "
    "within the first k, or 0 when none of them is relevant.",
)

_RANKING_GAIN = {
    "linear": "Each document's gain is its grade (linear gain), divided by log2(rank + 1) at its 1-based rank.",
    "exponential": "Each document's gain is 2^grade - 1 (exponential gain), divided by log2(rank + 1) at its "
    "1-based rank.",
}

_RANKING_COMMON_MIDDLE = (
    "idealDcgAtK applies the same gain and discount to the grades of all supplied judgments, sorted from "
    "highest to lowest and cut at k; ndcgAtK is dcgAtK divided by idealDcgAtK.",
    "A query without any relevant judgment has null recall, reciprocal rank and average precision, and a "
    "query whose ideal DCG is 0 has null NDCG. A macro value is the mean over the queries where that "
    "metric is not null, null when there are none; definedQueryCounts gives each mean's denominator.",
)

_RANKING_UNJUDGED = {
    "error": "Unjudged policy 'error': every document within the first k must have a judgment, otherwise "
    "the request is rejected with UNJUDGED_DOCUMENT.",
    "nonrelevant": "Unjudged policy 'nonrelevant': a document within the first k without a judgment is "
    "counted as not relevant with gain 0, and listed with grade null and judged false.",
}

_RANKING_TAIL = (
    "Only the judgments in the request are used: evalcore retrieves nothing, does not judge what any "
    "document means, and does not claim the judgments are complete.",
)

RANKING_GAINS: Tuple[str, ...] = ("linear", "exponential")
RANKING_UNJUDGED_POLICIES: Tuple[str, ...] = ("error", "nonrelevant")


def ranking_conventions(gain: str, unjudged: str) -> Tuple[str, ...]:
    """The ranking-evaluate `conventions` for the gain and unjudged policy in force."""
    return (
        _RANKING_COMMON_HEAD
        + (_RANKING_GAIN[gain],)
        + _RANKING_COMMON_MIDDLE
        + (_RANKING_UNJUDGED[unjudged],)
        + _RANKING_TAIL
    )


#: Every variant, indexed by ``2 * gain_index + unjudged_index`` (the native core's order).
RANKING_CONVENTIONS_TABLE: Tuple[Tuple[str, ...], ...] = tuple(
    ranking_conventions(g, u) for g in RANKING_GAINS for u in RANKING_UNJUDGED_POLICIES
)


_SPAN_HEAD = (
    "Offsets count UTF-16 code units; a span is the half-open range [start, end) with start < end <= the "
    "text's length, and neither boundary may fall between the two halves of a surrogate pair.",
)

_SPAN_MODE = {
    "exact": "Match mode 'exact': a prediction can match a reference whose label is the identical string and "
    "whose start and end are identical (IoU 1).",
    "overlap": "Match mode 'overlap': a prediction can match a reference whose label is the identical string "
    "and whose intersection-over-union of offsets is at least minimumIou.",
}

_SPAN_TAIL = (
    "An ID repeated on one side, or two spans with the same label, start and end on one side, is rejected.",
    "Matching is one-to-one and of maximum cardinality (Kuhn's augmenting paths): predictions are taken in "
    "ID order and each tries its candidates by descending IoU, then by reference ID; total IoU is not "
    "maximized.",
    "Precision, recall and F1 that would divide by zero are reported as 0, with precisionDefined and "
    "recallDefined saying which; meanMatchedIou is null when nothing matched.",
    "Only labels and boundaries are compared: evalcore does not judge the meaning of the text or whether a "
    "label is true.",
)

SPAN_MATCH_MODES: Tuple[str, ...] = ("exact", "overlap")


def span_conventions(match: str) -> Tuple[str, ...]:
    """The span-evaluate `conventions` for the match mode in force."""
    return _SPAN_HEAD + (_SPAN_MODE[match],) + _SPAN_TAIL


#: Every variant, indexed like SPAN_MATCH_MODES (the native core's order).
SPAN_CONVENTIONS_TABLE: Tuple[Tuple[str, ...], ...] = tuple(span_conventions(m) for m in SPAN_MATCH_MODES)
