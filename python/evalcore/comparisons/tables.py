"""The renderings of a :class:`~evalcore.Comparison` (issue 26: honest tables): every table
shows the means the tests compared (each pair's, over its paired queries), the number of
queries, what was dropped and why, every requested test's decision and the options in
force. The ranx-style table of all runs shows each run's mean over the queries every run
has, and says so; a mean over a run's own queries is marked unpaired wherever it appears."""

from __future__ import annotations

import html as _html
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

_SUPERSCRIPTS = dict(zip("abcdefghijklmnoprstuvwxyz0123456789", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹"))
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                  "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_REASONS = {"missingInBoth": "judged, in neither run", "missingInRun": "missing from {run}",
            "missingInBaseline": "missing from {baseline}", "undefinedInBoth": "undefined in both",
            "undefinedInRun": "undefined in {run}", "undefinedInBaseline": "undefined in {baseline}"}


def label(i: int) -> str:
    """The row label of the i-th run: a, b, ..., z, then r27, r28, ..."""
    return "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else f"r{i + 1}"


def superscript(labels: Sequence[str]) -> str:
    text = "".join(labels)
    if all(c in _SUPERSCRIPTS for c in text):
        return "".join(_SUPERSCRIPTS[c] for c in text)
    return "^(" + ",".join(labels) + ")"


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _aligned(rows: List[List[str]]) -> str:
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n" for row in rows)


def _number(x: float, digits: int, undefined: str = "n/a") -> str:
    return undefined if math.isnan(x) else f"{x:.{digits}f}"


def _p(x: float, digits: int) -> str:
    return "n/a" if math.isnan(x) else f"{x:.{digits}g}"


# ---- the words every table shares --------------------------------------------------------


def options_line(c: Any) -> str:
    """The options in force: the evaluation's, the tests', the intervals', the resampling's."""
    evaluation = ", ".join(f"{k} {v}" for k, v in c.evaluation.items())
    o = c.options
    tests = ", ".join(o["tests"]) or "none"
    tukey = f"; Tukey HSD {', '.join(o['tukey'])} (one family of all pairs)" if o.get("tukey") else ""
    return (f"Options: evaluation {evaluation}; tests {tests} ({o['correction']} correction per test, alpha "
            f"{o['alpha']}){tukey}; intervals {', '.join(o['intervals']) or 'none'} (confidence {o['confidence']}); "
            f"{o['resamples']} resamples, seed {o['seed']}.")


def dropped_lines(c: Any) -> List[str]:
    """Per comparison that dropped queries: how many and why; per measure where a run has
    queries the table of all runs leaves out: how many."""
    out = []
    for r in c._rows:
        if r["dropped"]:
            why = ", ".join(f"{_REASONS[k].format(run=r['run'], baseline=r['baseline'])}: {v}"
                            for k, v in r["droppedReasons"].items() if v)
            out.append(f"{r['run']} vs {r['baseline']}, {r['measure']}: {r['queries']} paired queries, "
                       f"{r['dropped']} dropped ({why}).")
    for m in c.measures:
        extra = [(r["run"], r["queries"] - r["sharedQueries"]) for r in c._run_rows
                 if r["measure"] == m and r["queries"] != r["sharedQueries"]]
        if extra:
            shared = next(r["sharedQueries"] for r in c._run_rows if r["measure"] == m)
            out.append(f"{m}: the table of all runs averages the {shared} queries every run has; left out there: "
                       + ", ".join(f"{k} of {run}" for run, k in extra) + ".")
    return out


def tukey_lines(c: Any) -> List[str]:
    out = []
    for m, result in c.tukey.items():
        for kind in c.options.get("tukey", []):
            groups = " ".join("{" + ", ".join(g) + "}" for g in result[kind]["groups"])
            out.append(f"Tukey HSD ({kind}), {m}, {result['queries']} queries every run has ({result['dropped']} "
                       f"dropped), alpha {c.options['alpha']}: runs not significantly different: {groups}.")
    return out


def _legend(c: Any, test: Optional[str]) -> str:
    if test is None:
        return "Means over the queries every run has (n in the header); no test was run; bold: the best mean."
    return (f"Means over the queries every run has (n in the header). Superscripts: significantly better than the "
            f"run of that letter ({test} test on the pair's own paired queries, {c.options['correction']} correction "
            f"over {c.families[test]['size']} comparisons, alpha {c.options['alpha']}); bold: the best mean.")


def _cells(c: Any, test: Optional[str], digits: int, undefined: str, bold: str,
           marks: str) -> List[Tuple[str, str, List[str]]]:
    labels = {name: label(i) for i, name in enumerate(c.runs)}
    better: Dict[Tuple[str, str], List[str]] = {}
    for r in c._rows if test is not None else ():
        result = r["tests"][test]
        if not result["significant"] or not r["delta"] or math.isnan(r["delta"]):
            continue
        winner, loser = (r["run"], r["baseline"]) if r["delta"] > 0 else (r["baseline"], r["run"])
        better.setdefault((winner, r["measure"]), []).append(labels[loser])
    means = {(r["run"], r["measure"]): r["sharedMean"] for r in c._run_rows}
    best = {m: max((v for (_, mm), v in means.items() if mm == m and not math.isnan(v)), default=math.nan)
            for m in c.measures}
    out = []
    for i, name in enumerate(c.runs):
        cells = []
        for m in c.measures:
            value = means[(name, m)]
            text = _number(value, digits, undefined)
            if value == best[m]:
                text = bold.format(text)
            marked = sorted(better.get((name, m), []), key=lambda x: (len(x), x))
            cells.append(text + (marks.format(superscript(marked), "".join(marked)) if marked else ""))
        out.append((label(i), name, cells))
    return out


def _shared_counts(c: Any) -> Dict[str, int]:
    return {r["measure"]: r["sharedQueries"] for r in c._run_rows}


def _pair_rows(c: Any, digits: int) -> Tuple[List[str], List[List[str]]]:
    header = ["Run", "Baseline", "Measure", "n", "Dropped", "Run mean", "Baseline mean", "Delta"]
    header += [f"{t} p (adjusted)" for t in c.options["tests"]]
    body = []
    for r in c._rows:
        line = [r["run"], r["baseline"], r["measure"], str(r["queries"]), str(r["dropped"]),
                _number(r["mean"], digits), _number(r["baselineMean"], digits), _number(r["delta"], digits)]
        for t in c.options["tests"]:
            result = r["tests"][t]
            line.append(f"{_p(result['p'], digits)} ({_p(result['pAdjusted'], digits)})"
                        + ("*" if result["significant"] else ""))
        body.append(line)
    return header, body


def _notes(c: Any) -> List[str]:
    sizes = ", ".join(f"{t}: {f['size']}" for t, f in c.families.items())
    decisions = (f"* significant at alpha {c.options['alpha']} after {c.options['correction']}, each test over its "
                 f"own family ({sizes} comparisons); means and tests over each pair's paired queries."
                 if sizes else "No test was run; means over each pair's paired queries.")
    return [decisions, *tukey_lines(c), *dropped_lines(c), options_line(c)]


# ---- the formats ---------------------------------------------------------------------------


def markdown(c: Any, test: Optional[str], digits: int) -> str:
    shared = _shared_counts(c)
    lines = ["| # | Run | " + " | ".join(f"{m} (n={shared[m]})" for m in c.measures) + " |",
             "|---|---|" + "---:|" * len(c.measures)]
    for lab, name, cells in _cells(c, test, digits, "n/a", "**{}**", "{0}"):
        lines.append(f"| {lab} | {name} | " + " | ".join(cells) + " |")
    header, body = _pair_rows(c, digits)
    pairs = ["| " + " | ".join(header) + " |", "|" + "---|" * 3 + "---:|" * (len(header) - 3)]
    pairs += ["| " + " | ".join(row) + " |" for row in body]
    return ("\n".join(lines) + "\n\n" + _legend(c, test) + "\n\n" + "\n".join(pairs) + "\n\n"
            + "\n\n".join(_notes(c)) + "\n")


def latex(c: Any, test: Optional[str], digits: int, caption: Optional[str]) -> str:
    shared = _shared_counts(c)
    out = ["\\begin{table}[t]", "\\centering", "\\begin{tabular}{cl" + "r" * len(c.measures) + "}", "\\toprule",
           "\\# & Run & " + " & ".join(f"{latex_escape(m)} ($n={shared[m]}$)" for m in c.measures) + " \\\\",
           "\\midrule"]
    for lab, name, cells in _cells(c, test, digits, "--", "\\textbf{{{}}}", "$^{{{1}}}$"):
        out.append(f"{lab} & {latex_escape(name)} & " + " & ".join(cells) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{latex_escape(caption or _legend(c, test))}}}",
            "\\end{table}"]
    header, body = _pair_rows(c, digits)
    out += ["\\begin{table}[t]", "\\centering", "\\begin{tabular}{lll" + "r" * (len(header) - 3) + "}", "\\toprule",
            " & ".join(latex_escape(h) for h in header) + " \\\\", "\\midrule"]
    out += [" & ".join(latex_escape(cell) for cell in row) + " \\\\" for row in body]
    out += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{latex_escape(' '.join(_notes(c)))}}}", "\\end{table}"]
    return "\n".join(out) + "\n"


