"""Many systems' per-query values (issue 26): :func:`per_query_values`, the input of
:func:`evalcore.tukey_hsd_values` (and of any code comparing tens of runs at once), for
testing a multiple-comparison procedure of your own against evalcore's Tukey HSD."""

from __future__ import annotations

import math
from typing import Dict, List

from hypothesis import strategies as st


@st.composite
def _values(draw: st.DrawFn, min_systems: int, max_systems: int, min_queries: int, max_queries: int,
            gaps: bool) -> Dict[str, Dict[str, float]]:
    m = draw(st.integers(min_systems, max_systems))
    n = draw(st.integers(min_queries, max_queries))
    queries = [f"q{k}" for k in range(n)]
    # a few values shared by many cells (ties in the means and the ranges: the decisions'
    # edges) among arbitrary ones in [0, 1], the range of most IR measures; a system's
    # offset makes some differences real.
    pool = draw(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4))
    cell = st.sampled_from(pool) | st.floats(0.0, 1.0)
    out: Dict[str, Dict[str, float]] = {}
    for s in range(m):
        offset = draw(st.sampled_from([0.0, 0.0, 0.25, 0.5]))
        row: List[float] = [min(draw(cell) + offset, 1.0) for _ in queries]
        if gaps:  # a query a system has no value for (NaN, or left out): dropped for every system
            row = [math.nan if draw(st.integers(0, 9)) == 0 else v for v in row]
        out[f"system{s}"] = {q: v for q, v in zip(queries, row) if not (gaps and math.isnan(v) and s % 2)}
    return out


def per_query_values(*, min_systems: int = 2, max_systems: int = 12, min_queries: int = 1, max_queries: int = 30,
                     gaps: bool = False) -> st.SearchStrategy[Dict[str, Dict[str, float]]]:
    """System name → {query ID: value}: what :func:`evalcore.tukey_hsd_values` takes.

    Values in [0, 1] with ties (a small pool of repeated values) and per-system offsets (some
    systems really differ). With `gaps`, about one value in ten is missing, as NaN or as an
    absent query (Tukey's HSD then uses the queries every system has).

    Args:
        min_systems, max_systems: how many systems (at least 2).
        min_queries, max_queries: how many queries (at least 1).
        gaps: whether some systems lack some queries.
    """
    if min_systems < 2 or max_systems < min_systems or min_queries < 1 or max_queries < min_queries:
        raise ValueError("per_query_values needs 2 <= min_systems <= max_systems and 1 <= min_queries <= max_queries")
    return _values(min_systems, max_systems, min_queries, max_queries, gaps)
