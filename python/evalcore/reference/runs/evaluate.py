"""Pure-Python twin of :func:`evalcore.evaluate_run`: the same parsing rules, messages,
order of summation and results, bit for bit. Slow; for differential tests and for
reading the definitions. The inputs are read by :mod:`evalcore.reference.runs.reading`."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from ...runs.measures import MEASURE_KINDS, MeasureNames
from ...runs.iterables import RecordIterable, source_names
from ...runs.measures import MEASURE_KINDS, MeasureNames, summaries
from ...runs.result import (DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_QRELS_ROWS, issue_warnings, MeasureSpec, RunEvaluation, RunOptions,
                            check_max_line_bytes, check_options, measure_specs, normalize_source, options_dict)
from ...runs.tables import DEFAULT_MAX_STREAM_ROWS, check_max_stream_rows, interrupts_raised
from . import gain_measures, rank_measures, tie_average
from .exact_sums import rounded, scaled
from .gain_measures import GAIN_KINDS, gain_measure
from .derived_measures import DERIVED_KINDS, derived_value
from .cwl_measures import CWL_LINEAR_KINDS, cwl_value  # issue 25 item 2 (CWL_LINEAR_KINDS: h25-ties3)
from ...runs.cwl_clipping import with_cwl_policies
from ...runs.cwl_names import CWL_KINDS
from .common_measures import compat_value  # issue 25 item 4
from .reading import _read
from ...progress import ProgressCallback, check_progress, file_bytes
from ...runs.sources import readable
from ...runs.judgment_groups import check_qrels_format
from .diversity import evaluate_diversity
from .judgment_groups import evaluate_judgment_groups
from .prefs_measures import evaluate_preferences
from ...runs.text_measures import check_text_format, with_texts
from ...runs.ties import AVERAGE_KINDS, check_ties


def exact_sum(values: Sequence[float]) -> float:
    """docs/contract.md §5: the exact sum of finite doubles, rounded once to the nearest double (ties to
    even; ±inf past the largest), as integers in units of 2^-1074."""
    return rounded(sum(scaled(v) for v in values))


def _lround(x: float) -> int:
    """C's lround: to the nearest integer, halves away from zero (x >= 0 here)."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole  # x - whole is exact


class _Level:
    """What the measures at one relevance level share for one query."""

    def __init__(self, threshold: float, grades: List[float], rank_grades: List[Optional[float]]) -> None:
        self.threshold = threshold
        self.relevant = sum(1 for g in grades if g >= threshold)
        self.judged_nonrelevant = sum(1 for g in grades if 0 <= g < threshold)
        self.hits, self.ap_sum = [0], [0.0]
        self.first_relevant = 0
        h, a = 0, 0.0
        for rank, grade in enumerate(rank_grades, start=1):
            if grade is not None and grade >= threshold:
                h += 1
                a += h / rank
                if self.first_relevant == 0:
                    self.first_relevant = rank
            self.hits.append(h)
            self.ap_sum.append(a)


def _gain(grade: float, spec: MeasureSpec, options: RunOptions) -> float:
    if spec.gains:
        for source, target in spec.gains:
            if source == grade:
                grade = target
                break
        return grade if grade > 0 else 0.0
    if not grade > 0:
        return 0.0  # negative (spam) grades add no gain, as in trec_eval
    return _exponential_gain(grade) if options.exponential else grade


def _exponential_gain(grade: float) -> float:
    """2**grade - 1; inf past the largest double (grade >= 1024), as C's pow gives it where
    math.pow raises: the query's nDCG is then undefined (inf / inf) or 0 (an unretrieved one)."""
    try:
        return math.pow(2.0, grade) - 1.0
    except OverflowError:
        return math.inf


def _discount(rank: int, kind: str) -> float:
    """nDCG's log2(rank + 1); NCG's (issue 25 item 4) 1: its cumulated gain (x / 1 is x)."""
    return math.log2(rank + 1) if kind == "nDCG" else 1.0


