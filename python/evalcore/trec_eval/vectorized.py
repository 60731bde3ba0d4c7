"""A column value of ``evalcore trec --format trec_eval`` that can also be computed for all
topics at once (topic_table.py), and the plain columns' two forms."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)


class Vectorized:
    """A column's per-topic value ``per_topic(row)`` (row: output_format.Row), which can
    also be computed for all topics at once: ``over(values, retrieved, bogus)`` of the
    topics' evalcore values (topics × SpecPool indexes), ranking lengths and -c stand-in
    flags (tests/trec_eval/test_topic_table.py checks the two forms agree)."""

    def __init__(self, per_topic: Callable[[Any], float], over: Callable[[Any, Any, Any], Any]) -> None:
        self.per_topic = per_topic
        self.over = over

    def __call__(self, row: Any) -> float:
        return self.per_topic(row)


def undefined_as_zero(index: int, reset_when_bogus: bool = False) -> Vectorized:
    """evalcore's value at `index`, undefined (NaN) as trec_eval's 0; with
    `reset_when_bogus`, 0 for -c's stand-in rankings too."""
    def per_topic(row: Any) -> float:
        if reset_when_bogus and row.bogus:
            return 0.0
        x = row.values[index]
        return 0.0 if math.isnan(x) else x

    def over(values: Any, retrieved: Any, bogus: Any) -> Any:
        column = np.where(np.isnan(values[:, index]), 0.0, values[:, index])
        return np.where(bogus, 0.0, column) if reset_when_bogus else column

    return Vectorized(per_topic, over)
