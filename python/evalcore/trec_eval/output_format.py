"""``evalcore trec --format trec_eval``: what trec_eval 10 prints, byte for byte.

A layer over evaluate_run's per-query values. evalcore's own conventions (a value is
undefined where its definition divides by zero; means are exact, over the defined values)
become trec_eval's here, and only here:

* undefined values print as trec_eval's: 0, except ``iprec_at_recall`` (and 11pt_avg) of
  an empty ranking, which is trec_eval's 0 / 0 (``-nan``);
* topics are the qrels' topics in ``strcmp`` (byte) order; a summary value is the sum of
  the per-topic values in that order, left to right, divided by the number of topics, as
  trec_eval accumulates them (not docs/contract.md §5's exact sum);
* ``-c``: a qrels topic the run lacks is scored as trec_eval 10 scores it: against a
  ranking of one document, ``ceci_nest_pas_un_docno`` (which the qrels do not judge),
  and its ``num_ret`` (and plain ``utility``) then set to 0; without ``-c`` such a topic
  stops the output with trec_eval's message and exit status 4;
* the run's tag (``runid``) is that of its last data line, comments and blank lines after
  it skipped; a run without data lines has none (trec_eval prints bytes it never wrote
  there): "". A run file of 0 bytes is trec_eval's "Cannot read" (exit 2);
* errors come in trec_eval's order: ``-m`` names, then the files, then the measures'
  parameters (exit 2), then what fails when a topic is computed (exit 4: ``utility``'s
  number of coefficients; the preference and ``qrels_jg`` measures, which need judgments
  in another format than the qrels read here);
* ``gm_map``, ``gm_bpref``, ``11pt_avg``, ``relative_P``, ``set_relative_P``, ``set_map``
  and ``utility`` read evalcore's measures of those names (cpp/runs/derived_measures.cpp,
  trec_eval's operations in its order: the golden tests compare them with trec_eval 10);
  their undefined values print as trec_eval's (ln(0.00001) for the geometric means).

The ``-m`` syntax is trec_eval's (trec_eval.c, meas_init.c): ``NAME`` or ``NAME.PARAMS``,
nicknames, only the first ``NAME.PARAMS`` of a measure counts, cutoffs read as C's atol
and recall points as atof, sorted. Nothing here imports the compiled core.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .run_tag import run_tag as run_tag  # (re-exported: the CLI reads it from here)
from .vectorized import Vectorized as Vectorized, undefined_as_zero  # (Vectorized: topic_table.py reads it here)
from ..runs.measures import KIND, MeasureSpec, RECALL_POINTS, SUCCESS_CUTOFFS, TREC_CUTOFFS
from .gain_columns import GAIN_MEASURES, check_shared_gains, gain_columns, takes
from ..runs.trec_numbers import c_atof as c_atof, c_atol as c_atol  # (re-exported: command.py)
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

#: trec_eval 10's measure table (measures.c), in its order: the print order.
TABLE = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss",
    "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
    "rbp", "rbp_resid", "unj",
)
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
#: trec_eval 10's nicknames (measures.c).
NICKNAMES: Dict[str, Tuple[str, ...]] = {
    "official": _OFFICIAL,
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
            "set_map", "set_F"),
    "all_trec": _OFFICIAL + ("relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                             "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut",
                             "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map",
                             "set_F", "num_nonrel_judged_ret"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
              "prefs_simp", "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}
# Cutoff measures (atol'd integer cutoffs) and what evalcore calls their kind.
_CUT_LONG = {"P": ("P", TREC_CUTOFFS), "recall": ("R", TREC_CUTOFFS), "ndcg_cut": ("nDCG", TREC_CUTOFFS),
             "map_cut": ("AP", TREC_CUTOFFS), "relative_P": ("P", TREC_CUTOFFS), "success": ("Success", SUCCESS_CUTOFFS)}
# One value per query, evalcore's kind; undefined prints as 0.
_PLAIN = {"map": "AP", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR", "ndcg": "nDCG", "set_P": "SetP",
          "set_recall": "SetR"}
_COUNTS = {"num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet"}
#: The measures of TABLE that evalcore prints; the others are refused when asked for by
#: name and left out of a nickname's expansion.
SUPPORTED = frozenset({"runid", "num_q", "gm_map", "gm_bpref", "iprec_at_recall", "11pt_avg", "utility",
                       "set_relative_P", "set_map", "set_F", "infAP", "Rprec_mult", "num_nonrel_judged_ret", "yaap",
                       "rbp", "rbp_resid", "unj", "relstring"} | set(_CUT_LONG) | set(_PLAIN) | set(_COUNTS) | GAIN_MEASURES
                      | {"map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}  # with -R qrels_jg (jg_output.py)
                      | {m for m in TABLE if m.startswith("prefs_")})  # with -R prefs, qrels_prefs (prefs_output.py)

# The measures of TABLE that read preference or qrels_jg judgments: with the ordinary qrels
# evalcore reads (trec_eval's default -R qrels), trec_eval 10 fails at the first topic it
# evaluates, with this message and exit status 4; evalcore does the same, in the same place.
_PREFS_FORMAT = ("trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) "
                 "or results format not trec_results")
_JG_FORMAT = "trec_eval: rel_info format not qrels_jg or results format not trec_results"
OTHER_QRELS_FORMAT: Dict[str, str] = {
    **{m: _PREFS_FORMAT for m in TABLE if m.startswith("prefs_")},
    **{m: _JG_FORMAT for m in ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")},
}

MIN_GEO_MEAN = 0.00001  # trec_eval's floor for the logarithms of gm_map and gm_bpref
BOGUS_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10's ranking for a topic missing under -c


class TrecEvalError(Exception):
    """A reason to stop: lines for stderr and an exit status. `author` says whose message it is: "trec_eval"
    (its text; each line is printed after "trec_eval: ", as trec_eval prints it), "exact" (printed as it is:
    trec_eval's with its own prefixes) or "evalcore" (a limit of evalcore's, after "evalcore trec: ")."""

    def __init__(self, message: str, status: int, author: str = "trec_eval") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.author = author

    def stderr_text(self) -> str:
        if self.author == "exact":
            return self.message
        prefix = "trec_eval: " if self.author == "trec_eval" else "evalcore trec: "
        return "".join(f"{prefix}{text}\n" for text in self.message.split("\n"))


# ---- the measures asked for ----------------------------------------------------------------------


class Marks(NamedTuple):
    """What the -m arguments ask for: measures in TABLE order with whether one was named (not only reached
    through a nickname), and each measure's first parameter string."""

    measures: Dict[str, bool]
    params: Dict[str, str]


