"""The native CoNLL reader and stream (cpp/conll/) against their pure-Python twins through
tests/common.py, on valid and hostile files: identical results, identical errors (the same
type and message, naming the file and line)."""

from __future__ import annotations

import gzip
import os
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
from common import assert_identical, differential, run_all
from evalcore.testing.conll import conll_files

column_choices = st.sampled_from([(-2, -1), (1, 2), (0,), (-1, 1, 0), (2, 5), (-4, -1)])
# Small limits reach the overlong-line error on the strategy's long lines; 1 MiB is the default.
line_limits = st.sampled_from([12, 40, 1_048_576])
modes = st.sampled_from([("IOB2", "default"), ("IOB2", "strict"), ("IOBES", "strict"), ("IOB1", "strict")])


@differential
@given(conll_files(hostile=True), column_choices, line_limits)
def test_read_conll_native_equals_reference(data, columns, limit):
    run_all("read_conll", data, columns=columns, max_line_bytes=limit)


@differential
@given(conll_files(hostile=True), modes, line_limits, st.sampled_from([None, (-2, -1), (1, 2), (0, 3)]))
def test_evaluate_conll_native_equals_reference(data, mode, limit, columns):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_all("evaluate_conll", data, columns=columns, scheme=mode[0], mode=mode[1], max_line_bytes=limit)


@differential
@given(conll_files(hostile=True, columns=2), conll_files(hostile=True, columns=2), modes)
def test_two_files_native_equals_reference(gold, pred, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_all("evaluate_conll", gold, pred, scheme=mode[0], mode=mode[1])


@differential
@given(conll_files(), modes, st.booleans())
def test_the_stream_equals_evaluate_tags_on_the_lists_read(data, mode, huggingface):
    """evaluate_tags on a CoNLL source (the native stream) == evaluate_tags on read_conll's lists."""
    output = "huggingface" if huggingface else "report"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            gold, pred = evalcore.read_conll(data)["tags"]
            lists = evalcore.evaluate_tags(gold, pred, scheme=mode[0], mode=mode[1], output=output)
        except ValueError:
            lists = "refused"
        try:
            stream = evalcore.evaluate_tags(data, scheme=mode[0], mode=mode[1], output=output)
        except ValueError:
            stream = "refused"
    if "refused" in (stream, lists):
        assert stream == lists  # no token, or a tag strict mode refuses: both refuse
    else:
        assert_identical(stream, lists)


def test_a_gz_file_is_read_and_a_truncated_one_refused_alike(tmp_path):
    text = b"EU B-ORG B-ORG\nrejects O O\n\nPeter B-PER I-PER\n"
    path = tmp_path / "a.conll.gz"
    path.write_bytes(gzip.compress(text))
    assert run_all("read_conll", str(path))[1] == evalcore.read_conll(text)
    assert run_all("evaluate_conll", path)[0] == "ok"
    broken = tmp_path / "b.conll.gz"
    broken.write_bytes(gzip.compress(text)[:-9])
    outcome = run_all("evaluate_conll", str(broken))
    assert outcome[0] == "error" and "cannot decompress it as gzip" in outcome[1][1]
    outcome = run_all("read_conll", os.path.join(tmp_path, "missing.conll"))
    assert outcome[1][0] == "FileNotFoundError"


@pytest.mark.parametrize("data, message", [
    (b"a B-PER\nb O O\n", "<bytes>:2: 3 columns where the first token line (line 1) has 2"),
    (b"a O O\n" + b"x" * 50 + b"\n", "<bytes>:2: the line is longer than 40 bytes (max_line_bytes)"),
    (b"a O O\nb \xff O\n", "<bytes>:2: byte 3 of the line is not valid UTF-8"),
    (b"a O\n", "<bytes>:1: there is no column -3: the line has 2 columns"),
])
def test_errors_name_the_line(data, message):
    for function in (evalcore.read_conll, evalcore.reference.read_conll):
        with pytest.raises(ValueError) as caught:
            function(data, columns=(-2, -1) if data != b"a O\n" else (-1, -3), max_line_bytes=40)
        assert str(caught.value).startswith(message)


def test_two_files_name_what_differs():
    gold, pred = b"a B-PER\nb O\n\nc O\n", b"a B-PER\nB O\n\nc O\n"
    outcome = run_all("evaluate_conll", gold, pred)
    assert outcome[1][1].startswith("<bytes>:2: the token 'b' is 'B' at <bytes>:2: the two files must hold the same")
    outcome = run_all("evaluate_conll", gold, b"a B-PER\nb O\n")
    assert outcome[1][1].startswith("<bytes> ends before the sentence at <bytes>:4")


@pytest.mark.parametrize("count", [12, 123, 1234, 99999])
def test_counts_in_messages_have_python_thousands_separators(count):
    # register_tags' own commas() wrote 12 as "1,2" (an unsigned wrap); both now say f"{n:,}"
    outcome = run_all("evaluate_tags", [["O"]] * count, [["O"]] * (count + 1))
    assert outcome[1][1].startswith(f"y_true has {count:,} sentences but y_pred has {count + 1:,}")
