"""evaluate_run's TREC files: paths as str, bytes or os.PathLike; file faults raised as
open() raises them (OSError subclasses, field by field); a NUL in a path; the line-length
bound (max_line_bytes); files that are not regular (refused without blocking). Native and
reference must agree in every case (tests/common.py compares type, errno, strerror,
filename and message), and native for every block size and thread count."""

from __future__ import annotations

import errno
import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore.reference
from common import _run, assert_identical, expect_result, run_all, trec_files
from evalcore.runs.evaluate import _evaluate_run
from evalcore.testing import runs, trec_lines, trec_text

MEASURES = ["P@1", "AP"]


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


class BytesPath:
    """An os.PathLike whose path is bytes."""

    def __init__(self, path):
        self.path = os.fsencode(path)

    def __fspath__(self):
        return self.path


def open_error(path):
    """What open(path, "rb") raises."""
    try:
        with open(path, "rb"):
            pass
    except OSError as err:
        return err
    raise AssertionError(f"{path!r} opened")


def expect_like_open(qrels, run, like):
    """Both implementations raise `like`: the same type, errno, strerror, filename, text."""
    outcome = run_all("evaluate_run", qrels, run, MEASURES)
    expected = (type(like).__name__, like.errno, like.strerror, like.filename, like.filename2, str(like))
    assert outcome == ("error", expected), outcome


@pytest.fixture
def files(tmp_path):
    qrels = write(tmp_path / "qrels.txt", ["q1 0 a 1", "q1 0 b 0", "q2 0 c 2"])
    run = write(tmp_path / "run.txt", ["q1 Q0 b 1 2 t", "q1 Q0 a 2 1 t", "q2 Q0 c 1 1 t"])
    return qrels, run


PATH_FORMS = {"str": str, "bytes": os.fsencode, "Path": pathlib.Path, "bytes PathLike": BytesPath}


@pytest.mark.parametrize("form", PATH_FORMS)
def test_paths_in_every_form_give_the_same_result(files, form):
    qrels, run = files
    expected = expect_result("evaluate_run", qrels, run, MEASURES)
    convert = PATH_FORMS[form]
    assert_identical(expect_result("evaluate_run", convert(qrels), convert(run), MEASURES), expected)


@pytest.mark.parametrize("form", PATH_FORMS)
def test_a_missing_file_is_file_not_found_as_open_raises_it(files, tmp_path, form):
    qrels, run = files
    missing = PATH_FORMS[form](str(tmp_path / "nowhere.txt"))
    like = open_error(missing)
    assert isinstance(like, FileNotFoundError)
    expect_like_open(missing, run, like)
    expect_like_open(qrels, missing, like)
    expect_like_open(missing, {"q1": ["a"]}, like)


@pytest.mark.parametrize("form", PATH_FORMS)
def test_a_directory_is_a_directory_error_as_open_raises_it(files, tmp_path, form):
    qrels, run = files
    folder = PATH_FORMS[form](str(tmp_path))
    like = open_error(folder)
    assert isinstance(like, IsADirectoryError)
    expect_like_open(folder, run, like)
    expect_like_open(qrels, folder, like)


def unreadable(tmp_path):
    """A path that open() refuses with PermissionError, even as root where one exists."""
    path = tmp_path / "secret.txt"
    path.write_text("q1 0 a 1\n", encoding="utf-8")
    path.chmod(0)
    for candidate in (str(path), "/proc/sys/vm/compact_memory"):  # write-only, even for root
        if os.path.exists(candidate) and isinstance(open_error_or_none(candidate), PermissionError):
            return candidate
    pytest.skip("no path that open() refuses with PermissionError here")


def open_error_or_none(path):
    try:
        with open(path, "rb"):
            return None
    except OSError as err:
        return err


def test_an_unreadable_file_is_a_permission_error_as_open_raises_it(files, tmp_path):
    qrels, run = files
    secret = unreadable(tmp_path)
    like = open_error(secret)
    expect_like_open(secret, run, like)
    expect_like_open(qrels, secret, like)


