"""The TREC parsers' two codes (cpp/runs/trec_bytes.hpp): the baseline's (SSE2, the x86-64
wheels' target) and the wide one (AVX2, POPCNT, BMI), which the core takes where the
processor runs it (on x86-64 Linux). Both must read every text alike: the same records, the
same first fault on the same line, for run files, qrels and subtopic qrels, whatever the
bytes (every spacing byte, runs of them, the control bytes around them, DEL, bytes that are
not UTF-8), comments, blank lines, a last line without its newline; and each equals the
reference. Lines of 64 bytes or more, and a text's last 63 bytes, are split by code both
share; texts of megabytes are read in parts on two threads, each part's lines counted by
the code in use (the count sizes the columns: it must be exact). On a processor without
AVX2 (or a build without SSE2) both runs take the baseline's code."""

from __future__ import annotations

import contextlib
import os
import platform
import sys
import tempfile
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common import run_all
from evalcore import _core
from evalcore.testing.diversity import DIVERSITY_MEASURES

MEASURES = ["map", "P@5", "ndcg", "recip_rank", "num_ret"]
# 300 examples in every profile, not the differential properties' 2,000 in CI: each example
# evaluates four times (both codes, native and reference), and the fuzzer (fuzz/run.sh, in
# CI) compares the two codes on every input it makes, with the sanitizers.
BUDGET = settings(max_examples=300, deadline=None)

spaces = st.sampled_from([" ", "\t", "\v", "\f", "\r", "  ", " \t ", "\t\r"])
# Bytes around the spacing bytes (NUL, 0x08 and 0x0E beside '\t'..'\r', 0x1F and '!' beside
# ' ', DEL) and bytes that are not UTF-8 (surrogate escapes, written as the raw bytes).
odd = "\x00\x08\x0e\x1f!\x7f\udc80\udcff"
ids = st.one_of(st.sampled_from(["q1", "q2", "10", "ä", "d", "e", "#x"]),
                st.text(st.sampled_from("ab9-_.é" + odd), min_size=1, max_size=80))  # (past 64 bytes at times)
numbers = st.one_of(st.sampled_from(["1", "0", "2", "-1", "0.5", ".5", "+3", "1e5", "1.25e-3", "19.9", "nan",
                                     "inf", "x", "1.0000000000000002", "123456789012345678"]),
                    st.floats(-1e6, 1e6, allow_nan=False).map(repr))


@st.composite
def lines(draw, fields: int, number_at: int) -> str:
    """A text of TREC-like lines of about `fields` fields (the number at `number_at`), now and
    then a comment, a blank line, a line of another length, leading and trailing spaces."""
    out = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 19))
        if kind == 0:
            out.append("# " + draw(st.text(st.sampled_from("ab \t#"), max_size=90)))
            continue
        if kind == 1:
            out.append(draw(spaces) if draw(st.booleans()) else "")
            continue
        count = fields if kind > 3 else draw(st.integers(1, 7))
        parts = [draw(numbers) if k == number_at else draw(ids) for k in range(count)]
        line = "".join(p + draw(spaces) for p in parts[:-1]) + parts[-1]
        if draw(st.integers(0, 5)) == 0:
            line = draw(spaces) + line + draw(spaces)
        out.append(line)
    return "\n".join(out) + ("\n" if draw(st.booleans()) else "")


@contextlib.contextmanager
def files(qrels: str, run: str) -> Iterator[tuple]:
    with tempfile.TemporaryDirectory() as folder:
        paths = os.path.join(folder, "qrels"), os.path.join(folder, "run")
        for path, text in zip(paths, (qrels, run)):
            with open(path, "wb") as handle:
                handle.write(text.encode("utf-8", "surrogateescape"))
        yield paths


@contextlib.contextmanager
def baseline_bytes() -> Iterator[None]:
    _core._trec_bytes(baseline=True)
    try:
        yield
    finally:
        _core._trec_bytes(baseline=False)


