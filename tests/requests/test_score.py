"""score (docs/contract.md §4): hand-worked values, the empty-set rules, every error with its pointer, properties."""

import pytest
from hypothesis import given

import evalcore
from common import expect_error, expect_result, is_unit_interval
from evalcore.testing import score_requests


def test_single_pair_with_k_after_dropping_repeats():
    response = expect_result("score", {"predicted": ["a", "b", "a", "c"], "ground_truth": ["a", "c", "d"], "k": 3})
    # kept: a, b, c (the second "a" is dropped before k applies)
    assert response["per_item"] == [{"precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3, "f2": (5 * (2 / 3) * (2 / 3)) / (4 * (2 / 3) + 2 / 3)}]
    assert (response["metrics"], response["k"], response["count"]) == (["precision", "recall", "f1", "f2"], 3, 1)


def test_empty_set_rules_and_macro_in_item_order():
    response = expect_result("score", {"items": [
        {"predicted": [], "ground_truth": []},
        {"predicted": ["x"], "ground_truth": []},
        {"predicted": [], "ground_truth": ["x"]},
        {"predicted": ["x", "y"], "ground_truth": ["z"]},
    ], "metrics": ["f1", "recall"]})
    assert response["per_item"] == [{"f1": 1.0, "recall": 1.0}, {"f1": 0.0, "recall": 0.0}, {"f1": 0.0, "recall": 0.0}, {"f1": 0.0, "recall": 0.0}]
    assert list(response["aggregate"]) == ["f1", "recall"]
    assert response["aggregate"] == {"f1": 0.25, "recall": 0.25}


def test_nullable_fields_may_be_null():
    assert expect_result("score", {"predicted": ["a"], "ground_truth": ["a"], "items": None, "k": None})["count"] == 1
    assert expect_result("score", {"items": [{"ground_truth": ["a"], "predicted": []}], "predicted": None})["count"] == 1


def test_strings_are_compared_exactly():
    response = expect_result("score", {"predicted": ["A", " a", "a"], "ground_truth": ["a"]})
    assert response["per_item"][0]["precision"] == 1 / 3


CASES = [
    ("neither form", {"metrics": ["f1"]}, "SCHEMA_VIOLATION", ""),
    ("both forms", {"predicted": ["a"], "ground_truth": ["a"], "items": [{"predicted": [], "ground_truth": []}]}, "SCHEMA_VIOLATION", ""),
    ("predicted alone", {"predicted": ["a"]}, "SCHEMA_VIOLATION", ""),
    ("empty items", {"items": []}, "SCHEMA_VIOLATION", "/items"),
    ("item missing ground_truth", {"items": [{"predicted": []}]}, "SCHEMA_VIOLATION", "/items/0"),
    ("non-string id", {"predicted": ["a", 1], "ground_truth": []}, "SCHEMA_VIOLATION", "/predicted/1"),
    ("unknown metric", {"predicted": [], "ground_truth": [], "metrics": ["f1", "f3"]}, "SCHEMA_VIOLATION", "/metrics/1"),
    ("repeated metric", {"predicted": [], "ground_truth": [], "metrics": ["f1", "f1"]}, "SCHEMA_VIOLATION", "/metrics/1"),
    ("metrics null", {"predicted": [], "ground_truth": [], "metrics": None}, "SCHEMA_VIOLATION", "/metrics"),
    ("metrics empty", {"predicted": [], "ground_truth": [], "metrics": []}, "SCHEMA_VIOLATION", "/metrics"),
    ("items not a list of objects", {"items": [["a"]]}, "SCHEMA_VIOLATION", "/items/0"),
    ("k zero", {"predicted": [], "ground_truth": [], "k": 0}, "SCHEMA_VIOLATION", "/k"),
    ("k fractional", {"predicted": [], "ground_truth": [], "k": 1.5}, "SCHEMA_VIOLATION", "/k"),
    ("k bool", {"predicted": [], "ground_truth": [], "k": True}, "SCHEMA_VIOLATION", "/k"),
    ("unknown field", {"predicted": [], "ground_truth": [], "K": 1}, "SCHEMA_VIOLATION", "/K"),
    ("lone surrogate", {"items": [{"predicted": ["a"], "ground_truth": ["b", "\udc00"]}]}, "INVALID_UNICODE", "/items/0/ground_truth/1"),
    ("unsafe key", {"predicted": [], "ground_truth": [], "constructor": 1}, "UNSAFE_KEY", "/constructor"),
    ("NaN k", {"predicted": [], "ground_truth": [], "k": float("nan")}, "INVALID_NUMBER", "/k"),
]


@pytest.mark.parametrize("name,request_,code,pointer", CASES, ids=[c[0] for c in CASES])
def test_error_code_and_pointer(name, request_, code, pointer):
    expect_error("score", request_, code, pointer)


def test_limits_apply_when_given():
    request = {"items": [{"predicted": ["a"] * 3, "ground_truth": ["a"]}] * 50}
    expect_result("score", request)
    expect_error("score", request, "INPUT_LIMIT", "", limits={"input_bytes": 100})
    expect_error("score", request, "OUTPUT_LIMIT", "", limits={"output_bytes": 500})


@given(score_requests())
def test_values_are_bounded_and_aggregate_is_the_item_mean(request):
    response = expect_result("score", request)
    assert response["count"] == len(response["per_item"]) >= 1
    for metric in response["metrics"]:
        total = 0.0
        for entry in response["per_item"]:
            assert is_unit_interval(entry[metric])
            total += entry[metric]
        assert response["aggregate"][metric] == total / response["count"]


def test_large_batch_is_scored_identically_by_both():
    import random

    rng = random.Random(5)
    items = [{"predicted": [f"d{rng.randrange(40)}" for _ in range(8)], "ground_truth": [f"d{rng.randrange(40)}" for _ in range(6)]} for _ in range(20000)]
    assert evalcore.score({"items": items, "k": 5}) == evalcore.reference.score({"items": items, "k": 5})


def _batch(n, rng, vocabulary, longest=12):
    return [
        {"predicted": [rng.choice(vocabulary) for _ in range(rng.randint(0, longest))],
         "ground_truth": [rng.choice(vocabulary) for _ in range(rng.randint(0, longest))]}
        for _ in range(n)
    ]


def test_fast_path_edge_ids_match_the_reference():
    # The native fast path copies ID text and scores small pairs by scanning hashes: empty,
    # short, long and non-ASCII IDs (1-, 2- and 4-byte str kinds), repeats, pairs past the
    # scan's size (33+ IDs) and k, all against the reference, in batches past the parallel
    # cut, both below and past the size read, scored and emitted as a pipeline (8,192 items).
    import random

    rng = random.Random(11)
    vocabulary = ["", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", "x" * 16, "x" * 17, "y" * 40,
                  "é", "éa", "\u0100", "\u20ac" * 3, "\U0001f600", "a\U0001f600", "A", " a", "a\x00b"]
    items = _batch(8000, rng, vocabulary) + _batch(300, rng, vocabulary, longest=80)
    for k in (None, 1, 3, 40):
        expect_result("score", {"items": items, "k": k})
        expect_result("score", {"items": items[:6000], "k": k})
    expect_result("score", {"predicted": [rng.choice(vocabulary) for _ in range(500)],
                            "ground_truth": [rng.choice(vocabulary) for _ in range(300)], "k": 200})


@pytest.mark.parametrize("bad,code", [("\ud800", "INVALID_UNICODE"), (7, "SCHEMA_VIOLATION"), (None, "SCHEMA_VIOLATION")])
def test_fast_path_fault_deep_in_a_batch_is_named_exactly(bad, code):
    import random

    items = _batch(9000, random.Random(3), ["a", "b", "é", "c\U0001f600"])
    items[8765] = {"ground_truth": ["a"], "predicted": ["b", "a", bad]}
    expect_error("score", {"items": items}, code, "/items/8765/predicted/2")


def test_str_subclass_ids_are_scored_like_str():
    class Tag(str):
        pass

    expect_result("score", {"items": [{"predicted": [Tag("a"), "b"], "ground_truth": ["a", Tag("b"), Tag("é")]}] * 5000})
