"""Compressed TREC files: a ``*.gz`` path is decompressed (in chunks, to a temporary copy)
and evaluated as the plain file is, with messages naming the .gz file; a compressed file
under another name is refused on line 1 with a message saying what it looks like; a .gz
file that does not decompress is a RunInputError. Native and reference agree throughout."""

from __future__ import annotations

import glob
import gzip
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common import assert_identical, expect_result, run_all
from evalcore.runs import sources as run_sources
from evalcore.runs.evaluate import _evaluate_run
from evalcore.testing import runs, trec_lines, trec_text

MEASURES = ["P@1", "AP", "nDCG@3", "NumRet"]


def write_bytes(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


@settings(max_examples=60)
@given(value=runs(), data=st.data(), block=st.sampled_from([1, 13, 1 << 20]), chunk=st.sampled_from([3, 1 << 20]))
def test_gz_files_equal_their_plain_text(value, data, block, chunk):
    qrels_text = data.draw(trec_text(trec_lines(value, "qrels")), "qrels file").encode()
    run_text = data.draw(trec_text(trec_lines(value, "run")), "run file").encode()
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, text in (("qrels", qrels_text), ("run", run_text)):
            plain = os.path.join(folder, name)
            with open(plain, "wb") as handle:
                handle.write(text)
            with gzip.open(plain + ".gz", "wb") as handle:
                handle.write(text)
            paths[name] = plain
        saved = run_sources.CHUNK_BYTES
        run_sources.CHUNK_BYTES = chunk  # decompressed in small chunks too
        try:
            plain = run_all("evaluate_run", paths["qrels"], paths["run"], MEASURES)
            packed = run_all("evaluate_run", paths["qrels"] + ".gz", paths["run"] + ".gz", MEASURES)
            native = _evaluate_run(paths["qrels"] + ".gz", paths["run"] + ".gz", MEASURES, 1, "linear", "score", "skip",
                                   2, block) if plain[0] == "ok" else None
        finally:
            run_sources.CHUNK_BYTES = saved
    if plain[0] == "ok":
        assert packed[0] == "ok"
        assert_identical(packed[1], plain[1])
        assert_identical(native, plain[1])
    else:  # the same fault, naming the .gz file
        kind, message, source, line = plain[1]
        assert message.startswith(source)
        assert packed == ("error", (kind, source + ".gz" + message[len(source):], source + ".gz", line)), (packed, plain)


def test_messages_name_the_gz_file_and_no_copy_is_left(tmp_path):
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "evalcore-*")))
    qrels = write_bytes(tmp_path / "q.gz", gzip.compress(b"q1 0 a 1\n"))
    run = write_bytes(tmp_path / "r.gz", gzip.compress(b"q1 Q0 a 1 2.5 t\nq1 Q0 b 2 x t\n"))
    outcome = run_all("evaluate_run", qrels, run, ["P@1"])
    assert outcome == ("error", ("RunInputError", f"{run}:2: the score 'x' is not a finite number", run, 2))
    assert set(glob.glob(os.path.join(tempfile.gettempdir(), "evalcore-*"))) == before


@pytest.mark.parametrize("data, detail", [
    (b"\x1f\x8b\x08\x00garbage", "cannot decompress it as gzip"),
    (gzip.compress(b"q1 Q0 a 1 2.5 t\n" * 1000)[:-30], "cannot decompress it as gzip"),  # truncated
    (b"q1 Q0 a 1 2.5 t\n", "cannot decompress it as gzip: Not a gzipped file"),  # plain text named .gz
])
def test_gz_files_that_do_not_decompress(tmp_path, data, detail):
    run = write_bytes(tmp_path / "run.gz", data)
    outcome = run_all("evaluate_run", {"q1": {"a": 1}}, run, ["P@1"])
    assert outcome[0] == "error" and outcome[1][0] == "RunInputError", outcome
    assert outcome[1][1].startswith(f"{run}: {detail}") and outcome[1][2:] == (run, None), outcome


@pytest.mark.parametrize("head, kind", [(b"\x1f\x8b\x08\x00", "gzip"), (b"\xfd7zXZ\x00", "xz"),
                                        (b"\x28\xb5\x2f\xfd", "zstd")])
@pytest.mark.parametrize("role", ["qrels", "run"])
def test_compressed_files_under_other_names_say_so(tmp_path, head, kind, role):
    compressed = write_bytes(tmp_path / "data.txt", head + b"\x00\x01 rest\nmore lines\n" + b"x" * 5000)
    plain_qrels = write_bytes(tmp_path / "qrels", b"q1 0 a 1\n")
    qrels, run = (compressed, {"q1": ["a"]}) if role == "qrels" else (plain_qrels, compressed)
    advice = "name it *.gz and evalcore decompresses it" if kind == "gzip" else "decompress it first"
    message = f"{compressed}:1: the file looks {kind}-compressed (it starts with {kind}'s magic bytes): {advice}"
    for max_line_bytes in (10, 1 << 20):  # before the line-length bound, which line 1 also breaks
        outcome = run_all("evaluate_run", qrels, run, ["P@1"], max_line_bytes=max_line_bytes)
        assert outcome == ("error", ("RunInputError", message, compressed, 1)), outcome


def test_gz_paths_as_bytes_and_pathlike(tmp_path):
    run = tmp_path / "run.gz"
    run.write_bytes(gzip.compress(b"q1 Q0 a 1 2.5 t\nq1 Q0 b 2 1 t\n"))
    expected = expect_result("evaluate_run", {"q1": {"b": 1}}, str(run), MEASURES)
    assert_identical(expect_result("evaluate_run", {"q1": {"b": 1}}, run, MEASURES), expected)
    assert_identical(expect_result("evaluate_run", {"q1": {"b": 1}}, os.fsencode(run), MEASURES), expected)
    assert expected.mean["AP"] == 0.5
    missing = str(tmp_path / "nowhere.gz")  # open()'s OSError, as for a plain file
    outcome = run_all("evaluate_run", {}, missing, ["P@1"])
    assert outcome[0] == "error" and outcome[1][:4] == ("FileNotFoundError", 2, "No such file or directory", missing)


def test_magic_bytes_past_the_line_bound_are_not_read(tmp_path):
    # With a bound of 1 byte only 2 bytes of line 1 are read: zstd's 4-byte magic is not
    # seen, the line is too long (gzip's 2 bytes are seen, by both cores alike).
    zstd = write_bytes(tmp_path / "zstd", b"\x28\xb5\x2f\xfd rest\n")
    outcome = run_all("evaluate_run", {"q1": {"a": 1}}, zstd, ["P@1"], max_line_bytes=1)
    assert outcome == ("error", ("RunInputError", f"{zstd}:1: line longer than 1 bytes (the max_line_bytes limit)",
                                 zstd, 1)), outcome
    packed = write_bytes(tmp_path / "gz", b"\x1f\x8b rest\n")
    outcome = run_all("evaluate_run", {"q1": {"a": 1}}, packed, ["P@1"], max_line_bytes=1)
    assert outcome[1][1].startswith(f"{packed}:1: the file looks gzip-compressed"), outcome
