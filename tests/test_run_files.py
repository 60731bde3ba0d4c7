"""evaluate_run's TREC files: paths as str, bytes or os.PathLike; file faults raised as
open() raises them (OSError subclasses, field by field); a NUL in a path. Native and
reference must agree in every case (tests/common.py compares type, errno, strerror,
filename and message)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from common import assert_identical, expect_result, run_all

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
