"""``evalcore trec`` on trec_eval 10's own tests: every check of its Makefile's `quicktest`
(``./trec_eval ARGS | diff - test/OUT``), run with ``evalcore trec ARGS`` in a trec_eval
source tree (EVALCORE_TREC_EVAL_SRC, else /work/peers/trec_eval_src; .ci/run fetches one;
nothing of it is copied here), must print OUT byte for byte: every check, the preference
judgments' (``-R prefs``, ``-R qrels_prefs``) and the z-scores' (``-Z``) included."""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys
from typing import List, Tuple

import pytest

SOURCE = pathlib.Path(os.environ.get("EVALCORE_TREC_EVAL_SRC", "/work/peers/trec_eval_src"))
MAKEFILE = SOURCE / "Makefile"


def quicktest_checks() -> List[Tuple[List[str], str]]:
    """(trec_eval's arguments, the expected output's path) of each quicktest line."""
    if not MAKEFILE.is_file():
        return []
    text = MAKEFILE.read_text(encoding="utf-8")
    block = text.split("quicktest:", 1)[1].split("\n\n", 1)[0]
    checks = []
    for line in block.splitlines():
        match = re.match(r"\s*\./trec_eval (.*?) \| diff - (\S+)\s*$", line)
        if match:
            checks.append((shlex.split(match.group(1)), match.group(2)))
    return checks


CHECKS = quicktest_checks()
pytestmark = pytest.mark.skipif(not CHECKS, reason="set EVALCORE_TREC_EVAL_SRC to a trec_eval 10 source tree")


def test_the_makefile_lists_what_it_should():
    # trec_eval 10.0's quicktest: 15 checks, 10 on ordinary qrels (6 with all_trec), 2 qrels_jg,
    # 3 of preferences (2 -R prefs, 1 -R qrels_prefs)
    assert len(CHECKS) >= 15
    assert sum(1 for arguments, _ in CHECKS if "all_trec" in arguments) >= 5
    formats = [" ".join(arguments).split("-R ", 1)[1].split()[0] for arguments, _ in CHECKS if "-R" in arguments]
    assert formats.count("prefs") == 2 and formats.count("qrels_prefs") == 1
    assert sum(1 for arguments, _ in CHECKS if "-Z" in arguments) == 1


@pytest.mark.parametrize("arguments, expected", CHECKS, ids=[out for _, out in CHECKS])
def test_trec_eval_own_quicktest(arguments, expected):
    done = subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *arguments], cwd=SOURCE,
                          capture_output=True, timeout=300)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (SOURCE / expected).read_bytes()
