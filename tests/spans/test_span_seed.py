"""The seed's fixed example (shared/seeds/004_73c51514b1556682.txt), kept in tests/data."""

import json
import pathlib

import pytest

import evalcore
from common import expect_result
from evalcore.reference.requests._json import compact_json, sha256_hex

SEED = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "span_seed.json").read_text(encoding="utf-8"))


def test_seed_example_numbers_evidence_and_input_hash():
    envelope = expect_result("span_evaluate", SEED["request"])
    want = SEED["response"]
    assert list(envelope) == ["operation", "version", "result", "provenance"]
    assert envelope["operation"] == "span-evaluate"
    got, expected = dict(envelope["result"]), dict(want["result"])
    assert isinstance(got.pop("conventions"), list)
    expected.pop("conventions")
    assert list(got) == list(expected)
    assert got == expected
    assert envelope["provenance"]["inputSha256"] == want["provenance"]["inputSha256"]


@pytest.mark.parametrize("serialize", [evalcore._core.compact_json, compact_json], ids=["native", "reference"])
def test_our_serializer_reproduces_the_seed_output_hash(serialize):
    assert sha256_hex(serialize(SEED["response"]["result"])) == SEED["response"]["provenance"]["outputSha256"]
