"""The TREC parsers' two codes (cpp/runs/trec_bytes.hpp): the baseline's (SSE2, the x86-64
wheels' target) and the wide one (AVX2, POPCNT, BMI), which the core takes where the
processor runs it. Both must read every text alike: the same records, the same first fault
on the same line, for run files, qrels and subtopic qrels, whatever the spacing (tabs,
'\\v', '\\f', '\\r', runs of them), comments, blank lines, lines longer than the 64 bytes
classified at a time, a last line without its newline; and each equals the reference.
On a processor without AVX2 (or a build without SSE2) both runs take the baseline's code."""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import differential, run_all
from evalcore import _core
from evalcore.testing.diversity import DIVERSITY_MEASURES

MEASURES = ["map", "P@5", "ndcg", "recip_rank", "num_ret"]

spaces = st.sampled_from([" ", "\t", "\v", "\f", "\r", "  ", " \t ", "\t\r"])
ids = st.one_of(st.sampled_from(["q1", "q2", "10", "ä", "d", "e", "#x"]),
                st.text(st.sampled_from("ab9-_.é"), min_size=1, max_size=80))  # (past 64 bytes at times)
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
            with open(path, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
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
        assert _core._trec_bytes() == "baseline"
        baseline = run_all("evaluate_run", *args, **kwargs)
    assert repr(wide) == repr(baseline)
    return wide


def test_the_switch_says_which_code_runs():
    assert _core._trec_bytes() in ("avx2", "baseline")
    with baseline_bytes():
        assert _core._trec_bytes() == "baseline"
    assert _core._trec_bytes() in ("avx2", "baseline")


@differential
@given(lines(4, 3), lines(6, 4), st.sampled_from([1, 2]))
def test_run_and_qrels_files_read_alike(qrels, run, threads):
    with files(qrels, run) as (qrels_path, run_path):
        both_codes(qrels_path, run_path, MEASURES, threads=threads)


@differential
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
