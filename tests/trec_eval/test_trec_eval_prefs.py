"""``evalcore trec -R prefs`` / ``-R qrels_prefs`` against the real trec_eval 10 binary
(EVALCORE_TREC_EVAL) on generated preference judgments and runs (evalcore.testing.preferences:
groups of sub-groups, ties, unjudged documents, judged topics the run lacks): the same bytes
on stdout and stderr and the same exit status, with -q and with -c."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalcore.testing.preferences import preferences

BINARY = os.environ.get("EVALCORE_TREC_EVAL")


def run_both(prefs_text, run_text, arguments):
    with tempfile.TemporaryDirectory() as folder:
        prefs, run = os.path.join(folder, "prefs"), os.path.join(folder, "run")
        with open(prefs, "w", encoding="utf-8") as handle:
            handle.write(prefs_text)
        with open(run, "w", encoding="utf-8") as handle:
            handle.write(run_text)
        words = [*arguments, prefs, run]
        theirs = subprocess.run([BINARY, *words], capture_output=True, timeout=60)
        ours = subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *words], capture_output=True, timeout=60)
    return theirs, ours


# A small budget: two processes per example (the binary and evalcore's CLI, ~0.3 s).
@pytest.mark.skipif(not BINARY, reason="set EVALCORE_TREC_EVAL to a trec_eval 10 binary")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), st.data(), st.sampled_from([["-q", "-c"], ["-q"], ["-c", "-M", "3"], ["-q", "-c", "-M", "1"]]))
def test_same_output_as_trec_eval(with_subgroups, data, flags):
    value = data.draw(preferences(with_subgroups=with_subgroups, negative_levels=False))
    rel_format = "prefs" if with_subgroups else "qrels_prefs"
    theirs, ours = run_both(value["prefs"], value["run"] or "q1 Q0 x 1 1 tag\n",
                            [*flags, "-m", "all_prefs", "-R", rel_format])
    assert (ours.stdout, ours.stderr, ours.returncode) == (theirs.stdout, theirs.stderr, theirs.returncode)
