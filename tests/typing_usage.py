"""What a type checker sees of evalcore's results: checked by mypy --strict and pyright in
.ci/run's typing stage, never run (pytest collects test_*.py only). Each assert_type is
a claim about the public types; a wrong one fails the stage."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from typing_extensions import assert_type

import evalcore
import evalcore.reference
from evalcore.result_types import MixpeekBody


def ranking(request: Mapping[str, Any]) -> None:
    env = evalcore.ranking_evaluate(request)
    assert_type(env, evalcore.RankingEnvelope)
    assert_type(env["result"]["macro"]["ndcgAtK"], Optional[float])
    assert_type(env["result"]["definedQueryCounts"]["ndcgAtK"], int)
    assert_type(env["result"]["queries"][0]["precisionAtK"], float)
    assert_type(env["result"]["queries"][0]["ranking"][0]["grade"], Optional[float])
    assert_type(env["provenance"]["outputSha256"], str)
    assert_type(evalcore.reference.ranking_evaluate(request), evalcore.RankingEnvelope)


def spans(request: Mapping[str, Any], documents: List[Mapping[str, Any]]) -> None:
    env = evalcore.span_evaluate(request)
    assert_type(env, evalcore.SpanEnvelope)
    assert_type(env["result"]["matches"][0]["iou"], float)
    assert_type(env["result"]["meanMatchedIou"], Optional[float])
    assert_type(evalcore.reference.span_evaluate(request), evalcore.SpanEnvelope)
    corpus = evalcore.span_evaluate_corpus(documents, per_document=True)
    assert_type(corpus["overall"]["f1"], float)
    assert_type(corpus["perLabel"][0]["label"], str)
    assert_type(evalcore.reference.span_evaluate_corpus(documents), evalcore.SpanCorpusResult)
    if "perDocument" in corpus:
        assert_type(corpus["perDocument"][0], evalcore.SpanResult)


def scores(request: Mapping[str, Any]) -> None:
    response = evalcore.score(request)
    assert_type(response, evalcore.ScoreResponse)
    assert_type(response["k"], Optional[int])
    assert_type(response["per_item"][0].get("f1"), Optional[float])
    assert_type(evalcore.reference.score(request), evalcore.ScoreResponse)


def errors(error: evalcore.EvaluationError) -> None:
    assert_type(error.body["error"]["status"], int)
    assert_type(error.mixpeek_body, MixpeekBody)


def tukey(runs: Mapping[str, str], values: Mapping[str, Mapping[str, float]]) -> None:  # issue 26 (h26-report2)
    result = evalcore.tukey_hsd("qrels.txt", runs, "nDCG@10", kind="classic")
    assert_type(result, evalcore.TukeyHsd)
    assert_type(result.groups, List[List[str]])
    assert_type(result.to_json(), str)
    assert_type(evalcore.tukey_hsd_values(values).pairs[0], Dict[str, Any])
    assert_type(evalcore.reference.tukey_hsd_values(values), evalcore.TukeyHsd)