def _ideal(spec: MeasureSpec, options: RunOptions, grades: List[float], kind: str) -> float:
    """The ideal DCG (NCG: cumulated gain) at the cutoff: every judgment's gain, largest first."""
    ideal_gains = sorted((_gain(g, spec, options) for g in grades), reverse=True)
    count = len(ideal_gains) if spec.cutoff == 0 else min(len(ideal_gains), spec.cutoff)
    ideal = 0.0
    for i in range(1, count + 1):
        ideal += ideal_gains[i - 1] / _discount(i, kind)
    return ideal


def _ndcg(spec: MeasureSpec, options: RunOptions, grades: List[float], rank_grades: List[Optional[float]], depth: int,
          kind: str) -> float:
    """nDCG, or NCG (the same with every discount 1)."""
    dcg = 0.0
    for rank in range(1, depth + 1):
        grade = rank_grades[rank - 1]
        if grade is not None:
            dcg += _gain(grade, spec, options) / _discount(rank, kind)
    ideal = _ideal(spec, options, grades, kind)
    return dcg / ideal if ideal != 0 else math.nan


def _interpolated_precision(level: _Level, recall_point: float, n: int) -> float:
    """trec_eval 10: the best precision at or below the rank of the lround(x * R)-th relevant."""
    needed = _lround(recall_point * level.relevant)
    retrieved = level.hits[n]
    if needed > retrieved:
        return 0.0
    if retrieved == 0:
        return retrieved / n if n else math.nan
    target = max(needed, 1)
    best = retrieved / n
    for i in range(n, 0, -1):
        best = max(best, level.hits[i] / i)
        if level.hits[i] == target and level.hits[i - 1] == target - 1:
            break
    return best


def _bpref(level: _Level, rank_grades: List[Optional[float]]) -> float:
    denominator = float(min(level.judged_nonrelevant, level.relevant))
    nonrelevant, total = 0, 0.0
    for grade in rank_grades:
        if grade is None or grade < 0:
            continue
        if grade < level.threshold:
            nonrelevant += 1
        elif nonrelevant > 0:
            total += 1.0 - min(nonrelevant, level.relevant) / denominator
        else:
            total += 1.0
    return total / level.relevant


def _err(rank_grades: List[Optional[float]], depth: int) -> float:
    value, reach = 0.0, 1.0
    for rank in range(1, depth + 1):
        grade = rank_grades[rank - 1]
        if grade is None or not grade > 0:
            continue
        satisfied = (math.pow(2.0, min(grade, 4.0)) - 1.0) / 16.0
        value += reach * satisfied / rank
        reach *= 1.0 - satisfied
    return value


_AVERAGED = AVERAGE_KINDS  # the kinds ties="average" takes the expectation of


