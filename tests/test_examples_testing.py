"""examples/testing, the walk-through of evalcore.testing, runs and says what it prints."""

import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "testing"


def test_the_walk_through_passes_under_pytest():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=600, cwd=EXAMPLE.parent.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\b3 passed\b", proc.stdout), proc.stdout


def test_the_readme_shows_the_failure_as_it_is(monkeypatch):
    from evalcore.testing import Mismatch, assert_matches

    monkeypatch.syspath_prepend(str(EXAMPLE))
    import buggy_search_metrics

    with pytest.raises(Mismatch) as caught:
        assert_matches(buggy_search_metrics.ndcg_at_10, "nDCG@10")
    shown = re.sub(r"evalcore \d+\.\d+\.\d+", "evalcore X", str(caught.value))
    readme = re.sub(r"evalcore \d+\.\d+\.\d+", "evalcore X", (EXAMPLE / "README.md").read_text(encoding="utf-8"))
    assert shown in readme
