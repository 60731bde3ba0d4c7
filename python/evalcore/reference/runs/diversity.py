"""Pure-Python twin of :mod:`evalcore.runs.diversity` (and of cpp/diversity/): subtopic
judgments read, and ndeval's diversity measures computed with the same operations in the
same order, so that every value is the same float."""

from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...runs.diversity import diversity_options, subtopic_qrels, subtopic_run
from ...runs.measures import KIND, MeasureSpec
from ...runs.result import RunEvaluation, RunOptions
from ...runs.sources import readable
from .judgment_groups import read_judgment_lines, score_judged_queries
from .prefs_measures import ranking as _ranking  # score descending, then doc ID ascending, as pyndeval sorts
from .reading import _fail, _read_file

_SHAPE = "a subtopic qrels line has 4 fields: query subtopic document grade"
# A query's judgments: (document, subtopic index, grade) in input order.
Judged = List[Tuple[bytes, int, float]]


def _group(rows: Sequence[Tuple[bytes, bytes, bytes, float, int]], source: str, fault_line: Optional[int],
           fault: bytes) -> List[Tuple[bytes, Judged]]:
    """Judgments by query (first appearance), subtopics numbered by first appearance in the
    whole input; a document twice for a subtopic of a query is a fault at the second listing."""
    subtopic_index: Dict[bytes, int] = {}
    queries: Dict[bytes, List[Tuple[bytes, bytes, bytes, float, int]]] = {}
    for row in rows:
        queries.setdefault(row[0], []).append(row)
        subtopic_index.setdefault(row[1], len(subtopic_index))
    for query, members in queries.items():
        first: Dict[Tuple[bytes, bytes], int] = {}
        for _query, subtopic, doc, _grade, line in members:
            if (subtopic, doc) in first and (fault_line is None or line < fault_line):
                fault_line = line
                fault = (b"query " + _q(query) + b" subtopic " + _q(subtopic) + b" lists document " + _q(doc) +
                         f" twice (first on line {first[(subtopic, doc)]})".encode())
            first.setdefault((subtopic, doc), line)
    if fault_line is not None:
        raise _fail(source, fault_line, fault)
    return [(query, [(doc, subtopic_index[subtopic], grade) for _q2, subtopic, doc, grade, _l in members])
            for query, members in queries.items()]


def _q(text: bytes) -> bytes:
    from .reading import _quoted

    return _quoted(text)


def _discount(i: int) -> float:
    return 1.0 if i == 0 else math.log(2.0) / math.log(float(i) + 2.0)


def _cumulate(gains: List[float], subtopics: int, alpha: float, depth: int) -> Tuple[List[float], List[float]]:
    """ndeval's computeDCG and computeERR at ranks 0..depth-1 (cpp/diversity's cumulate)."""
    dcg, err = [0.0] * depth, [0.0] * depth
    if subtopics == 0:
        return dcg, err
    for i in range(min(depth, len(gains))):
        dcg[i] = gains[i] * _discount(i)
        err[i] = gains[i] / float(i + 1)
    unit_dcg, unit_err = [0.0] * depth, [0.0] * depth
    unit = float(subtopics)
    for i in range(depth):
        unit_dcg[i] = unit * _discount(i)
        unit_err[i] = unit / float(i + 1)
        unit *= 1.0 - alpha
    for i in range(1, depth):
        dcg[i] += dcg[i - 1]
        unit_dcg[i] += unit_dcg[i - 1]
        err[i] += err[i - 1]
        unit_err[i] += unit_err[i - 1]
    for i in range(1, depth):
        dcg[i] /= unit_dcg[i]
        err[i] /= unit_err[i]
    return dcg, err


def _nrbp(gains: List[float], subtopics: int, alpha: float, beta: float) -> float:
    if subtopics == 0:
        return 0.0
    total, decay = 0.0, 1.0
    for gain in gains:
        total += gain * decay
        decay *= beta
    return total * ((1 - (1 - alpha) * beta) / float(subtopics))


def _setting(spec: MeasureSpec, options: RunOptions) -> Tuple[float, float, float, bool]:
    level = options.relevant_at_least if spec.rel is None else spec.rel
    return (level, spec.parameters[0], spec.parameters[1], options.judged_only or spec.parameters[2] != 0.0)