def _averaged(kind: str, spec: MeasureSpec, options: RunOptions, grades: List[float],
              rank_grades: List[Optional[float]], bounds: List[int], depth: int, level: _Level) -> float:
    """ties="average": tie_measures.cpp's tie_average_value."""
    r, threshold, n = level.relevant, level.threshold, len(rank_grades)
    if kind == "P":
        return tie_average.expected_count(rank_grades, bounds, depth, tie_average.relevant(threshold)) / spec.cutoff
    if kind == "Judged":
        return tie_average.expected_count(rank_grades, bounds, depth, tie_average.judged) / depth if depth else math.nan
    if kind in ("nDCG", "NCG"):  # NCG: issue 25 item 4
        ideal = _ideal(spec, options, grades, kind)
        if ideal == 0:
            return math.nan
        gains = [0.0 if g is None else _gain(g, spec, options) for g in rank_grades]
        return tie_average.expected_dcg(bounds, depth, gains, discounted=kind == "nDCG") / ideal
    if kind == "ERR":
        return tie_average.expected_err(rank_grades, bounds, depth) if any(g > 0 for g in grades) else math.nan
    if kind in CWL_LINEAR_KINDS:  # h25-ties3: the C/W/L measures linear in the gains
        return cwl_value(kind, spec.parameter, spec.cutoff, spec.parameters, rank_grades, bounds)
    if kind == "Accuracy":  # h25-ties3
        return tie_average.expected_accuracy(rank_grades, bounds, depth, threshold)
    if kind in _TREC_AVERAGED:
        return _averaged_trec(kind, spec, grades, rank_grades, bounds, level)
    if r == 0:
        return math.nan
    if kind == "R":
        return tie_average.expected_count(rank_grades, bounds, depth, tie_average.relevant(threshold)) / r
    if kind == "Rprec":
        return tie_average.expected_count(rank_grades, bounds, min(n, r), tie_average.relevant(threshold)) / r
    if kind == "RR":
        return tie_average.expected_reciprocal_rank(rank_grades, bounds, depth, threshold)
    if kind == "AP":
        return tie_average.expected_ap_sum(rank_grades, bounds, depth, threshold) / r
    return tie_average.expected_success(rank_grades, bounds, depth, threshold)  # Success


# issue 25 item 3, second round: trec_eval's measures that ties="average" takes.
_TREC_AVERAGED = frozenset({"Bpref", "RelP", "RprecMult", "Unjudged", "RBP", "RBPResid", "trec_binG", "trec_dcg",
                            "trec_ideal_dcg", "trec_ndcg", "trec_Rndcg", "trec_ndcg_rel", "Hits", "F1", "RanxRBP"})


def _averaged_trec(kind: str, spec: MeasureSpec, grades: List[float], rank_grades: List[Optional[float]],
                   bounds: List[int], level: _Level) -> float:
    """ties="average" for trec_eval's measures and ranx's: tie_measures.cpp's second-round cases."""
    r, threshold, n = level.relevant, level.threshold, len(rank_grades)
    is_relevant = tie_average.relevant(threshold)
    depth = n if spec.cutoff == 0 else min(n, spec.cutoff)
    if kind == "Hits":
        return tie_average.expected_count(rank_grades, bounds, depth, is_relevant)
    if kind == "F1":
        return rank_measures.f1(tie_average.expected_count(rank_grades, bounds, depth, is_relevant), spec.cutoff or n, r)
    if kind == "RanxRBP":
        return rank_measures.ranx_rbp(rank_grades, threshold, spec.parameter, bounds)
    if kind == "Bpref":
        return tie_average.expected_bpref(rank_grades, bounds, threshold, r, level.judged_nonrelevant) if r else math.nan
    if kind == "RelP":
        k = spec.cutoff
        return tie_average.expected_count(rank_grades, bounds, min(n, k), is_relevant) / (r if k > r else k) if r else math.nan
    if kind == "RprecMult":
        at = spec.parameter * r + 0.9
        if not at >= 1:
            return math.nan
        cut = int(at)  # C's truncation (at >= 1)
        return tie_average.expected_count(rank_grades, bounds, min(n, cut), is_relevant) / cut
    if kind == "Unjudged":
        return tie_average.expected_count(rank_grades, bounds, min(n, spec.cutoff), tie_average.unjudged) / spec.cutoff
    if kind == "RBPResid":
        return tie_average.expected_rbp_residual(rank_grades, bounds, spec.parameter)
    if kind == "RBP":
        return gain_measures.rbp(spec.gains, rank_grades, grades, spec.parameter, bounds)
    return gain_measure(kind, spec.gains, rank_grades, grades, threshold, r, bounds)


