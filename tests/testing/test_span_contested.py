"""issue 21 item 15: the span strategies make contested groups (evalcore.testing.contested), on
which a greedy matching, best IoU first or predictions in order, matches fewer pairs than the
maximum matching of contract §3, and they are a real share of the default budget. The
planted greedy matchers themselves are in tests/testing/test_testing_kit.py's CASES."""

import pytest
from hypothesis import given, strategies as st

import evalcore
from evalcore.testing import adapters, assert_matches, span_documents, span_requests
from evalcore.testing.contested import shapes_for
from planted.spans import greedy_shortfalls, span_prf


def _group(request):
    return ([s for s in request["references"] if s["id"].startswith("x")],
            [s for s in request["predictions"] if s["id"].startswith("y")])


# Only the group (no random spans, no copies) and one-unit characters: IoUs are the shape's own.
@given(span_requests(max_spans=0, astral=False, contested=1.0, match="overlap"))
def test_a_contested_group_is_where_greedy_matchings_fall_short(request):
    references, predictions = _group(request)
    fits = shapes_for(request.get("minimumIou", 0.5), len(request["text"]))
    assert (len(references), len(predictions)) == ((2, 2) if fits else (0, 0))
    if fits:
        assert evalcore.span_evaluate(request)["result"]["matchedCount"] == 2
        assert "best_iou_first" in greedy_shortfalls(request)
        assert len({s["label"] for s in references + predictions}) == 1


def test_predictions_in_order_fall_short_when_the_contested_prediction_comes_first():
    orders = {"short": 0, "not short": 0}

    @given(span_requests(max_spans=0, astral=False, contested=1.0, match="overlap", minimum_iou=0.5))
    def count(request):
        orders["short" if "predictions_in_order" in greedy_shortfalls(request) else "not short"] += 1

    count()
    assert orders["short"] and orders["not short"]  # both orders of the predictions are drawn


@given(st.data())
def test_no_group_without_an_iou_to_contest(data):
    # exact matching (one candidate a prediction at most), a minimumIou no short group reaches, or none asked for
    request = data.draw(st.one_of(span_requests(max_spans=0, contested=1.0, match="exact"),
                                  span_requests(max_spans=0, contested=1.0, match="overlap", minimum_iou=0.95),
                                  span_requests(max_spans=0, contested=0.0, match="overlap")))
    assert _group(request) == ([], [])


@given(span_documents(max_spans=0, astral=False, contested=1.0))
def test_span_documents_contest_the_default_minimum_iou(document):
    request = dict(document, match="overlap")
    assert "best_iou_first" in greedy_shortfalls(request)


def test_contested_is_checked():
    with pytest.raises(ValueError, match="contested must be between 0 and 1"):
        span_documents(contested=1.5)
    with pytest.raises(ValueError, match="contested must be between 0 and 1"):
        span_requests(contested=-0.1)


def test_greedy_shortfalls_are_a_real_share_of_the_default_budget():
    # What assert_matches draws for span_prf(f, match="overlap") at its default budget and seed:
    # before the contested groups about 1 % of the inputs (2 of 200), now over 10 %.
    drawn, short = [0], [0]

    def counting(y_true, y_pred):
        drawn[0] += 1
        request = {"match": "overlap", "minimumIou": 0.5,
                   "references": [{"label": s[0], "start": s[1], "end": s[2]} for s in y_true],
                   "predictions": [{"label": s[0], "start": s[1], "end": s[2]} for s in y_pred]}
        short[0] += bool(greedy_shortfalls(request))
        return span_prf()(y_true, y_pred)

    assert_matches(adapters.span_prf(counting, match="overlap"), "span-evaluate")
    assert short[0] >= 0.1 * drawn[0], f"{short[0]} of {drawn[0]}"
