"""Strategies for evaluate_run with trec_eval's qrels_jg judgments
(``qrels_format="qrels_jg"``): several judgment groups (assessors) per query."""

from __future__ import annotations

from typing import Any, Dict, List

from hypothesis import strategies as st

from .runs import runs

__all__ = ["JUDGMENT_GROUP_MEASURES", "judgment_groups"]

#: Measure names that read judgment groups (trec_eval's, with their parameters).
JUDGMENT_GROUP_MEASURES = ("map_avgjg", "P_avgjg", "P_avgjg.1,2,3", "Rprec_mult_avgjg", "Rprec_mult_avgjg.0.5,1,1.5,3",
                           "Rprec_mult_avgjg.0", "qrels_jg")
_GROUPS = ("a", "b", "B", "g1", "ü")


@st.composite
def judgment_groups(draw: Any, max_groups: int = 3) -> Dict[str, Any]:
    """``{"qrels_jg": text, "run": {query: {doc: score}}}``: :func:`runs`' judgments dealt to
    up to `max_groups` groups per query (a document may be judged by several, with other
    grades), as ``query group doc grade`` lines in a drawn order (the groups' lines mixed)."""
    value = draw(runs(ranked_lists=False))
    lines: List[str] = []
    for query, judged in value["qrels"].items():
        groups = draw(st.lists(st.sampled_from(_GROUPS), unique=True, min_size=1, max_size=max_groups))
        for doc, grade in judged.items():
            chosen = draw(st.lists(st.sampled_from(groups), unique=True, min_size=1, max_size=len(groups)))
            for i, group in enumerate(chosen):
                lines.append(f"{query} {group} {doc} {grade if i == 0 else draw(st.sampled_from([0, 1, 2, -1]))!r}")
    order = draw(st.permutations(range(len(lines))))
    text = "".join(lines[i] + "\n" for i in order)
    return {"qrels_jg": text, "run": value["run"]}
