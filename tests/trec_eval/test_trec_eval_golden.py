"""``evalcore trec --format trec_eval`` against trec_eval 10's own outputs, byte for byte:
stdout, stderr and exit status of each command line in tests/data/trec_eval/cli (written
by the real binary, see its README). For ``all_trec`` and ``set`` trec_eval also prints
measures evalcore does not have; those lines, and only those, are left out of trec_eval's
stdout before comparing, and evalcore's stderr must then begin with one line naming exactly
those measures (the notice of what it left out), trec_eval's stderr after it."""

from __future__ import annotations

import gzip
import importlib.util
import os
import pathlib
import shlex
import subprocess
import sys

import pytest

from evalcore.trec_eval import output_format as te

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "trec_eval" / "cli"
CASES = sorted(path.stem for path in GOLDEN.glob("*.cmd"))


def _generator():
    """generate.py, which ran the binary: its case list and how it ran each."""
    spec = importlib.util.spec_from_file_location("trec_eval_cli_generate", GOLDEN / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def command(name: str):
    """(trec_eval's arguments, the file fed on stdin or None) of a case."""
    words = shlex.split((GOLDEN / f"{name}.cmd").read_text(encoding="utf-8"))
    assert words[0] == "trec_eval"
    words = words[1:]
    if "<" in words:
        at = words.index("<")
        return words[:at], ROOT / words[at + 1]
    return words, None


def evalcore_trec(arguments, stdin=None):
    feed = stdin.read_bytes() if stdin is not None else b""
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *arguments], cwd=ROOT, input=feed,
                          capture_output=True, timeout=120)


def base_of(name: bytes) -> str:
    """The measure of trec_eval's table a printed name belongs to (P_5 -> P, ndcg_cut_5 ->
    ndcg_cut, Rprec_mult_0.20 -> Rprec_mult): the longest that matches."""
    text = name.decode("ascii").rstrip(" ")
    if text.startswith("Z"):  # -Z's names (no trec_eval measure begins with Z)
        text = text[1:]
    matches = [m for m in te.TABLE if text == m or text.startswith(m + "_")]
    return max(matches, key=len)


def supported_lines(stdout: bytes) -> bytes:
    lines = stdout.splitlines(keepends=True)
    return b"".join(line for line in lines if base_of(line.split(b"\t")[0]) in te.SUPPORTED)


def left_out(stdout: bytes) -> list:
    """The measures whose lines supported_lines leaves out, in trec_eval's table order."""
    bases = {base_of(line.split(b"\t")[0]) for line in stdout.splitlines()}
    return [m for m in te.TABLE if m in bases and m not in te.SUPPORTED]


def split_notice(stderr: bytes):
    """evalcore's stderr as (the measures its first line says it left out, or None when that
    line is no such notice; the rest)."""
    first, newline, rest = stderr.partition(b"\n")
    head, colon, names = first.decode("utf-8", "replace").rpartition("evalcore does not have yet (trec_eval 10 prints them): ")
    if not colon or not newline or not head.startswith("evalcore trec: -m "):
        return None, stderr
    return names.split(", "), rest


def expected(name: str):
    stdout = (GOLDEN / f"{name}.stdout").read_bytes()
    stderr = (GOLDEN / f"{name}.stderr").read_bytes()
    status = int((GOLDEN / f"{name}.status").read_text(encoding="utf-8"))
    return supported_lines(stdout), stderr, status


def evalcore_stderr(name: str, stderr: bytes) -> bytes:
    """evalcore's stderr less its notice of the measures it left out, which must name
    exactly those the golden stdout has and supported_lines leaves out (none: no notice)."""
    named, rest = split_notice(stderr)
    assert (named or []) == left_out((GOLDEN / f"{name}.stdout").read_bytes()), stderr
    return rest


def test_the_cases_cover_what_they_should():
    assert len(CASES) >= 15
    # Unsupported measures are filtered out only where a nickname brought them in.
    for name in CASES:
        raw = (GOLDEN / f"{name}.stdout").read_bytes()
        if raw != supported_lines(raw):
            assert "all_trec" in command(name)[0] or "set" in command(name)[0], name


def test_every_case_is_generate_pys():
    generator = _generator()
    assert sorted(generator.CASES) == CASES
    for name in CASES:
        assert (GOLDEN / f"{name}.cmd").read_text(encoding="utf-8") == f"trec_eval {generator.CASES[name]}\n"
    # A runid trec_eval prints from unwritten memory is stored blank, and only there.
    for name in CASES:
        blank = b"runid                 \tall\t\n" in (GOLDEN / f"{name}.stdout").read_bytes()
        assert blank == (name in generator.UNWRITTEN_RUNID), name


@pytest.mark.skipif(not os.environ.get("EVALCORE_TREC_EVAL"), reason="set EVALCORE_TREC_EVAL to a trec_eval 10.0 binary")
@pytest.mark.parametrize("name", CASES)
def test_trec_eval_still_prints_the_golden_output(name):
    stdout, stderr, status = _generator().run(os.environ["EVALCORE_TREC_EVAL"], name)
    assert stdout == (GOLDEN / f"{name}.stdout").read_bytes()
    assert stderr == (GOLDEN / f"{name}.stderr").read_bytes()
    assert status == int((GOLDEN / f"{name}.status").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", [name for name in CASES if name not in _generator().READ_AS])
def test_prints_what_trec_eval_prints(name):
    arguments, stdin = command(name)
    done = evalcore_trec(["--format", "trec_eval", *arguments], stdin)
    stdout, stderr, status = expected(name)
    assert evalcore_stderr(name, done.stderr) == stderr
    assert done.stdout == stdout
    assert done.returncode == status


@pytest.mark.parametrize("name", ["q_c", "no_c", "improper"])
def test_trec_eval_format_is_the_default_for_trec_eval_names(name):
    arguments, stdin = command(name)
    done = evalcore_trec(arguments, stdin)
    assert (done.stdout, done.stderr, done.returncode) == expected(name)


def test_gz_run_and_qrels_print_what_the_plain_files_give(tmp_path):
    arguments, _ = command("q_c")
    qrels, run = tmp_path / "qrels.txt.gz", tmp_path / "run.txt.gz"
    qrels.write_bytes(gzip.compress((ROOT / arguments[-2]).read_bytes()))
    run.write_bytes(gzip.compress((ROOT / arguments[-1]).read_bytes()))
    done = evalcore_trec([*arguments[:-2], str(qrels), str(run)])
    assert (done.stdout, done.stderr, done.returncode) == expected("q_c")


def test_gz_on_stdin(tmp_path):
    arguments, stdin = command("stdin")
    packed = tmp_path / "run.gz"
    packed.write_bytes(gzip.compress(stdin.read_bytes()))
    done = evalcore_trec(arguments, packed)
    assert (done.stdout, done.stderr, done.returncode) == expected("stdin")
