"""The Tukey HSD as a call of its own (issue 26): :class:`TukeyHsd` and the body of
:func:`evalcore.tukey_hsd` / :func:`evalcore.tukey_hsd_values`, shared by the native API and
the reference (each brings its backend, as compare does). The numbers are compare's
``tukey=`` results, computed by the same code (:mod:`~evalcore.comparisons.tukey`) on the
same matrix: the queries where every run has the measure, in query-ID order."""

from __future__ import annotations

import html
import json
import math
from typing import Any, Dict, List, Mapping, Optional, Set

import numpy as np

from . import tukey as _tukey
from .comparison import _json_number
from .procedure import _align, _choice_tuple, check_compare_options, evaluate_runs


class TukeyHsd:
    """The result of :func:`evalcore.tukey_hsd` (one measure, one kind).

    Attributes:
        kind: ``"randomized"`` or ``"classic"``.
        measure: the measure's name (None for :func:`evalcore.tukey_hsd_values`).
        runs: the run names, in the order given.
        queries: the queries used: those where every run has a value.
        dropped: the queries some run lacks (or has no value for), left out.
        means: per run, its mean over the queries used (an exact sum rounded once, / queries).
        pairs: per pair (``baseline`` the earlier run, as compare's pairs): ``run``,
            ``baseline``, ``delta`` (mean of run − mean of baseline), ``p``, ``significant``
            (at `alpha`), and ``count`` (randomized: resamples whose range of means reached
            the pair's difference) or ``statistic``, ``low``, ``high`` (classic: the studentized
            range and the simultaneous interval of delta).
        groups: the groups of runs not significantly different from each other (runs sorted
            by mean, highest first; each a maximal stretch with no significant pair inside).
        options: ``alpha``, and for the randomized kind ``resamples`` and ``seed``.
    """

    def __init__(self, kind: str, measure: Optional[str], runs: List[str], queries: int, dropped: int,
                 means: List[float], result: Dict[str, Any], options: Dict[str, Any]) -> None:
        self.kind, self.measure, self.runs = kind, measure, runs
        self.queries, self.dropped, self.means = queries, dropped, dict(zip(runs, means))
        self.pairs: List[Dict[str, Any]] = result["pairs"]
        self.groups: List[List[str]] = result["groups"]
        self.options = options

    def to_dict(self) -> Dict[str, Any]:
        """Everything as plain JSON-ready values (undefined numbers as None)."""
        return {"kind": self.kind, "measure": self.measure, "runs": list(self.runs), "queries": self.queries,
                "dropped": self.dropped, "means": {r: _json_number(v) for r, v in self.means.items()},
                "pairs": [{f: _json_number(v) for f, v in p.items()} for p in self.pairs],
                "groups": [list(g) for g in self.groups], **self.options}

    def to_json(self, indent: Optional[int] = None) -> str:
        """:meth:`to_dict` as JSON text (floats in shortest round-trip form)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def _heading(self) -> str:
        return (f"Tukey HSD ({self.kind}){'' if self.measure is None else ', ' + self.measure}, {self.queries} "
                f"queries every run has ({self.dropped} dropped), alpha {self.options['alpha']}")

    def _rows(self) -> List[List[str]]:
        def cell(x: float) -> str:
            return "n/a" if math.isnan(x) else f"{x:.4f}"
        return [[p["run"], p["baseline"], cell(self.means[p["run"]]), cell(self.means[p["baseline"]]),
                 cell(p["delta"]), cell(p["p"]), "yes" if p["significant"] else "no"] for p in self.pairs]

    def group_text(self) -> str:
        """The groups as text: ``{a, b} {c}``."""
        return " ".join("{" + ", ".join(g) + "}" for g in self.groups)

    _HEAD = ["run", "baseline", "mean", "baseline mean", "delta", "p", "significant"]

    def _repr_markdown_(self) -> str:
        lines = [f"**{self._heading()}**", "", "| " + " | ".join(self._HEAD) + " |", "|---|---|" + "---:|" * 5]
        lines += ["| " + " | ".join(row) + " |" for row in self._rows()]
        return "\n".join(lines + ["", f"Runs not significantly different: {self.group_text()}", ""])

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for h in self._HEAD)
        body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in self._rows())
        return (f"<div class=\"evalcore-tukey\"><p><b>{e(self._heading())}</b></p><table><thead><tr>{head}</tr>"
                f"</thead><tbody>{body}</tbody></table><p>runs not significantly different: "
                f"{e(self.group_text())}</p></div>")

    def __repr__(self) -> str:
        return f"TukeyHsd({self._heading()}; runs not significantly different: {self.group_text()})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TukeyHsd):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _check_runs(runs: Any, call: str, field: str) -> None:
    """The runs' own checks, named for this call (compare's checks then do the rest)."""
    if not isinstance(runs, Mapping):
        raise TypeError(f"{field} must be a mapping of run names to runs, got {type(runs).__name__}")
    if len(runs) < 2:
        raise ValueError(f"{call} needs at least two runs in {field}, got {len(runs)}: a Tukey HSD compares "
                         f"every pair of them")


def _check_kind(kind: Any) -> str:
    if not isinstance(kind, str):
        raise TypeError(f"kind must be 'randomized' or 'classic', got {type(kind).__name__}")
    return _choice_tuple(kind, _tukey.KINDS, "kind")[0]


def _result(backend: Any, kind: str, measure: Optional[str], names: List[str], matrix: np.ndarray, dropped: int,
            options: Any) -> TukeyHsd:
    """The means (the backend's exact means, as compare's sharedMean) and compare's Tukey code."""
    n = matrix.shape[1]
    means = ([s.mean for s in backend.paired_summaries([(row, None) for row in matrix], False, options.threads)]
             if n else [math.nan] * len(names))
    out = _tukey.tukey_hsd(backend, names, matrix, (kind,), options, dropped, means)
    chosen = {"alpha": options.alpha, **({"resamples": options.resamples, "seed": options.seed}
                                         if kind == "randomized" else {})}
    return TukeyHsd(kind, measure, names, out["queries"], out["dropped"], means, out[kind], chosen)


