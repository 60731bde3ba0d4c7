"""evalcore.testing finds real bugs: each planted bug (tests/planted/) is rejected by
assert_matches within its default example budget, with a message that shows the minimal
input, the field, both values and evalcore's evidence; the same code without the bug is
accepted. Budgets are the kit's own (explicit), not the hypothesis profile's."""

import pytest

from evalcore.testing import (DEFAULT_EXAMPLES, Mismatch, adapters, assert_matches, check_against_evalcore, qrels_run,
                              set_scores, span_prf)
from planted import ranking, reciprocal_rank, sets, spans

# name: (correct, buggy, target, what the message must show)
CASES = {
    "nDCG with log2(rank)": (ranking.ndcg_at(10), ranking.ndcg_at(10, discount_of=ranking.discount_log2_rank), "nDCG@10",
                             ["ideal DCG", "log2(rank+1)"]),
    "AP divided by retrieved relevant": (ranking.average_precision(), ranking.average_precision(divide_by_retrieved=True),
                                         "AP", ["R = ", "relevant but not retrieved"]),
    "ties in insertion order": (ranking.ndcg_at(10), ranking.ndcg_at(10, order=ranking.by_score_in_insertion_order),
                                "nDCG@10", ["score descending, then document ID descending"]),
    "RR not truncated at k": (reciprocal_rank.reciprocal_rank(), reciprocal_rank.reciprocal_rank(truncate=False),
                              "ranking-evaluate", ["reciprocalRankAtK", "k = "]),
    "span IoU with inclusive ends": (span_prf(spans.span_prf(), match="overlap"),
                                     span_prf(spans.span_prf(inclusive_ends=True), match="overlap"),
                                     "span-evaluate", ["IoU", "matched"]),
    "UTF-8 instead of UTF-16 offsets": (span_prf(spans.span_prf(), match="overlap", text=True),
                                        span_prf(spans.span_prf(offsets=spans.utf8_offset), match="overlap", text=True),
                                        "span-evaluate", ["UTF-16 code units", "covered text"]),
    "span greedy, best IoU first": (span_prf(spans.span_prf(), match="overlap"),
                                    span_prf(spans.span_prf(matching=spans.best_iou_first), match="overlap"),
                                    "span-evaluate", ["maximum one-to-one", "candidate"]),
    "span greedy, predictions in order": (span_prf(spans.span_prf(), match="overlap"),
                                          span_prf(spans.span_prf(matching=spans.predictions_in_order), match="overlap"),
                                          "span-evaluate", ["maximum one-to-one", "candidate"]),
    "set F1 on lists with duplicates": (set_scores(sets.set_prf()), set_scores(sets.set_prf(lists_with_duplicates=True)),
                                        "score", ["repeated predictions dropped", "set "]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_planted_bug_is_rejected_with_the_evidence(name):
    _, buggy, target, shown = CASES[name]
    with pytest.raises(Mismatch) as caught:
        assert_matches(buggy, target)  # the default budget: DEFAULT_EXAMPLES
    message = str(caught.value)
    assert "minimal input" in message and "yours:" in message and "evalcore:" in message and "input:" in message
    for text in shown:
        assert text in message, f"{name}: the message lacks {text!r}:\n{message}"
    assert caught.value.reason and caught.value.path  # a field, not the whole value
    assert caught.value.theirs != caught.value.evalcore
    if name == "ties in insertion order":  # shrunk to what the bug needs: two equal scores, one query
        (scores,) = caught.value.example["run"].values()
        assert len(scores) == 2 and len(set(scores.values())) == 1


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_code_without_the_bug_is_accepted(name):
    correct, _, target, _ = CASES[name]
    assert assert_matches(correct, target) >= DEFAULT_EXAMPLES  # at least one value per example


def test_runs_are_reproducible():
    def message():
        with pytest.raises(Mismatch) as caught:
            assert_matches(set_scores(sets.set_prf(lists_with_duplicates=True)), "score")
        return str(caught.value)

    assert message() == message()


def test_tolerance_and_fields():
    # A value off by 1e-12 fails exactly and passes with a tolerance; fields narrow what is compared.
    correct = ranking.ndcg_at(10)

    def nearly(qrels, run):
        return {q: v + 1e-12 for q, v in correct(qrels, run).items()}

    with pytest.raises(Mismatch, match="differ by"):
        assert_matches(nearly, "nDCG@10", examples=50)
    assert assert_matches(nearly, "nDCG@10", examples=50, tolerance=1e-9) > 0

    def rr_and_wrong_precision(request):
        out = reciprocal_rank.reciprocal_rank()(request)
        for query in out["queries"]:
            query["precisionAtK"] = -1.0
        return out

    assert assert_matches(rr_and_wrong_precision, "ranking-evaluate", examples=50, fields=["reciprocalRankAtK"]) > 0
    with pytest.raises(Mismatch, match="precisionAtK"):
        assert_matches(rr_and_wrong_precision, "ranking-evaluate", examples=50)


def test_pytrec_eval_shape_and_its_zero_for_undefined():
    correct = ranking.ndcg_at(10)

    def nested(qrels, run):  # {query: {measure: value}}, 0 where undefined, as pytrec_eval gives
        values = correct(qrels, run)
        return {q: {"ndcg_cut_10": values.get(q, 0.0)} for q in run if qrels.get(q)}

    assert assert_matches(qrels_run(nested, undefined=0.0), "ndcg_cut_10", examples=60) > 0
    with pytest.raises(Mismatch, match="undefined"):
        assert_matches(nested, "ndcg_cut_10", examples=60)


def test_pytrec_eval_itself_against_evalcore():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from evalcore.testing import float32_scores

    def with_pytrec_eval(qrels, run):
        return pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)

    # pytrec_eval takes integer grades and rounds scores to float32: give it what it reads alike.
    assert assert_matches(qrels_run(with_pytrec_eval, undefined=0.0), "ndcg_cut_10", examples=60, tolerance=1e-12,
                          strategy={"grades": ("integer",), "scores": float32_scores, "astral": False}) > 0


def test_their_exceptions_and_rejections_are_differences():
    def broken(qrels, run):
        raise ZeroDivisionError("log2(1) is 0")

    with pytest.raises(Mismatch, match="your function raised ZeroDivisionError: log2"):
        assert_matches(broken, "nDCG@10", examples=20)

    from hypothesis import strategies as st

    invalid = st.just({"queries": [{"id": "q", "retrieved": ["a"], "judgments": [{"id": "a", "grade": 11}]}]})
    with pytest.raises(Mismatch, match="evalcore rejects this input .SCHEMA_VIOLATION"):
        assert_matches(lambda request: {"k": 10}, "ranking-evaluate", examples=5, strategy=invalid)

    def rejects(request):
        raise ValueError("grade out of range")

    with pytest.raises(AssertionError, match="nothing was compared"):
        assert_matches(rejects, "ranking-evaluate", examples=5, strategy=invalid)  # both reject: nothing compared


def test_nothing_compared_is_a_failure():
    with pytest.raises(AssertionError, match="nothing was compared"):
        assert_matches(lambda request: {}, "ranking-evaluate", examples=10)
    with pytest.raises(AssertionError, match="nothing was compared"):
        assert_matches(reciprocal_rank.reciprocal_rank(), "ranking-evaluate", examples=10, fields=["ndcgAtK"])


def test_a_field_evalcore_lacks_is_named():
    with pytest.raises(Mismatch, match="evalcore has no such field") as caught:
        assert_matches(lambda request: {"nDCG": 1.0}, "ranking-evaluate", examples=10)
    assert caught.value.path == ("nDCG",)


def test_check_against_evalcore_fails_a_pytest_test_with_the_message_alone():
    with pytest.raises(pytest.fail.Exception, match="does not match evalcore") as caught:
        check_against_evalcore(set_scores(sets.set_prf(lists_with_duplicates=True)), "score")
    assert "Traceback" not in str(caught.value)
    assert check_against_evalcore(set_scores(sets.set_prf()), "score", examples=30) > 0


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="examples must be a positive int"):
        assert_matches(ranking.ndcg_at(10), "nDCG@10", examples=0)
    with pytest.raises(ValueError, match="tolerance must be >= 0"):
        assert_matches(ranking.ndcg_at(10), "nDCG@10", tolerance=-1.0)
    with pytest.raises(ValueError, match="one measure at a time"):
        assert_matches(ranking.ndcg_at(10), "P.5,10")
    with pytest.raises(ValueError, match="not to 'score'"):
        assert_matches(span_prf(spans.span_prf()), "score")
    with pytest.raises(ValueError, match="run_options apply to measures"):
        assert_matches(reciprocal_rank.reciprocal_rank(), "ranking-evaluate", run_options={"ties": "input"})
    with pytest.raises(ValueError, match="unknown measure|valid"):
        assert_matches(ranking.ndcg_at(10), "nDCG@@10")
    with pytest.raises(TypeError, match="their_fn must be a function"):
        assert_matches(42, "nDCG@10")
    with pytest.raises(ValueError, match="spans must be 'tuples' or 'dicts'"):
        adapters.span_prf(spans.span_prf(), spans="lists")


def test_run_options_reach_evalcore():
    # With ties="input" evalcore ranks a run in the order given: code that ranks so then matches.
    def in_given_order(scores):
        return list(scores)

    assert assert_matches(ranking.ndcg_at(10, order=in_given_order), "nDCG@10", run_options={"ties": "input"},
                          examples=80) > 0
    with pytest.raises(Mismatch, match="the ranking .as given"):
        assert_matches(ranking.ndcg_at(10), "nDCG@10", run_options={"ties": "input"}, examples=80)


def test_ranking_evidence_shows_the_dcg_terms():
    with pytest.raises(Mismatch) as caught:
        assert_matches(lambda request: {"queries": [{"dcgAtK": 0.0} for _ in request["queries"]]}, "ranking-evaluate",
                       examples=60)
    message = str(caught.value)
    assert "DCG term" in message and "ideal DCG" in message and "grade" in message
