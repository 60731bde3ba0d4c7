"""The ``--format trec_eval`` columns of trec_eval 10's rank-based measures: num_nonrel_judged_ret,
Rprec_mult, unj, rbp, rbp_resid, yaap, infAP and relstring (cpp/runs/rank_measures.hpp), with trec_eval's
parameters, names and summaries (m_*.c, meas_init.c): num_nonrel_judged_ret's summary is the
sum, printed as an integer; relstring has none; the others' the mean, undefined values (evalcore's NaN)
as 0.

``-c``: for a topic the run lacks, trec_eval 10 resets the unj values and plain ``rbp_resid``
(not ``rbp_resid_p=...``) to 0 after scoring its stand-in ranking (trec_eval.c); so does this.

Imported by :mod:`evalcore.trec_eval.output_format` when it builds its columns."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from ..runs.gain_names import gain_pairs
from ..runs.measures import KIND, RBP_PERSISTENCE, RPREC_MULTIPLES, UNJ_CUTOFFS, MeasureSpec
from .vectorized import undefined_as_zero
from .output_format import Column, Row, SpecPool, TrecEvalError, _cutoffs, _double_cutoffs, _plain, c_atof
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

_KINDS = {"infAP": "infAP", "yaap": "YAAP", "rbp": "RBP", "rbp_resid": "RBPResid"}


def _pairs(text: str, name: str) -> List[Tuple[str, float]]:
    """trec_eval's get_param_pairs: ``name=value`` pieces joined by commas, '=' and ',' alternating
    (its "malformed pair parameters" otherwise); values read with atof."""
    separators = [c for c in text if c in "=,"]
    if not separators or separators[0] != "=" or any(a == b for a, b in zip(separators, separators[1:])) \
            or separators[-1] != "=":
        raise TrecEvalError(f"malformed pair parameters in '{text}'\nCannot initialize measure '{name}'", 2)
    pairs = []
    for piece in text.split(","):
        key, _, value = piece.partition("=")
        pairs.append((key, c_atof(value)))
    return pairs


def _persistence(text: Optional[str], name: str) -> float:
    """rbp's and rbp_resid's p: the last pair named p (other names are ignored, as trec_eval
    ignores them; rbp's integer names are its gains: _rbp_gains)."""
    p = RBP_PERSISTENCE
    for key, value in [] if text is None else _pairs(text, name):
        if key == "p":
            p = value
    if not math.isfinite(p):
        raise TrecEvalError(f"{name}: the persistence p must be a finite number, got {p}", 2, "evalcore")
    return p


def _rbp_gains(text: str) -> Tuple[Tuple[float, float], ...]:
    """rbp's pairs named by an integer: the gains of those levels, read as setup_gains reads them
    (gain_names.gain_pairs with C's atof; the pairs' syntax is _pairs' to check, first)."""
    try:
        return gain_pairs(text, "rbp", c_atof)
    except ValueError:
        raise TrecEvalError("rbp: gains that are not finite numbers are not supported", 2, "evalcore") from None


def _reset_when_bogus(index: int) -> Callable[[Row], float]:
    return undefined_as_zero(index, reset_when_bogus=True)


class RelString(Column):
    """trec_eval's relstring: per topic only, the grades of the first min(length, N) ranks as one character
    each ('0'-'9'; '>' above 9; '-' not in the qrels; '.' in the pool, unjudged), quoted; '' for -c's
    stand-in ranking when no parameters are given (trec_eval clears it by that name). Its per-topic value
    is 0 for the summary, which prints no line for it; `topic_text` prints the text of the topic last
    evaluated (the output prints each topic right after evaluating it)."""

    zscored = False  # -Z prints its line as it is

    def __init__(self, name: str, grades: List[int]) -> None:
        super().__init__(name, self._evaluate, "none")
        self.grades = grades  # SpecPool indexes of RankGrade at ranks 1, 2, ...
        self.text = ""

    def _evaluate(self, row: Row) -> float:
        # -c's clean-up clears the string of the name "relstring" only (not relstring_N's), as for rbp_resid
        count = 0 if row.bogus and self.name == "relstring" else min(len(self.grades), row.retrieved)
        self.text = "".join(_grade_character(row.values[index]) for index in self.grades[:count])
        return 0.0

    def topic_text(self, value: float, zscores: bool = False) -> str:
        return f"'{self.text}'"


def _grade_character(grade: float) -> str:
    if math.isnan(grade):
        return "-"
    if grade < 0:
        return "."
    return ">" if grade > 9 else str(int(grade))  # the CLI reads grades as trec_eval does: integers


def grade_characters(grades: Any) -> Any:
    """_grade_character of each grade of an array, as an array of ASCII bytes (uint8)."""
    out = np.full(grades.shape, ord("-"), dtype=np.uint8)
    known = ~np.isnan(grades)
    value = np.where(known, grades, 0.0)
    out[known & (value < 0)] = ord(".")
    out[known & (value > 9)] = ord(">")
    digit = known & (value >= 0) & (value <= 9)
    out[digit] = (48 + np.trunc(value[digit])).astype(np.uint8)
    return out


def _relstring(text: Optional[str], pool: SpecPool) -> Column:
    """relstring.N: N read with atof, then truncated to a long (default 10); below 1 an empty string."""
    if text is None:
        length = 10
    else:
        value = c_atof(text.split(",")[0])
        if not math.isfinite(value) or abs(value) > 1e7:
            raise TrecEvalError(f"relstring: the length must be a number up to 10000000, got {text!r}", 2, "evalcore")
        length = max(0, int(value))
    name = "relstring" if text is None else f"relstring_{text}"
    return RelString(name, [pool.get("RankGrade", cutoff=k) for k in range(1, length + 1)])


def rank_columns(base: str, text: Optional[str], pool: SpecPool, counts: Dict[str, int]) -> List[Column]:
    """The columns of one of the measures named above (output_format's SUPPORTED lists them), `text` its
    parameters (None: the defaults)."""
    if base == "relstring":
        return [_relstring(text, pool)]
    if base == "num_nonrel_judged_ret":
        column = Column(base, _plain(pool.get("NumNonrelJudgedRet")), "sum")
        column.integer = True
        return [column]
    if base == "Rprec_mult":
        multiples = list(RPREC_MULTIPLES) if text is None else _double_cutoffs(text, base)
        if not all(math.isfinite(x) for x in multiples):
            raise TrecEvalError(f"{base}: multiples of R that are not finite numbers are not supported", 2, "evalcore")
        return [Column(f"{base}_{x:3.2f}", _plain(pool.get("RprecMult", parameter=x))) for x in multiples]
    if base == "unj":
        cutoffs = list(UNJ_CUTOFFS) if text is None else _cutoffs(text, base)
        return [Column(f"{base}_{k}", _reset_when_bogus(pool.get("Unjudged", cutoff=k))) for k in cutoffs]
    if base in ("rbp", "rbp_resid"):
        p = _persistence(text, base)
        gains = _rbp_gains(text) if base == "rbp" and text is not None else ()
        if gains:  # a spec of its own: the pool shares specs without gains only
            pool.specs.append(MeasureSpec(f"#{len(pool.specs)}", KIND[_KINDS[base]], parameter=p, gains=gains))
            index = len(pool.specs) - 1
        else:
            index = pool.get(_KINDS[base], parameter=p)
        value = _reset_when_bogus(index) if base == "rbp_resid" and text is None else _plain(index)
        return [Column(base if text is None else f"{base}_{text}", value)]
    return [Column(base, _plain(pool.get(_KINDS[base])))]
