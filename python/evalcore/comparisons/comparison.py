""":class:`Comparison`, the result of :func:`evalcore.compare`: its tables (pandas DataFrames
when pandas is installed), JSON, Markdown, LaTeX and plain-text renderings. Shared by the
native API and the reference; nothing here imports the compiled core."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .distributions import WILCOXON_CONVENTION

_SUPERSCRIPTS = dict(zip("abcdefghijklmnoprstuvwxyz0123456789", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹"))

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


def _label(i: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else f"r{i + 1}"


def _superscript(labels: Sequence[str]) -> str:
    text = "".join(labels)
    if all(c in _SUPERSCRIPTS for c in text):
        return "".join(_SUPERSCRIPTS[c] for c in text)
    return "^(" + ",".join(labels) + ")"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                  "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _aligned(rows: List[List[str]]) -> str:
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n" for row in rows)


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
                 families: Dict[str, Dict[str, Any]]) -> None:
        self.runs: Tuple[str, ...] = tuple(runs)
        self.measures: Tuple[str, ...] = tuple(measures)
        self.options: Dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items() if k != "threads"}
        self.evaluation: Dict[str, Any] = dict(evaluation)
        self.families = families
        self._run_rows = run_rows
        self._rows = rows

    # ---- plain data ---------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the options, the family, the conventions, per run and measure its mean
        and intervals (``summary``), per (pair, measure) every number (``comparisons``);
        null where a number is undefined."""
        summary = [{"run": r["run"], "measure": r["measure"], "queries": r["queries"], "mean": _json_number(r["mean"]),
                    "intervals": {k: _interval(v) for k, v in r["intervals"].items()}} for r in self._run_rows]
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
        return {"runs": list(self.runs), "measures": list(self.measures), **self.options,
                "evaluation": dict(self.evaluation), "family": family, "conventions": conventions,
                "summary": summary, "comparisons": comparisons}

    def to_json(self, indent: Optional[int] = None) -> str:
        """:meth:`to_dict` as JSON text (floats in shortest round-trip form)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def _table_columns(self) -> Dict[str, List[Any]]:
        columns: Dict[str, List[Any]] = {k: [] for k in ("run", "baseline", "measure", "queries", "dropped", "mean",
                                                          "baseline_mean", "delta", "effect_size")}
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
            for kind in self.options["intervals"]:
                columns[f"ci_low_{kind}"].append(r["intervals"][kind][0])
                columns[f"ci_high_{kind}"].append(r["intervals"][kind][1])
            for test in self.options["tests"]:
                result = r["tests"][test]
                columns[f"p_{test}"].append(result["p"])
                columns[f"p_adjusted_{test}"].append(result["pAdjusted"])
                columns[f"significant_{test}"].append(result["significant"])
        return columns

    @staticmethod
    def _frame(columns: Dict[str, List[Any]]) -> Any:
        try:
            import pandas as pd
        except ImportError:
            return columns
        return pd.DataFrame(columns)

    @property
    def table(self) -> Any:
        """One row per (run, baseline, measure): queries paired, dropped, mean, baseline_mean,
        delta (of the means over the paired queries), effect_size (standardized: mean / sd of
        the differences), ci_low_<kind> / ci_high_<kind> (intervals of delta), and per test
        p_<test>, p_adjusted_<test>, significant_<test>. A pandas DataFrame when pandas is
        installed, else a dict of column lists; NaN where a number is undefined."""
        return self._frame(self._table_columns())

    @property
    def summary(self) -> Any:
        """One row per (run, measure): queries where it is defined, the mean over them, and
        its intervals ci_low_<kind> / ci_high_<kind>. DataFrame or dict of lists, as table."""
        columns: Dict[str, List[Any]] = {"run": [], "measure": [], "queries": [], "mean": []}
        for kind in self.options["intervals"]:
            columns[f"ci_low_{kind}"], columns[f"ci_high_{kind}"] = [], []
        for r in self._run_rows:
            for key in ("run", "measure", "queries", "mean"):
                columns[key].append(r[key])
            for kind in self.options["intervals"]:
                columns[f"ci_low_{kind}"].append(r["intervals"][kind][0])
                columns[f"ci_high_{kind}"].append(r["intervals"][kind][1])
        return self._frame(columns)

    # ---- renderings ---------------------------------------------------------------------

    def _better_than(self, test: Optional[str]) -> Dict[Tuple[str, str], List[str]]:
        """(run, measure) -> labels of the runs it is significantly better than."""
        labels = {name: _label(i) for i, name in enumerate(self.runs)}
        out: Dict[Tuple[str, str], List[str]] = {}
        for r in self._rows if test is not None else ():
            result = r["tests"][test]
            if not result["significant"] or not r["delta"] or math.isnan(r["delta"]):
                continue
            winner, loser = (r["run"], r["baseline"]) if r["delta"] > 0 else (r["baseline"], r["run"])
            out.setdefault((winner, r["measure"]), []).append(labels[loser])
        return {k: sorted(v, key=lambda x: (len(x), x)) for k, v in out.items()}

    def _means(self) -> Dict[Tuple[str, str], float]:
        return {(r["run"], r["measure"]): r["mean"] for r in self._run_rows}

    def _legend(self, test: Optional[str]) -> str:
        if test is None:
            return "No test was run; bold: the best mean."
        size = self.families[test]["size"]
        return (f"Superscripts: significantly better than the run of that letter ({test} test, "
                f"{self.options['correction']} correction over {size} comparisons, alpha {self.options['alpha']}); "
                f"bold: the best mean.")

    def _check_test(self, test: Optional[str]) -> Optional[str]:
        """The test whose significance the tables mark: the one named, else the first
        compared (None when the call ran no test: no marks)."""
        if test is None:
            return self.options["tests"][0] if self.options["tests"] else None
        if test not in self.options["tests"]:
            raise ValueError(f"test must be one of the tests compared ({', '.join(self.options['tests'])}), got {test!r}")
        return test

    def _cells(self, test: Optional[str], digits: int, undefined: str, bold: str,
               marks: str) -> List[Tuple[str, str, List[str]]]:
        """(label, run, cells) per run of the ranx-style table: each mean to `digits`
        decimals (`undefined` for NaN), the best of its measure through `bold` (a format
        with {}), followed by `marks` formatted with the superscript labels of the runs it
        is significantly better than by `test` after the correction."""
        better, means = self._better_than(test), self._means()
        best = {m: max((v for (_, mm), v in means.items() if mm == m and not math.isnan(v)), default=math.nan)
                for m in self.measures}
        out = []
        for i, name in enumerate(self.runs):
            cells = []
            for m in self.measures:
                value = means[(name, m)]
                text = undefined if math.isnan(value) else f"{value:.{digits}f}"
                if value == best[m]:
                    text = bold.format(text)
                labels = better.get((name, m))
                cells.append(text + (marks.format(_superscript(labels), "".join(labels)) if labels else ""))
            out.append((_label(i), name, cells))
        return out

    def to_markdown(self, test: Optional[str] = None, digits: int = 4) -> str:
        """A ranx-style table: a row per run (labelled a, b, c, ...), a column per measure,
        each mean with superscripts naming the runs it is significantly better than by
        `test` (default: the first test compared) after the correction; the best mean bold."""
        test = self._check_test(test)
        lines = ["| # | Run | " + " | ".join(self.measures) + " |", "|---|---|" + "---:|" * len(self.measures)]
        for label, name, cells in self._cells(test, digits, "n/a", "**{}**", "{0}"):
            lines.append(f"| {label} | {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n\n" + self._legend(test) + "\n"

    def to_latex(self, test: Optional[str] = None, digits: int = 4, caption: Optional[str] = None) -> str:
        """The same table as :meth:`to_markdown` for LaTeX (booktabs), superscripts as
        ``$^{ab}$``, the best mean in ``\\textbf``; names escaped."""
        test = self._check_test(test)
        out = ["\\begin{table}[t]", "\\centering", "\\begin{tabular}{cl" + "r" * len(self.measures) + "}", "\\toprule",
               "\\# & Run & " + " & ".join(_latex(m) for m in self.measures) + " \\\\", "\\midrule"]
        for label, name, cells in self._cells(test, digits, "--", "\\textbf{{{}}}", "$^{{{1}}}$"):
            out.append(f"{label} & {_latex(name)} & " + " & ".join(cells) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{_latex(caption or self._legend(test))}}}", "\\end{table}"]
        return "\n".join(out) + "\n"

    def to_text(self, digits: int = 4) -> str:
        """Plain text (the `evalcore compare` table format): every comparison on a line (pair,
        measure, paired queries, delta with its intervals, each test's p and adjusted p, *
        where significant), the family, then every run's mean with its intervals."""
        def number(x: float) -> str:
            return "n/a" if math.isnan(x) else f"{x:.{digits}f}"

        def p_value(x: float) -> str:
            return "n/a" if math.isnan(x) else f"{x:.{digits}g}"

        def interval(pair: Tuple[float, float]) -> str:
            return f"[{number(pair[0])}, {number(pair[1])}]"

        kinds = self.options["intervals"]
        header = ["run", "baseline", "measure", "n", "delta"] + [f"{kind} interval" for kind in kinds]
        for test in self.options["tests"]:
            header += [f"p {test}", "adjusted"]
        table = [header]
        for r in self._rows:
            line = [r["run"], r["baseline"], r["measure"], str(r["queries"]), number(r["delta"])]
            line += [interval(r["intervals"][kind]) for kind in kinds]
            for test in self.options["tests"]:
                result = r["tests"][test]
                line += [p_value(result["p"]), p_value(result["pAdjusted"]) + ("*" if result["significant"] else "")]
            table.append(line)
        runs = [["run", "measure", "n", "mean"] + [f"{kind} interval" for kind in kinds]]
        for r in self._run_rows:
            runs.append([r["run"], r["measure"], str(r["queries"]), number(r["mean"])] +
                        [interval(r["intervals"][kind]) for kind in kinds])
        sizes = ", ".join(f"{t}: {f['size']}" for t, f in self.families.items())
        note = (f"* significant at alpha {self.options['alpha']} after {self.options['correction']}, each test over its "
                f"own family ({sizes} comparisons)" if sizes else "no test was run")
        return _aligned(table) + "\n" + note + "\n\n" + _aligned(runs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Comparison):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"Comparison({len(self.runs)} runs, {len(self.measures)} measures, {len(self._rows)} comparisons, "
                f"tests {', '.join(self.options['tests'])})")
