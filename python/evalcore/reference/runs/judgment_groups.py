"""Pure-Python twin of :mod:`evalcore.runs.judgment_groups` (and of cpp/runs/jg_records.cpp,
jg_measures.cpp): trec_eval's qrels_jg judgments read into groups, and map_avgjg, P_avgjg
and Rprec_mult_avgjg, trec_eval 10's definitions (m_map_avgjg.c, m_P_avgjg.c,
m_Rprec_mult_avgjg.c), with the same messages, order of summation and results."""

from __future__ import annotations

import math
import os
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from ...runs.measures import KIND, MeasureSpec
from ...runs.result import RunEvaluation, RunOptions, line_too_long, options_dict
from ...runs.judgment_groups import judgment_group_paths
from ...runs.sources import readable
from .reading import _SPLIT, _SPACES, _Fault, _fail, _number, _quoted, _read_bytes, _read_file, _valid_utf8

_SHAPE = "a qrels_jg line has 4 fields: query judgment_group document grade"
# A query's judgment groups: (name, docs, grades), by name (byte order, trec_eval's sort).
QueryGroups = List[Tuple[bytes, List[bytes], List[float]]]


def read_judgment_lines(file: str, max_line_bytes: int, name: Optional[str],
                        shape: str) -> Tuple[str, _Fault, List[Tuple[bytes, bytes, bytes, float, int]]]:
    """The 4-field lines of a judgment file (qrels_jg's, ndeval's) up to the first malformed
    one: (the name messages give the file, the fault found, (field 1, 2, 3, grade, line) of
    each line read). The twin of cpp/runs/jg_records.cpp's parse_judgment_lines."""
    source = os.fsdecode(file) if name is None else name
    data, long_line = _read_bytes(file, max_line_bytes, source)
    fault = _Fault()
    lines: List[Tuple[bytes, bytes, bytes, float, int]] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        text = line.strip(_SPACES)
        if not text or text[0] == 0x23:  # blank, or '#': a comment
            continue
        fields = _SPLIT.split(text)
        value = _number(fields[3]) if len(fields) == 4 else None
        if len(fields) != 4:
            fault.consider(number, f"{shape}, found {'more' if len(fields) > 4 else len(fields)}".encode())
        elif not _valid_utf8(fields[0]):
            fault.consider(number, b"the query ID is not valid UTF-8")
        elif value is None:
            fault.consider(number, b"the grade " + _quoted(fields[3]) + b" is not a finite number")
        if fault.position is not None or value is None:
            break
        lines.append((fields[0], fields[1], fields[2], value, number))
    if long_line is not None:
        fault.consider(long_line, line_too_long(max_line_bytes).encode())
    return source, fault, lines


def read_qrels_jg(file: str, max_line_bytes: int, name: Optional[str] = None) -> List[Tuple[bytes, QueryGroups]]:
    """The judgments of a qrels_jg file: queries in order of first appearance, each one's
    groups by name, their judgments in line order. RunInputError for the first faulty line."""
    source, fault, lines = read_judgment_lines(file, max_line_bytes, name, _SHAPE)
    queries: Dict[bytes, Dict[bytes, List[Tuple[bytes, float, int]]]] = {}
    for query, group, doc, grade, number in lines:
        queries.setdefault(query, {}).setdefault(group, []).append((doc, grade, number))
    for query, groups in queries.items():
        for group, judged in groups.items():
            first: Dict[bytes, int] = {}
            for doc, _grade, number in judged:
                if doc in first:
                    fault.consider(number, b"query " + _quoted(query) + b" judgment group " + _quoted(group) +
                                   b" lists document " + _quoted(doc) + f" twice (first on line {first[doc]})".encode())
                first.setdefault(doc, number)
    if fault.position is not None:
        raise _fail(source, fault.position, fault.message)
    return [(query, [(group, [d for d, _g, _n in groups[group]], [g for _d, g, _n in groups[group]])
                     for group in sorted(groups)]) for query, groups in queries.items()]


def _ranking(docs: Sequence[bytes], scores: Optional[Sequence[float]], options: RunOptions) -> List[bytes]:
    """Score descending, then document ID descending (trec_eval), or the input order; then
    the first max_retrieved."""
    order = list(range(len(docs)))
    if options.ties_by_score and scores is not None:
        order.sort(key=lambda i: docs[i], reverse=True)
        order.sort(key=lambda i: -scores[i])  # stable: equal scores keep the ID order
    if options.max_retrieved >= 0:
        order = order[:options.max_retrieved]
    return [docs[i] for i in order]


