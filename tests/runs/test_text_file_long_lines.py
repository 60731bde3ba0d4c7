"""Whole text files (qrels, qrels_jg) read up to their first line over max_line_bytes.

The native reader measures lines chunk by chunk (64 KiB) when the limit is at least a
chunk: only the line running into a chunk is measured. These cases put the line at the limit
(read) or one byte over it (refused, on its line) at and around chunk boundaries, in both
cores, for limits just over a chunk and at the default (1 MiB)."""

from __future__ import annotations

import pytest

from common import run_all

CHUNK = 1 << 16
MEASURES = ["map", "P@5"]
RUN = {"q1": {"d1": 2.0, "d2": 1.0}}


def qrels_line(length: int, query: str = "q1", doc: str = "d") -> str:
    """A qrels line of exactly `length` bytes (its document ID padded)."""
    line = f"{query} 0 {doc} 1"
    return line.replace(doc, doc + "x" * (length - len(line)), 1)


def filler(total: int) -> list:
    """Lines of about 40 bytes (each with its newline) whose bytes add up to exactly `total`."""
    lines, left, n = [], total, 0
    while left > 0:
        size = min(40, left) if left >= 80 or left <= 40 else left // 2  # no line under 20 bytes
        lines.append(qrels_line(size - 1, doc=f"f{n}_"))
        left -= size
        n += 1
    return lines


def too_long(path, line: int, limit: int):
    return ("RunInputError", f"{path}:{line}: line longer than {limit:,} bytes (the max_line_bytes limit)", str(path), line)


@pytest.mark.parametrize("limit", [CHUNK, CHUNK + 1, 3 * CHUNK - 7, 1 << 20])
@pytest.mark.parametrize("before", [0, CHUNK - 13, CHUNK, CHUNK + 29, 2 * CHUNK - 1])
@pytest.mark.parametrize("over", [0, 1])
def test_a_long_line_at_a_chunk_boundary(tmp_path, limit, before, over):
    head = filler(before)
    lines = head + [qrels_line(limit + over, doc="d1"), "q1 0 d2 1", "q2 0 d3 0"]
    path = tmp_path / "qrels.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert sum(len(x) + 1 for x in head) == before
    outcome = run_all("evaluate_run", str(path), RUN, MEASURES, max_line_bytes=limit, missing="skip")
    if over:
        assert outcome == ("error", too_long(path, len(head) + 1, limit))
    else:
        assert outcome[0] == "ok", outcome


@pytest.mark.parametrize("limit", [CHUNK, 1 << 20])
def test_a_line_without_its_newline_at_the_end(tmp_path, limit):
    for over in (0, 1):
        path = tmp_path / f"qrels{over}.txt"
        path.write_text("\n".join(filler(CHUNK - 3) + [qrels_line(limit + over, doc="d1")]), encoding="utf-8")
        outcome = run_all("evaluate_run", str(path), RUN, MEASURES, max_line_bytes=limit, missing="skip")
        assert (outcome[0] == "error") == bool(over), outcome


def test_a_judgment_groups_file_is_measured_alike(tmp_path):
    limit = CHUNK + 5
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\n", encoding="utf-8")
    for over in (0, 1):
        path = tmp_path / f"jg{over}.txt"
        head = filler(CHUNK - 2)
        path.write_text("\n".join(head + [qrels_line(limit + over, doc="d1"), "q1 0 d2 1"]) + "\n", encoding="utf-8")
        outcome = run_all("evaluate_run", str(path), str(run), ["map_avgjg"], qrels_format="qrels_jg",
                          max_line_bytes=limit, missing="skip")
        if over:
            assert outcome[0] == "error" and outcome[1][3] == len(head) + 1, outcome
        else:
            assert outcome[0] == "ok", outcome
