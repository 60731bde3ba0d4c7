"""Our metrics against evalcore: run with `python -m pytest examples/testing`."""

import pytest

from evalcore.testing import Mismatch, assert_matches, check_against_evalcore

import buggy_search_metrics
import search_metrics


def test_ndcg_matches_evalcore():
    check_against_evalcore(search_metrics.ndcg_at_10, "nDCG@10")


def test_reciprocal_rank_matches_evalcore():
    check_against_evalcore(search_metrics.reciprocal_rank_at_10, "RR@10")


def test_the_old_tie_breaking_is_caught():
    with pytest.raises(Mismatch) as caught:
        assert_matches(buggy_search_metrics.ndcg_at_10, "nDCG@10")
    assert "score descending, then document ID descending" in str(caught.value)
    scores = list(caught.value.example["run"].values())[0]
    assert len(set(scores.values())) < len(scores)  # the minimal input has tied scores
