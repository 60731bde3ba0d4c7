"""The ``--format trec_eval`` columns of trec_eval 10's gain measures: ``binG``, ``G``, ``dcg``,
``ideal_dcg``, ``ndcg`` with gain parameters, ``ndcg_rel`` and ``Rndcg``, one value per topic
from evalcore's kernels (cpp/runs/gain_measures.cpp), named as trec_eval names them
(``G_1=3,2=7``: the parameters as given). Nothing here imports the compiled core."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from ..runs.gain_names import PAIR_MEASURES, gain_pairs
from ..runs.measures import KIND, MeasureSpec
from .vectorized import Vectorized, undefined_as_zero

if TYPE_CHECKING:
    from .output_format import Column, Row, SpecPool

#: The measures of trec_eval's table these columns print (``ndcg`` only with parameters).
GAIN_MEASURES = frozenset({"binG", "G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg"})


def takes(base: str, text: Optional[str]) -> bool:
    """Whether this module prints `base` with parameters `text` (None: none given)."""
    return base in GAIN_MEASURES or (base == "ndcg" and text is not None)


def check_shared_gains(measures: Dict[str, bool], params: Dict[str, str]) -> None:
    """dcg, ideal_dcg and ndcg share one parameter list in trec_eval 10 (m_ndcg.c), which it frees
    once for each of them it prints: with gains given to one of them and two or more printed,
    trec_eval 10 aborts (double free). evalcore refuses that combination."""
    from .output_format import TrecEvalError

    shared = [m for m in ("dcg", "ideal_dcg", "ndcg") if m in measures]
    if len(shared) > 1 and any(m in params for m in shared):
        raise TrecEvalError(f"gains given to one of {', '.join(shared)}, which trec_eval 10 computes with one shared "
                            "parameter list and then crashes on (double free): ask for one of them per command", 2,
                            "evalcore")


def gain_columns(base: str, text: Optional[str], pool: "SpecPool", counts: Dict[str, int]) -> List["Column"]:
    from .output_format import Column, TrecEvalError, c_atof

    pairs: Tuple[Tuple[float, float], ...] = ()
    if text is not None and base in PAIR_MEASURES:
        try:
            pairs = gain_pairs(text, base, c_atof)
        except ValueError as error:
            if "malformed" in str(error):  # trec_eval's message and exit status
                raise TrecEvalError(f"malformed pair parameters in '{text}'\nCannot initialize measure '{base}'", 2) from None
            raise TrecEvalError(f"{base}: gains that are not finite numbers are not supported", 2, "evalcore") from None
    kind = "trec_binG" if base == "binG" else PAIR_MEASURES[base]
    pool.specs.append(MeasureSpec(f"#{len(pool.specs)}", KIND[kind], gains=pairs))
    index = len(pool.specs) - 1
    name = base if text is None or base == "binG" else f"{base}_{text}"
    return [Column(name, _rndcg(index, counts["NumRel"]) if base == "Rndcg" else _defined(index))]


def _defined(index: int) -> Callable[["Row"], float]:
    """Undefined (trec_eval left its 0) prints as 0."""
    return undefined_as_zero(index)


def _rndcg(index: int, relevant: int) -> Vectorized:
    """Rndcg is undefined without relevant judgments (trec_eval: 0), and trec_eval's 0 / 0
    (-nan) where the ideal gain never changed."""
    def value(row: "Row") -> float:
        x = row.values[index]
        if not math.isnan(x):
            return x
        return -math.nan if row.values[relevant] > 0 else 0.0

    def over(values: Any, retrieved: Any, bogus: Any) -> Any:
        import numpy as np  # (the topic table's, imported by then)

        x = values[:, index]
        return np.where(np.isnan(x), np.where(values[:, relevant] > 0, -math.nan, 0.0), x)

    return Vectorized(value, over)
