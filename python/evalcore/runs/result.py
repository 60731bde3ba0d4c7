"""What :func:`evalcore.evaluate_run` and its reference twin share: measure names, the
checks of the options and inputs, and :class:`RunEvaluation`, the result.

Nothing here imports the compiled core.
"""

from __future__ import annotations

import functools
import json
import math
import os
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, cast

from .per_query import PerQuery
from .iterables import DEFAULT_NAMES, RecordIterable, is_record_iterable
from .tables import ArrowTable, ParquetFile, is_parquet_path, table_source
# (re-exported: the callers of this module take the measure names from here)
from .measures import MEASURE_KINDS as MEASURE_KINDS, VALID_MEASURES as VALID_MEASURES
from .measures import MeasureSpec as MeasureSpec, parse_measures as parse_measures
from .ties import TIE_RULES
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)


class RunOptions(NamedTuple):
    relevant_at_least: float
    exponential: bool
    ties_by_score: bool
    missing_zero: bool
    threads: int
    max_retrieved: int = -1  # -1: every rank
    judged_only: bool = False
    ties: str = "score"  # issue 25 item 3: runs/ties.py's TIE_RULES


def check_options(relevant_at_least: Any, gain: Any, ties: Any, missing: Any, threads: Any,
                  max_retrieved: Any = None, judged_only: Any = False) -> RunOptions:
    """The keyword options of evaluate_run, checked; ValueError/TypeError name the option."""
    if isinstance(relevant_at_least, bool) or not isinstance(relevant_at_least, (int, float)):
        raise TypeError(f"relevant_at_least must be a number, got {type(relevant_at_least).__name__}")
    if not (0 < relevant_at_least < math.inf):
        raise ValueError(f"relevant_at_least must be a finite number > 0, got {relevant_at_least!r}")
    if gain not in ("linear", "exponential"):
        raise ValueError(f"gain must be 'linear' or 'exponential', got {gain!r}")
    if not isinstance(ties, str) or ties not in TIE_RULES:
        raise ValueError(f"ties must be 'score', 'input', 'average', 'optimistic' or 'pessimistic', got {ties!r}")
    if missing not in ("skip", "zero"):
        raise ValueError(f"missing must be 'skip' or 'zero', got {missing!r}")
    if threads is None:
        threads = os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    if max_retrieved is not None and (isinstance(max_retrieved, bool) or not isinstance(max_retrieved, int)
                                      or not 0 <= max_retrieved < 1 << 63):
        raise ValueError(f"max_retrieved must be an int >= 0 or None, got {max_retrieved!r}")
    if not isinstance(judged_only, bool):
        raise TypeError(f"judged_only must be a bool, got {type(judged_only).__name__}")
    return RunOptions(float(relevant_at_least), gain == "exponential", ties != "input", missing == "zero",
                      min(threads, 256), -1 if max_retrieved is None else int(max_retrieved), judged_only, ties)


def options_dict(options: RunOptions, gain: str, ties: str, missing: str) -> Dict[str, Any]:
    """RunEvaluation.options: the options in force, as to_json() gives them."""
    return {"relevantAtLeast": options.relevant_at_least, "gain": gain, "ties": ties, "missing": missing,
            "maxRetrieved": None if options.max_retrieved < 0 else options.max_retrieved,
            "judgedOnly": options.judged_only}


def measure_specs(measures: Any) -> List[MeasureSpec]:
    """evaluate_run's measures: names (parse_measures), or MeasureSpecs made by evalcore
    itself (the CLI's trec_eval names), taken as they are."""
    if isinstance(measures, (list, tuple)) and measures and all(isinstance(m, MeasureSpec) for m in measures):
        return list(measures)
    if isinstance(measures, (list, tuple)) and all(type(m) is str for m in measures):
        return list(_named(tuple(measures)))
    return parse_measures(measures)


# A list of plain names gives the same specs each time: kept whole (the duplicate check and
# the lookups per name were 0.15 ms of each call of an evaluation of 21 diversity measures,
# bench/bench_diversity.py's 11 ms; a refusal is not kept).
@functools.lru_cache(maxsize=256)
def _named(names: Tuple[str, ...]) -> Tuple[MeasureSpec, ...]:
    return tuple(parse_measures(list(names)))


#: The longest line of a TREC file read by default (bytes, not counting its newline).
DEFAULT_MAX_LINE_BYTES = 1 << 20


#: The most rows a qrels table (Arrow data) may have by default: a stream may never end, and
#: the qrels are held whole (10 times the judgments of the largest public qrels; a 10 M-row
#: table takes about 0.7 GB to read).
DEFAULT_MAX_QRELS_ROWS = 100_000_000


