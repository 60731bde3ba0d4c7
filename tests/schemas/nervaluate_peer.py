"""nervaluate 1.2.1 itself, called as its users call it, for the agreement tests of
tests/schemas/ (spans, tags and CoNLL strings)."""

from __future__ import annotations

import copy
from typing import Any, Dict, Sequence, Tuple

import nervaluate

FIELDS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual", "precision", "recall", "f1")
SCHEMAS = ("strict", "exact", "partial", "ent_type")

# Examples per property: each compares whole corpora (and, against a peer, runs the peer's
# pure-Python code, 20-40 ms an example); 120 keep the README's test command under 10
# minutes on 2 cores while the well- and ill-formed cases the strategies draw still appear
# (hypothesis tries the boundary ones first). CI's profile does not raise it.
BUDGET = 120

Counts = Dict[str, Dict[str, Any]]


def nervaluate_result(true: Any, pred: Any, labels: Sequence[str], loader: str) -> Tuple[Counts, Dict[str, Counts]]:
    """``Evaluator(true, pred, tags=labels, loader=loader).evaluate()``'s overall and
    per-label results as evaluate_schemas' dicts (copies in: nervaluate must not share them)."""
    out = nervaluate.Evaluator(copy.deepcopy(true), copy.deepcopy(pred), tags=list(labels), loader=loader).evaluate()
    view = lambda r: {s: {f: getattr(r[s], f) for f in FIELDS} for s in SCHEMAS}  # noqa: E731
    return view(out["overall"]), {label: view(r) for label, r in out["entities"].items()}


def assert_equal_to_nervaluate(ours: Any, theirs: Tuple[Counts, Dict[str, Counts]]) -> None:
    overall, per_label = theirs
    assert ours["overall"] == overall
    assert ours["perLabel"] == per_label  # dict ==: nervaluate's label order is a set's


def credit(counts: Dict[str, Any], schema: str) -> float:
    """What a schema's precision and recall count: correct pairs, and half the partial ones."""
    return float(counts["correct"] + (0.5 * counts["partial"] if schema == "partial" else 0))
