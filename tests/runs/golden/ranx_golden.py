"""The comparison of evalcore with ranx's committed values (make_ranx_golden.py wrote them; h25-gaps),
shared by tests/runs/test_common_measures.py (hits, f1, rbp) and test_ncg_hit_rate.py (hit_rate).

Each case holds many queries: ranx's per-query values and its means (``evaluate`` on a Qrels and a Run
of all of them, make_comparable: judged queries the run lacks scored as empty rankings, run queries
without judgments dropped), which evalcore gives with ``missing="zero"``. Per query, evalcore's value
equals ranx's bit for bit, except where evalcore's is undefined (f1 and hit_rate without a relevant
judgment: NaN, left out of its mean, where ranx scores 0: the documented difference) and, where scores
tie, where ranx's order of the tied documents (not fixed) is not evalcore's: there ranx's value lies
between evalcore's ``ties="pessimistic"`` and ``"optimistic"`` values. Means: evalcore's is the exact
mean of ranx's values where both are defined, and times defined/all it is ranx's mean (numpy's
pairwise sum: within 1e-14 relative)."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Callable, Dict

#: The ranx release the committed values come from (make_ranx_golden.py records it in each file).
RANX_VERSION = "0.3.21"
_MEAN_CLOSE = {"rel_tol": 1e-14, "abs_tol": 1e-15}


def load(filename: str) -> Dict[str, Any]:
    """One golden file beside this module, checked to come from RANX_VERSION."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), filename), encoding="utf-8") as f:
        data = json.load(f)
    assert data["ranx_version"] == RANX_VERSION and "make_ranx_golden.py" in data["command"]
    return data


def _level(metric: str) -> int:
    return int(metric.rpartition("-l")[2]) if "-l" in metric else 1


def compare_case(case: Dict[str, Any], expect_result: Callable[..., Any], evaluate_run: Callable[..., Any],
                 order_free: Any) -> Dict[str, int]:
    """Compares one case (every metric, every query, the means); returns the counts of values
    equal, undefined in evalcore (ranx 0) and tie-ordered (within evalcore's bounds).
    `order_free(metric)`: whether the metric reads no order (its tied values must be equal)."""
    qrels, run, metrics = case["qrels"], case["run"], case["metrics"]
    ours = expect_result("evaluate_run", qrels, run, metrics, missing="zero")
    low, high = (evaluate_run(qrels, run, metrics, missing="zero", ties=rule) for rule in ("pessimistic", "optimistic"))
    counts = {"equal": 0, "undefined": 0, "tie_ordered": 0}
    for metric in metrics:
        theirs = case["ranx_per_query"][metric]
        assert sorted(theirs) == sorted(ours.query_ids), metric  # the same queries scored
        index = {q: i for i, q in enumerate(ours.query_ids)}
        values, lows, highs = (r.values(metric).tolist() for r in (ours, low, high))
        defined, ordered = [], False
        for query, want in theirs.items():
            got, i = values[index[query]], index[query]
            if math.isnan(got):  # the documented difference: ranx scores 0
                assert want == 0.0 and metric.startswith(("f1", "hit_rate")), (query, metric, want)
                assert not any(g >= _level(metric) for g in qrels[query].values()), (query, metric)
                counts["undefined"] += 1
                continue
            defined.append(want)
            if got == want:
                counts["equal"] += 1
            else:  # tied scores ranked in another order than evalcore's
                assert not order_free(metric) and case["name"] == "ties", (query, metric, got, want)
                assert lows[i] <= want <= highs[i], (query, metric, lows[i], want, highs[i])
                counts["tie_ordered"] += 1
                ordered = True
        mean = case["ranx_mean"][metric]
        assert math.isclose(math.fsum(theirs.values()) / len(theirs), mean, **_MEAN_CLOSE), metric
        scale = len(defined) / len(theirs)
        if ordered:
            assert low.mean[metric] * scale - 1e-15 <= mean <= high.mean[metric] * scale + 1e-15, metric
        else:
            assert ours.mean[metric] == math.fsum(defined) / len(defined), metric
            assert math.isclose(ours.mean[metric] * scale, mean, **_MEAN_CLOSE), (metric, ours.mean[metric], mean)
    return counts
