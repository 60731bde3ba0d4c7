"""Strategies for evaluate_run with subtopic judgments (``qrels_format="subtopics"``): the
diversity measures of ndeval (alpha-nDCG, ERR-IA, NRBP, ...)."""

from __future__ import annotations

from typing import Any, Dict, List

from hypothesis import strategies as st

__all__ = ["DIVERSITY_MEASURES", "PYNDEVAL_MEASURES", "subtopic_judgments", "subtopic_lines"]

#: Diversity measure names in evalcore's (ir_measures') spelling and pyndeval's, pairwise.
DIVERSITY_MEASURES = ("alpha_DCG@1", "alpha_DCG@5", "alpha_nDCG@1", "alpha_nDCG@3", "alpha_nDCG@20", "ERR_IA@1",
                      "ERR_IA@4", "nERR_IA@2", "nERR_IA@20", "NRBP", "nNRBP", "P_IA@1", "P_IA@7", "AP_IA",
                      "StRecall@2", "StRecall@20")
PYNDEVAL_MEASURES = ("alpha-DCG@1", "alpha-DCG@5", "alpha-nDCG@1", "alpha-nDCG@3", "alpha-nDCG@20", "ERR-IA@1",
                     "ERR-IA@4", "nERR-IA@2", "nERR-IA@20", "NRBP", "nNRBP", "P-IA@1", "P-IA@7", "MAP-IA",
                     "strec@2", "strec@20")
_SUBTOPICS = ("1", "2", "3", "s4", "ü")
_DOCS = ("a", "b", "c", "d", "e", "f", "g", "B", "é")


@st.composite
def subtopic_judgments(draw: Any, max_queries: int = 3) -> Dict[str, Any]:
    """``{"qrels": {query: {subtopic: {doc: grade}}}, "run": {query: {doc: score}}}``: a few
    queries, each with up to five subtopics judging some of nine documents (grades -1 to 3,
    so some subtopics have no relevant document and some documents none), and a run over
    those documents and unjudged ones, its scores drawn from few values (ties) — and a query
    of the run without judgments, or a judged one missing from the run, now and then."""
    queries = draw(st.lists(st.sampled_from(("q1", "q2", "10", "ä")), unique=True, min_size=1, max_size=max_queries))
    qrels: Dict[str, Dict[str, Dict[str, int]]] = {}
    run: Dict[str, Dict[str, float]] = {}
    for query in queries:
        subtopics = draw(st.lists(st.sampled_from(_SUBTOPICS), unique=True, min_size=1, max_size=5))
        qrels[query] = {s: draw(st.dictionaries(st.sampled_from(_DOCS), st.integers(-1, 3), min_size=1, max_size=6))
                        for s in subtopics}
        ranked = draw(st.lists(st.sampled_from(_DOCS + ("x", "y", "z")), unique=True, min_size=1, max_size=12))
        run[query] = {doc: draw(st.sampled_from((0.0, 1.0, 1.5, 2.0, -3.0, 7.25))) for doc in ranked}
    if draw(st.booleans()):
        run["unjudged"] = {"a": 1.0}
    if len(queries) > 1 and draw(st.booleans()):
        del run[queries[-1]]
    return {"qrels": qrels, "run": run}


def subtopic_lines(qrels: Dict[str, Dict[str, Dict[str, int]]]) -> List[str]:
    """The qrels as ndeval's ``query subtopic document grade`` lines, in the dict's order."""
    return [f"{query} {subtopic} {doc} {grade}" for query, subtopics in qrels.items()
            for subtopic, docs in subtopics.items() for doc, grade in docs.items()]
