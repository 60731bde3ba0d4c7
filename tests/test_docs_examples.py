"""Every code example of the documentation runs: README.md, docs/*.md and the files the site
includes (``--8<-- "path"``), so none can go stale.

- ```python blocks run in the order of their page, all of a page's blocks in one namespace
  (as a doctest module: a later block uses an earlier block's names), in a temporary folder
  holding a copy of the repository's examples/. The few names a page's prose assumes its
  reader has (oracle.md's ``my_ndcg``, spark.md's ``spark``) are defined by PAGE_SETUP below.
- ```sh blocks run too, with ``bash -e -o pipefail`` in the same folder, with an ``evalcore``
  on PATH that runs the evalcore this test imports: the pages show evalcore's commands as
  shell lines (exit status checked), and a command whose flags change must fail here.
  (The pages write commands without prompts, so there are no ```console blocks to read.)
- A block is not run only when the line before its fence is the marker
  ``<!-- docs-test: not run (REASON) -->``, visible in the page's source: for blocks that
  install packages, start a server, or run a benchmark or a fuzzer for minutes.
- Blocks of other languages (```text, output without a language) are shown, not run.

A small extractor rather than pytest-markdown-docs or mktestdocs: both run Python fences
only, while these pages' shell commands are half of what they show, and the not-run marker
must work on GitHub's rendering and MkDocs' alike (an HTML comment does).
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)[^\n]*$")
SNIPPET = re.compile(r'^--8<-- "(?P<path>[^"]+)"$')
NOT_RUN = re.compile(r"^<!-- docs-test: not run \((?P<reason>[^)]+)\) -->$")
RUN_LANGUAGES = ("python", "sh")


def _shown(path):
    """The path as messages give it: from the repository's root when it is inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _lines(path):
    """The page's lines, with each --8<-- include replaced by the included file's lines."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = SNIPPET.match(line)
        if match:
            out += _lines(ROOT / match["path"])
        else:
            out.append((f"{_shown(path)}:{number}", line))
    return out


def code_blocks(path):
    """(where, language, source, not_run_reason) of each fenced block of the page."""
    lines = _lines(path)
    blocks, i = [], 0
    while i < len(lines):
        where, line = lines[i]
        fence = FENCE.match(line)
        if not fence:
            i += 1
            continue
        reason = NOT_RUN.match(lines[i - 1][1].strip()) if i else None
        indent, body, i = fence["indent"], [], i + 1
        while i < len(lines) and lines[i][1].strip() != "```":
            body.append(lines[i][1][len(indent):])
            i += 1
        i += 1
        blocks.append((where, fence["lang"], "\n".join(body) + "\n", reason["reason"] if reason else None))
    return blocks


def _evalcore_on_path(folder):
    """A folder holding an `evalcore` script that runs this interpreter's evalcore."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "evalcore"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "import sys; from evalcore.cli import main; '
                      f'sys.exit(main())" "$@"\n')
    script.chmod(0o755)
    return bin_dir


def run_page(path, workdir, setup="", rewrite=("", "")):
    """Run the page's python and sh blocks in `workdir` (each block's text with
    rewrite[0] replaced by rewrite[1]); raise AssertionError naming the block that failed.
    Returns the namespace the python blocks ran in."""
    shutil.copytree(ROOT / "examples", workdir / "examples")
    # The system's folders after the caller's PATH: CI runs the suite with a PATH of the
    # environment's scripts alone (no compiler), and the pages' shell lines need bash, head, ...
    env = dict(os.environ, PATH=os.pathsep.join([str(_evalcore_on_path(workdir)), os.environ.get("PATH", ""), "/usr/bin", "/bin"]))
    namespace = {"__name__": "__docs__"}
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        if setup:
            exec(compile(textwrap.dedent(setup), "<page setup>", "exec"), namespace)
        for where, language, source, reason in code_blocks(path):
            if language not in RUN_LANGUAGES or reason:
                continue
            if rewrite[0]:
                source = source.replace(*rewrite)
            if language == "python":
                try:
                    exec(compile(source, where, "exec"), namespace)
                except Exception as exc:
                    raise AssertionError(f"the example at {where} raised {exc!r}:\n{source}") from exc
            else:
                proc = subprocess.run([shutil.which("bash", path=env["PATH"]) or "bash", "-e", "-o", "pipefail", "-c", source],
                                      cwd=workdir, env=env,
                                      capture_output=True, text=True, timeout=300)
                assert proc.returncode == 0, (f"the commands at {where} exited {proc.returncode}:\n{source}\n"
                                              f"stderr:\n{proc.stderr[-3000:]}")
    finally:
        os.chdir(cwd)
    return namespace


# The names a page's examples take from its prose: the reader's own metric code (here
# examples/testing's correct one, or evalcore's reference behind the adapters' signatures).
ORACLE_SETUP = """
    import sys
    sys.path.insert(0, "examples/testing")
    import search_metrics
    import evalcore.reference
    from evalcore.testing import assert_matches, qrels_run, set_scores, span_prf
    from evalcore.trec_eval import RelevanceEvaluator

    my_ndcg = search_metrics.ndcg_at_10

    def my_span_f1(y_true, y_pred):
        spans = lambda side: [{"id": f"s{i}", "label": l, "start": s, "end": e} for i, (l, s, e) in enumerate(side)]
        text = "x" * max([e for _, _, e in y_true + y_pred] + [0])
        result = evalcore.reference.span_evaluate({"text": text, "references": spans(y_true),
                                                   "predictions": spans(y_pred), "match": "overlap",
                                                   "minimumIou": 0.5})["result"]
        return result["precision"], result["recall"], result["f1"]

    def my_set_scores(predicted, ground_truth):
        request = {"metrics": ["precision", "recall", "f1", "f2"], "k": 5,
                   "predicted": predicted, "ground_truth": ground_truth}
        return evalcore.reference.score(request)["aggregate"]

    client = None  # the reader's HTTP client; the example only defines a test that uses it
"""

