"""Our search service's offline metrics (the sample module the walk-through tests).

Each function takes TREC-style qrels ``{query: {doc: grade}}`` and a run
``{query: {doc: score}}`` and returns ``{query: value}`` for the queries it scores, as
pytrec_eval does. Ties between equal scores are broken by document ID, descending, the
rule trec_eval (and evalcore) use: the fix of the bug kept in buggy_search_metrics.py.
"""

import math


def ranked(scores):
    """Documents by score descending, equal scores by document ID descending."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]


def ndcg_at_10(qrels, run, order=ranked):
    """nDCG@10, linear gain (grades below 0 gain nothing); no value where the ideal DCG is 0."""
    out = {}
    for query, scores in run.items():
        judged = qrels.get(query)
        if not judged:
            continue
        dcg = 0.0
        for rank, doc in enumerate(order(scores)[:10], start=1):
            dcg += max(judged.get(doc, 0), 0) / math.log2(rank + 1)
        ideal = 0.0
        for rank, gain in enumerate(sorted((max(g, 0) for g in judged.values()), reverse=True)[:10], start=1):
            ideal += gain / math.log2(rank + 1)
        if ideal:
            out[query] = dcg / ideal
    return out


def reciprocal_rank_at_10(qrels, run, order=ranked):
    """RR@10: 1 / the rank of the first document of grade >= 1 in the top 10, 0 if none;
    no value without a relevant judgment."""
    out = {}
    for query, scores in run.items():
        judged = qrels.get(query)
        if not judged or not any(g >= 1 for g in judged.values()):
            continue
        out[query] = next((1.0 / rank for rank, doc in enumerate(order(scores)[:10], start=1)
                           if judged.get(doc, 0) >= 1), 0.0)
    return out
