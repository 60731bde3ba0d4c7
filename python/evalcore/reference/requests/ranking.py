"""ranking-evaluate (docs/contract.md §2) in pure Python: the reference the native core must equal."""

from __future__ import annotations

import math
from typing import Any, Dict, Final, List, Mapping, Optional, Sequence, Tuple, cast

from ...requests.conventions import ranking_conventions
from ...errors import EvaluationError
from ...limits import Limits, LimitsLike
from ...result_types import (RankedDocument, RankingDefinedCounts, RankingEnvelope, RankingMacro, RankingMetricName,
                            RankingQueryResult, RankingResult)
from ._reading import child_pointer, shown
from ._request import checked_request, envelope
from ._schema import expect_array, expect_enum, expect_number, expect_object, expect_string, members

OPERATION = "ranking-evaluate"
PROFILE: Final = "supplied-ranking-evaluation-v1"
METRICS: Tuple[RankingMetricName, ...] = ("precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK")
DEFAULTS: Dict[str, Any] = {"k": 10, "relevantAtLeast": 1, "gain": "linear", "unjudged": "error"}


def _validate_schema(request: Any, limits: Limits) -> None:
    expect_object(request, "", "the request", ("queries",))
    for key, value, pointer in members(request, "", "the request", ("queries", "k", "relevantAtLeast", "gain", "unjudged")):
        if key == "queries":
            queries = expect_array(value, pointer, "queries", 1, limits.queries, "queries")
            for i, query in enumerate(queries):
                _validate_query(query, child_pointer(pointer, i), limits)
        elif key == "k":
            expect_number(value, pointer, "k", 1, limits.max_k, integer=True, limit_name="maxK")
        elif key == "relevantAtLeast":
            expect_number(value, pointer, "relevantAtLeast", 0, 10, exclusive_minimum=True)
        elif key == "gain":
            expect_enum(value, pointer, "gain", ("linear", "exponential"))
        else:
            expect_enum(value, pointer, "unjudged", ("error", "nonrelevant"))


def _validate_query(query: Any, pointer: str, limits: Limits) -> None:
    expect_object(query, pointer, "a query", ("id", "retrieved", "judgments"))
    for key, value, member_pointer in members(query, pointer, "a query", ("id", "retrieved", "judgments")):
        if key == "id":
            expect_string(value, member_pointer, "a query id")
        elif key == "retrieved":
            retrieved = expect_array(value, member_pointer, "retrieved", 0, limits.retrieved_per_query, "retrievedPerQuery")
            for j, doc in enumerate(retrieved):
                expect_string(doc, child_pointer(member_pointer, j), "a retrieved document id")
        else:
            judgments = expect_array(value, member_pointer, "judgments", 0, limits.judgments_per_query, "judgmentsPerQuery")
            for j, judgment in enumerate(judgments):
                _validate_judgment(judgment, child_pointer(member_pointer, j))


def _validate_judgment(judgment: Any, pointer: str) -> None:
    expect_object(judgment, pointer, "a judgment", ("id", "grade"))
    for key, value, member_pointer in members(judgment, pointer, "a judgment", ("id", "grade")):
        if key == "id":
            expect_string(value, member_pointer, "a judgment id")
        else:
            expect_number(value, member_pointer, "grade", 0, 10)


def _is_well_formed(s: str) -> bool:
    return not any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _unicode_fault(s: str, pointer: str) -> Optional[EvaluationError]:
    if _is_well_formed(s):
        return None
    return EvaluationError("INVALID_UNICODE", pointer, f"{shown(s)} contains a lone surrogate; send well-formed Unicode")


def _check_semantics(request: Mapping[str, Any], k: int, unjudged: str) -> None:
    """Raise the first semantic fault in document order (docs/validation-order.md, phase 3)."""
    seen_queries = set()
    for i, query in enumerate(request["queries"]):
        qp = f"/queries/{i}"
        judged = {j["id"] for j in query["judgments"]}
        for key, value in query.items():
            if key == "id":
                fault = _unicode_fault(value, qp + "/id")
                if fault:
                    raise fault
                if value in seen_queries:
                    raise EvaluationError("DUPLICATE_ID", qp + "/id", f"the query id {shown(value)} is used by an earlier query")
                seen_queries.add(value)
            elif key == "retrieved":
                seen_docs = set()
                for j, doc in enumerate(value):
                    pointer = f"{qp}/retrieved/{j}"
                    fault = _unicode_fault(doc, pointer)
                    if fault:
                        raise fault
                    if doc in seen_docs:
                        raise EvaluationError(
                            "DUPLICATE_ID", pointer, f"the document {shown(doc)} is retrieved twice in query {i}"
                        )
                    seen_docs.add(doc)
                    if unjudged == "error" and j < k and doc not in judged:
                        raise EvaluationError(
                            "UNJUDGED_DOCUMENT",
                            pointer,
                            f"the document {shown(doc)} at rank {j + 1} (within k = {k}) has no judgment; "
                            'add one or send unjudged: "nonrelevant"',
                        )
            else:
                seen_judgments = set()
                for j, judgment in enumerate(value):
                    for jkey, jvalue in judgment.items():
                        if jkey != "id":
                            continue
                        pointer = f"{qp}/judgments/{j}/id"
                        fault = _unicode_fault(jvalue, pointer)
                        if fault:
                            raise fault
                        if jvalue in seen_judgments:
                            raise EvaluationError(
                                "DUPLICATE_ID", pointer, f"the document {shown(jvalue)} is judged twice in query {i}"
                            )
                        seen_judgments.add(jvalue)


