"""Hypothesis strategies for whole runs: qrels and a run in the dict form
:func:`evalcore.evaluate_run` (and pytrec_eval) takes, and evaluate_run's options."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from hypothesis import strategies as st

from .strategies import GRADE_KINDS

__all__ = ["MEASURES", "float32_scores", "run_options", "runs"]

Draw = Callable[..., Any]

_QUERIES = ["q1", "q2", "q3", "q4", "q5", "10", "ü"]
_EXTRA_DOCS = ["D", "é", "😀x", "a b"]
_SCORES = [0.0, -0.0, 1.0, 1.5, 2.0, -3.0, 1e300]

#: Measure names covering every kind evaluate_run has, with cutoffs, levels and gains.
MEASURES = [
    "P@1", "P@5", "R@3", "R@100", "RR@2", "RR", "AP@4", "AP", "nDCG@3", "nDCG@10", "nDCG",
    # trec_eval's, ir_measures' and gdeval's measures that ranking-evaluate lacks, with levels and gains
    "NumRet", "NumRel", "num_rel_ret", "NumRet(rel=2)", "Rprec", "Bpref", "Bpref(rel=2)", "IPrec@0.3", "IPrec@0",
    "iprec_at_recall_1.00", "Success@2", "SetP", "SetR", "SetF", "set_F.0.5", "Judged@5", "Judged", "ERR@5", "ERR",
    "P(rel=2)@3", "AP(rel=0.5)", "RR(rel=2)@3", "nDCG(gains={0:0,1:1,2:3})@5", "nDCG(gains={1:-1,2:0.5})",
]

#: Scores that float32 holds exactly (trec_eval 9 and pytrec_eval round scores to float32
#: before sorting; with these, every implementation sorts alike).
float32_scores: st.SearchStrategy[float] = st.one_of(st.sampled_from([0.0, 1.0, 1.5, 2.0, -3.0]),
                                                     st.integers(-40, 40).map(lambda i: i / 8))


def _grades(kinds: Sequence[str]) -> st.SearchStrategy[Any]:
    chosen = set(kinds)
    if not chosen or chosen - set(GRADE_KINDS):
        raise ValueError(f"grades must be a non-empty choice of {', '.join(GRADE_KINDS)}; got {list(kinds)!r}")
    if chosen == set(GRADE_KINDS):
        return st.one_of(st.integers(-2, 4), st.sampled_from([0.5, 1.5, 2.25, -0.0]), st.floats(-1, 4, allow_nan=False))
    negative = "negative" in chosen
    parts: List[st.SearchStrategy[Any]] = []
    if "integer" in chosen:
        parts.append(st.integers(-2, 4) if negative else st.integers(0, 3))
    if "fractional" in chosen:
        parts += [st.sampled_from([0.5, 1.5, 2.25, -0.0]), st.floats(-1 if negative else 0, 4, allow_nan=False)]
    if chosen == {"negative"}:
        parts.append(st.sampled_from([-2, -1, 0, 1, 2]))
    return st.one_of(parts)


def _first(pair: Any) -> Any:
    return pair[0]


def _second(pair: Any) -> Any:
    return pair[1]


def _pool(max_docs: int, astral: bool) -> List[str]:
    extra = [d for d in _EXTRA_DOCS if astral or all(ord(ch) <= 0xFFFF for ch in d)]
    return [f"d{i}" for i in range(max(12, max_docs + 2))] + extra


def runs(
    *,
    max_queries: int = 5,
    max_docs: int = 10,
    max_judged: int = 8,
    grades: Sequence[str] = GRADE_KINDS,
    ties: bool = True,
    unjudged: bool = True,
    astral: bool = True,
    empty: bool = True,
    ranked_lists: Optional[bool] = None,
    scores: Optional[st.SearchStrategy[float]] = None,
) -> st.SearchStrategy[Dict[str, Any]]:
    """``{"qrels": {query: {doc: grade}}, "run": {query: {doc: score}} or {query: [doc, ...]}}``.

    Args:
        max_queries: at most this many queries (from a pool of 7: ``"q1"``.., ``"10"``, ``"ü"``).
        max_docs: at most this many documents ranked per query (the document pool grows
            with it: rankings longer than a measure's cutoff need ``max_docs`` above it).
        max_judged: at most this many judgments per query.
        grades: kinds of grades: ``"integer"``, ``"fractional"``, ``"negative"`` (TREC's
            -2 for spam: not relevant, no gain).
        ties: scores tie often (a few values repeat: 0.0 and -0.0, 1.0, 1e300...), so that
            the tie rule (score, then document ID descending) decides ranks. False:
            scores within a query are distinct.
        unjudged: the run ranks documents that have no judgment; False: only judged ones.
        astral: document IDs with characters outside the BMP (``"😀x"``).
        empty: queries judged but not run, run but not judged, judged with an empty
            dict, with empty rankings; False: every query is judged and run, non-empty.
        ranked_lists: True: the run gives ranked lists, False: score dicts, None: either.
        scores: the scores drawn (ties is then up to this strategy).

    The judged and the run queries overlap only partly; many queries have no relevant
    judgment, and judged documents are often not retrieved.
    """
    if not 0 <= max_queries or not 0 <= max_docs or not 0 <= max_judged:
        raise ValueError(f"max_queries, max_docs and max_judged must be >= 0; got {max_queries}, {max_docs}, {max_judged}")
    low = 0 if empty else 1
    query_lists = st.lists(st.sampled_from(_QUERIES), unique=True, min_size=low, max_size=min(max_queries, len(_QUERIES)))
    docs = st.sampled_from(_pool(max_docs, astral))
    # (document, value) pairs drawn together, so that shrinking removes a document with its value
    judged_lists = st.lists(st.tuples(docs, _grades(grades)), unique_by=_first, min_size=low, max_size=max_judged)
    ranked = st.lists(docs, unique=True, min_size=low, max_size=max_docs)
    if scores is not None:
        score = scores
    elif ties:
        score = st.one_of(st.sampled_from(_SCORES), st.sampled_from([1.0, 0.0]), st.floats(-5, 5, allow_nan=False))
    else:
        score = st.floats(-5, 5, allow_nan=False, allow_subnormal=False)
    distinct = not ties and scores is None
    scored = st.lists(st.tuples(docs, score), unique_by=(_first, _second) if distinct else _first, min_size=low,
                      max_size=max_docs)
    present = st.integers(0, 5)
    shapes = st.booleans() if ranked_lists is None else st.just(ranked_lists)

    @st.composite
    def draw_runs(draw: Draw) -> Dict[str, Any]:
        queries = draw(query_lists)
        qrels: Dict[str, Dict[str, Any]] = {}
        for q in queries:
            if not empty or draw(present) > 0:
                qrels[q] = dict(draw(judged_lists))
        lists = draw(shapes)
        run: Dict[str, Any] = {}
        for q in queries:
            if not empty or draw(present) > 0:
                if not unjudged and q in qrels:
                    judged = list(qrels[q])
                    chosen = draw(st.lists(st.sampled_from(judged), unique=True, min_size=low, max_size=max_docs)) \
                        if judged else []
                    run[q] = chosen if lists else {d: draw(score) for d in chosen}
                else:
                    run[q] = draw(ranked) if lists else dict(draw(scored))
        return {"qrels": qrels, "run": run}

    return draw_runs()


def run_options() -> st.SearchStrategy[Dict[str, Any]]:
    """Keyword options of :func:`evalcore.evaluate_run`, each present or not: the relevance
    level, the gain, the tie rule, missing queries, trec_eval's ``-M`` (``max_retrieved``)
    and ``-J`` (``judged_only``), which change the ranking every measure reads."""
    return st.fixed_dictionaries(
        {},
        optional={
            "relevant_at_least": st.sampled_from([1, 2, 0.5, 1.5]),
            "gain": st.sampled_from(["linear", "exponential"]),
            "ties": st.sampled_from(["score", "input"]),
            "missing": st.sampled_from(["skip", "zero"]),
            "max_retrieved": st.sampled_from([None, 0, 1, 2, 3, 6]),
            "judged_only": st.booleans(),
        },
    )