def _score_query(specs: Sequence[MeasureSpec], options: RunOptions, judged_docs: List[bytes], grades: List[float],
                 docs: List[bytes], scores: Optional[List[float]]) -> List[float]:
    """One query's values, NaN where undefined: docs/contract.md §2 at each measure's cutoff, trec_eval
    10 for the measures ranking-evaluate lacks (docs/measures.md)."""
    judged = dict(zip(judged_docs, grades))
    order = list(range(len(docs)))
    if options.ties in ("optimistic", "pessimistic") and scores is not None and len(docs) >= 2:
        order = tie_average.grade_order(order, scores, docs, [judged.get(d) for d in docs], options.ties == "optimistic")
    elif options.ties_by_score and scores is not None:
        order.sort(key=lambda i: (scores[i], docs[i]), reverse=True)  # score, then doc ID, descending
    if options.max_retrieved >= 0:
        order = order[:options.max_retrieved]  # trec_eval -M: the first ranks only
    if options.judged_only:  # trec_eval -J: judged documents of grade >= 0 only, ranks closing up
        order = [i for i in order if judged.get(docs[i]) is not None and judged[docs[i]] >= 0]
    rank_grades: List[Optional[float]] = [judged.get(docs[i]) for i in order]
    n = len(rank_grades)
    bounds = tie_average.tie_bounds(scores, order) if options.ties == "average" else []
    judged_prefix = [0]
    for grade in rank_grades:
        judged_prefix.append(judged_prefix[-1] + (grade is not None))
    levels: Dict[float, _Level] = {}

    def level_of(spec: MeasureSpec) -> _Level:
        threshold = options.relevant_at_least if spec.rel is None else spec.rel
        if threshold not in levels:
            levels[threshold] = _Level(threshold, grades, rank_grades)
        return levels[threshold]

    values = []
    for spec in specs:
        depth = n if spec.cutoff == 0 else min(n, spec.cutoff)
        kind = MEASURE_KINDS[spec.kind]
        value = math.nan
        if options.ties == "average" and kind in _AVERAGED:
            values.append(_averaged(kind, spec, options, grades, rank_grades, bounds, depth, level_of(spec)))
            continue
        if kind in ("nDCG", "NCG"):  # NCG: issue 25 item 4
            value = _ndcg(spec, options, grades, rank_grades, depth, kind)
        elif kind == "NumRet":
            value = float(n)
        elif kind == "Judged":
            value = judged_prefix[depth] / depth if depth else math.nan
        elif kind == "ERR":
            value = _err(rank_grades, depth) if any(g > 0 for g in grades) else math.nan
        elif kind in GAIN_KINDS:  # trec_eval's gain measures (gain_measures.py)
            level = level_of(spec)
            value = gain_measure(kind, spec.gains, rank_grades, grades, level.threshold, level.relevant)
        elif kind == "Unjudged":
            value = rank_measures.unjudged_at(rank_grades, spec.cutoff)
        elif kind == "RBP":
            value = gain_measures.rbp(spec.gains, rank_grades, grades, spec.parameter)
        elif kind == "RBPResid":
            value = rank_measures.rbp_residual(rank_grades, spec.parameter)
        elif kind == "RankGrade":
            value = rank_measures.rank_grade(rank_grades, spec.cutoff)
        elif kind in CWL_KINDS:  # issue 25 item 2, the C/W/L family (cwl_measures.py)
            value = cwl_value(kind, spec.parameter, spec.cutoff, spec.parameters, rank_grades)
        elif kind == "Compat":  # issue 25 item 4 (common_measures.py)
            value = compat_value(judged_docs, grades, docs, scores, order, spec.parameter, spec.parameters[0] != 0)
        else:
            level = level_of(spec)
            r = level.relevant
            if kind in DERIVED_KINDS:
                value = derived_value(kind, spec, level, rank_grades, _bpref)
            elif kind == "P":
                value = level.hits[depth] / spec.cutoff
            elif kind == "NumRel":
                value = float(r)
            elif kind == "NumRelRet":
                value = float(level.hits[n])
            elif kind == "SetP":
                value = level.hits[n] / n if n else math.nan
            elif kind == "NumNonrelJudgedRet":
                value = rank_measures.num_nonrel_judged_ret(rank_grades, level.threshold)
            elif kind == "RprecMult":
                value = rank_measures.rprec_mult(level.hits, n, r, spec.parameter)
            elif kind == "YAAP":
                value = rank_measures.yaap(level.ap_sum[n], r)
            elif kind == "Accuracy":  # issue 25 item 4
                value = rank_measures.accuracy(rank_grades, depth, level.threshold)
            elif kind == "Hits":
                value = float(level.hits[depth])
            elif kind == "F1":
                value = rank_measures.f1(level.hits[depth], spec.cutoff or n, r)
            elif kind == "RanxRBP":
                value = rank_measures.ranx_rbp(rank_grades, level.threshold, spec.parameter)
            elif kind == "infAP":
                value = rank_measures.inferred_ap(rank_grades, level.threshold, r)
            elif r == 0:
                pass  # the rest need a relevant judgment
            elif kind == "R":
                value = level.hits[depth] / r
            elif kind == "RR":
                value = 1.0 / level.first_relevant if 0 < level.first_relevant <= depth else 0.0
            elif kind == "AP":
                value = level.ap_sum[depth] / r
            elif kind == "Rprec":
                value = level.hits[min(n, r)] / r
            elif kind == "Bpref":
                value = _bpref(level, rank_grades)
            elif kind == "IPrec":
                value = _interpolated_precision(level, spec.parameter, n)
            elif kind == "Success":
                value = 1.0 if level.hits[depth] > 0 else 0.0
            elif kind == "SetR":
                value = level.hits[n] / r
            elif kind == "SetF" and n:
                rr = level.hits[n]
                if rr == 0:
                    value = 0.0
                else:
                    p, rc, x = rr / n, rr / r, spec.parameter
                    value = (x + 1.0) * p * rc / (x * p + rc)
        values.append(value)
    return values


