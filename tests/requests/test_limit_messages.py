"""Every limit error names the limit and how to raise it: the message ends with
``raise it with limits={"<field>": N}`` for the Limits field that refused the request, and
raising that field as it says lets the same request through — in both cores."""

from __future__ import annotations

import pytest

import evalcore
import evalcore.reference

CORES = (evalcore, evalcore.reference)


def nested(depth):
    value = "x"
    for _ in range(depth):
        value = [value]
    return value


def ranking(queries=1, retrieved=1, judgments=0, **extra):
    return {"queries": [{"id": f"q{i}", "retrieved": [f"d{j}" for j in range(retrieved)],
                         "judgments": [{"id": f"d{j}", "grade": 1} for j in range(judgments)]} for i in range(queries)],
            **extra}


def spans(text="a" * 200, references=1, predictions=1):
    def span(kind, i):
        return {"id": f"{kind}{i}", "label": "X", "start": i, "end": i + 1}

    return {"text": text, "references": [span("r", i) for i in range(references)],
            "predictions": [span("p", i) for i in range(predictions)]}


CASES = [  # (operation, request, the field that refuses it, a value that lets it through)
    ("ranking_evaluate", ranking(k=101), "max_k", 101),
    ("ranking_evaluate", ranking(queries=51), "queries", 51),
    ("ranking_evaluate", ranking(retrieved=101), "retrieved_per_query", 101),
    ("ranking_evaluate", ranking(judgments=101), "judgments_per_query", 101),
    ("ranking_evaluate", ranking(extra=nested(25)), "json_depth", 30),
    ("span_evaluate", spans(text="a" * 50_001), "text_utf16_units", 50_001),
    ("span_evaluate", spans(references=101), "references", 101),
    ("span_evaluate", spans(predictions=101), "predictions", 101),
    ("ranking_evaluate", ranking(queries=50, retrieved=100, k=100, unjudged="nonrelevant"), "output_bytes", 10**7),
]


@pytest.mark.parametrize("core", CORES, ids=["native", "reference"])
@pytest.mark.parametrize("operation, request_, field, raised", CASES, ids=[c[2] for c in CASES])
def test_a_limit_error_says_how_to_raise_the_limit(core, operation, request_, field, raised):
    limits = {"output_bytes": 2000} if field == "output_bytes" else {}
    with pytest.raises(evalcore.EvaluationError) as caught:
        getattr(core, operation)(request_, limits=limits or None)
    assert caught.value.message.endswith(f'; raise it with limits={{"{field}": N}}'), caught.value.message
    try:
        getattr(core, operation)(request_, limits={**limits, field: raised})
    except evalcore.EvaluationError as err:  # another rule may refuse it then, never this limit
        assert "raise it with limits" not in err.message, err.message


@pytest.mark.parametrize("core", CORES, ids=["native", "reference"])
def test_the_raw_body_limits_too(core):
    for limits, field in (({"input_bytes": 10}, "input_bytes"), ({"json_nodes": 3}, "json_nodes")):
        with pytest.raises(evalcore.EvaluationError) as caught:
            core.evaluate_json("ranking-evaluate", b'{"queries": [{"id": "q", "retrieved": [], "judgments": []}]}',
                               limits=limits)
        assert caught.value.code == "INPUT_LIMIT"
        assert caught.value.message.endswith(f'; raise it with limits={{"{field}": N}}'), caught.value.message