def text(c: Any, digits: int) -> str:
    def interval(pair: Tuple[float, float]) -> str:
        return f"[{_number(pair[0], digits)}, {_number(pair[1], digits)}]"

    kinds = c.options["intervals"]
    header = ["run", "baseline", "measure", "n", "dropped", "mean", "baseline mean", "delta"]
    header += [f"{kind} interval" for kind in kinds]
    for test in c.options["tests"]:
        header += [f"p {test}", "adjusted"]
    table = [header]
    for r in c._rows:
        line = [r["run"], r["baseline"], r["measure"], str(r["queries"]), str(r["dropped"]), _number(r["mean"], digits),
                _number(r["baselineMean"], digits), _number(r["delta"], digits)]
        line += [interval(r["intervals"][kind]) for kind in kinds]
        for test in c.options["tests"]:
            result = r["tests"][test]
            line += [_p(result["p"], digits), _p(result["pAdjusted"], digits) + ("*" if result["significant"] else "")]
        table.append(line)
    runs = [["run", "measure", "n", "unpaired mean"] + [f"{kind} interval" for kind in kinds]
            + ["shared n", "shared mean"]]
    for r in c._run_rows:
        runs.append([r["run"], r["measure"], str(r["queries"]), _number(r["mean"], digits)]
                    + [interval(r["intervals"][kind]) for kind in kinds]
                    + [str(r["sharedQueries"]), _number(r["sharedMean"], digits)])
    notes = _notes(c)
    return (_aligned(table) + "\n" + notes[0] + "\n\n" + _aligned(runs) + "\nunpaired: each run over its own n "
            "queries; shared: over the queries every run has\n\n" + "\n".join(notes[1:]) + "\n")


def html(c: Any, digits: int = 4) -> str:
    """A compact HTML table of the means with their counts and each comparison's decisions
    (Jupyter's display of a Comparison): escaped, no script, no external reference."""
    e = _html.escape
    shared = _shared_counts(c)
    head = "".join(f"<th>{e(m)} (n={shared[m]})</th>" for m in c.measures)
    rows = "".join(f"<tr><td>{lab}</td><td>{e(name)}</td>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>"  # numbers and marks only
                   for lab, name, cells in _cells(c, c._check_test(None), digits, "n/a", "<b>{}</b>", "{0}"))
    header, body = _pair_rows(c, digits)
    pairs = ("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead><tbody>"
             + "".join("<tr>" + "".join(f"<td>{e(x)}</td>" for x in row) + "</tr>" for row in body) + "</tbody></table>")
    notes = "".join(f"<p>{e(n)}</p>" for n in [_legend(c, c._check_test(None)), *_notes(c)])
    return (f"<div class=\"evalcore-comparison\"><table><thead><tr><th>#</th><th>Run</th>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>{pairs}{notes}</div>")
