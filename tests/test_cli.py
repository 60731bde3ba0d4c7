"""The `evalcore` command, run as a user runs it."""

import json
import pathlib
import subprocess
import sys

import pytest

import evalcore
import evalcore.reference

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "ranking-request.json"


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "evalcore.cli", *args], input=stdin, capture_output=True, timeout=120
    )


def test_example_file_prints_the_envelope():
    proc = run("ranking-evaluate", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    envelope = json.loads(proc.stdout)
    assert envelope == json.loads(json.dumps(evalcore.ranking_evaluate(json.loads(EXAMPLE.read_text(encoding="utf-8")))))
    # Numbers are written as ECMAScript does, and the output hash covers exactly that text.
    result_text = proc.stdout.decode().split('"result":', 1)[1].rsplit(',"provenance":', 1)[0]
    assert evalcore._core.sha256_hex(result_text.encode()) == envelope["provenance"]["outputSha256"]


def test_span_example_file():
    example = ROOT / "examples" / "span-request.json"
    proc = run("span-evaluate", str(example))
    assert proc.returncode == 0, proc.stderr
    envelope = json.loads(proc.stdout)
    assert envelope["operation"] == "span-evaluate"
    assert envelope == json.loads(json.dumps(evalcore.span_evaluate(json.loads(example.read_text(encoding="utf-8")))))


def test_score_example_file():
    example = ROOT / "examples" / "score-request.json"
    proc = run("score", str(example))
    assert proc.returncode == 0, proc.stderr
    request = json.loads(example.read_text(encoding="utf-8"))
    assert json.loads(proc.stdout) == json.loads(json.dumps(evalcore.score(request)))
    assert json.loads(proc.stdout)["per_item"][0] == {"precision": 0.4, "recall": 2 / 3, "f1": 0.5, "f2": 10 / 17}


def test_span_corpus_example_file():
    documents = json.loads((ROOT / "examples" / "span-corpus.json").read_text(encoding="utf-8"))
    result = evalcore.span_evaluate_corpus(documents, match="overlap", minimum_iou=0.5)
    assert result == evalcore.reference.span_evaluate_corpus(documents, match="overlap", minimum_iou=0.5)
    assert result["overall"]["matched"] == 4 and result["overall"]["references"] == 6


def test_stdin_and_pretty():
    proc = run("ranking-evaluate", "-", "--pretty", stdin=EXAMPLE.read_bytes())
    assert proc.returncode == 0
    assert proc.stdout.startswith(b"{\n  \"operation\"")


@pytest.mark.parametrize(
    "body,code,pointer",
    [
        (b'{"queries": [', "INVALID_JSON", ""),
        (b"\xff\xfe", "INVALID_JSON", ""),
        (b'{"queries": [], "k": NaN}', "INVALID_NUMBER", "/k"),
        (b'{"queries": [], "k": 1e999}', "NUMERIC_OVERFLOW", "/k"),
        (b'{"queries": [{"id": "a", "id": "b"}]}', "DUPLICATE_FIELD", "/queries/0/id"),
        (b'{"queries": []}', "SCHEMA_VIOLATION", "/queries"),
    ],
)
def test_errors_go_to_stderr_with_exit_1(body, code, pointer):
    proc = run("ranking-evaluate", "-", stdin=body)
    assert proc.returncode == 1 and proc.stdout == b""
    error = json.loads(proc.stderr)["error"]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert error["status"] == evalcore.STATUS_BY_CODE[code]


@pytest.mark.parametrize("args", [(), ("no-such-operation",), ("ranking-evaluate", "/no/such/file.json"), ("ranking-evaluate", "--limits", "{")])
def test_usage_errors_exit_2(args):
    assert run(*args, stdin=b"").returncode == 2


def test_help_lists_every_subcommand_and_version_prints_it(capsys):
    from evalcore.cli import SUBCOMMANDS, main

    assert main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name in ("ranking-evaluate", "span-evaluate", "score", "trec", "compare", "serve"):
        assert name in SUBCOMMANDS and f"\n  {name} " in listing
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"evalcore {evalcore.__version__}\n"
    assert main([]) == 2 and "commands:" in capsys.readouterr().err
