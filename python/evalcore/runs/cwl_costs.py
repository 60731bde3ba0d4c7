"""evaluate_run's ``costs=``: cwl_eval's cost file (its ``-c``) for the C/W/L measures (issue
25 item 2, cwl2).

cwl_eval reads a cost file of ``element_type cost`` lines and gives each ranked item the cost
of its element type, the second column of the run file (``Q0`` in TREC runs); an item whose
type the file lacks costs ``--max_cost`` (``--min_cost`` in the residuals' upper bound).
evalcore's run readers do not keep that column, so the costs are applied here, in Python and
for both cores: the run file's element types are read (the second field of each line), and,
when every line has the same one, its cost becomes the ``cost=`` of every C/W/L measure that
does not give its own (no cost when the file lacks the type: ``max_cost`` and ``min_cost``
apply, as in cwl_eval). A run mixing element types is refused: one measure has one cost per
item here. The result's ``options["cwlCosts"]`` says what was applied.
"""

from __future__ import annotations

import gzip
import math
import os
from typing import Any, Dict, List, Optional, Tuple

from .cwl_names import CWL_KINDS
from .measures import KIND, MeasureSpec

_CWL_KIND_INDICES = frozenset(KIND[k] for k in CWL_KINDS)
_COST = 6  # a C/W/L measure's cost among its parameters (cwl_names.CWL_PARAMETER_COUNT lists them)


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, bytes, os.PathLike))


def read_costs(costs: Any) -> Dict[str, float]:
    """`costs` checked: a dict ``{element_type: cost}`` or the path of a cwl_eval cost file
    (``element_type cost`` lines; blank lines skipped). Each cost a finite number > 0."""
    if _is_path(costs):
        table: Dict[str, float] = {}
        name = os.fsdecode(costs)
        with open(costs, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                fields = raw.decode("utf-8", "replace").split()
                if not fields:
                    continue
                if len(fields) != 2:
                    raise ValueError(f"costs file {name}:{number}: a line is 'element_type cost' (2 fields, as "
                                     f"cwl_eval's -c file), got {len(fields)} fields")
                try:
                    value = float(fields[1])
                except ValueError:
                    raise ValueError(f"costs file {name}:{number}: the cost {fields[1]!r} is not a number") from None
                table[fields[0]] = _checked_cost(value, f"costs file {name}:{number}")
        return table
    if not isinstance(costs, dict):
        raise TypeError(f"costs must be a dict {{element_type: cost}} or a cwl_eval cost file path, "
                        f"got {type(costs).__name__}")
    for key, value in costs.items():
        if not isinstance(key, str):
            raise TypeError(f"costs: an element type must be a str, got {key!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"costs[{key!r}] must be a number > 0, got {value!r}")
        _checked_cost(float(value), f"costs[{key!r}]")
    return {k: float(v) for k, v in costs.items()}


def _checked_cost(value: float, where: str) -> float:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{where}: a cost must be a finite number > 0 (cwl_eval: no free lunches), got {value!r}")
    return value


def run_element_type(run: Any) -> str:
    """The element type of every line of a TREC run file (its second field), or a ValueError:
    a run that is not a TREC file path, or that mixes element types."""
    if not _is_path(run) or os.fsdecode(run).endswith(".parquet"):
        raise ValueError("costs= reads each item's element type from a TREC run file's second column (as cwl_eval "
                         "does): give the run as a file path, or give the C/W/L measures their cost (cost=c)")
    opener = gzip.open if os.fsdecode(run).endswith(".gz") else open
    seen: Optional[Tuple[str, int]] = None
    with opener(run, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            fields = raw.split(None, 2)
            if len(fields) < 2 or fields[0].startswith(b"#"):
                continue  # (blank and comment lines; a malformed line is the reader's to report)
            kind = fields[1].decode("utf-8", "replace")
            if seen is None:
                seen = (kind, number)
            elif kind != seen[0]:
                raise ValueError(f"{os.fsdecode(run)}:{number}: element type {kind!r} after {seen[0]!r} (line "
                                 f"{seen[1]}): with costs=, evalcore gives every ranked item one cost, so the run's "
                                 f"lines must share one element type (cwl_eval's per-type costs of a mixed run are not "
                                 f"provided)")
    return "Q0" if seen is None else seen[0]


def with_cwl_costs(specs: List[MeasureSpec], costs: Any,
                   run: Any) -> Tuple[List[MeasureSpec], Optional[Dict[str, Any]]]:
    """The specs with the cost of the run's element type as the cost of every C/W/L measure
    that gives none, and options["cwlCosts"] (None: `costs` is None)."""
    if costs is None:
        return specs, None
    table = read_costs(costs)
    element_type = run_element_type(run)
    cost = table.get(element_type)
    out = []
    for spec in specs:
        p = spec.parameters
        if spec.kind in _CWL_KIND_INDICES and len(p) > _COST and math.isnan(p[_COST]) and cost is not None:
            spec = spec._replace(parameters=(*p[:_COST], cost, *p[_COST + 1:]))
        out.append(spec)
    return out, {"elementType": element_type, "cost": cost}