def score_query(specs: Sequence[MeasureSpec], options: RunOptions, judged: Judged, ranking: List[bytes]) -> List[float]:
    """One query's values (ranking: the documents in rank order, after max_retrieved)."""
    values = [math.nan] * len(specs)
    settings: List[Tuple[float, float, float, bool]] = []
    for spec in specs:
        if _setting(spec, options) not in settings:
            settings.append(_setting(spec, options))
    for setting in settings:
        level, alpha, beta, judged_only = setting
        depth = max([1] + [s.cutoff for s in specs if _setting(s, options) == setting])
        relevant_ids = sorted({subtopic for _doc, subtopic, grade in judged if grade >= level})
        position = {s: i for i, s in enumerate(relevant_ids)}
        rows: Dict[bytes, List[int]] = {}
        for doc, subtopic, grade in judged:
            rows.setdefault(doc, [])
            if grade >= level:
                rows[doc].append(position[subtopic])
        for subs in rows.values():
            subs.sort()
        relevant_of = [0] * len(relevant_ids)
        for subs in rows.values():
            for s in subs:
                relevant_of[s] += 1
        subtopics = len(relevant_ids)
        # The greedy ideal ranking (ties to the larger document ID), while anything gains.
        left = [1.0] * subtopics
        candidates = [doc for doc, subs in rows.items() if subs]
        ideal: List[float] = []
        while candidates:
            best: Optional[bytes] = None
            best_gain = 0.0
            for doc in candidates:
                gain = 0.0
                for s in rows[doc]:
                    gain += left[s]
                if best is None or gain > best_gain or (gain == best_gain and doc > best):
                    best, best_gain = doc, gain
            if best is None or not best_gain > 0.0:
                break
            candidates.remove(best)
            ideal.append(best_gain)
            for s in rows[best]:
                left[s] *= 1.0 - alpha
        # The run's gains and counts.
        left = [1.0] * subtopics
        covered, hits, sums = [False] * subtopics, [0] * subtopics, [0.0] * subtopics
        run: List[float] = []
        covered_at: List[int] = []
        pairs_at: List[int] = []
        n_covered = n_pairs = 0
        for doc in ranking:
            found = rows.get(doc)
            if found is None and judged_only:
                continue
            gain = 0.0
            rank = float(len(run) + 1)
            for s in found or ():
                gain += left[s]
                left[s] *= 1.0 - alpha
                n_covered += 0 if covered[s] else 1
                covered[s] = True
                n_pairs += 1
                hits[s] += 1
                sums[s] += float(hits[s]) / rank
            run.append(gain)
            covered_at.append(n_covered)
            pairs_at.append(n_pairs)
        ap_ia = 0.0
        if subtopics:
            for s in range(subtopics):
                ap_ia += sums[s] / float(relevant_of[s])
            ap_ia /= float(subtopics)
        ideal_dcg, ideal_err = _cumulate(ideal, subtopics, alpha, depth)
        run_dcg, run_err = _cumulate(run, subtopics, alpha, depth)
        run_nrbp = _nrbp(run, subtopics, alpha, beta)
        for m, spec in enumerate(specs):
            if _setting(spec, options) != setting:
                continue
            k = max(spec.cutoff, 1) - 1
            seen = min(k + 1, len(run))
            kind = spec.kind
            if kind == KIND["AlphaDCG"]:
                value = run_dcg[k]
            elif kind == KIND["AlphaNDCG"]:
                value = run_dcg[k] / ideal_dcg[k] if run_dcg[k] != 0 else 0.0
            elif kind == KIND["ERRIA"]:
                value = run_err[k]
            elif kind == KIND["NERRIA"]:
                value = run_err[k] / ideal_err[k] if run_dcg[k] != 0 else 0.0
            elif kind == KIND["NRBP"]:
                value = run_nrbp
            elif kind == KIND["NNRBP"]:
                ideal_nrbp = _nrbp(ideal, subtopics, alpha, beta)
                value = run_nrbp / ideal_nrbp if ideal_nrbp != 0 else math.nan  # undefined: pyndeval's 0/0
            elif kind == KIND["PIA"]:
                value = 0.0 if not subtopics else float(pairs_at[seen - 1] if seen else 0) / float((k + 1) * subtopics)
            elif kind == KIND["APIA"]:
                value = ap_ia
            else:  # StRecall
                value = 0.0 if not subtopics else float(covered_at[seen - 1] if seen else 0) / float(subtopics)
            values[m] = value
    return values


