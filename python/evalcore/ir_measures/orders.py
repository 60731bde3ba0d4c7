"""The run and qrels as ir_measures' other providers read them (issue 25 item 5, gap 1): the
run ranked as the cwl_eval, accuracy and compat providers rank it, and the qrels with their
subtopics as the pyndeval provider reads them, and the grades gdeval refuses (h25-irm3). This
module imports ir_measures (the package imports it only when the provider is asked for)."""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ir_measures import ScoredDoc
from ir_measures.util import RunConverter


def _ranked(items: List[Any], ties: str, doc_id: Any, score: Any) -> List[Any]:
    """`items` in ir_measures' provider's order (see :func:`ranked_as_ir_measures`)."""
    if ties == "id_ascending":
        items = sorted(items, key=doc_id)
    return sorted(items, key=score, reverse=True)  # stable: ties keep the order above


def ranked_as_ir_measures(run: Any, ties: str) -> Any:
    """`run` (any of ir_measures' shapes) with each query's documents together and in the
    order ir_measures' provider ranks them, for evaluate_run's ``ties="input"``:

    - ``"run"``: by score descending, tied scores in the run's order — Python's stable
      ``sorted(..., reverse=True)``, as the cwl_eval provider (``as_sorted_namedtuple_iter``)
      and the accuracy provider (``as_sorteddict``) sort;
    - ``"id_ascending"``: by score descending, tied scores by document ID ascending, as the
      compat provider sorts (by ID, then stably by score), and the msmarco and judged ones.

    A dict ``{query: {doc: score}}`` comes back as such a dict, its documents in that order;
    other shapes as ``ScoredDoc`` records, queries in the order they first appear (a document
    listed twice in a query is kept twice: evaluate_run refuses it, as ever).
    """
    if isinstance(run, dict) and all(isinstance(docs, dict) for docs in run.values()):
        return {query_id: dict(_ranked(list(docs.items()), ties, itemgetter(0), itemgetter(1)))
                for query_id, docs in run.items()}
    by_query: Dict[Any, List[Any]] = {}
    # (the ignore: ir_measures is untyped where installed, Any where not, as in the typing stage)
    for record in RunConverter(run).as_namedtuple_iter():  # type: ignore[no-untyped-call, unused-ignore]
        by_query.setdefault(record.query_id, []).append(ScoredDoc(record.query_id, record.doc_id, record.score))
    return [record for records in by_query.values()
            for record in _ranked(records, ties, attrgetter("doc_id"), attrgetter("score"))]


def subtopic_qrels(qrels: Any) -> Any:
    """`qrels` as evaluate_run's ``qrels_format="subtopics"`` reads them, with the subtopics
    ir_measures' pyndeval provider reads: a record's ``iteration`` (``Qrel``'s default ``"0"``
    where it has none), a table's ``iteration`` column (``"0"`` where it has none), and ``"0"``
    for every judgment of a dict ``{query: {doc: grade}}``, which has no subtopics."""
    if isinstance(qrels, dict):
        return {query_id: {"0": docs} for query_id, docs in qrels.items()}
    if hasattr(qrels, "itertuples"):
        return qrels if "iteration" in qrels.columns else qrels.assign(iteration="0")
    return [(record.query_id, str(getattr(record, "iteration", "0")), record.doc_id, record.relevance)
            for record in qrels]


def _gdeval_takes(grade: Any) -> bool:
    """Whether gdeval reads `grade` (its qrels check: a whole number, at most 4)."""
    try:
        value = float(grade)
    except (TypeError, ValueError):
        return True  # (not a number: evaluate_run says so itself)
    return value.is_integer() and value <= 4


def gdeval_refusals(qrels: Any, measures: List[str]) -> Optional[str]:
    """The warning for `measures` (ERR@k, nDCG(dcg='exp-log2')@k: ir_measures' gdeval provider's)
    when `qrels` have grades gdeval stops at (above 4, or not whole numbers), which evalcore
    scores (h25-irm3), or None. `qrels` as the provider keeps them: a dict of dicts, a table
    or a list of records."""
    if isinstance(qrels, dict):
        grades: Iterable[Tuple[Any, Any, Any]] = ((q, d, g) for q, docs in qrels.items() for d, g in docs.items())
    elif hasattr(qrels, "itertuples"):
        grades = zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"])
    else:
        grades = ((record.query_id, record.doc_id, record.relevance) for record in qrels)
    refused = [(q, d, g) for q, d, g in grades if not _gdeval_takes(g)]
    if not refused:
        return None
    query_id, doc_id, grade = refused[0]
    return (f"{', '.join(measures)}: {len(refused)} judgment(s) with a grade gdeval (ir_measures' provider of these "
            f"measures) refuses, above 4 or not a whole number (the first: query {query_id!r}, document {doc_id!r}, "
            f"grade {grade!r}), where gdeval would stop with an error: evalcore's ERR reads a grade above 4 as 4, "
            "and its nDCG with dcg='exp-log2' gains 2**grade - 1 for every grade")
