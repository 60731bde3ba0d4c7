"""Properties of ranking-evaluate results that must hold for every valid request."""

import random
from concurrent.futures import ThreadPoolExecutor

from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, expect_result, is_unit_interval
from evalcore.testing import ranking_requests

METRICS = ("precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK")


@given(ranking_requests())
def test_metrics_lie_in_the_unit_interval(request):
    result = expect_result("ranking_evaluate", request)["result"]
    for query in result["queries"]:
        for metric in METRICS:
            assert is_unit_interval(query[metric]), (metric, query[metric])
        assert query["precisionAtK"] is not None
        assert query["hitsAtK"] <= query["retrievedAtKCount"] <= result["k"]
    for metric in METRICS:
        assert is_unit_interval(result["macro"][metric])


@given(ranking_requests())
def test_macro_is_the_mean_of_the_defined_values_in_query_order(request):
    result = expect_result("ranking_evaluate", request)["result"]
    for metric in METRICS:
        defined = [q[metric] for q in result["queries"] if q[metric] is not None]
        total = 0.0
        for value in defined:  # left to right, as docs/contract.md §1.6 says (not math.fsum, not sum())
            total += value
        assert result["definedQueryCounts"][metric] == len(defined)
        assert result["macro"][metric] == (total / len(defined) if defined else None)


@given(ranking_requests(), st.randoms(use_true_random=False))
def test_permuting_judgments_changes_only_the_order_of_missed_ids(request, rng):
    before = expect_result("ranking_evaluate", request)["result"]
    for query in request["queries"]:
        rng.shuffle(query["judgments"])
    after = expect_result("ranking_evaluate", request)["result"]
    for q_before, q_after in zip(before["queries"], after["queries"]):
        assert sorted(q_before.pop("missedRelevantIds")) == sorted(q_after.pop("missedRelevantIds"))
    assert_identical(before, after)


@given(ranking_requests())
def test_null_rules(request):
    result = expect_result("ranking_evaluate", request)["result"]
    for query in result["queries"]:
        no_relevant = query["relevantJudgmentCount"] == 0
        for metric in ("recallAtK", "reciprocalRankAtK", "averagePrecisionAtK"):
            assert (query[metric] is None) == no_relevant
        assert (query["ndcgAtK"] is None) == (query["idealDcgAtK"] == 0)


def test_threads_get_identical_bytes():
    rng = random.Random(7)
    queries = []
    for q in range(50):
        docs = [f"d{q}-{i}" for i in range(100)]
        queries.append(
            {
                "id": f"q{q}",
                "retrieved": docs,
                "judgments": [{"id": d, "grade": rng.choice([0, 1, 2, 3, 2.5])} for d in rng.sample(docs, 25)],
            }
        )
    request = {"queries": queries, "k": 100, "unjudged": "nonrelevant", "gain": "exponential"}
    expected = evalcore._core.compact_json(evalcore.ranking_evaluate(request))

    def run(_):
        return evalcore._core.compact_json(evalcore.ranking_evaluate(request))

    with ThreadPoolExecutor(max_workers=8) as pool:
        outputs = list(pool.map(run, range(64)))
    assert all(out == expected for out in outputs)
    assert expected == evalcore._core.compact_json(evalcore.reference.ranking_evaluate(request))
