"""evaluate_run with subtopic judgments (``qrels_format="subtopics"``): the diversity measures
of the TREC Web track's ndeval, as pyndeval computes them — alpha-DCG and alpha-nDCG@k,
ERR-IA and nERR-IA@k, NRBP and nNRBP, P-IA@k, AP-IA and subtopic recall (names in
runs/diversity_names.py; definitions in docs/measures.md).

The qrels give a subtopic (intent) per judgment:

- a file of ndeval's ``query subtopic document grade`` lines (qrels_jg's reading rules);
- a dict ``{query: {subtopic: {doc: grade}}}``;
- a table with a subtopic column (``subtopic_col=``, default ``iteration``: ir_measures'
  convention) besides the query, document and grade columns;
- an iterable of records: ir_measures' ``Qrel`` (the subtopic in ``iteration``), any
  objects with those fields, or pyndeval's ``(query, subtopic, doc, grade)`` tuples.

The run: a TREC run file, a dict ``{query: {doc: score}}``, a table or an iterable of
records (ScoredDoc, or pyndeval's ``(query, doc, score)`` tuples). Files and dicts are read
by the core; tables and iterables are read here, in Python, into the dict form.
Twin: :mod:`evalcore.reference.runs.diversity`."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import RunInputError
from .measures import MeasureSpec
from .result import RunEvaluation, RunOptions, normalize_source, options_dict
from .sources import readable
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

#: The qrels_format of subtopic judgments.
SUBTOPIC_FORMAT = "subtopics"
#: The ties policy the diversity measures follow with ties="score": pyndeval's sort (score
#: descending, then document ID ascending), which RunEvaluation.options names.
DIVERSITY_TIES = "score, then doc ID ascending (pyndeval)"

Columns = Tuple[List[str], List[str], List[str], List[float]]
RunDict = Dict[str, Dict[str, Union[int, float]]]


def _id(value: Any, role: str, what: str, row: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TypeError(f"{role}: {row}: the {what} must be a str or int, got {type(value).__name__}")
    # An exact str (a subclass's own text, not its __str__): the core reads exact strs only.
    return str.__str__(value) if isinstance(value, str) else str(value)


def _value(value: Any, role: str, what: str, row: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{role}: {row}: the {what} must be a float or int, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{role}: {row}: the {what} must be finite, got {value!r}")
    return number


def _table_rows(table: Any, role: str, names: Sequence[str]) -> List[Tuple[Any, ...]]:
    """A table's rows (the named columns), read through pyarrow."""
    import pyarrow  # a table came: pyarrow reads it (pandas with pyarrow, polars, DuckDB...)

    data = pyarrow.table(table)
    missing = [n for n in names if n not in data.column_names]
    if missing:
        raise ValueError(f"{role} table has no column {missing[0]!r}; its columns: {', '.join(data.column_names)}")
    return list(zip(*(data.column(n).to_pylist() for n in names)))


def _records(value: Any, role: str, names: Sequence[str], plain: Sequence[int]) -> List[Tuple[Any, ...]]:
    """An iterable's items as tuples of the named fields; a plain tuple of len(names) is
    taken in pyndeval's order (`plain`: where each name is in it)."""
    rows: List[Tuple[Any, ...]] = []
    for number, item in enumerate(value):
        if type(item) is tuple and len(item) == len(names):
            rows.append(tuple(item[i] for i in plain))
            continue
        try:
            rows.append(tuple(getattr(item, n) for n in names))
        except AttributeError:
            raise TypeError(f"{role} iterable: row {number}: a record needs the fields {', '.join(names)} "
                            f"(or a plain tuple in pyndeval's order), got {type(item).__name__}") from None
    return rows


def _rows(value: Any, role: str, names: Sequence[str], plain: Sequence[int]) -> Optional[List[Tuple[Any, ...]]]:
    """Rows of a table or an iterable (None for a dict or a path)."""
    if isinstance(value, (Mapping, str, bytes, os.PathLike)):
        if isinstance(value, (str, bytes, os.PathLike)) and os.fsdecode(value).endswith(".parquet"):
            import pyarrow.parquet

            return _table_rows(pyarrow.parquet.read_table(os.fsdecode(value)), role, names)
        return None
    if hasattr(value, "__arrow_c_stream__") or hasattr(value, "__arrow_c_array__") or type(value).__name__ == "DataFrame":
        return _table_rows(value, role, names)
    if not hasattr(value, "__iter__"):
        raise TypeError(f"{role} must be a dict, a file path, a table or an iterable of records, "
                        f"got {type(value).__name__}")
    return _records(value, role, names, plain)