def both_codes(*args, **kwargs):
    """The outcome with the wide code (where it runs) and with the baseline's, each equal to
    the reference's (run_all); the two must be equal."""
    wide = run_all("evaluate_run", *args, **kwargs)
    with baseline_bytes():
        assert _core._trec_bytes() in ("sse2", "portable")
        baseline = run_all("evaluate_run", *args, **kwargs)
    assert repr(wide) == repr(baseline)
    return wide


def processor_runs_the_wide_code() -> bool:
    """x86-64 Linux whose processor (as /proc/cpuinfo lists its flags) has what the wide code needs."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        flags = next((line.split(":", 1)[1].split() for line in handle if line.startswith("flags")), [])
    return all(flag in flags for flag in ("avx2", "bmi1", "bmi2", "popcnt"))


def test_the_wide_code_runs_where_the_processor_has_it():
    code = _core._trec_bytes()
    if code == "portable":
        pytest.skip("a build with EVALCORE_PORTABLE_BYTES (the sanitizer stage's): no SSE2 or AVX2 code")
    # Else the comparisons below compare the wide code with the baseline's where it exists.
    assert code == ("avx2" if processor_runs_the_wide_code() else "sse2")
    with baseline_bytes():
        assert _core._trec_bytes() == "sse2"
    assert _core._trec_bytes() == code


@BUDGET
@given(lines(4, 3), lines(6, 4), st.sampled_from([1, 2]))
def test_run_and_qrels_files_read_alike(qrels, run, threads):
    with files(qrels, run) as (qrels_path, run_path):
        both_codes(qrels_path, run_path, MEASURES, threads=threads)


@BUDGET
@given(lines(4, 3), lines(6, 4), st.sampled_from([1, 2]))
def test_subtopic_qrels_files_read_alike(qrels, run, threads):
    with files(qrels, run) as (qrels_path, run_path):
        both_codes(qrels_path, run_path, list(DIVERSITY_MEASURES), qrels_format="subtopics", threads=threads)


@pytest.mark.parametrize("length", [62, 63, 64, 65, 127, 128, 129])
def test_lines_around_the_64_bytes_classified_at_a_time(length):
    # Lines of exactly `length` bytes (the doc ID padded), around the window's edges.
    def line(query, doc, value):
        head = f"{query} Q0 {doc}"
        tail = f" 1 {value} t"
        return head + "x" * (length - len(head) - len(tail)) + tail

    run = "\n".join(line(q, f"d{k}", 10 - k) for q in ("q1", "q2") for k in range(9))
    qrels = "\n".join(f"{q} 0 d{k}{'x' * (length - 12)} {k % 3}" for q in ("q1", "q2") for k in range(9))
    with files(qrels + "\n", run) as (qrels_path, run_path):
        outcome = both_codes(qrels_path, run_path, MEASURES)
    assert outcome[0] == "ok"


@pytest.mark.parametrize("blank", ["", "\n", "\n" * 300])
def test_large_texts_read_in_parts_alike(blank):
    # 1.4 MB of run and 0.4 MB of subtopic qrels: read in parts (256 KiB at least) on two
    # threads, each part's lines counted by the code in use (past the SSE2 code's 255-step
    # byte counters),
    # blank lines between the data lines now and then.
    run = "".join(f"q{q} Q0 d{d} {d} {1000 - d}.5 t\n" + (blank if d % 97 == 0 else "")
                  for q in range(60) for d in range(1000))
    qrels = "".join(f"q{q} {s} d{d} {(q + d + s) % 3}\n" + (blank if d % 89 == 0 else "")
                    for q in range(60) for s in range(4) for d in range(0, 1000, 7))
    measures = list(DIVERSITY_MEASURES)
    with files(qrels, run) as (qrels_path, run_path):
        import evalcore

        wide = evalcore.evaluate_run(qrels_path, run_path, measures, qrels_format="subtopics", threads=2)
        with baseline_bytes():
            baseline = evalcore.evaluate_run(qrels_path, run_path, measures, qrels_format="subtopics", threads=2)
            one = evalcore.evaluate_run(qrels_path, run_path, measures, qrels_format="subtopics", threads=1)
    assert wide.query_ids == baseline.query_ids == one.query_ids and len(wide.query_ids) == 60
    for name in measures:
        assert list(wide.values(name)) == list(baseline.values(name)) == list(one.values(name)), name