def mark_measures(arguments: Sequence[str]) -> Marks:
    """trec_eval's -m: ``NAME`` or ``NAME.PARAMS`` (split at the first '.'); a nickname marks
    its measures; only the first PARAMS given for a name count; none given: official."""
    named: Dict[str, bool] = {}
    params: Dict[str, str] = {}
    for argument in arguments or ["official"]:
        name, dot, text = argument.partition(".")
        if dot:
            if not text:
                raise TrecEvalError(f"improper measure in parameter '{name}'\nillegal measure '{name}'", 1)
            params.setdefault(name, text)
        if name in NICKNAMES:
            for member in NICKNAMES[name]:
                named.setdefault(member, False)
        elif name in TABLE:
            named[name] = True
        else:
            raise TrecEvalError(f"illegal measure '{name}'", 1)
    return Marks({m: named[m] for m in TABLE if m in named}, params)


class SpecPool:
    """The evalcore measures the columns read, each once; a column reads a topic's value of one by its index."""

    def __init__(self) -> None:
        self.specs: List[MeasureSpec] = []
        self._index: Dict[Tuple[str, int, float, Optional[float], Tuple[float, ...]], int] = {}

    def get(self, kind: str, cutoff: int = 0, parameter: float = 0.0, rel: Optional[float] = None,
            parameters: Tuple[float, ...] = ()) -> int:
        key = (kind, cutoff, parameter, rel, parameters)
        if key not in self._index:
            self._index[key] = len(self.specs)
            self.specs.append(MeasureSpec(f"#{len(self.specs)}", KIND[kind], cutoff, rel, (), parameter, parameters))
        return self._index[key]


class Row(NamedTuple):
    """A topic's evalcore values (by SpecPool index; NaN: undefined), its N (after -M, -J), if it is -c's stand-in."""

    values: Sequence[float]
    retrieved: int
    bogus: bool


class Column:
    """One line per topic (unless summary_only) and one summary line, named `name`."""

    summary_only = False
    integer = False
    zscored = True  # -Z converts its values and prints "Z" before its name (not relstring's text)

    def __init__(self, name: str, value: Callable[[Row], float], summary: str = "mean") -> None:
        self.name = name
        self.value = value  # trec_eval's per-topic value
        self.summary = summary  # "mean", "sum" (counts), "gm" (exp of the mean), runid / num_q, or "none"

    def topic_text(self, value: float, zscores: bool = False) -> str:
        """-Z prints every value, counts included, with 4 decimals."""
        return str(int(value)) if self.integer and not zscores else number(value)