def subtopic_qrels(qrels: Any, names: Tuple[str, str, str, str]) -> Union[str, bytes, Columns]:
    """The qrels as the cores take them: a file path, or four checked columns (query,
    subtopic, document, grade) in input order. `names`: query, document, grade and
    subtopic columns or fields. A document listed twice for one subtopic of a query is a
    RunInputError."""
    query_col, doc_col, relevance_col, subtopic_col = names
    rows = _rows(qrels, "qrels", (query_col, subtopic_col, doc_col, relevance_col), (0, 1, 2, 3))
    if rows is None:
        if not isinstance(qrels, Mapping):
            return normalize_source(qrels, "qrels")  # type: ignore[no-any-return]
        rows = []
        for query, subtopics in qrels.items():
            if not isinstance(subtopics, Mapping):
                raise TypeError(f"qrels: query {query!r} must map subtopics to {{doc: grade}} dicts, "
                                f"got {type(subtopics).__name__}")
            for subtopic, docs in subtopics.items():
                if not isinstance(docs, Mapping):
                    raise TypeError(f"qrels: query {query!r} subtopic {subtopic!r} must map documents to grades, "
                                    f"got {type(docs).__name__}")
                rows.extend((query, subtopic, doc, grade) for doc, grade in docs.items())
    columns: Columns = ([], [], [], [])
    first: Dict[Tuple[str, str, str], int] = {}
    for number, (query, subtopic, doc, grade) in enumerate(rows):
        where = f"row {number}"
        key = (_id(query, "qrels", "query ID", where), _id(subtopic, "qrels", "subtopic ID", where),
               _id(doc, "qrels", "document ID", where))
        value = _value(grade, "qrels", "grade", where)
        if key in first:
            raise RunInputError(f"row {number}: query {key[0]!r} subtopic {key[1]!r} lists document {key[2]!r} twice "
                                f"(first on row {first[key]})", "qrels", None)
        first[key] = number
        columns[0].append(key[0])
        columns[1].append(key[1])
        columns[2].append(key[2])
        columns[3].append(value)
    return columns


def subtopic_run(run: Any, names: Tuple[str, str, str]) -> Union[str, bytes, RunDict]:
    """The run as the cores take it: a file path, or a dict {query: {doc: score}} (a dict
    given is passed on, its values made dicts; the core checks its IDs and scores)."""
    query_col, doc_col, score_col = names
    rows = _rows(run, "run", (query_col, doc_col, score_col), (0, 1, 2))
    if rows is None:
        if not isinstance(run, Mapping):
            return normalize_source(run, "run")  # type: ignore[no-any-return]
        return {query: dict(docs.items()) if isinstance(docs, Mapping) and type(docs) is not dict else docs
                for query, docs in run.items()}
    out: RunDict = {}
    for number, (query, doc, score) in enumerate(rows):
        where = f"row {number}"
        docs = out.setdefault(_id(query, "run", "query ID", where), {})
        doc_id = _id(doc, "run", "document ID", where)
        if doc_id in docs:
            raise RunInputError(f"row {number}: query {query!r} lists document {doc_id!r} twice", "run", None)
        docs[doc_id] = _value(score, "run", "score", where)
    return out


def diversity_options(options: RunOptions, gain: str, ties: str, missing: str) -> Dict[str, Any]:
    """RunEvaluation.options: with ties="score", the tie order the diversity measures use."""
    return options_dict(options, gain, DIVERSITY_TIES if ties == "score" else ties, missing)


def evaluate_diversity(qrels: Any, run: Any, specs: Sequence[MeasureSpec], options: RunOptions, gain: str, ties: str,
                       missing: str, max_line_bytes: int, names: Tuple[str, str, str, str, str],
                       run_name: Optional[str] = None) -> RunEvaluation:
    """The native core's evaluation of a run against subtopic judgments. `names`: query,
    document, grade, score and subtopic columns or fields."""
    from .. import _core

    query_col, doc_col, relevance_col, score_col, subtopic_col = names
    qrels_names = (query_col, doc_col, relevance_col, subtopic_col)
    # A plain dict goes to the core as it is (its reader returns None for anything but the
    # exact form, which is then read here); the qrels' faults come before the run's.
    native_dict = type(qrels) is dict
    qrels_source = qrels if native_dict else subtopic_qrels(qrels, qrels_names)
    try:
        run_source = subtopic_run(run, (query_col, doc_col, score_col))
    except Exception:
        if native_dict:
            subtopic_qrels(qrels, qrels_names)
        raise
    qrels_path = qrels_source if isinstance(qrels_source, (str, bytes)) else None
    run_path = run_source if isinstance(run_source, (str, bytes)) else None
    with readable(qrels_path, run_path) as (qrels_file, qrels_name, run_file, copy_name):
        run_name = copy_name if run_name is None else run_name

        def call(judged: Any) -> Any:
            return _core.evaluate_run_diversity(
                os.fsencode(qrels_file) if qrels_file is not None else judged,
                os.fsencode(run_file) if run_file is not None else run_source,  # type: ignore[arg-type]
                [s.native() for s in specs],
                options.relevant_at_least, options.ties_by_score, options.missing_zero, max_line_bytes,
                options.max_retrieved, options.judged_only, b"" if qrels_name is None else os.fsencode(qrels_name),
                b"" if run_name is None else os.fsencode(run_name), options.threads)

        try:
            outcome = call(qrels_source)
            if outcome is None:  # a dict not in the exact form the core reads
                outcome = call(subtopic_qrels(qrels, qrels_names))
        except OSError as err:  # named as open() names it: the path as given
            given = qrels_path if qrels_file is not None and os.fsdecode(qrels_file) == err.filename else run_path
            raise OSError(err.errno, err.strerror, given) from None
    query_ids, values, mean, defined, missing_ids = outcome
    return RunEvaluation([s.name for s in specs], query_ids, np.frombuffer(values, dtype=np.float64), mean, defined,
                         diversity_options(options, gain, ties, missing), missing_ids)
