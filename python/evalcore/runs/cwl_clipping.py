"""The C/W/L family's grade clipping, said out loud (issue 25 item 2; the project's rule of no
silent differences).

Graded C/W/L measures (``INST(T=2,max_rel=3)``, ...) read a judged grade as ir_measures'
cwl_eval provider prepares it: negatives to 0, then clipped to ``[min_rel, max_rel]`` and
scaled to [0, 1]. cwl_eval itself refuses a gain outside ``[--min_gain, --max_gain]``
(its ``validate_gains``), so a clipped grade is a place where the numbers could differ
from what a user of cwl_eval expects. Each core counts, per query, the ranks whose grade was
clipped (a hidden measure, figure ``CWL_CLIPPED_FIGURE`` of cpp/runs/cwl_measures.cpp and its
twin); this module, shared by both cores, asks for them, takes them out of the result, and
turns them into one warning per clipping range; the result's ``options["cwlGrades"]`` says
the policy (``"clip"``) whenever a graded C/W/L measure was asked for. with_cwl_policies,
which both evaluate_runs and ``evalcore trec`` call, also applies evaluate_run's ``costs=``
(runs/cwl_costs.py) and says it in ``options["cwlCosts"]``.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Sequence, Tuple

from .cwl_costs import with_cwl_costs
from .cwl_run_queries import RunScan, cwl_measure_names
from .cwl_names import CWL_CLIPPED_FIGURE, CWL_KINDS, CWL_PARAMETER_COUNT
from .measures import KIND, MeasureSpec
from .result import RunEvaluation, named_queries

#: options["cwlGrades"]: grades outside [min_rel, max_rel] are clipped into it (the only policy).
CLIP_POLICY = "clip"

# Names the hidden measures take: never a name a user can give (a NUL byte).
_HIDDEN = "\0cwl clipped "
_CWL_KIND_INDICES = frozenset(KIND[k] for k in CWL_KINDS)


def _number(value: float) -> str:
    return repr(int(value)) if value == int(value) else repr(value)


def clipping_ranges(specs: List[MeasureSpec]) -> Dict[Tuple[float, float, float], List[str]]:
    """(min_rel, max_rel, depth) → the graded C/W/L measures that clip to that range (in the
    ranks they read), in order of asking."""
    ranges: Dict[Tuple[float, float, float], List[str]] = {}
    for spec in specs:
        p = spec.parameters
        if spec.kind in _CWL_KIND_INDICES and len(p) == CWL_PARAMETER_COUNT and p[3] == 0:
            ranges.setdefault((p[1], p[2], p[4]), []).append(spec.name)
    return ranges


def clipping_counters(ranges: Dict[Tuple[float, float, float], List[str]]) -> List[MeasureSpec]:
    """The hidden measures counting, per query, the ranked judged documents whose grade was
    clipped into each of `ranges` (clipping_ranges' keys), in their order: a query's value is
    the count (0 where none was)."""
    return [MeasureSpec(f"{_HIDDEN}{i}", KIND[CWL_KINDS[0]], 0, parameter=0.5,
                        parameters=(float(CWL_CLIPPED_FIGURE), low, high, 0.0, depth, 0.0, math.nan, 1.0, 1.0, 0.0,
                                    0.0, 0.0))
            for i, (low, high, depth) in enumerate(ranges)]


def clipping_warning(low: float, high: float, depth: float, names: List[str], clipped: int,
                     query_ids: Sequence[str]) -> str:
    """The warning for one range: how many ranked judgments were `clipped`, to what, for which
    measures and in which queries (`query_ids`, those with a clipped grade: the first named)."""
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return (f"{clipped:,} judged documents ranked in the first {int(depth):,} of {len(query_ids):,} queries have grades "
            f"outside [{_number(max(low, 0.0))}, {_number(high)}] and were clipped into it for {shown} "
            f"(options['cwlGrades'] == 'clip', as ir_measures' cwl_eval provider does; cwl_eval itself refuses "
            f"gains outside [--min_gain, --max_gain]): {named_queries(query_ids)}; "
            f"raise max_rel or max_gain (or lower min_rel) to score those grades as they are")


def with_cwl_policies(evaluate: Callable[[List[MeasureSpec]], RunEvaluation], specs: List[MeasureSpec],
                      costs: Any = None, run: Any = None, query_col: str = "query_id") -> RunEvaluation:
    """`evaluate` (one core's evaluation of MeasureSpecs) for `specs`, with, when a graded
    C/W/L measure is among them, the clipping policy in its options and a warning per
    range whose grades were clipped; when any C/W/L measure is, a warning for run queries not
    scored for want of judgments and for queries split over stretches of the run file, which
    cwl_eval scores otherwise (runs/cwl_run_queries.py); with `costs` (evaluate_run's costs=), the cost of the
    run's element type given to the C/W/L measures (runs/cwl_costs.py) and said in the options.
    `query_col`: a table run's query column (evaluate_run's)."""
    specs, cost_options = with_cwl_costs(specs, costs, run)
    ranges = clipping_ranges(specs)
    cwl_names = cwl_measure_names(specs)
    if not cwl_names and cost_options is None:
        return evaluate(specs)
    hidden = clipping_counters(ranges)
    scan = RunScan(run, cwl_names, query_col)  # (a run file is scanned while the core evaluates it)
    full = evaluate(specs + hidden)
    warnings: List[str] = []
    for ((low, high, depth), names), spec in zip(ranges.items(), hidden):
        counts = full.values(spec.name)
        clipped = [(query, int(count)) for query, count in zip(full.query_ids, counts.tolist()) if count > 0]
        if clipped:
            warnings.append(clipping_warning(low, high, depth, names, sum(count for _, count in clipped),
                                             [query for query, _ in clipped]))
    kept = len(specs)
    names_kept = [s.name for s in specs]
    options = dict(full.options)
    if ranges:
        options["cwlGrades"] = CLIP_POLICY
    if cost_options is not None:
        options["cwlCosts"] = cost_options
    return RunEvaluation(names_kept, list(full.query_ids), full._columns[:kept].T,
                         [full.mean[n] for n in names_kept], [full.defined_counts[n] for n in names_kept],
                         options, full.missing_query_ids, texts=full.texts,
                         policy_warnings=[*full.policy_warnings, *warnings, *scan.warnings(full.query_ids)])
