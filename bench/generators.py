"""Seeded request generators for the benchmarks.

Every generator is deterministic for a given seed (it uses its own ``random.Random``,
never the global one), so two runs of a benchmark time exactly the same request.
"""

from __future__ import annotations

import json
import random
from typing import Any, Dict, List

import evalcore

# The "service-max" shape: as large as a single request gets in the service, while staying
# inside evalcore's default limits (checked below rather than assumed).
QUERIES = 50
RETRIEVED_PER_QUERY = 100
JUDGMENTS_PER_QUERY = 25
K = 100

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36(n: int) -> str:
    digits = []
    while True:
        n, r = divmod(n, 36)
        digits.append(_BASE36[r])
        if n == 0:
            return "".join(reversed(digits))


def count_json_values(value: Any) -> int:
    """Count JSON values the way evalcore's ``jsonNodes`` limit does.

    Every value counts once: objects, arrays, strings, numbers, booleans and null.
    Object keys are not values and do not count.
    """
    if isinstance(value, dict):
        return 1 + sum(count_json_values(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(count_json_values(v) for v in value)
    return 1


def compact_size(value: Any) -> int:
    """Bytes of the compact JSON text; equals the canonical size for ASCII-only requests
    (canonical JSON only reorders keys, which does not change the length)."""
    return len(json.dumps(value, separators=(",", ":")))


def _grade(rng: random.Random, rank: int) -> int:
    # Real runs put their better documents near the top, so higher grades are likelier
    # at small ranks; zeros (judged non-relevant) occur everywhere.
    top_heavy = max(0.0, 1.0 - rank / RETRIEVED_PER_QUERY)  # 1.0 at the top, ~0 at the bottom
    weights = [3.0, 1.0 + top_heavy, 0.5 + 2 * top_heavy, 0.2 + 2 * top_heavy]
    return rng.choices((0, 1, 2, 3), weights=weights)[0]


def _query(rng: random.Random, index: int) -> Dict[str, Any]:
    # 4-digit base36 (36**3 .. 36**4 - 1) gives 5-character IDs such as "d1x9k": short
    # enough for 50 x (100 + 25) IDs to fit in inputBytes = 100000.
    not_retrieved = rng.randint(2, 4)
    pool = [f"d{_base36(n)}" for n in rng.sample(range(36**3, 36**4), RETRIEVED_PER_QUERY + not_retrieved)]
    retrieved = pool[:RETRIEVED_PER_QUERY]
    extra = pool[RETRIEVED_PER_QUERY:]

    # Mostly documents the run retrieved (as in pooled judging), plus a few it missed.
    judged_ranks = sorted(rng.sample(range(RETRIEVED_PER_QUERY), JUDGMENTS_PER_QUERY - not_retrieved))
    judgments: List[Dict[str, Any]] = [
        {"id": retrieved[r], "grade": _grade(rng, r + 1)} for r in judged_ranks
    ]
    # Missed documents get a positive grade, so recall is below 1 as in real runs.
    judgments += [{"id": doc, "grade": rng.randint(1, 3)} for doc in extra]
    rng.shuffle(judgments)
    return {"id": f"q{index}", "retrieved": retrieved, "judgments": judgments}


def service_max_request(seed: int = 0) -> Dict[str, Any]:
    """The "service-max" ranking-evaluate request.

    50 queries x 100 retrieved IDs x 25 graded judgments (integer grades 0..3), k = 100,
    ``unjudged: "nonrelevant"``. IDs are unique within their list; every query has at
    least one relevant judgment (the missed documents), so every metric is defined and
    comparable with trec_eval, which reports 0 where evalcore reports null.

    Raises AssertionError if the request would break evalcore's default limits, and
    evalcore.EvaluationError if evalcore refuses it.
    """
    rng = random.Random(seed)
    request = {
        "queries": [_query(rng, i) for i in range(QUERIES)],
        "k": K,
        "unjudged": "nonrelevant",
    }

    limits = evalcore.DEFAULT_LIMITS
    size = compact_size(request)
    nodes = count_json_values(request)
    assert size <= limits.input_bytes, f"request is {size} bytes > {limits.input_bytes}"
    assert nodes <= limits.json_nodes, f"request has {nodes} JSON values > {limits.json_nodes}"
    grades = [j["grade"] for q in request["queries"] for j in q["judgments"]]
    assert set(grades) == {0, 1, 2, 3}, "expected every grade 0..3, including zeros"
    # Proof that the defaults accept it (raises EvaluationError otherwise).
    evalcore.ranking_evaluate(request)
    return request


if __name__ == "__main__":
    req = service_max_request()
    print(f"service-max: {compact_size(req)} bytes, {count_json_values(req)} JSON values")
