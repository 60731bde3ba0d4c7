"""The TypedDicts of evalcore.result_types describe what both implementations return: every
key a shape requires is there, no other key, and each value has the declared type exactly
(an int is not a float, a bool not an int)."""

from __future__ import annotations

from typing import Any, List, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given

from evalcore import EvaluationError, result_types
from evalcore.testing.strategies import ranking_requests, score_requests, span_documents, span_requests

from common import IMPLEMENTATIONS, slow_examples

each_implementation = pytest.mark.parametrize("impl", IMPLEMENTATIONS.values(), ids=list(IMPLEMENTATIONS))


def problems(value: Any, shape: Any, where: str = "") -> List[str]:
    """How `value` departs from the type `shape` (empty: it conforms)."""
    origin = get_origin(shape)
    if hasattr(shape, "__required_keys__"):  # a TypedDict
        # a dict or a subclass (the span corpus and NER results' classes that display themselves,
        # issue 26: json.dumps writes them as dicts, and they are == the plain dict)
        if not isinstance(value, dict):
            return [f"{where or '/'}: {type(value).__name__}, not a dict"]
        hints = get_type_hints(shape)
        found = [f"{where}: no key {key!r}" for key in sorted(shape.__required_keys__ - value.keys())]
        found += [f"{where}: the key {key!r} is not in {shape.__name__}" for key in value if key not in hints]
        for key, item in value.items():
            if key in hints:
                found += problems(item, hints[key], f"{where}/{key}")
        return found
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {type(value).__name__}, not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, get_args(shape)[0], f"{where}/{i}")]
    if origin is Union:
        arms = [problems(value, arm, where) for arm in get_args(shape)]
        return [] if any(not arm for arm in arms) else [p for arm in arms for p in arm]
    if origin is Literal:
        return [] if any(type(value) is type(v) and value == v for v in get_args(shape)) else [f"{where}: {value!r} is not {shape}"]
    expected = type(None) if shape is None else shape
    return [] if type(value) is expected else [f"{where}: {type(value).__name__} {value!r}, not {expected.__name__}"]


def test_the_checker_finds_what_departs():
    assert problems({"code": "X", "status": 422, "message": "m", "pointer": ""}, result_types.ErrorInfo) == []
    assert problems({"code": "X", "status": 422.0, "message": "m"}, result_types.ErrorInfo) == [
        ": no key 'pointer'", "/status: float 422.0, not int"]
    assert problems({"precision": 1}, result_types.ScoreMetrics) == ["/precision: int 1, not float"]
    assert problems({"loc": ["body", True], "msg": "", "type": ""}, result_types.MixpeekValidationIssue)


@each_implementation
@slow_examples(200)
@given(ranking_requests())
def test_ranking_envelope(impl, body):
    assert problems(impl.ranking_evaluate(body), result_types.RankingEnvelope) == []


@each_implementation
@slow_examples(200)
@given(span_requests())
def test_span_envelope(impl, body):
    assert problems(impl.span_evaluate(body), result_types.SpanEnvelope) == []


@each_implementation
@slow_examples(100)
@given(span_documents())
def test_span_corpus_result(impl, document):
    # The second document as a tagger's output converted to spans: no text, no IDs (issue 24 item 5).
    bare = {side: [{k: v for k, v in span.items() if k != "id"} for span in document[side]]
            for side in ("references", "predictions")}
    for per_document in (False, True):
        result = impl.span_evaluate_corpus([document, bare], match="overlap", per_document=per_document)
        assert problems(result, result_types.SpanCorpusResult) == []
        assert ("perDocument" in result) == per_document
        assert ("perDocumentTextChecked" in result) == per_document
        assert result["documentsWithoutText"] == 1


@each_implementation
@slow_examples(200)
@given(score_requests())
def test_score_response(impl, body):
    assert problems(impl.score(body), result_types.ScoreResponse) == []


@each_implementation
@pytest.mark.parametrize("call", [
    lambda impl: impl.ranking_evaluate({"queries": [{"id": "q", "retrieved": ["a", "a"], "judgments": []}]}),
    lambda impl: impl.span_evaluate({"text": "ab", "references": [{"id": "r", "label": "L", "start": 1, "end": 5}],
                                     "predictions": []}),
    lambda impl: impl.score({"items": [{"predicted": [1], "ground_truth": []}]}),
    lambda impl: impl.evaluate_json("score", b'{"predicted": ['),
    lambda impl: impl.evaluate_json("ranking-evaluate", b"[" * 30 + b"]" * 30),
])
def test_error_bodies(impl, call):
    with pytest.raises(EvaluationError) as caught:
        call(impl)
    assert problems(caught.value.body, result_types.ErrorBody) == []
    assert problems(caught.value.mixpeek_body, result_types.MixpeekBody) == []
