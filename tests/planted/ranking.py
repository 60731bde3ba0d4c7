"""Per-query ranking measures over a whole run, pytrec_eval-shaped: (qrels, run) -> {query: value}.
The buggy versions differ from the right ones in one line each."""

import math


def _relevant(grade, threshold=1):
    return grade is not None and grade >= threshold


def by_score_then_id(scores):
    """trec_eval's order: score descending, then document ID descending."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]


def by_score_in_insertion_order(scores):
    """BUG: equal scores keep the run's insertion order (a stable sort on the score alone)."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: item[1], reverse=True)]


def discount(rank):
    return math.log2(rank + 1)


def discount_log2_rank(rank):
    """BUG: log2(rank), with rank 1 left undiscounted (as it would divide by zero)."""
    return math.log2(rank) if rank > 1 else 1.0


def judged_queries(qrels, run):
    """(query, scores, judgments) for the run's queries that have judgments."""
    return [(query, scores, qrels[query]) for query, scores in run.items() if qrels.get(query)]


def ndcg_at(k, order=by_score_then_id, discount_of=discount):
    """nDCG@k with linear gain (negative grades gain nothing), undefined (absent) when the
    ideal DCG is 0."""

    def ndcg(qrels, run):
        out = {}
        for query, scores, judged in judged_queries(qrels, run):
            dcg = 0.0
            for rank, doc in enumerate(order(scores)[:k], start=1):
                if doc in judged:
                    dcg += max(judged[doc], 0) / discount_of(rank)
            ideal = 0.0
            for rank, gain in enumerate(sorted((max(g, 0) for g in judged.values()), reverse=True)[:k], start=1):
                ideal += gain / discount_of(rank)
            if ideal != 0:
                out[query] = dcg / ideal
        return out

    return ndcg


def average_precision(divide_by_retrieved=False):
    """AP over the whole ranking; undefined (absent) without a relevant judgment.
    BUG with divide_by_retrieved: the sum is divided by the relevant documents retrieved
    instead of R, the relevant judgments."""

    def ap(qrels, run):
        out = {}
        for query, scores, judged in judged_queries(qrels, run):
            relevant = sum(1 for g in judged.values() if _relevant(g))
            if relevant == 0:
                continue
            hits, total = 0, 0.0
            for rank, doc in enumerate(by_score_then_id(scores), start=1):
                if _relevant(judged.get(doc)):
                    hits += 1
                    total += hits / rank
            if divide_by_retrieved:
                out[query] = total / hits if hits else 0.0
            else:
                out[query] = total / relevant
        return out

    return ap