@pytest.mark.parametrize("form", ["str", "bytes", "Path"])
def test_a_nul_in_a_path_is_value_error_as_open_raises_it(files, form):
    # "run.txt\0junk" must not open run.txt.
    qrels, run = files
    convert = PATH_FORMS[form]
    with pytest.raises(ValueError) as like:
        open(convert(run + "\0junk"), "rb")
    expected = ("error", ("ValueError", str(like.value)))
    assert str(like.value) == "embedded null byte"
    assert run_all("evaluate_run", qrels, convert(run + "\0junk"), MEASURES) == expected
    assert run_all("evaluate_run", convert(qrels + "\0junk"), run, MEASURES) == expected
    assert run_all("evaluate_run", convert(qrels + "\0junk"), {"q1": ["a"]}, MEASURES) == expected


def test_file_faults_come_in_argument_order(files, tmp_path):
    # The qrels are read before the run; a NUL is found before any file is opened.
    qrels, run = files
    missing = str(tmp_path / "nowhere.txt")
    like = open_error(missing)
    expect_like_open(missing, str(tmp_path), like)
    assert run_all("evaluate_run", missing, run + "\0", MEASURES) == ("error", ("ValueError", "embedded null byte"))


def test_trec_cli_reports_a_missing_file_with_exit_1(files, tmp_path):
    qrels, _run = files
    missing = str(tmp_path / "nowhere.txt")
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", qrels, missing, "-m", "P@1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"evalcore trec: cannot read {missing}: No such file or directory\n"


# ---- files that never end, or are not files: bounded, refused without blocking -----------

def too_long(path, line, limit=1 << 20):
    return ("RunInputError", f"{path}:{line}: line longer than {limit:,} bytes (the max_line_bytes limit)", str(path), line)


def streamed(qrels, run, measures=MEASURES, blocks=(1, 7, 64, 1 << 10, 1 << 20, 16 << 20), threads=(1, 2), **kwargs):
    """The native outcome for every block size and thread count; all must be the same."""
    kwargs = {"relevant_at_least": 1, "gain": "linear", "ties": "score", "missing": "skip", **kwargs}
    outcomes = {(block, t): _run(_evaluate_run, (qrels, run, measures), dict(kwargs, threads=t, block_bytes=block))
                for block in blocks for t in threads}
    first = next(iter(outcomes.values()))
    for key, outcome in outcomes.items():
        assert outcome[0] == first[0] and (outcome[0] == "ok" or outcome[1] == first[1]), (key, outcome, first)
        if outcome[0] == "ok":
            assert_identical(outcome[1], first[1])
    return first


def test_a_line_longer_than_the_limit_is_an_error(files, tmp_path):
    # 4 MiB without a newline: refused at the limit (1 MiB by default), as qrels and as run.
    qrels, run = files
    endless = tmp_path / "one-line.txt"
    endless.write_bytes(b"x" * (4 << 20))
    assert run_all("evaluate_run", qrels, str(endless), MEASURES) == ("error", too_long(endless, 1))
    assert run_all("evaluate_run", str(endless), run, MEASURES) == ("error", too_long(endless, 1))
    assert streamed(qrels, str(endless), blocks=(1 << 10, 1 << 16, 16 << 20)) == ("error", too_long(endless, 1))
    # After good lines, with a newline at its end, made of spaces: the same fault, on its line.
    later = tmp_path / "later.txt"
    later.write_bytes(b"q1 Q0 a 1 2 t\n\nq2 Q0 c 1 1 t\n" + b" " * ((1 << 20) + 1) + b"\nq3 Q0 x 1 1 t\n")
    assert run_all("evaluate_run", qrels, str(later), MEASURES) == ("error", too_long(later, 4))
    assert streamed(qrels, str(later), blocks=(1 << 10, 1 << 16, 16 << 20)) == ("error", too_long(later, 4))


def run_line(length, query="q1", doc="a"):
    """A run line of exactly `length` bytes (its doc ID padded)."""
    line = f"{query} Q0 {doc} 1 2.5 t"
    return line.replace(doc, doc + "d" * (length - len(line)), 1)


