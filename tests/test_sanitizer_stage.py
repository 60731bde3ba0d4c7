""".ci/run's sanitizer stage runs a list of test files under ASan with
`-k "not pytrec_eval and not trec_eval and not ir_measures and not pyndeval"`: pytrec_eval (the
peer, also ir_measures' default provider) frees with free() what it allocated with new[], and
ASan aborts the whole run on that; pyndeval (ndeval.c, the diversity measures' peer) is another
C extension whose memory ASan would judge, not ours. A test that calls pytrec_eval or ir_measures' evaluation but whose name
lacks those words would abort the stage (as test_same_values_as_ir_measures did); this finds
such a test before CI does."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

CHECKOUT = pathlib.Path(__file__).resolve().parents[1]
CI_RUN = CHECKOUT / ".ci" / "run"
# What calls into pytrec_eval: the module itself, and ir_measures' evaluation entry points.
PEER_CALLS = {"pytrec_eval", "pyndeval", "calc_aggregate", "iter_calc", "calc", "evaluator"}


def _stage_files_and_words():
    text = CI_RUN.read_text(encoding="utf-8")
    stage = text.split('stage "sanitizers', 1)[1].split("\nstage ", 1)[0]
    files = re.findall(r"tests/\S+\.py", stage)
    words = re.search(r'-k "([^"]+)"', stage).group(1)
    excluded = re.findall(r"not (\w+)", words)
    return files, excluded


def _names_used(node: ast.AST):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Attribute):
            yield sub.attr


def _peer_calling_tests(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls_peer = {name: bool(PEER_CALLS & set(_names_used(fn))) for name, fn in functions.items()}
    for name, fn in functions.items():
        if not name.startswith("test"):
            continue
        used = set(_names_used(fn))
        # directly, or through a module-level helper it calls
        if calls_peer[name] or any(calls_peer.get(helper) for helper in used if helper != name):
            yield name


def test_the_stage_lists_files_that_exist():
    if not CI_RUN.is_file():
        pytest.fail(f"{CI_RUN} is missing: the suite runs from a checkout")
    files, excluded = _stage_files_and_words()
    assert files and excluded == ["pytrec_eval", "trec_eval", "ir_measures", "pyndeval"]
    assert [f for f in files if not (CHECKOUT / f).is_file()] == []


def test_every_test_that_calls_pytrec_eval_is_excluded_by_name():
    files, excluded = _stage_files_and_words()
    offenders = [f"{f}::{name}" for f in files for name in _peer_calling_tests(CHECKOUT / f)
                 if not any(word in name for word in excluded)]
    assert offenders == [], ("these tests call pytrec_eval (or ir_measures' evaluation) and run under ASan: "
                             "put pytrec_eval, trec_eval or ir_measures in their names")


def test_the_finder_finds_a_peer_call(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def helper():\n    return ir_measures.calc_aggregate([], {}, {})\n"
                     "def test_x():\n    helper()\n"
                     "def test_y():\n    return 1\n", encoding="utf-8")
    assert list(_peer_calling_tests(probe)) == ["test_x"]