def check_max_line_bytes(value: Any, name: str = "max_line_bytes") -> int:
    """evaluate_run's max_line_bytes (or another bound, `name`), checked: a positive int."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


def line_too_long(max_line_bytes: int) -> str:
    """The fault of a TREC line longer than the limit (after the file and line)."""
    return f"line longer than {max_line_bytes:,} bytes (the max_line_bytes limit)"


def normalize_source(value: Any, role: str, names: Optional[Tuple[str, str, str]] = None) -> Any:
    """A qrels or run argument as the cores take it: a dict, a path (str or bytes, as
    os.fspath gives it: what a file error names as its filename, as open() does), table
    columns or an iterable of records (runs/iterables.py). A path holding a NUL is
    ValueError("embedded null byte"), as open() gives. `names`: the query, document and
    value columns or fields (default query_id, doc_id, relevance or score)."""
    names = DEFAULT_NAMES[role] if names is None else names
    if isinstance(value, Mapping):  # a dict subclass is read through its items() by both cores
        return value if isinstance(value, dict) else dict(value.items())
    if isinstance(value, (str, bytes, os.PathLike)):
        path = os.fspath(value)
        if ("\0" if isinstance(path, str) else b"\0") in path:
            raise ValueError("embedded null byte")
        if is_parquet_path(path):
            return ArrowTable(ParquetFile(path, role, names), role, names)
        return path
    table = table_source(value, role, names)
    if table is not None:
        return table
    if is_record_iterable(value):
        return RecordIterable(value, role, names)
    shapes = "{query: {doc: grade}}" if role == "qrels" else "{query: {doc: score}} or {query: [doc, ...]}"
    raise TypeError(f"{role} must be a dict {shapes}, a TREC file path, a table (pandas, pyarrow, or anything with __arrow_c_stream__) or an iterable of records (named tuples with query_id, doc_id and {'relevance' if role == 'qrels' else 'score'} fields); got {type(value).__name__}")


class EvaluationWarning(UserWarning):
    """evaluate_run's warning that a result is likely not what was meant (nothing evaluated)
    or differs from what other tools give (judged queries the run lacks left out)."""


#: How many of the left-out queries a warning names.
NAMED_QUERIES = 5


def named_queries(query_ids: Sequence[str], limit: int = NAMED_QUERIES) -> str:
    """The first `limit` IDs, quoted, and how many more: "'q1', 'q2' and 3 more"."""
    shown = ", ".join(repr(q) for q in query_ids[:limit])
    return shown + (f" and {len(query_ids) - limit:,} more" if len(query_ids) > limit else "")


def dropped_warning(missing_ids: Sequence[str], judged: int, policy: str = "missing='skip'",
                    remedy: str = "missing='zero'") -> str:
    """The warning of missing="skip" leaving out judged queries the run lacks: the means
    are over fewer queries than trec_eval -c or ir_measures average over. `policy` and
    `remedy` are the options as the caller spells them (the CLI's flags)."""
    return (f"{len(missing_ids):,} of the {judged:,} judged queries are not in the run and were left out "
            f"({policy}): {named_queries(missing_ids)}; means are over the {judged - len(missing_ids):,} "
            f"the run has; {remedy} scores them as empty rankings (value 0, as trec_eval -c and ir_measures do)")


def run_warnings(evaluated: int, missing_ids: Sequence[str], options: Dict[str, Any]) -> List[str]:
    """The warnings of an evaluation of `evaluated` queries, `missing_ids` the judged ones
    absent from the run."""
    missing = len(missing_ids)
    from_run = evaluated - (missing if options.get("missing") == "zero" else 0)
    judged = from_run + missing
    if judged == 0:
        return ["nothing was evaluated: the qrels judge no query (qrels empty, or every query's judgments empty)"
                + (" and the run is empty" if evaluated == 0 and from_run == 0 else "")]
    if from_run == 0:
        scored = (f"; with missing='zero' all {missing:,} are scored as empty rankings" if options.get("missing") == "zero"
                  else "; nothing was evaluated")
        return [f"the run has none of the {judged:,} judged queries (empty, or other query IDs){scored}"]
    if missing and options.get("missing") != "zero":
        return [dropped_warning(missing_ids, judged)]
    return []


def ranx_zero_warnings(measures: Sequence[str], defined_counts: Dict[str, int], evaluated: int) -> List[str]:
    """Issue 25 item 4 (h25-ncg): for each measure named in ranx's spelling (``hit_rate@10``,
    ``f1``, ``ndcg@10``, ...) undefined on some queries (no relevant judgment), that ranx scores
    those queries 0 and averages over all of them, where evalcore leaves them out of the mean."""
    from .measures import _ranx_spec, _trec_specs  # (the names' own parsers: trec_eval's claims a name first)

    out = []
    for name in measures:
        left_out = evaluated - defined_counts.get(name, evaluated)
        if left_out <= 0:
            continue
        try:
            ranx = _trec_specs(name) is None and _ranx_spec(name) is not None
        except ValueError:  # a name the CLI made (trec_eval's), not parseable
            ranx = False
        if ranx:
            out.append(f"{name}: {left_out:,} of the {evaluated:,} queries have no relevant judgment, so no value "
                       f"(left out of its mean, over the other {evaluated - left_out:,}); ranx scores such queries 0 and "
                       f"averages over all {evaluated:,}: its mean is evalcore's times {evaluated - left_out:,}/{evaluated:,}")
    return out


def issue_warnings(result: "RunEvaluation", stacklevel: int = 3) -> "RunEvaluation":
    """Issues each of the result's warnings as an EvaluationWarning; returns the result."""
    import warnings

    for text in result.warnings:
        warnings.warn(text, EvaluationWarning, stacklevel=stacklevel)
    return result


class RunEvaluation:
    """The result of :func:`evalcore.evaluate_run`.

    Attributes:
        measures: the measure names, in the order asked for.
        query_ids: the evaluated queries: the run's (those with judgments) in run order,
            then, with ``missing="zero"``, judged queries the run lacks, in qrels order.
        mean: measure → mean over the queries where it is defined (None if none is).
        defined_counts: measure → number of queries where it is defined.
        missing_query_ids: the judged queries the run lacks, in qrels order, whatever
            ``missing`` says (with ``"zero"`` they are also the last of ``query_ids``).
        warnings: what is likely a mistake (the qrels judge no query; the run has none of
            the judged queries) or differs from other tools (with ``missing="skip"``, judged
            queries the run lacks left out: how many and the first IDs; C/W/L grades clipped
            to a measure's ``max_rel``: how many, to what, and the first query IDs; with a
            C/W/L measure, run queries without judgments not scored and queries split over
            stretches of a run file, both of which cwl_eval scores otherwise; a measure
            named in ranx's spelling undefined on some queries, which ranx scores 0), with the
            counts; evaluate_run also issues each as an :class:`EvaluationWarning`.
        policy_warnings: those of the warnings that a measure's policy made (C/W/L grades
            clipped, the C/W/L run queries' warnings), also among ``warnings``.
        texts: the measures whose per-query value is text (trec_eval's ``relstring``,
            ``relstring.N``: runs/text_measures.py), each a dict query → text in the order of
            ``query_ids``; they have no mean and are not among ``measures``. Empty unless one
            was asked for.
    """

    def __init__(self, measures: Sequence[str], query_ids: List[str], values: np.ndarray,
                 mean: Sequence[Optional[float]], defined_counts: Sequence[int], options: Dict[str, Any],
                 missing_query_ids: Sequence[str] = (), texts: Optional[Dict[str, Dict[str, str]]] = None,
                 policy_warnings: Sequence[str] = ()) -> None:
        self.measures: Tuple[str, ...] = tuple(measures)
        self.query_ids: List[str] = query_ids
        self.missing_query_ids: List[str] = list(missing_query_ids)
        # values: shape (queries, measures); NaN where undefined. Stored per measure.
        columns = np.asarray(values, dtype=np.float64).reshape(len(query_ids), len(self.measures)).T.copy()
        columns.setflags(write=False)
        self._columns = columns
        self.mean: Dict[str, Optional[float]] = dict(zip(self.measures, mean))
        self.defined_counts: Dict[str, int] = dict(zip(self.measures, defined_counts))
        self.options: Dict[str, Any] = dict(options)
        #: what a measure's policy changed from a peer's input (C/W/L grades clipped: runs/cwl_clipping.py)
        self.policy_warnings: List[str] = list(policy_warnings)
        self.warnings: List[str] = [*run_warnings(len(query_ids), self.missing_query_ids, self.options),
                                    *self.policy_warnings,
                                    *ranx_zero_warnings(self.measures, self.defined_counts, len(query_ids))]  # h25-ncg
        self.texts: Dict[str, Dict[str, str]] = {} if texts is None else {m: dict(t) for m, t in texts.items()}

    def values(self, measure: str) -> np.ndarray:
        """One measure's per-query values (read-only float64 array, NaN where undefined).
        `measure` is a name as given, or any spelling of it (``"ndcg@10"`` for
        ``"nDCG@10"``), or the ir_measures object it was computed for; a measure not computed is
        a KeyError naming those that were."""
        return cast(np.ndarray, self._columns[self._measure_index(measure)])  # (numpy types a row as Any)

    def _measure_index(self, measure: str) -> int:
        if not isinstance(measure, str):
            from .ir_measure_objects import is_ir_measure

            if is_ir_measure(measure):  # its results are named by its str()
                measure = str(measure)
        if measure in self.measures:
            return self.measures.index(measure)
        if measure in self.texts:
            raise KeyError(f"{measure!r} is text, not a number: read evaluation.texts[{measure!r}]")
        try:  # another spelling of a computed measure: the same definition (kind, cutoff, level, gains)
            definition = repr(parse_measures([measure])[0].native())
        except (ValueError, TypeError):
            definition = None
        if definition is not None:
            for i, name in enumerate(self.measures):
                try:
                    if repr(parse_measures([name])[0].native()) == definition:
                        return i
                except (ValueError, TypeError):  # a name the CLI made (trec_eval's), not parseable
                    continue
        raise KeyError(f"{measure!r} was not computed; this evaluation has {', '.join(self.measures)}")

    @property
    def per_query(self) -> PerQuery:
        """Per-query values: a :class:`~evalcore.runs.per_query.PerQuery` (``query_id`` and one
        float64 column per measure, NaN where undefined), the same type whatever is
        installed; ``.to_pandas()``, ``.to_arrow()``, ``.to_dict()`` convert it."""
        return PerQuery(self.query_ids, self.measures, self._columns)

    def to_dict(self, per_query: bool = True) -> Dict[str, Any]:
        """JSON-ready: measures, mean, definedCounts, options, missingQueryIds (the judged
        queries the run lacks: left out with ``options["missing"]`` ``"skip"``, scored as
        empty rankings with ``"zero"``), warnings, ``texts`` (only when a text measure such as
        relstring was asked for: measure → query → text) and (optionally) per-query values,
        with null where a value is undefined."""
        out: Dict[str, Any] = {
            "measures": list(self.measures),
            "queryCount": len(self.query_ids),
            "mean": dict(self.mean),
            "definedCounts": dict(self.defined_counts),
            "options": dict(self.options),
            "missingQueryIds": list(self.missing_query_ids),
            "warnings": list(self.warnings),
        }
        if self.texts:  # only when a text measure was asked for: other outputs keep their keys
            out["texts"] = {m: dict(t) for m, t in self.texts.items()}
        if per_query:
            rows = self._columns.T.tolist()
            out["queries"] = [
                {"id": q, "values": {m: (None if v != v else v) for m, v in zip(self.measures, row)}}
                for q, row in zip(self.query_ids, rows)
            ]
        return out

    def to_json(self, per_query: bool = True, indent: Optional[int] = None) -> str:
        """:meth:`to_dict` as JSON text (floats in shortest round-trip form)."""
        return json.dumps(self.to_dict(per_query), indent=indent, ensure_ascii=False, allow_nan=False)

    def __eq__(self, other: object) -> bool:
        """Same measures, queries, options and values bit for bit (NaN equal to NaN)."""
        if not isinstance(other, RunEvaluation):
            return NotImplemented
        return (self.measures == other.measures and self.query_ids == other.query_ids
                and self.missing_query_ids == other.missing_query_ids and self.options == other.options and self.mean == other.mean
                and self.defined_counts == other.defined_counts and self.texts == other.texts
                and self._columns.tobytes() == other._columns.tobytes())

    def to_html(self, path: Optional[str] = None, *, name: str = "run", inputs: Sequence[Any] = (),
                command: Optional[Sequence[str]] = None) -> str:
        """A self-contained HTML report of one run (no network: inline SVG, no script to
        run, no external reference): the means with their counts and options, per measure
        the per-query distribution, the 11-point interpolated precision-recall curve when
        IPrec@0.0 ... IPrec@1.0 were evaluated, provenance (evalcore version, `inputs` that
        are files with their SHA-256, `command`, default sys.argv) and :meth:`to_json`
        embedded. Written to `path` unless it is None; the HTML is returned either way."""
        from .html_report import to_html
        return to_html(self, path, name, inputs, command)

    def _repr_html_(self) -> str:
        from .html_report import table_html
        return table_html(self)

    def _repr_markdown_(self) -> str:
        from .html_report import markdown
        return markdown(self)

    def __repr__(self) -> str:
        means = ", ".join(f"{m}={v:.4f} (n={self.defined_counts[m]})" if v is not None else f"{m}=None (n=0)"
                          for m, v in self.mean.items())
        ties = self.options.get("ties")  # issue 25 item 3: which tie rule made these numbers
        rule = f", ties={ties!r}" if ties is not None else ""
        return f"RunEvaluation({len(self.query_ids)} queries{rule}: {means})"