def _defined(x: float) -> float:
    return 0.0 if math.isnan(x) else x


def _iprec(x: float, row: Row) -> float:
    # Undefined here: R = 0 (trec_eval: 0, or 0 / 0 for an empty ranking), or an empty
    # ranking at a point of 0 relevant documents (trec_eval's 0 / 0).
    if not math.isnan(x):
        return x
    return -math.nan if row.retrieved == 0 else 0.0


def _doubles(text: str, name: str) -> List[float]:
    values = [c_atof(part) for part in text.split(",")]
    if not all(math.isfinite(v) for v in values):
        raise TrecEvalError(f"{name}: parameters that are not finite numbers are not supported", 2, "evalcore")
    return values


def _cutoffs(text: str, name: str) -> List[int]:
    cutoffs = sorted(c_atol(part) for part in text.split(","))
    if cutoffs[0] <= 0:
        raise TrecEvalError(f"Negative cutoff detected\nCannot initialize measure '{name}'", 2)
    if len(set(cutoffs)) != len(cutoffs):
        raise TrecEvalError(f"duplicate cutoffs detected\nCannot initialize measure '{name}'", 2)
    return cutoffs


def _double_cutoffs(text: str, name: str) -> List[float]:
    """trec_eval's double cutoffs (atof'd, sorted): only duplicates are refused."""
    cutoffs = sorted(c_atof(part) for part in text.split(","))
    if any(a == b for a, b in zip(cutoffs, cutoffs[1:])):
        raise TrecEvalError(f"duplicate cutoffs detected\nCannot initialize measure '{name}'", 2)
    return cutoffs


def _recall_points(text: Optional[str], name: str) -> List[float]:
    if text is None:
        return list(RECALL_POINTS)
    points = sorted(_doubles(text, name))
    if len(set(points)) != len(points):
        raise TrecEvalError(f"duplicate cutoffs detected\nCannot initialize measure '{name}'", 2)
    if points[0] < 0:
        raise TrecEvalError(f"{name}: negative recall points are not supported", 2, "evalcore")
    return points


class Plan(NamedTuple):
    columns: List[Column]
    specs: List[MeasureSpec]
    counts: Dict[str, int]  # NumRet, NumRel, NumRelRet and NumRel(rel=1) -> SpecPool index
    # A nickname's measures not in SUPPORTED (TABLE order): left out; the CLI names them.
    left_out: Tuple[str, ...] = ()


def plan(arguments: Sequence[str]) -> Plan:
    """The columns to print, in trec_eval's order, and the evalcore measures they read. TrecEvalError for what
    trec_eval refuses (exit 1 or 2) and for the measures evalcore does not have when they are named."""
    marks = mark_measures(arguments)
    pool = SpecPool()
    counts = {"NumRet": pool.get("NumRet"), "NumRel": pool.get("NumRel"), "NumRelRet": pool.get("NumRelRet"),
              "NumRel1": pool.get("NumRel", rel=1.0)}
    columns: List[Column] = []
    check_shared_gains(marks.measures, marks.params)
    left_out: List[str] = []
    for base, named in marks.measures.items():
        if base in OTHER_QRELS_FORMAT:
            columns.append(_other_qrels_format(base, marks.params.get(base)))
            continue
        if base not in SUPPORTED:
            if named:
                raise TrecEvalError(f"trec_eval's measure '{base}' is not supported by evalcore yet "
                                    f"(supported: {', '.join(m for m in TABLE if m in SUPPORTED)})", 1, "evalcore")
            left_out.append(base)
            continue
        columns.extend(_columns(base, marks.params.get(base), pool, counts))
    return Plan(columns, pool.specs, counts, tuple(left_out))


def _plain(index: int) -> Callable[[Row], float]:
    """A column of evalcore's values, undefined ones as trec_eval's 0."""
    return undefined_as_zero(index)


# runid's and num_q's per-topic value (summary_only: only their summary lines are printed)
_zeros = Vectorized(lambda row: 0.0, lambda values, retrieved, bogus: np.zeros(len(values)))