def tukey_hsd_of_runs(backend: Any, qrels: Any, runs: Mapping[str, Any], measure: str, *, kind: str, alpha: float,
                      resamples: int, seed: int, threads: Optional[int],
                      evaluation_options: Dict[str, Any]) -> TukeyHsd:
    """The body of evalcore.tukey_hsd for a backend."""
    _check_runs(runs, "tukey_hsd", "runs")
    options = check_compare_options(runs, None, (), (), "none", alpha, 0.95, resamples, seed, threads)
    kind = _check_kind(kind)
    if not isinstance(measure, str):
        raise TypeError(f"measure must be one measure's name (a str), got {type(measure).__name__}")
    evaluations, _ = evaluate_runs(backend, qrels, runs, [measure], dict(evaluation_options), options.threads)
    aligned = _align(evaluations, [measure])
    names = list(runs)
    shared = np.flatnonzero(np.logical_and.reduce([~np.isnan(aligned.values[(name, measure)]) for name in names]))
    matrix = np.ascontiguousarray(np.vstack([aligned.values[(name, measure)][shared] for name in names]))
    return _result(backend, kind, measure, names, matrix, len(aligned.queries) - int(shared.size), options)


def tukey_hsd_of_values(backend: Any, values: Mapping[str, Mapping[str, float]], *, kind: str, alpha: float,
                        resamples: int, seed: int, threads: Optional[int]) -> TukeyHsd:
    """The body of evalcore.tukey_hsd_values for a backend."""
    _check_runs(values, "tukey_hsd_values", "values")
    options = check_compare_options(values, None, (), (), "none", alpha, 0.95, resamples, seed, threads)
    kind = _check_kind(kind)
    names = list(values)
    every: Set[str] = set()
    for name in names:
        per_query = values[name]
        if not isinstance(per_query, Mapping):
            raise TypeError(f"values[{name!r}] must be a mapping of query IDs to numbers, got "
                            f"{type(per_query).__name__}")
        for query, value in per_query.items():
            if not isinstance(query, str):
                raise TypeError(f"values[{name!r}]: query IDs must be str, got {query!r}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isinf(value):
                raise ValueError(f"values[{name!r}][{query!r}] must be a finite number (or NaN: no value), got "
                                 f"{value!r}")
        every.update(per_query)
    queries = sorted(every)  # code point order, as compare's
    matrix = np.array([[float(values[name].get(q, math.nan)) for q in queries] for name in names],
                      dtype=np.float64).reshape(len(names), len(queries))
    kept = ~np.isnan(matrix).any(axis=0)
    return _result(backend, kind, None, names, np.ascontiguousarray(matrix[:, kept]), int((~kept).sum()), options)