@pytest.mark.parametrize("newline_at_end", [True, False])
def test_a_line_of_exactly_the_limit_is_read(files, tmp_path, newline_at_end):
    qrels, _ = files
    limit = 40
    end = "\n" if newline_at_end else ""
    fits = tmp_path / "fits.txt"
    fits.write_text(run_line(limit) + "\n" + run_line(limit, doc="b") + end, encoding="utf-8")
    result = expect_result("evaluate_run", qrels, str(fits), MEASURES, max_line_bytes=limit)
    assert streamed(qrels, str(fits), max_line_bytes=limit)[0] == "ok"
    assert_identical(streamed(qrels, str(fits), max_line_bytes=limit)[1], result)
    over = tmp_path / "over.txt"
    over.write_text(run_line(limit) + "\n" + run_line(limit + 1, doc="b") + end, encoding="utf-8")
    assert run_all("evaluate_run", qrels, str(over), MEASURES, max_line_bytes=limit) == ("error", too_long(over, 2, limit))
    assert streamed(qrels, str(over), max_line_bytes=limit) == ("error", too_long(over, 2, limit))
    over_qrels = tmp_path / "over-qrels.txt"
    over_qrels.write_text("q1 0 a 1\nq1 0 " + "b" * limit + " 1" + end, encoding="utf-8")
    assert run_all("evaluate_run", str(over_qrels), {"q1": ["a"]}, MEASURES, max_line_bytes=limit) == (
        "error", too_long(over_qrels, 2, limit))


def test_the_first_faulty_line_wins_over_a_long_line(files, tmp_path):
    qrels, _ = files
    limit = 30
    long_line = run_line(limit + 5, query="q3")
    cases = [
        (["q1 Q0 a 1 2 t", "q1 Q0 b 2", long_line], ("RunInputError", None, 2)),  # 5 fields, line 2
        (["q1 Q0 a 1 2 t", "q1 Q0 a 2 1 t", "q2 Q0 c 1 1 t", long_line], ("RunInputError", None, 2)),  # a twice
        (["q1 Q0 a 1 2 t", long_line, "q1 Q0 b 2"], ("RunInputError", None, 2)),  # the long line first
        (["q1 Q0 a 1 2 t", "q2 Q0 c 1 1 t", "q1 Q0 b 2 1 t", long_line], ("RunInputError", None, 4)),  # ungrouped
    ]
    for i, (lines, (kind, _message, line)) in enumerate(cases):
        run = write(tmp_path / f"run{i}.txt", lines)
        outcome = run_all("evaluate_run", qrels, run, MEASURES, max_line_bytes=limit)
        assert outcome[0] == "error" and outcome[1][0] == kind and outcome[1][3] == line, (i, outcome)
        assert streamed(qrels, run, max_line_bytes=limit) == outcome, i


def test_max_line_bytes_can_be_raised(files, tmp_path):
    qrels, _ = files
    run = tmp_path / "long-ids.txt"
    run.write_text(run_line(2 << 20) + "\n" + run_line(100, doc="b") + "\n", encoding="utf-8")
    assert run_all("evaluate_run", qrels, str(run), MEASURES) == ("error", too_long(run, 1))
    result = expect_result("evaluate_run", qrels, str(run), MEASURES, max_line_bytes=4 << 20)
    assert result.query_ids == ["q1"]
    assert_identical(streamed(qrels, str(run), blocks=(1 << 16, 16 << 20), max_line_bytes=4 << 20)[1], result)


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "1024", None])
def test_bad_max_line_bytes(files, value):
    qrels, run = files
    outcome = run_all("evaluate_run", qrels, run, MEASURES, max_line_bytes=value)
    assert outcome == ("error", ("ValueError", f"max_line_bytes must be a positive int, got {value!r}"))