def evaluate_run(
    qrels: Any,
    run: Any,
    measures: MeasureNames,
    *,
    relevant_at_least: float = 1,
    gain: str = "linear",
    ties: str = "score",
    missing: str = "skip",
    threads: Union[int, None] = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_stream_rows: int = DEFAULT_MAX_STREAM_ROWS,
    max_retrieved: Optional[int] = None,
    judged_only: bool = False,
    progress: Optional[ProgressCallback] = None,
    max_qrels_rows: int = DEFAULT_MAX_QRELS_ROWS,
    query_col: str = "query_id",
    doc_col: str = "doc_id",
    relevance_col: str = "relevance",
    score_col: str = "score",
    qrels_format: str = "qrels",
    subtopic_col: str = "iteration",
    costs: Any = None,
) -> RunEvaluation:
    """Same signature and result as :func:`evalcore.evaluate_run` (threads is accepted and
    ignored: the reference runs on one; progress is called after each file is read)."""
    check_text_format(measures, qrels_format)
    return issue_warnings(with_texts(
        lambda specs: with_cwl_policies(  # issue 25 item 2: C/W/L clipping and costs= said
            lambda s: _evaluate(qrels, run, s, relevant_at_least, gain, ties, missing, threads, max_line_bytes,
                max_stream_rows, max_retrieved, judged_only, progress, max_qrels_rows, query_col, doc_col,
                relevance_col, score_col, qrels_format, subtopic_col), specs, costs, run, query_col),
        measures, measure_specs), stacklevel=2)