def _run_dict(run: Any) -> List[Tuple[bytes, List[bytes], Optional[List[float]]]]:
    """The run dict, checked as the native core checks it (the same messages)."""
    out: List[Tuple[bytes, List[bytes], Optional[List[float]]]] = []
    for query, docs in run.items():
        if type(query) is not str:
            raise TypeError(f"run: a query ID must be a str, got {type(query).__name__}")
        if type(docs) is not dict:
            raise TypeError(f"run: query {query!r} must map document IDs to scores ({{doc: score}}), "
                            f"got {type(docs).__name__}")
        ids, scores = [], []
        for doc, score in docs.items():
            if type(doc) is not str:
                raise TypeError(f"run: query {query!r}: a document ID must be a str, got {type(doc).__name__}")
            if type(score) not in (float, int):
                raise TypeError(f"run: query {query!r} document {doc!r}: the score must be a float or int, "
                                f"got {type(score).__name__}")
            value = float(score)
            if not math.isfinite(value):
                raise ValueError(f"run: query {query!r} document {doc!r}: the score must be finite, got {score!r}")
            ids.append(doc.encode("utf-8"))
            scores.append(value)
        out.append((query.encode("utf-8"), ids, scores))
    return out


def evaluate_diversity(qrels: Any, run: Any, specs: Sequence[MeasureSpec], options: RunOptions, gain: str, ties: str,
                       missing: str, max_line_bytes: int, names: Tuple[str, str, str, str, str]) -> RunEvaluation:
    """The twin of the native evaluation: judged queries in run order, then the missing ones."""
    from .evaluate import exact_sum

    query_col, doc_col, relevance_col, score_col, subtopic_col = names
    qrels_source = subtopic_qrels(qrels, (query_col, doc_col, relevance_col, subtopic_col))
    run_source = subtopic_run(run, (query_col, doc_col, score_col))
    qrels_path = qrels_source if isinstance(qrels_source, (str, bytes)) else None
    run_path = run_source if isinstance(run_source, (str, bytes)) else None
    with readable(qrels_path, run_path) as (qrels_file, qrels_name, run_file, run_name):
        if qrels_file is not None:
            source, fault, lines = read_judgment_lines(qrels_file, max_line_bytes, qrels_name, _SHAPE)
            judged = _group(lines, source, fault.position, fault.message)
        else:
            rows = [(q.encode("utf-8"), s.encode("utf-8"), d.encode("utf-8"), g, 0)
                    for q, s, d, g in zip(*qrels_source)]
            judged = _group(rows, "qrels", None, b"")
        ranked: List[Tuple[bytes, List[bytes], Optional[List[float]]]]
        if run_file is not None:
            ranked = [(q, d, s) for q, d, s in _read_file(os.fsdecode(run_file) if isinstance(run_file, bytes)
                                                           else run_file, False, max_line_bytes, run_name)]
        else:
            ranked = list(_run_dict(run_source))
    query_ids, rows_out, missing_ids = score_judged_queries(
        judged, ranked, lambda judgments, docs, scores: score_query(specs, options, judgments,
                                                                     _ranking(docs, scores, options)),
        options.missing_zero)
    mean = []
    defined = []
    for m in range(len(specs)):
        kept = [row[m] for row in rows_out if not math.isnan(row[m])]
        mean.append(exact_sum(kept) / len(kept) if kept else None)
        defined.append(len(kept))
    values = np.array(rows_out, dtype=np.float64).reshape(len(rows_out), len(specs))
    return RunEvaluation([s.name for s in specs], [q.decode("utf-8") for q in query_ids], values, mean, defined,
                         diversity_options(options, gain, ties, missing), [q.decode("utf-8") for q in missing_ids])
