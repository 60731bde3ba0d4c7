"""examples/testing, the walk-through of evalcore.testing, runs and says what it prints."""

import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "testing"


def test_the_walk_through_passes_under_pytest():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=600, cwd=EXAMPLE.parent.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\b3 passed\b", proc.stdout), proc.stdout


def test_the_readme_shows_a_real_failure(monkeypatch):
    # The README's input fails as it says (both values), and the kit's message has its shape.
    # Which minimal input hypothesis reaches can vary with the code loaded (it also draws
    # constants from local modules), so the input itself is not compared.
    import json

    import evalcore
    from evalcore.testing import Mismatch, assert_matches

    monkeypatch.syspath_prepend(str(EXAMPLE))
    import buggy_search_metrics

    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    block = readme.split("```\nndcg_at_10 does not match", 1)[1].split("```", 1)[0]
    fields = dict(re.findall(r"^  (where|yours|evalcore|qrels|run)(?::| =) +(.*)$", block, re.M))
    qrels, run = json.loads(fields["qrels"]), json.loads(fields["run"])
    query = fields["where"].split()[0]
    assert buggy_search_metrics.ndcg_at_10(qrels, run)[query] == float(fields["yours"])
    result = evalcore.evaluate_run(qrels, run, ["nDCG@10"])
    assert float(result.values("nDCG@10")[result.query_ids.index(query)]) == float(fields["evalcore"])
    with pytest.raises(Mismatch) as caught:
        assert_matches(buggy_search_metrics.ndcg_at_10, "nDCG@10")
    shown = str(caught.value)
    for marker in ("  where:", "  yours:", "  evalcore:", "  why:", "input:", "  qrels = ",
                   "  run = ", "evalcore's evidence for query", "score descending, then document ID descending",
                   "DCG term", "ideal DCG = "):
        assert marker in block and marker in shown, marker