def _evaluate(qrels: Any, run: Any, specs: List[MeasureSpec], relevant_at_least: float, gain: str, ties: str,
              missing: str, threads: Union[int, None], max_line_bytes: int, max_stream_rows: int,
              max_retrieved: Optional[int], judged_only: bool, progress: Optional[ProgressCallback],
              max_qrels_rows: int, query_col: str, doc_col: str, relevance_col: str, score_col: str,
              qrels_format: str, subtopic_col: str = "iteration") -> RunEvaluation:
    """evaluate_run's work for MeasureSpecs, its warnings not issued yet."""
    check_qrels_format(qrels_format, specs)
    options = check_options(relevant_at_least, gain, ties, missing, threads, max_retrieved, judged_only)
    check_ties(options.ties, specs, options.max_retrieved, qrels_format)
    progress = check_progress(progress)
    check_max_line_bytes(max_line_bytes)
    if qrels_format in ("prefs", "qrels_prefs"):  # trec_eval's preferences: reference/runs/prefs_measures.py
        return evaluate_preferences(qrels, run, specs, options, gain, ties, missing, min(max_line_bytes, 1 << 62),
                                    qrels_format)
    if qrels_format == "qrels_jg":  # trec_eval's judgment groups: reference/runs/judgment_groups.py
        return evaluate_judgment_groups(qrels, run, specs, options, gain, ties, missing, min(max_line_bytes, 1 << 62))
    if qrels_format == "subtopics":  # issue 25 item 1, diversity: reference/runs/diversity.py
        names = (*source_names("qrels", query_col, doc_col, relevance_col, score_col), score_col,
                 source_names("qrels", subtopic_col, doc_col, relevance_col, score_col)[0])
        return evaluate_diversity(qrels, run, specs, options, gain, ties, missing, min(max_line_bytes, 1 << 62), names)
    check_max_stream_rows(max_stream_rows)
    check_max_line_bytes(max_qrels_rows, "max_qrels_rows")
    columns = (query_col, doc_col, relevance_col, score_col)
    qrels_source = normalize_source(qrels, "qrels", source_names("qrels", *columns))
    run_source = normalize_source(run, "run", source_names("run", *columns))
    for source in (qrels_source, run_source):
        if isinstance(source, RecordIterable):  # read once, bounded as in the native core
            source.bounded(max_stream_rows, max_qrels_rows)
    with readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, run_name):
        total = file_bytes(qrels_file, run_file) if progress is not None else 0
        with interrupts_raised(qrels_file, run_file):  # a producer's interrupt, as itself
            judged = _read(qrels_file, "qrels", max_line_bytes, qrels_name, max_qrels_rows=max_qrels_rows)
            done = file_bytes(qrels_file)
            if progress is not None and done:
                progress(done, total)
            ranked = _read(run_file, "run", max_line_bytes, run_name, max_stream_rows=max_stream_rows)
    # A query without judgments (absent, or an empty dict) is not scored: trec_eval's join.
    judgments = {query: (docs, values) for query, docs, values in judged if docs}
    query_ids: List[bytes] = []
    rows: List[List[float]] = []
    seen = set()
    for query, docs, scores in ranked:
        if query not in judgments:
            continue  # no judgments: not scored (as trec_eval)
        seen.add(query)
        judged_docs, judged_grades = judgments[query]
        query_ids.append(query)
        rows.append(_score_query(specs, options, judged_docs, judged_grades or [], docs, scores))
    missing_ids = [query for query, judged_docs, _grades in judged if query not in seen and judged_docs]
    if options.missing_zero:
        for query in missing_ids:
            judged_docs, judged_grades = judgments[query]
            query_ids.append(query)
            rows.append(_score_query(specs, options, judged_docs, judged_grades or [], [], None))
    mean: List[Optional[float]] = []
    defined: List[int] = []
    for m in range(len(specs)):
        defined_values = [row[m] for row in rows if not math.isnan(row[m])]
        defined.append(len(defined_values))
        mean.append(exact_sum(defined_values) / len(defined_values) if defined_values else None)
    if progress is not None:
        progress(total, total)
    values = np.array(rows, dtype=np.float64).reshape(len(rows), len(specs))
    return RunEvaluation(
        [s.name for s in specs],
        [q.decode("utf-8") for q in query_ids],
        values,
        summaries([s.kind for s in specs], mean, defined),
        defined,
        options_dict(options, gain, ties, missing),
        [q.decode("utf-8") for q in missing_ids],
    )
