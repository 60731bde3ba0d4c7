"""Issue 26, item 2: the HTML report, read as a tool reads it: no external reference, the
embedded JSON equal to to_json(), the numbers in its tables those of the result, a title and
a text alternative on every chart, provenance with the inputs' SHA-256."""

from __future__ import annotations

import hashlib
import html.parser
import json
import pathlib
import re
import subprocess
import sys

import evalcore

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "compare"
QRELS = str(FOLDER / "qrels.txt")
NAMES = ("bm25", "rm3", "dense")
RUNS = [str(FOLDER / f"{name}.txt") for name in NAMES]


class Page(html.parser.HTMLParser):
    """The parts of a report a test reads: cells, charts' titles and descs, the data block,
    and every attribute value that could name another resource."""

    def __init__(self) -> None:
        super().__init__()
        self.cells, self.charts, self.references, self.scripts = [], [], [], []
        self._stack, self._text = [], []

    def handle_starttag(self, tag, attrs):
        self._stack.append(tag)
        self._text = []
        attributes = dict(attrs)
        for key in ("src", "href", "xlink:href", "action", "srcset", "data"):
            if key in attributes:
                self.references.append(attributes[key])
        if tag == "svg":
            self.charts.append({"title": None, "desc": None, "label": attributes.get("aria-label")})
        if tag == "script":
            self.scripts.append({"type": attributes.get("type"), "id": attributes.get("id"), "text": ""})

    def handle_data(self, data):
        self._text.append(data)
        if self._stack and self._stack[-1] == "script":
            self.scripts[-1]["text"] += data

    def handle_endtag(self, tag):
        text = "".join(self._text)
        if tag == "td":
            self.cells.append(text)
        if tag in ("title", "desc") and "svg" in self._stack and self.charts[-1][tag] is None:
            self.charts[-1][tag] = text
        while self._stack and self._stack.pop() != tag:
            pass
        self._text = []


def read(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def check_self_contained(text: str) -> None:
    assert not re.search(r"(?i)(https?:|ftp:|//[a-z0-9.-]+\.[a-z]{2,}/|url\()", text)
    page = read(text)
    assert page.references == []
    assert [s["type"] for s in page.scripts] == ["application/json"]  # data only: nothing runs
    assert all(c["title"] and c["desc"] and c["label"] for c in page.charts)


def test_the_command_writes_the_comparison_page(tmp_path):
    output = tmp_path / "report.html"
    argv = [QRELS, *RUNS, "-m", "nDCG@10", "-m", "AP@100", "--tukey", "randomized", "--resamples", "300", "-o",
            str(output)]
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", *argv], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = output.read_text(encoding="utf-8")
    check_self_contained(text)
    page = read(text)
    data = json.loads(page.scripts[0]["text"])
    expected = evalcore.compare(QRELS, dict(zip(NAMES, RUNS)), ["nDCG@10", "AP@100"], tukey="randomized",
                                resamples=300)
    assert data == json.loads(expected.to_json())
    for row in data["summary"]:
        assert f"{row['sharedMean']:.4f}" in "".join(page.cells)
    titles = [c["title"] for c in page.charts]
    assert "nDCG@10: dense − bm25 per query" in titles and "AP@100: per-query scores by run" in titles
    assert "Interpolated precision at 11 recall points" in titles
    differences = next(c for c in page.charts if c["title"] == "nDCG@10: dense − bm25 per query")
    wins = sum(1 for r in expected.per_query("nDCG@10")["dense"].items()
               if r[1] > expected.per_query("nDCG@10")["bm25"][r[0]])
    assert f"{wins} wins" in differences["desc"]
    digest = hashlib.sha256(pathlib.Path(QRELS).read_bytes()).hexdigest()
    assert digest in text
    assert f"evalcore {evalcore.__version__}" in text and "evalcore report" in text
    assert "runs not significantly different" in text


def test_a_run_lacking_a_query_shows_the_drop(tmp_path):
    output = tmp_path / "four.html"
    runs = [*RUNS, str(FOLDER / "splade.txt")]
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", QRELS, *runs, "-m", "nDCG@10",
                           "--resamples", "200", "-o", str(output)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = output.read_text(encoding="utf-8")
    check_self_contained(text)
    data = json.loads(read(text).scripts[0]["text"])
    assert data["tukey"] == ["randomized"] and data["tukeyHsd"]["nDCG@10"]["queries"] == 29  # the default for 4 runs
    assert "nDCG@10 (n=29)" in text and "missing from splade: 1" in text and "left out there: 1 of bm25" in text
    splade = next(c for c in data["comparisons"] if c["run"] == "splade" and c["baseline"] == "bm25")
    assert splade["queries"] == 29 and f"{splade['baselineMean']:.4f}" in read(text).cells


def test_one_run_and_the_api(tmp_path):
    output = tmp_path / "one.html"
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", QRELS, RUNS[0], "-m", "nDCG@10", "-o",
                           str(output)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = output.read_text(encoding="utf-8")
    check_self_contained(text)
    evaluation = evalcore.evaluate_run(QRELS, RUNS[0], ["nDCG@10"])
    assert f"{evaluation.mean['nDCG@10']:.4f}" in read(text).cells
    returned = evaluation.to_html(None, name="bm25")
    check_self_contained(returned)
    assert json.loads(read(returned).scripts[0]["text"]) == json.loads(evaluation.to_json())
    assert "Not drawn: the runs were not evaluated with IPrec" in returned


def test_names_are_escaped(tmp_path):
    runs = {"<b>x</b>&": RUNS[0], "y</script>": RUNS[1]}
    text = evalcore.compare(QRELS, runs, ["P@5"], resamples=20).to_html(str(tmp_path / "r.html"))
    check_self_contained(text)
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;&amp;" in text
    page = read(text)
    assert json.loads(page.scripts[0]["text"])["runs"] == list(runs)


def test_usage_errors(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", QRELS, RUNS[0], "-m", "P@5"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "-o/--output" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", QRELS, str(FOLDER / "absent.txt"), "-m",
                           "P@5", "-o", str(tmp_path / "x.html")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "cannot read" in proc.stderr


def test_a_glob_of_the_runs_folder_leaves_the_qrels_out(tmp_path):
    # `evalcore report examples/compare/qrels.txt examples/compare/*.txt ...`: the glob matches
    # the qrels file too; it is left out of the runs, and stderr says so.
    output = tmp_path / "glob.html"
    every = sorted(str(p) for p in FOLDER.glob("*.txt"))
    assert QRELS in every and len(every) == 5
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "report", QRELS, *every, "-m", "nDCG@10",
                           "--resamples", "100", "-o", str(output)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"evalcore report: {QRELS} is the qrels file; left out of the runs" in proc.stderr
    data = json.loads(read(output.read_text(encoding="utf-8")).scripts[0]["text"])
    assert data["runs"] == ["bm25", "dense", "rm3", "splade"]