def test_one_long_query_streams_in_small_blocks(tmp_path):
    # Every line of one query: the scan carries its state across reads (never rescans).
    qrels = write(tmp_path / "qrels.txt", [f"q 0 d{i} {i % 3}" for i in range(0, 3000, 7)])
    run = write(tmp_path / "run.txt", [f"q Q0 d{i} {i} {3000 - i} t" for i in range(3000)] + ["", "r Q0 d1 1 1 t"])
    expected = expect_result("evaluate_run", qrels, run, ["AP", "nDCG@100"])
    assert_identical(streamed(qrels, run, ["AP", "nDCG@100"], blocks=(1, 5, 100, 4096))[1], expected)


NON_REGULAR = """
import json, os, resource, sys
# A regression fails, not the machine. (Not under AddressSanitizer: it maps terabytes of
# shadow memory up front, which any address-space or data limit refuses; the first CI stage
# runs this test with the limit.)
if "libasan" not in os.environ.get("LD_PRELOAD", ""):
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
sys.path.insert(0, {tests!r})
from common import run_all
role, path, good = sys.argv[1:]
qrels, run = (path, good) if role == "qrels" else (good, path)
print(json.dumps(run_all("evaluate_run", qrels, run, ["P@1"])))
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs and devices (not on Windows)")
@pytest.mark.parametrize("role", ["qrels", "run"])
@pytest.mark.parametrize("kind", ["FIFO", "/dev/zero"])
def test_non_regular_files_are_refused_without_blocking(files, tmp_path, role, kind):
    # A FIFO with no writer blocked in fopen; /dev/zero never ended as the run and grew to
    # 2 GB as the qrels. In a subprocess, so that a regression fails instead of hanging.
    qrels, run = files
    if kind == "FIFO":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
        what = "a FIFO"
    else:
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero")
        path, what = "/dev/zero", "a character device"
    script = NON_REGULAR.format(tests=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run([sys.executable, "-c", script, role, path, qrels if role == "run" else run],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    strerror = f"Not a regular file ({what})"
    assert json.loads(proc.stdout) == ["error", ["OSError", errno.EINVAL, strerror, path, None,
                                                 f"[Errno {errno.EINVAL}] {strerror}: {path!r}"]]


def test_trec_cli_bounds_lines_and_takes_max_line_bytes(files, tmp_path):
    qrels, _run = files
    run = tmp_path / "long.txt"
    run.write_text(run_line(200) + "\n", encoding="utf-8")
    trec = [sys.executable, "-m", "evalcore.cli", "trec", qrels, str(run), "-m", "P@1", "-c"]
    proc = subprocess.run(trec + ["--max-line-bytes", "100"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"evalcore trec: {run}:1: line longer than 100 bytes (the max_line_bytes limit)\n"
    proc = subprocess.run(trec, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("P@1"), proc.stderr
    proc = subprocess.run(trec + ["--max-line-bytes", "0"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "max_line_bytes must be a positive int, got 0" in proc.stderr


# ---- small files cost little: the first read is sized by the file -------------------------

PEAK = """
import sys
sys.path.insert(0, {tests!r})
import evalcore

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))

qrels, run = sys.argv[1:]
evalcore.evaluate_run({{"q": {{"a": 1}}}}, {{"q": ["a"]}}, ["P@1"])  # the module's own memory first
for threads in (1, 2):
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets the peak resident set (VmHWM)
    before = status("VmRSS")
    evalcore.evaluate_run(qrels, run, ["nDCG@10", "AP"], threads=threads)
    print(status("VmHWM") - before)
