"""Issue 26, item 4: examples/report.ipynb displays its results in Jupyter without extra
installs. With nbconvert and a Python kernel installed (the test extra has them: wheels,
about 120 MB and a minute of pip install, docs/report.md), the notebook is executed with
`jupyter nbconvert --execute` and its outputs read. Under CI (CI=true) their absence is a
failure; elsewhere each code cell is run and its last expression displayed as IPython's
DisplayFormatter does (it asks the object for _repr_html_, _repr_markdown_ and __repr__),
and the same outputs are checked."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "report.ipynb"


def _outputs_by_hand():
    """Per code cell, the mime bundle IPython would display for its last expression."""
    namespace: dict = {}
    bundles = []
    for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is None:
            continue
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        bundle = {"text/plain": repr(value)}
        for mime, method in (("text/html", "_repr_html_"), ("text/markdown", "_repr_markdown_")):
            if hasattr(value, method):
                bundle[mime] = getattr(value, method)()
        bundles.append(bundle)
    return bundles


def _outputs_by_nbconvert(tmp_path):
    out = tmp_path / "executed.ipynb"
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", str(NOTEBOOK),
                           "--output", str(out)], cwd=ROOT, timeout=300, capture_output=True, text=True)
    assert done.returncode == 0, f"nbconvert failed: {done.stderr[-3000:]}"
    bundles = []
    for cell in json.loads(out.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "execute_result":
                bundles.append({k: "".join(v) if isinstance(v, list) else v for k, v in output["data"].items()})
    return bundles


def test_the_notebook_displays_tables(tmp_path, monkeypatch):
    if importlib.util.find_spec("nbconvert") and importlib.util.find_spec("ipykernel"):
        bundles = _outputs_by_nbconvert(tmp_path)
    elif os.environ.get("CI") == "true":
        pytest.fail("nbconvert and ipykernel are needed under CI (the test extra installs them)")
    else:
        monkeypatch.chdir(NOTEBOOK.parent)  # where Jupyter (and nbconvert) start the kernel
        bundles = _outputs_by_hand()
    assert len(bundles) == 5
    comparison, evaluation, per_query, spans, ner = bundles
    assert "nDCG@10 (n=30)" in comparison["text/html"] and "runs not significantly different" in comparison["text/html"]
    assert "<script" not in comparison["text/html"] and "Comparison(3 runs" in comparison["text/plain"]
    assert "<td>P@5</td>" in evaluation["text/html"] and "(n=30)" in evaluation["text/plain"]
    assert "<td>defined</td><td>30</td><td>30</td>" in per_query["text/html"]
    # the span corpus result and the NER report display themselves (issue 26 gap 1): the
    # table's rows with their counts, the numbers as the result holds them.
    assert "<th>references</th>" in spans["text/html"] and "<td>micro (overall)</td>" in spans["text/html"]
    assert "| label | precision | recall | F1 | references |" in spans["text/markdown"]
    assert spans["text/plain"].startswith("SpanCorpusResultDict")
    assert "<td>PER</td><td>0.0000</td><td>0.0000</td><td>0.0000</td><td>1</td>" in ner["text/html"]
    assert "<td>LOC</td><td>1.0000</td><td>1.0000</td><td>1.0000</td><td>1</td>" in ner["text/html"]
    assert "Token accuracy 0.7500." in ner["text/html"] and ner["text/plain"].startswith("TagsResultDict")
    assert os.path.basename(NOTEBOOK) == "report.ipynb"
