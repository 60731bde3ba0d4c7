"""nervaluate's SemEval-2013 schemas over a corpus, pure Python: the twin of
:func:`evalcore.evaluate_schemas` (`threads` is accepted and has no effect here)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set

from ...errors import EvaluationError
from ...limits import LimitsLike, resolve_corpus_limits
from ...result_types import SchemaCounts, SchemaResults, SchemasResult
from ...schemas._arguments import MATCHING, SCHEMAS, as_list, check_schema_options
from ...schemas.display import schemas_result
from .conll_text import check_conll_corpus, read_conll_documents
from .matching import Pairs, Steps, TooManySteps, match_scope
from .reading import Entity, check_corpus, read_spans, read_tags

# Which matching each schema's counts come from (strict, bounds, ent_type), and whether its
# non-correct pairs are "partial" (half a correct one) rather than "incorrect".
_SOURCE = {"strict": (0, False), "exact": (1, False), "partial": (1, True), "ent_type": (2, False)}


def _schema(counts: List[int], predicted: int, true: int, partial: bool, half_weight: bool) -> SchemaCounts:
    correct, other = counts
    incorrect, partial_count = (0, other) if partial else (other, 0)
    matched = correct + other
    if half_weight:  # nervaluate's partial and ent_type: a partial pair counts half
        precision = (correct + 0.5 * partial_count) / predicted if predicted else 0.0
        recall = (correct + 0.5 * partial_count) / true if true else 0.0
    else:
        precision = correct / predicted if predicted else 0.0
        recall = correct / true if true else 0.0
    f1 = 2 * (precision * recall) / (precision + recall) if precision + recall > 0 else 0.0
    return {"correct": correct, "incorrect": incorrect, "partial": partial_count, "missed": true - matched,
            "spurious": predicted - matched, "possible": true, "actual": predicted,
            "precision": precision, "recall": recall, "f1": f1}


def _schemas(totals: Pairs, predicted: int, true: int) -> SchemaResults:
    out: Dict[str, SchemaCounts] = {}
    for name in SCHEMAS:
        source, partial = _SOURCE[name]
        out[name] = _schema(totals[source], predicted, true, partial, name in ("partial", "ent_type"))
    return out  # type: ignore[return-value]


class _Totals:
    def __init__(self) -> None:
        self.pairs: Pairs = [[0, 0], [0, 0], [0, 0]]
        self.predicted = self.true = 0

    def add(self, pairs: Pairs, predicted: int, true: int) -> None:
        for mine, theirs in zip(self.pairs, pairs):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.predicted += predicted
        self.true += true


def evaluate_schemas(
    true: Any,
    pred: Any,
    *,
    labels: Optional[Sequence[str]] = None,
    input: str = "spans",
    threads: Optional[int] = None,
    limits: LimitsLike = None,
) -> SchemasResult:
    """nervaluate's four schemas over a corpus; pure Python twin of :func:`evalcore.evaluate_schemas`."""
    wanted = check_schema_options(labels, input, threads)
    steps_limit = resolve_corpus_limits(limits).matching_steps
    if input == "conll":
        true_texts, pred_texts = check_conll_corpus(true, pred)
        true_docs, pred_docs = read_conll_documents(true_texts, "true"), read_conll_documents(pred_texts, "pred")
    else:
        true, pred = as_list(true), as_list(pred)
        check_corpus(true, pred, input)
        read = read_tags if input == "tags" else read_spans
        true_docs, pred_docs = read(true, "true"), read(pred, "pred")
    kept = None if wanted is None else set(wanted)
    seen: Set[str] = set()
    overall, per_label = _Totals(), {}  # type: ignore[var-annotated]
    for i, (t_doc, p_doc) in enumerate(zip(true_docs, pred_docs)):
        seen.update(e[2] for e in t_doc)
        seen.update(e[2] for e in p_doc)
        if kept is not None:
            t_doc = [e for e in t_doc if e[2] in kept]
            p_doc = [e for e in p_doc if e[2] in kept]
        steps = Steps(steps_limit)
        try:
            overall.add(match_scope(p_doc, t_doc, steps), len(p_doc), len(t_doc))
            by_label: Dict[str, List[List[Entity]]] = {}
            for k, doc in ((0, p_doc), (1, t_doc)):
                for e in doc:
                    by_label.setdefault(e[2], [[], []])[k].append(e)
            for label in sorted(by_label):
                p_of, t_of = by_label[label]
                per_label.setdefault(label, _Totals()).add(match_scope(p_of, t_of, steps), len(p_of), len(t_of))
        except TooManySteps:
            raise EvaluationError("MATCHING_LIMIT", f"/pred/{i}", f"document {i}: matching its entities needs more "
                                  f"than {steps_limit:,} steps (limits matching_steps): many of its entities overlap "
                                  "one another; split the document (into sentences), or raise the limit") from None
    used = sorted(seen if kept is None else seen & kept)
    return schemas_result({
        "documentCount": len(true_docs),
        "input": input,
        "matching": MATCHING,
        "overall": _schemas(overall.pairs, overall.predicted, overall.true),
        "perLabel": {label: _schemas(per_label[label].pairs, per_label[label].predicted, per_label[label].true)
                     if label in per_label else _schemas([[0, 0], [0, 0], [0, 0]], 0, 0) for label in used},
    })