"""


def test_a_small_run_file_does_not_cost_a_16_mib_block(tmp_path):
    # The streaming reader read (and zero-filled) a 16 MiB block for a 4 KB file: 8-13 ms
    # and 16 MiB of resident memory per call. The first read is now sized by fstat.
    if not os.path.exists("/proc/self/clear_refs"):
        pytest.skip("needs Linux's /proc/self/clear_refs")
    root = pathlib.Path(__file__).resolve().parents[2] / "examples" / "trec"
    script = PEAK.format(tests=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run([sys.executable, "-c", script, str(root / "qrels.txt"), str(root / "run.txt")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    growth_kib = [int(x) for x in proc.stdout.split()]
    assert len(growth_kib) == 2 and max(growth_kib) < 4096, growth_kib  # it was 16,200 KiB and more


def test_a_file_larger_or_smaller_than_fstat_said_is_read_whole(tmp_path):
    # The first read is sized by fstat; a file whose size is not what fstat gives (/proc)
    # must still be read to its end, in reads growing up to the block.
    run = write(tmp_path / "run.txt", [f"q{q} Q0 d{d} {d + 1} {100 - d} t" for q in range(50) for d in range(40)])
    qrels = write(tmp_path / "qrels.txt", [f"q{q} 0 d{d} {d % 3}" for q in range(50) for d in range(0, 40, 3)])
    expected = expect_result("evaluate_run", qrels, run, ["AP", "nDCG@10"])
    assert_identical(streamed(qrels, run, ["AP", "nDCG@10"], blocks=(1, 100, 4096, 1 << 16, 16 << 20)), ("ok", expected))
    # A regular file that fstat says is empty: one line of some 50 fields, "PID (comm) STATE
    # PPID PGRP ...", which reads as a run line (fields after the 6th are ignored): query
    # PID (this process: the reference reads it here too), document STATE, score PPID or PGRP.
    proc_file = "/proc/self/stat"
    if os.path.exists(proc_file) and os.stat(proc_file).st_size == 0:
        with open(proc_file, "rb") as handle:
            fields = handle.read().split()
        query, doc = fields[0].decode(), fields[2].decode()
        outcome = run_all("evaluate_run", {query: {doc: 1}}, proc_file, ["P@1"])
        assert outcome[0] == "ok" and outcome[1].query_ids == [query] and outcome[1].mean == {"P@1": 1.0}, outcome


# ---- the line bound, generated: native (any block, any threads) equals the reference ------

@given(value=runs(), data=st.data(), limit=st.integers(1, 40), block=st.sampled_from([1, 3, 16, 200, 1 << 20]),
       threads=st.sampled_from([1, 2, 3]), qrels_file=st.booleans())
def test_line_bound_native_equals_reference(value, data, limit, block, threads, qrels_file):
    # Lines of up to ~40 bytes against limits of 1 to 40: every position of the first long
    # line relative to block edges, query boundaries, earlier faults and ungrouped runs.
    qrels_text = data.draw(trec_text(trec_lines(value, "qrels")), "qrels file")
    run_text = data.draw(trec_text(trec_lines(value, "run")), "run file")
    with trec_files(qrels_text, run_text) as (qrels_path, run_path):
        qrels = qrels_path if qrels_file else value["qrels"]
        kwargs = {"relevant_at_least": 1, "gain": "linear", "ties": "score", "missing": "skip", "max_line_bytes": limit}
        reference = _run(evalcore.reference.evaluate_run, (qrels, run_path, ["AP", "P@2"]), dict(kwargs, threads=threads))
        native = _run(_evaluate_run, (qrels, run_path, ["AP", "P@2"]), dict(kwargs, threads=threads, block_bytes=block))
    assert native[0] == reference[0], (native, reference)
    if native[0] == "ok":
        assert_identical(native[1], reference[1])
    else:
        assert native[1] == reference[1]


# ---- comments, blank lines, extra fields (trec_eval 10's inputs; README "trec_eval") ------

COMMENTED_QRELS = (b"# judged by hand\n#\n   # indented\n\nq1 0 a 1\r\n# inside a query\nq1 0 b 0\n\t\n"
                   b"q2 0 c 2\n##\nq2 0 x#1 1\n# the last line is a comment, without a newline")
COMMENTED_RUN = (b"\n# a run\n  \t# indented, after blanks\nq1 Q0 b 1 2 t\n#\nq1\tQ0\ta\t2\t1\tt  extra fields\r\n"
                 b"\n\n# between queries\nq2 Q0 c 1 1 t 7 8 9 10\nq2 Q0 x#1 2 0.5 t #not-a-comment\n#q2 Q0 d 3 9 t\n# end")
PLAIN_QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2, "x#1": 1}}
PLAIN_RUN = {"q1": {"b": 2.0, "a": 1.0}, "q2": {"c": 1.0, "x#1": 0.5}}


def test_comments_blank_lines_and_extra_run_fields_are_read(tmp_path):
    # A line whose first non-blank byte is '#' is a comment in both formats, any number of
    # them anywhere (trec_eval 10's qrels reader skips only one at a time, and crashes on a
    # final one); blank lines are skipped in both (trec_eval refuses them in qrels); a run
    # line's fields after the 6th are ignored. "#q2 Q0 d 3 9 t" is a comment, not query #q2.
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_bytes(COMMENTED_QRELS)
    run.write_bytes(COMMENTED_RUN)
    measures = ["P@1", "AP", "nDCG"]
    expected = expect_result("evaluate_run", PLAIN_QRELS, PLAIN_RUN, measures)
    assert expected.query_ids == ["q1", "q2"]
    assert_identical(expect_result("evaluate_run", str(qrels), str(run), measures), expected)
    assert_identical(streamed(str(qrels), str(run), measures), ("ok", expected))


def test_line_numbers_count_comment_and_blank_lines(tmp_path):
    # Physical lines, as an editor numbers them (trec_eval counts data lines only).
    run = write(tmp_path / "run", ["# a comment", "", "q1 Q0 a 1 2 t", "   ", "# another", "q1 Q0 b 2 1"])
    message = f"{run}:6: a run line has at least 6 fields: query Q0 document rank score tag, found 5"
    assert run_all("evaluate_run", PLAIN_QRELS, run, MEASURES) == ("error", ("RunInputError", message, run, 6))
    assert streamed(PLAIN_QRELS, run) == ("error", ("RunInputError", message, run, 6))
    qrels = write(tmp_path / "qrels", ["# a comment", "q1 0 a 1", "#", "", "q1 0 b"])
    message = f"{qrels}:5: a qrels line has 4 fields: query iteration document grade, found 3"
    assert run_all("evaluate_run", qrels, {}, MEASURES) == ("error", ("RunInputError", message, qrels, 5))
    twice = write(tmp_path / "twice", ["# x", "q1 Q0 a 1 2 t", "# y", "q1 Q0 a 2 1 t"])
    message = f"{twice}:4: query 'q1' lists document 'a' twice (first on line 2)"
    assert streamed(PLAIN_QRELS, twice) == ("error", ("RunInputError", message, twice, 4))


@pytest.mark.parametrize("line, message", [
    ("q1 0 a 1 extra", "found more"),
    ("q1 0 a 1 # a comment after the fields is a field", "found more"),
    ("q1 0 a", "found 3"),
])
def test_a_qrels_line_keeps_exactly_4_fields(tmp_path, line, message):
    qrels = write(tmp_path / "qrels", ["q1 0 b 0", line])
    text = f"{qrels}:2: a qrels line has 4 fields: query iteration document grade, {message}"
    assert run_all("evaluate_run", qrels, {}, MEASURES) == ("error", ("RunInputError", text, qrels, 2))


@pytest.mark.parametrize("role", ["qrels", "run"])
def test_a_comment_longer_than_the_limit_is_an_error(files, tmp_path, role):
    # The bound is on every line, comments and blank lines too: the reader never holds more
    # than max_line_bytes of a line, whatever it turns out to be. Raise it to read the file.
    qrels, run = files
    long = tmp_path / "long"
    good = b"q1 0 a 1\n" if role == "qrels" else b"q1 Q0 a 1 2 t\n"
    long.write_bytes(good + b"# " + b"c" * 98 + b"\n" + good.replace(b" a ", b" b "))
    pair = (str(long), run) if role == "qrels" else (qrels, str(long))
    assert run_all("evaluate_run", *pair, MEASURES, max_line_bytes=99) == ("error", too_long(long, 2, 99))
    result = expect_result("evaluate_run", *pair, MEASURES, max_line_bytes=100)
    assert result.query_ids == ["q1"]
    if role == "run":
        assert streamed(qrels, str(long), max_line_bytes=99) == ("error", too_long(long, 2, 99))
        assert_identical(streamed(qrels, str(long), max_line_bytes=100), ("ok", result))


def bytes_read():
    """The bytes this process has read with read() and the like (Linux's /proc/self/io rchar)."""
    with open("/proc/self/io") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("rchar:"))


