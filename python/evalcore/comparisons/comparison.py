""":class:`Comparison`, the result of :func:`evalcore.compare`: its tables (pandas DataFrames
when pandas is installed), JSON, Markdown, LaTeX and plain-text renderings. Shared by the
native API and the reference; nothing here imports the compiled core."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import tables
from .distributions import WILCOXON_CONVENTION

CONVENTIONS = {
    "queries": "a pair is compared on the queries where the measure is defined for both runs, in query-ID order "
               "(code points); the others are dropped and counted by reason",
    "differences": "delta and the resampling tests use the exact differences run - baseline (summed exactly, rounded "
                   "once); the t and Wilcoxon tests use the binary64 differences a - b, as scipy.stats computes them",
    "family": "per test: every (pair, measure) comparison of the call with a defined p-value, corrected on its own",
    "generator": "SplitMix64 counters keyed by (seed, test, resample, query position); docs/compare.md",
    "wilcoxon": WILCOXON_CONVENTION,
    "pValue": "randomization and bootstrap: (count + 1) / (resamples + 1): the observed assignment counts as one of "
              "the resamples, so the p-value is never 0 and the test never rejects more often than alpha under the "
              "null hypothesis (Phipson and Smyth 2010); count / resamples can be 0 and is not a valid p-value",
}


def _json_number(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _interval(pair: Tuple[float, float]) -> Dict[str, Optional[float]]:
    return {"low": _json_number(pair[0]), "high": _json_number(pair[1])}


class Comparison:
    """The result of :func:`evalcore.compare`.

    Attributes:
        runs: the run names, in the order given (they label the rows a, b, c, ...).
        measures: the measure names.
        options: the call's choices (baseline, tests, intervals, correction, alpha,
            confidence, resamples, seed).
        evaluation: the evaluate_run options the runs were scored with.
        families: per test, the size of its correction family (and how many comparisons
            had no p-value and stayed out of it).
    """

    def __init__(self, runs: Sequence[str], measures: Sequence[str], options: Dict[str, Any],
                 evaluation: Dict[str, Any], run_rows: List[Dict[str, Any]], rows: List[Dict[str, Any]],
                 families: Dict[str, Dict[str, Any]], tukey: Optional[Dict[str, Any]] = None,
                 per_query: Optional[Dict[str, Any]] = None) -> None:
        self.runs: Tuple[str, ...] = tuple(runs)
        self.measures: Tuple[str, ...] = tuple(measures)
        self.options: Dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items() if k != "threads"}
        self.evaluation: Dict[str, Any] = dict(evaluation)
        self.families = families
        self._run_rows = run_rows
        self._rows = rows
        #: per measure, the Tukey HSD results (compare's ``tukey=``): queries, dropped, and per
        #: kind its pairs and groups of runs not significantly different; empty when not asked.
        self.tukey: Dict[str, Any] = dict(tukey or {})
        self._per_query: Dict[str, Any] = per_query or {"queries": [], "values": {}}

    # ---- plain data ---------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the options, the family, the conventions, per run and measure its mean
        and intervals (``summary``), per (pair, measure) every number (``comparisons``);
        null where a number is undefined."""
        summary = [{"run": r["run"], "measure": r["measure"], "queries": r["queries"], "mean": _json_number(r["mean"]),
                    "intervals": {k: _interval(v) for k, v in r["intervals"].items()},
                    "sharedQueries": r["sharedQueries"], "sharedMean": _json_number(r["sharedMean"])}
                   for r in self._run_rows]
        comparisons = []
        for r in self._rows:
            comparisons.append({
                "run": r["run"], "baseline": r["baseline"], "measure": r["measure"], "queries": r["queries"],
                "dropped": r["dropped"], "droppedReasons": dict(r["droppedReasons"]), "mean": _json_number(r["mean"]),
                "baselineMean": _json_number(r["baselineMean"]), "delta": _json_number(r["delta"]),
                "effectSize": _json_number(r["effectSize"]),
                "intervals": {k: _interval(v) for k, v in r["intervals"].items()},
                "tests": {t: {k: _json_number(v) for k, v in result.items()} for t, result in r["tests"].items()},
            })
        family = {"definition": CONVENTIONS["family"], "correction": self.options["correction"],
                  "sizes": {t: f["size"] for t, f in self.families.items()},
                  "undefined": {t: f["undefined"] for t, f in self.families.items()}}
        conventions = dict(CONVENTIONS)
        out = {"runs": list(self.runs), "measures": list(self.measures), **self.options,
               "evaluation": dict(self.evaluation), "family": family, "conventions": conventions,
               "summary": summary, "comparisons": comparisons}
        if self.tukey:
            out["tukeyHsd"] = {m: {k: ({"pairs": [{f: _json_number(v) for f, v in p.items()} for p in r["pairs"]],
                                         "groups": r["groups"]} if isinstance(r, dict) else r)
                                   for k, r in t.items()} for m, t in self.tukey.items()}
        return out

    def per_query(self, measure: str) -> Dict[str, Dict[str, float]]:
        """run → {query ID: value} of one measure, for the queries where the run has it
        (the values the tests were computed from)."""
        if measure not in self.measures:
            raise ValueError(f"measure must be one of the measures compared ({', '.join(self.measures)}), got {measure!r}")
        queries = self._per_query["queries"]
        return {run: {q: float(v) for q, v in zip(queries, self._per_query["values"][(run, measure)].tolist())
                      if not math.isnan(v)} for run in self.runs}

    def to_json(self, indent: Optional[int] = None) -> str:
        """:meth:`to_dict` as JSON text (floats in shortest round-trip form)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def _table_columns(self) -> Dict[str, List[Any]]:
        columns: Dict[str, List[Any]] = {k: [] for k in ("run", "baseline", "measure", "queries", "dropped", "mean",
                                                          "baseline_mean", "delta", "effect_size", "dropped_reasons")}
        for kind in self.options["intervals"]:
            columns[f"ci_low_{kind}"], columns[f"ci_high_{kind}"] = [], []
        for test in self.options["tests"]:
            for name in ("p", "p_adjusted", "significant"):
                columns[f"{name}_{test}"] = []
        for r in self._rows:
            for key, source in (("run", "run"), ("baseline", "baseline"), ("measure", "measure"), ("queries", "queries"),
                                ("dropped", "dropped"), ("mean", "mean"), ("baseline_mean", "baselineMean"),
                                ("delta", "delta"), ("effect_size", "effectSize")):
                columns[key].append(r[source])
            columns["dropped_reasons"].append(", ".join(f"{k}: {v}" for k, v in r["droppedReasons"].items() if v))
            for kind in self.options["intervals"]:
                columns[f"ci_low_{kind}"].append(r["intervals"][kind][0])
                columns[f"ci_high_{kind}"].append(r["intervals"][kind][1])
            for test in self.options["tests"]:
                result = r["tests"][test]
                columns[f"p_{test}"].append(result["p"])
                columns[f"p_adjusted_{test}"].append(result["pAdjusted"])
                columns[f"significant_{test}"].append(result["significant"])
        return columns

    def _frame(self, columns: Dict[str, List[Any]]) -> Any:
        try:
            import pandas as pd
        except ImportError:
            return columns
        frame = pd.DataFrame(columns)
        frame.attrs["options"] = tables.options_line(self)  # the options in force travel with the table
        return frame

    @property
    def table(self) -> Any:
        """One row per (run, baseline, measure): queries paired, dropped, mean, baseline_mean,
        delta (of the means over the paired queries), effect_size (standardized: mean / sd of
        the differences), dropped_reasons (why, counted), ci_low_<kind> / ci_high_<kind> (intervals of delta), and per test
        p_<test>, p_adjusted_<test>, significant_<test>. A pandas DataFrame when pandas is
        installed, else a dict of column lists; NaN where a number is undefined."""
        return self._frame(self._table_columns())

    @property
    def summary(self) -> Any:
        """One row per (run, measure): queries where it is defined, the mean over them
        (unpaired: each run over its own queries; ``paired`` is False to say so), its
        intervals ci_low_<kind> / ci_high_<kind>, and shared_queries / shared_mean: the mean
        over the queries every run has, which runs can be set side by side with. DataFrame
        (the options in ``.attrs["options"]``) or dict of lists, as table."""
        columns: Dict[str, List[Any]] = {"run": [], "measure": [], "queries": [], "mean": [], "paired": []}
        for kind in self.options["intervals"]:
            columns[f"ci_low_{kind}"], columns[f"ci_high_{kind}"] = [], []
        for r in self._run_rows:
            for key in ("run", "measure", "queries", "mean"):
                columns[key].append(r[key])
            columns["paired"].append(False)
            for kind in self.options["intervals"]:
                columns[f"ci_low_{kind}"].append(r["intervals"][kind][0])
                columns[f"ci_high_{kind}"].append(r["intervals"][kind][1])
            columns.setdefault("shared_queries", []).append(r["sharedQueries"])
            columns.setdefault("shared_mean", []).append(r["sharedMean"])
        return self._frame(columns)

    # ---- renderings (comparisons/tables.py) --------------------------------------------

    def to_markdown(self, test: Optional[str] = None, digits: int = 4) -> str:
        """A ranx-style table of means, a row per run (labelled a, b, c, ...), a column per
        measure with its query count: the means over the queries every run has, with
        superscripts naming the runs each is significantly better than by `test` (default:
        the first test compared) after the correction; the best mean bold. Then every
        comparison with its paired means, its queries, what was dropped and every test's
        decision; then why queries were dropped and the options in force."""
        return tables.markdown(self, self._check_test(test), digits)

    def to_latex(self, test: Optional[str] = None, digits: int = 4, caption: Optional[str] = None) -> str:
        """The same tables as :meth:`to_markdown` for LaTeX (booktabs), superscripts as
        ``$^{ab}$``, the best mean in ``\\textbf``; names escaped. `caption` replaces the
        first table's legend (the drops and options stay in the second's caption)."""
        return tables.latex(self, self._check_test(test), digits, caption)

    def to_text(self, digits: int = 4) -> str:
        """Plain text (the `evalcore compare` table format): every comparison on a line (pair,
        measure, paired queries, dropped, the paired means, delta with its intervals, each
        test's p and adjusted p, * where significant), the family, every run's mean over its
        own queries (unpaired, so marked) and over the queries every run has, the Tukey HSD
        groups when asked for, why queries were dropped and the options."""
        return tables.text(self, digits)

    def _check_test(self, test: Optional[str]) -> Optional[str]:
        """The test whose significance the tables mark: the one named, else the first
        compared (None when the call ran no test: no marks)."""
        if test is None:
            return self.options["tests"][0] if self.options["tests"] else None
        if test not in self.options["tests"]:
            raise ValueError(f"test must be one of the tests compared ({', '.join(self.options['tests'])}), got {test!r}")
        return test

    def to_html(self, path: Optional[str] = None, *, inputs: Sequence[Any] = (), command: Optional[Sequence[str]] = None,
                title: Optional[str] = None) -> str:
        """A self-contained HTML report (no network: inline SVG, no script to run, no external
        reference): the tables, per measure and pair the per-query differences sorted (wins,
        losses, ties counted), the per-query score distributions, the interpolated
        precision-recall curves (when the runs were evaluated with IPrec@0.0 ... IPrec@1.0),
        the Tukey HSD groups, provenance (evalcore version, `inputs` that are files with their
        SHA-256, `command`, default sys.argv) and :meth:`to_json` embedded in
        ``<script type="application/json" id="evalcore-data">``. Written to `path` (UTF-8)
        unless it is None; the HTML is returned either way."""
        from .html_report import to_html
        return to_html(self, path, inputs, command, title)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        return tables.html(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Comparison):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        means = "; ".join(f"{r['run']} {r['measure']}={r['sharedMean']:.4f}" for r in self._run_rows)
        shared = ", ".join(f"{r['measure']} n={r['sharedQueries']}" for r in self._run_rows[::len(self.runs)])
        return (f"Comparison({len(self.runs)} runs, {len(self.measures)} measures, {len(self._rows)} comparisons, "
                f"tests {', '.join(self.options['tests']) or 'none'}; means over shared queries ({shared}): {means})")