def _log_floor(index: int) -> Callable[[Row], float]:
    """gm_map's and gm_bpref's per-topic value, ln(max(x, 0.00001)); where evalcore's is
    undefined (no relevant judgment), trec_eval's ln(0.00001)."""
    return Vectorized(lambda row: math.log(MIN_GEO_MEAN) if math.isnan(row.values[index]) else row.values[index],
                      lambda values, retrieved, bogus: np.where(np.isnan(values[:, index]), math.log(MIN_GEO_MEAN),
                                                                values[:, index]))


def _interpolated(index: int) -> Callable[[Row], float]:
    def over(values: Any, retrieved: Any, bogus: Any) -> Any:
        x = values[:, index]
        return np.where(np.isnan(x), np.where(retrieved == 0, -math.nan, 0.0), x)

    return Vectorized(lambda row: _iprec(row.values[index], row), over)


def _columns(base: str, text: Optional[str], pool: SpecPool, counts: Dict[str, int]) -> List[Column]:
    """The columns of one measure of the table, `text` its parameters (None: defaults)."""
    if takes(base, text):  # trec_eval's gain measures (gain_columns.py)
        return gain_columns(base, text, pool, counts)
    if base in ("runid", "num_q"):
        column = Column(base, _zeros, base)
        column.summary_only = True
        return [column]
    if base in _COUNTS:
        return [_count_column(base, counts)]
    if base in _PLAIN:
        return [Column(base, _plain(pool.get(_PLAIN[base])))]
    if base in ("gm_map", "gm_bpref"):
        column = Column(base, _log_floor(pool.get("GMAP" if base == "gm_map" else "GMBpref")), "gm")
        column.summary_only = True
        return [column]
    if base in _CUT_LONG:
        kind, defaults = _CUT_LONG[base]
        cutoffs = defaults if text is None else _cutoffs(text, base)
        if base == "relative_P":
            return [Column(f"relative_P_{k}", _plain(pool.get("RelP", cutoff=k))) for k in cutoffs]
        return [Column(f"{base}_{k}", _plain(pool.get(kind, cutoff=k))) for k in cutoffs]
    if base == "iprec_at_recall":
        return [Column(f"{base}_{x:3.2f}", _interpolated(pool.get("IPrec", parameter=x)))
                for x in _recall_points(text, base)]
    if base == "11pt_avg":
        return [_eleven_point(text, pool)]
    if base == "set_F":
        x = 1.0 if text is None else _doubles(text, base)[0]
        return [Column(base if text is None else f"{base}_{text}", _plain(pool.get("SetF", parameter=x)))]
    if base == "utility":
        return [_utility(text, pool)]
    if base in ("set_relative_P", "set_map"):
        return [Column(base, _plain(pool.get("SetRelP" if base == "set_relative_P" else "SetMAP")))]
    from .rank_columns import rank_columns  # (it imports this module)
    return rank_columns(base, text, pool, counts)


def _cannot_calculate(name: str, reason: str) -> Callable[[Row], float]:
    """A per-topic value trec_eval fails to compute for any topic: its two lines and exit 4 when the first topic
    is evaluated (after the files are read and the measures set up, and after a topic missing without -c has
    stopped the output)."""
    def fail(row: Row) -> float:
        raise TrecEvalError(f"{reason}\ntrec_eval: Can't calculate measure '{name}'\n", 4, "exact")

    return fail


def _other_qrels_format(base: str, text: Optional[str]) -> Column:
    # Their parameters are read first, as trec_eval's initialization reads them: P_avgjg's
    # as P's cutoffs, Rprec_mult_avgjg's as double cutoffs; the others take none.
    if text is not None and base == "P_avgjg":
        _cutoffs(text, base)
    elif text is not None and base == "Rprec_mult_avgjg":
        _double_cutoffs(text, base)
    return Column(base, _cannot_calculate(base, OTHER_QRELS_FORMAT[base]))


def _count_column(base: str, counts: Dict[str, int]) -> Column:
    index = counts[_COUNTS[base]]
    if base == "num_ret":  # -c: the stand-in ranking's document is not counted
        column = Column(base, Vectorized(lambda row: 0.0 if row.bogus else row.values[index],
                                         lambda values, retrieved, bogus: np.where(bogus, 0.0, values[:, index])), "sum")
    else:
        column = Column(base, Vectorized(lambda row: row.values[index],
                                         lambda values, retrieved, bogus: values[:, index]), "sum")
    column.integer = True
    return column