@pytest.mark.parametrize("threads", [1, 2])
def test_comments_inside_a_query_do_not_end_it_when_streaming(tmp_path, threads):
    # The streaming reader splits blocks and threads' shares at query boundaries; a comment
    # taken for a query ID would split a query there, and the query, met again in the next
    # block, would have the file read whole a second time (the ungrouped-file fallback: the
    # same values, read again). The fallback stops the streaming where it finds a query met
    # before, so the comments inside queries are in the last ones: the file is read about
    # 1.9 times over if any splits a query, once otherwise.
    if not os.path.exists("/proc/self/io"):
        pytest.skip("needs Linux's /proc/self/io")
    lines = []
    for q in range(40):
        lines.append("# between queries")
        for d in range(100):
            lines.append(f"q{q} Q0 d{d} {d + 1} {100 - d} t")
            if q >= 35 and d % 7 == 3:
                lines.append("# a comment inside the query" if d % 2 else "   #")
    run = write(tmp_path / "run", lines)
    qrels = {f"q{q}": {f"d{d}": d % 3 for d in range(0, 100, 9)} for q in range(40)}
    size = os.path.getsize(run)
    expected = expect_result("evaluate_run", qrels, run, ["AP"])
    for block in (1 << 10, 1 << 14):
        before = bytes_read()
        result = _evaluate_run(qrels, run, ["AP"], 1, "linear", "score", "skip", threads, block)
        read = bytes_read() - before
        assert_identical(result, expected)
        assert read < 1.5 * size, (block, read, size)
    # The check itself: a file whose first query comes back at its end is read twice.
    ungrouped = write(tmp_path / "ungrouped", lines[10:] + lines[:10])
    before = bytes_read()
    _evaluate_run(qrels, ungrouped, ["AP"], 1, "linear", "score", "skip", threads, 1 << 10)
    assert bytes_read() - before > 1.5 * size