SPARK_SETUP = """
    import pytest
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession
    import evalcore
    spark = SparkSession.builder.master("local[1]").getOrCreate()
    from pathlib import Path
    qrels_rows = [line.split() for line in Path("examples/trec/qrels.txt").read_text().splitlines()]
    run_rows = [line.split() for line in Path("examples/trec/run.txt").read_text().splitlines()]
    # Absolute paths: Spark's JVM resolves relative ones against its own working directory
    # (the checkout's, where an earlier test started it), not this example's.
    lake = Path.cwd() / "lake"
    spark.createDataFrame([(q, d, float(g)) for q, _, d, g in qrels_rows], "query_id string, doc_id string, relevance double") \\
        .write.parquet(str(lake / "qrels"))
    spark.createDataFrame([(q, d, float(s)) for q, _, d, _, s, *_ in run_rows], "query_id string, doc_id string, score double") \\
        .write.parquet(str(lake / "runs" / "bm25"))
    path = str(lake / "evals" / "again")
"""

PAGE_SETUP = {"docs/oracle.md": ORACLE_SETUP, "docs/spark.md": SPARK_SETUP}
# spark.md's examples read a data lake; they run against local parquet files under the
# example's folder's lake/ (an absolute path: see SPARK_SETUP).
PATH_REWRITES = {"docs/spark.md": ("s3://lake/", "{workdir}/lake/")}

PAGES = sorted(str(p.relative_to(ROOT)) for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


@pytest.mark.parametrize("page", PAGES)
def test_every_example_of_the_page_runs(page, tmp_path):
    workdir = tmp_path / "work"
    workdir.mkdir()
    rewrite = PATH_REWRITES.get(page, ("", ""))
    namespace = run_page(ROOT / page, workdir, PAGE_SETUP.get(page, ""), (rewrite[0], rewrite[1].format(workdir=workdir)))
    if page == "docs/spark.md":
        namespace["spark"].stop()


def test_a_broken_example_fails(tmp_path):
    # The check can fail: an example whose output no longer holds, a command whose flag is gone.
    page = tmp_path / "page.md"
    page.write_text("```python\nimport evalcore\nassert evalcore.__version__ == 'no such version'\n```\n")
    (tmp_path / "work").mkdir()
    with pytest.raises(AssertionError, match="page.md"):
        run_page(page, tmp_path / "work")
    page.write_text("```sh\nevalcore trec --no-such-flag examples/trec/qrels.txt examples/trec/run.txt\n```\n")
    (tmp_path / "work2").mkdir()
    with pytest.raises(AssertionError, match="exited 2"):
        run_page(page, tmp_path / "work2")


def test_only_marked_blocks_are_skipped_and_every_marker_says_why():
    # Each page's python and sh blocks: those not run are marked, with a reason, and a marker
    # stands right before a fence (a marker elsewhere would silently skip nothing).
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(text):
            if "docs-test" in line:
                assert NOT_RUN.match(line.strip()), f"{page}:{number + 1}: a malformed marker: {line}"
                assert number + 1 < len(text) and text[number + 1].startswith("```"), \
                    f"{page}:{number + 1}: the marker is not right before a code fence"
    runnable = [b for p in PAGES for b in code_blocks(ROOT / p) if b[1] in RUN_LANGUAGES]
    assert sum(1 for b in runnable if not b[3]) > sum(1 for b in runnable if b[3])


# Install instructions for the unrelated `evalcore` on PyPI: `pip install evalcore`,
# `'evalcore[testing]'`, `evalcore==0.1.0` (this project's distribution is evalcore-exact).
WRONG_INSTALL = re.compile(r"pip install\s+['\"]?evalcore(?![-\w])|(?<![\w/.-])evalcore(\[[\w,]+\]|==)")
INSTALL_TEXTS = ["README.md", "CONTRIBUTING.md", "docs/*.md", "examples/**/*.md", "bench/*.md", "bench/*.py",
                 "python/evalcore/**/*.py", "python/evalcore/**/*.pyi"]


def test_no_instruction_installs_the_other_evalcore():
    found = []
    for pattern in INSTALL_TEXTS:
        for path in ROOT.glob(pattern):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if WRONG_INSTALL.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "install evalcore-exact, not evalcore:\n" + "\n".join(found)


def test_the_wrong_install_pattern_catches_each_spelling():
    for line in ("pip install evalcore", "pip install 'evalcore[testing]'", "pip install \"evalcore[spark]\"",
                 "install `evalcore[spark]` as a cluster library", "pip install evalcore==0.1.0"):
        assert WRONG_INSTALL.search(line), line
    for line in ("pip install evalcore-exact", "pip install 'evalcore-exact[testing]==0.1.0'", "pip install .",
                 "import evalcore", "evalcore.testing", "evalcore trec QRELS RUN", "site-packages/evalcore/"):
        assert not WRONG_INSTALL.search(line), line
