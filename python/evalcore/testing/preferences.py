"""Strategies for evaluate_run with trec_eval's preference judgments (``qrels_format="prefs"``
or ``"qrels_prefs"``): judgment groups of sub-groups over each query's documents, consistent
as trec_eval requires, and runs with ties, unjudged documents and judged queries missing."""

from __future__ import annotations

from typing import Any, Dict, List

from hypothesis import strategies as st

from ..runs.measures import PREFERENCE_MEASURES

__all__ = ["PREFERENCE_MEASURE_NAMES", "preferences"]

#: Measure names that read preferences: trec_eval's 14 and its two nicknames.
PREFERENCE_MEASURE_NAMES = (*PREFERENCE_MEASURES, "all_prefs", "prefs")
_DOCS = ("a", "b", "c", "d", "e", "f", "g", "h", "D1", "ü")
_GROUPS = ("g1", "g2", "G", "ü")
_SUBS = ("s1", "s2", "S", "0")


@st.composite
def preferences(draw: Any, with_subgroups: bool = True, max_queries: int = 3,
                negative_levels: bool = True) -> Dict[str, str]:
    """``{"prefs": text, "run": text}``: up to `max_queries` judged queries (some missing from
    the run, and run queries without judgments), each with up to 3 judgment groups. A group
    draws one hidden rel_level per document (0: non-relevant; negative ones too); each of its
    sub-groups (one with `with_subgroups` False: the ``query group doc rel_level`` lines of
    ``qrels_prefs``) judges some of those documents at levels that keep their order (scaled
    by a positive factor), so no group contradicts itself, as trec_eval requires. The run
    ranks some judged and some unjudged documents, with tied scores. `negative_levels` False:
    levels >= 0 only (trec_eval reads past its data for some groups with negative ones)."""
    lines: List[str] = []
    runs: List[str] = []
    queries = draw(st.lists(st.sampled_from(("q1", "q2", "Q3", "q10")), unique=True, min_size=1, max_size=max_queries))
    for query in queries:
        docs = draw(st.lists(st.sampled_from(_DOCS), unique=True, min_size=1, max_size=7))
        for group in draw(st.lists(st.sampled_from(_GROUPS), unique=True, min_size=1, max_size=3)):
            hidden = {doc: draw(st.sampled_from((0, 1, 2, 3, -1, -2)[:6 if negative_levels else 4])) for doc in docs}
            subs = draw(st.lists(st.sampled_from(_SUBS), unique=True, min_size=1, max_size=3)) if with_subgroups else [""]
            for sub in subs:
                scale = draw(st.sampled_from((1, 2, 0.5)))
                for doc in draw(st.lists(st.sampled_from(docs), unique=True, min_size=1)):
                    level = hidden[doc] * scale
                    lines.append(f"{query} {group} {sub} {doc} {level}" if with_subgroups else
                                 f"{query} {group} {doc} {level}")
        if draw(st.booleans()) or query == queries[0]:  # the others may be missing from the run
            ranked = draw(st.lists(st.sampled_from(_DOCS + ("x", "y")), unique=True, max_size=8))
            for rank, doc in enumerate(ranked, start=1):
                runs.append(f"{query} Q0 {doc} {rank} {draw(st.sampled_from((3, 2, 1, 0.5)))} tag")
    if draw(st.booleans()):
        runs.append("unjudged Q0 a 1 1 tag")
    order = draw(st.permutations(range(len(lines))))
    return {"prefs": "".join(lines[i] + "\n" for i in order), "run": "".join(line + "\n" for line in runs)}