def _eleven_point(text: Optional[str], pool: SpecPool) -> Column:
    points = list(RECALL_POINTS) if text is None else _doubles(text, "11pt_avg")
    if min(points) < 0:
        raise TrecEvalError("11pt_avg: negative recall points are not supported", 2, "evalcore")
    index = pool.get("IPrecAvg", parameters=tuple(points))  # trec_eval's algorithm, points in any order
    return Column("11pt_avg" if text is None else f"11pt_avg_{text}", _interpolated(index))


def _utility(text: Optional[str], pool: SpecPool) -> Column:
    p = [1.0, -1.0, 0.0, 0.0] if text is None else _doubles(text, "utility")
    name = "utility" if text is None else f"utility_{text}"
    if len(p) != 4:  # trec_eval counts the coefficients when it computes a topic's value
        return Column(name, _cannot_calculate("utility", "trec_eval.calc_utility: improper number of coefficients"))
    index = pool.get("Utility", parameters=tuple(p))

    def value(row: Row) -> float:
        if row.bogus and text is None:  # -c's clean-up resets the name "utility" only
            return 0.0
        return row.values[index]

    def over(values: Any, retrieved: Any, bogus: Any) -> Any:
        return np.where(bogus, 0.0, values[:, index]) if text is None else values[:, index].copy()

    return Column(name, Vectorized(value, over))


# ---- the output ------------------------------------------------------------------------------------


def number(value: float) -> str:
    """printf's %6.4f (x86 prints trec_eval's NaNs, 0 / 0, with a sign: "-nan")."""
    return "  -nan" if math.isnan(value) else f"{value:6.4f}"


def line(name: str, query: str, text: str, prefix: str = "") -> str:
    # printf's %-22s pads to 22 bytes, not characters (a name from -m parameters may not be ASCII);
    # -Z prints "Z%-22s": the prefix before the padded name
    return f"{prefix}{padded(name)}\t{query}\t{text}\n"


def padded(name: str) -> str:
    """printf's %-22s of a name."""
    return name + " " * (22 - len(name.encode("utf-8", "surrogateescape")))


def topic_values(columns: Sequence[Column], row: Row) -> List[float]:
    """Each column's value for one topic (printed, and added into the summary)."""
    return [column.value(row) for column in columns]


def per_topic_lines(columns: Sequence[Column], query: str, values: Sequence[float], zscores: bool = False) -> str:
    """-q's lines of one topic; `zscores`: -Z's (values already converted by zscores.py)."""
    out = []
    prefix = "Z" if zscores else ""
    for column, value in zip(columns, values):
        if not column.summary_only:
            out.append(line(column.name, query, column.topic_text(value, zscores), prefix if column.zscored else ""))
    return "".join(out)


class Summary:
    """The "all" lines: each column's values added topic by topic, in the order the topics are evaluated, left
    to right from 0, as trec_eval accumulates them; then the sums (num_*) or the sums divided by the number of
    topics (exp of that for gm_*); none for a column whose summary is "none"."""

    def __init__(self, columns: Sequence[Column]) -> None:
        self.columns: List[Column] = list(columns)
        self.totals: List[float] = [0.0] * len(self.columns)
        self.count: int = 0

    def add(self, values: Sequence[float]) -> None:
        for i, value in enumerate(values):
            self.totals[i] += value
        self.count += 1

    def lines(self, run_tag: str, judged_positive: Optional[int], zscores: bool = False) -> str:
        """`judged_positive`: with -c, trec_eval's summary num_rel, the qrels lines of grade > 0 whatever -l says.
        `zscores`: -Z's lines (the totals are of z-scores): a "Z" before every name but runid's, and
        4 decimals for the counts too."""
        out = []
        count = self.count
        for column, total in zip(self.columns, self.totals):
            if column.summary == "none":  # printed per topic only (relstring)
                continue
            if column.name == "runid":
                out.append(line(column.name, "all", run_tag))
                continue
            if column.name == "num_q":
                text = _whole(count, zscores)
            elif column.name == "num_rel" and judged_positive is not None:
                text = _whole(judged_positive, zscores)
            elif column.integer:
                text = _whole(total, zscores)
            elif column.summary == "gm":
                text = number(math.exp(total / count))
            else:
                text = number(total / count)
            out.append(line(column.name, "all", text, "Z" if zscores else ""))
        return "".join(out)


def _whole(value: float, zscores: bool) -> str:
    """A count as printed: a whole number, or under -Z with 4 decimals."""
    return number(float(value)) if zscores else str(int(value))


def topic_order(query_ids: Sequence[str]) -> List[str]:
    """strcmp order: by the UTF-8 bytes."""
    return sorted(query_ids, key=lambda q: q.encode("utf-8"))
