"""search_metrics.py as it was before the walk-through: equal scores kept the run's order
(Python's sort is stable), where trec_eval and evalcore break ties by document ID. Kept so
that the walk-through's test shows the bug is found."""

import search_metrics


def ranked(scores):
    """BUG: documents by score alone; equal scores stay in insertion order."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: item[1], reverse=True)]


def ndcg_at_10(qrels, run):
    return search_metrics.ndcg_at_10(qrels, run, order=ranked)


def reciprocal_rank_at_10(qrels, run):
    return search_metrics.reciprocal_rank_at_10(qrels, run, order=ranked)