@pytest.mark.parametrize("fault", ["repeat", "malformed"])
def test_a_fault_in_a_later_threads_share_quotes_the_files_own_line_numbers(tmp_path, fault):
    # Each thread parses, groups and scores its share of a block in parts of 512 KiB,
    # numbering its lines from 1 until the shares before it are counted; a share after the
    # first that has a fault is read again, numbered from its first line (evaluation.cpp,
    # score_batch). Here the fault is past the middle of a 2.6 MB file, in the second thread's
    # share and several parts into it, and its message quotes an earlier line.
    queries, docs = 400, 200
    lines = [f"q{q:04d} Q0 d{d:05d} {d + 1} {1000 - d} tag\n" for q in range(queries) for d in range(docs)]
    at = len(lines) * 3 // 4 + 57  # line `at + 1` of the file, inside a query
    query = lines[at].split()[0]
    if fault == "repeat":  # the document of the query's first line again
        first = next(i for i, line in enumerate(lines) if line.startswith(query + " "))
        lines[at] = lines[first].replace(f" {1000 - 0} ", " 1.5 ")
        expected = f"query '{query}' lists document 'd00000' twice (first on line {first + 1})"
    else:
        lines[at] = f"{query} Q0 d99999 1 not-a-number tag\n"
        expected = None
    run = tmp_path / "run.txt"
    run.write_text("".join(lines))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q:04d} 0 d{d:05d} {d % 3}\n" for q in range(queries) for d in range(0, docs, 7)))
    assert run.stat().st_size > 2 << 20
    reference = run_all("evaluate_run", str(qrels), str(run), MEASURES)
    assert reference[0] == "error" and reference[1][0] == "RunInputError" and reference[1][3] == at + 1, reference
    if expected is not None:
        assert reference[1][1] == f"{run}:{at + 1}: {expected}", reference
    assert streamed(str(qrels), str(run), blocks=(64 << 10, 4 << 20, 16 << 20), threads=(1, 2, 3)) == reference