def _gain(grade: float, exponential: bool) -> float:
    return math.pow(2.0, grade) - 1.0 if exponential else grade


def _evaluate_query(query: Mapping[str, Any], k: int, relevant_at_least: float, exponential: bool) -> RankingQueryResult:
    grades: Dict[str, float] = {j["id"]: float(j["grade"]) for j in query["judgments"]}
    top = list(query["retrieved"][:k])
    in_top = set(top)
    relevant_count = sum(1 for j in query["judgments"] if float(j["grade"]) >= relevant_at_least)
    hits = 0
    unjudged_count = 0
    first_relevant_rank = 0
    precision_sum = 0.0
    dcg = 0.0
    ranking: List[RankedDocument] = []
    for index, doc in enumerate(top):
        rank = index + 1
        grade = grades.get(doc)
        judged = grade is not None
        relevant = grade is not None and grade >= relevant_at_least
        if relevant:
            hits += 1
            precision_sum += hits / rank
            if not first_relevant_rank:
                first_relevant_rank = rank
        if grade is None:
            unjudged_count += 1
        else:
            dcg += _gain(grade, exponential) / math.log2(float(rank + 1))
        ranking.append({"rank": rank, "id": doc, "grade": grade, "relevant": relevant, "judged": judged})
    ideal = sorted((float(j["grade"]) for j in query["judgments"]), reverse=True)[:k]
    ideal_dcg = 0.0
    for index, grade in enumerate(ideal):
        ideal_dcg += _gain(grade, exponential) / math.log2(float(index + 2))
    has_relevant = relevant_count > 0
    return {
        "precisionAtK": hits / k,
        "recallAtK": hits / relevant_count if has_relevant else None,
        "reciprocalRankAtK": (1.0 / first_relevant_rank if first_relevant_rank else 0.0) if has_relevant else None,
        "averagePrecisionAtK": precision_sum / relevant_count if has_relevant else None,
        "ndcgAtK": dcg / ideal_dcg if ideal_dcg != 0 else None,
        "id": query["id"],
        "relevantJudgmentCount": relevant_count,
        "retrievedAtKCount": len(top),
        "hitsAtK": hits,
        "unjudgedAtKCount": unjudged_count,
        "dcgAtK": dcg,
        "idealDcgAtK": ideal_dcg,
        "missedRelevantIds": [
            j["id"] for j in query["judgments"] if float(j["grade"]) >= relevant_at_least and j["id"] not in in_top
        ],
        "ranking": ranking,
    }


def _macro(per_query: Sequence[RankingQueryResult]) -> Tuple[RankingMacro, RankingDefinedCounts]:
    macro: Dict[str, Any] = {}
    counts: Dict[str, int] = {}
    for metric in METRICS:
        total = 0.0
        defined = 0
        for q in per_query:
            value = q[metric]
            if value is not None:
                total += value
                defined += 1
        macro[metric] = total / defined if defined else None
        counts[metric] = defined
    # (the keys are METRICS, in order: RankingMacro's and RankingDefinedCounts')
    return cast(RankingMacro, macro), cast(RankingDefinedCounts, counts)


def ranking_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> RankingEnvelope:
    """Evaluate rankings against supplied graded judgments (docs/contract.md §2); pure Python.

    Same signature, output and errors as :func:`evalcore.ranking_evaluate`.
    """
    full, lim = checked_request(request, limits, _validate_schema, DEFAULTS)
    k = int(full["k"])
    _check_semantics(full, k, full["unjudged"])
    exponential = full["gain"] == "exponential"
    relevant_at_least = float(full["relevantAtLeast"])
    per_query = [_evaluate_query(q, k, relevant_at_least, exponential) for q in full["queries"]]
    macro, counts = _macro(per_query)
    result: RankingResult = {
        "profile": PROFILE,
        "k": k,
        "queryCount": len(per_query),
        "queries": per_query,
        "macro": macro,
        "definedQueryCounts": counts,
        "conventions": list(ranking_conventions(full["gain"], full["unjudged"])),
    }
    return envelope(OPERATION, result, full, lim, "send fewer queries or a smaller k")