def _group_value(spec: MeasureSpec, options: RunOptions, grades: Sequence[float], rank_grades: List[float]) -> float:
    threshold = options.relevant_at_least if spec.rel is None else spec.rel
    relevant = sum(1 for g in grades if g >= threshold)
    n = len(rank_grades)
    if spec.kind == KIND["MapAvgJG"]:
        hits, total = 0, 0.0
        for rank, grade in enumerate(rank_grades, start=1):
            if grade >= threshold:
                hits += 1
                total += hits / rank
        return total / relevant if hits else 0.0
    if spec.kind == KIND["PAvgJG"]:
        return sum(1 for g in rank_grades[:min(n, spec.cutoff)] if g >= threshold) / spec.cutoff
    # Rprec_mult_avgjg: P at trec_eval's cutoff (long) (x * R + 0.9), bounded by 2^62.
    scaled = spec.parameter * relevant + 0.9
    if not scaled >= 1:
        return 0.0
    cutoff = int(scaled) if scaled < 2.0 ** 62 else 1 << 62
    return sum(1 for g in rank_grades[:min(n, cutoff)] if g >= threshold) / cutoff


J = TypeVar("J")  # a query's judgments, in whichever form the scoring reads


def score_judged_queries(judged: Sequence[Tuple[bytes, J]],
                         ranked: Iterable[Tuple[bytes, Sequence[bytes], Optional[Sequence[float]]]],
                         score: Callable[[J, Sequence[bytes], Optional[Sequence[float]]], List[float]],
                         missing_zero: bool) -> Tuple[List[bytes], List[List[float]], List[bytes]]:
    """The twin of the core's evaluate_judged_queries (cpp/runs/jg_measures.hpp), for qrels_jg
    and subtopic judgments alike: each run query with judgments scored in run order, then the
    judged queries the run lacks, against an empty ranking when `missing_zero`. Returns the
    query IDs, their rows and the missing IDs."""
    by_query = dict(judged)
    query_ids: List[bytes] = []
    rows: List[List[float]] = []
    for query, docs, scores in ranked:
        if query in by_query:
            query_ids.append(query)
            rows.append(score(by_query[query], docs, scores))
    seen = set(query_ids)
    missing_ids = [query for query, _judgments in judged if query not in seen]
    if missing_zero:
        for query in missing_ids:
            query_ids.append(query)
            rows.append(score(by_query[query], [], []))
    return query_ids, rows, missing_ids


def score_query(specs: Sequence[MeasureSpec], options: RunOptions, groups: QueryGroups, ranking: List[bytes]) -> List[float]:
    """One query's values: each group's, summed in group order from 0, divided by their number."""
    values = [0.0] * len(specs)
    for _name, docs, grades in groups:
        grade_of = dict(zip(docs, grades))
        rank_grades = [grade_of.get(doc, math.nan) for doc in ranking]
        if options.judged_only:  # trec_eval -J: this group's unjudged documents (and negative grades) leave
            rank_grades = [g for g in rank_grades if g >= 0]
        for m, spec in enumerate(specs):
            values[m] += _group_value(spec, options, grades, rank_grades)
    if len(groups) > 1:
        values = [v / len(groups) for v in values]
    return values


def evaluate_judgment_groups(qrels: object, run: object, specs: Sequence[MeasureSpec], options: RunOptions, gain: str,
                             ties: str, missing: str, max_line_bytes: int) -> RunEvaluation:
    """The twin of the native evaluation: judged queries in run order, then the missing ones."""
    from .evaluate import exact_sum

    qrels_source, run_source = judgment_group_paths(qrels, run)
    with readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, run_name):
        judged = read_qrels_jg(qrels_file, max_line_bytes, qrels_name)
        ranked = _read_file(run_file, False, max_line_bytes, run_name)
    query_ids, rows, missing_ids = score_judged_queries(
        judged, ranked, lambda groups, docs, scores: score_query(specs, options, groups, _ranking(docs, scores, options)),
        options.missing_zero)
    mean = [exact_sum([row[m] for row in rows]) / len(rows) if rows else None for m in range(len(specs))]
    values = np.array(rows, dtype=np.float64).reshape(len(rows), len(specs))
    return RunEvaluation([s.name for s in specs], [q.decode("utf-8") for q in query_ids], values, mean,
                         [len(rows)] * len(specs), options_dict(options, gain, ties, missing),
                         [q.decode("utf-8") for q in missing_ids])
