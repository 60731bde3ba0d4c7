"""progress= callbacks (evalcore.progress): called on the caller's thread with whole numbers,
done never going down, and a last call with done == total (the same last call from both
cores); a callback that raises stops the call with its exception; not a callable is a
TypeError; and the CLI's bar only on a terminal."""

from __future__ import annotations

import io
import json
import pathlib
import threading
import time

import pytest

import evalcore
import evalcore.reference
from common import run_all
from evalcore.progress import ProgressBar, file_bytes, terminal_bar

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
QRELS, RUN = EXAMPLES / "trec" / "qrels.txt", EXAMPLES / "trec" / "run.txt"
CORES = {"native": evalcore, "reference": evalcore.reference}


class Recorder:
    def __init__(self, fail_after=None):
        self.calls, self.threads, self.fail_after = [], set(), fail_after

    def __call__(self, done, total):
        self.calls.append((done, total))
        self.threads.add(threading.get_ident())
        if self.fail_after is not None and len(self.calls) >= self.fail_after:
            raise KeyboardInterrupt("stop")


def check_calls(recorder: Recorder, total: int) -> None:
    assert recorder.calls and recorder.threads == {threading.get_ident()}
    assert all(type(d) is int and type(t) is int and 0 <= d for d, t in recorder.calls)
    assert [d for d, _ in recorder.calls] == sorted(d for d, _ in recorder.calls)
    assert recorder.calls[-1] == (total, total)


@pytest.mark.parametrize("core", CORES)
def test_files_report_their_bytes(core, tmp_path):
    recorder = Recorder()
    result = CORES[core].evaluate_run(str(QRELS), str(RUN), ["P@5", "AP"], progress=recorder)
    check_calls(recorder, QRELS.stat().st_size + RUN.stat().st_size)
    assert result == evalcore.evaluate_run(str(QRELS), str(RUN), ["P@5", "AP"])


def test_a_run_read_twice_counts_twice_natively(tmp_path):
    # Not grouped by query: streamed, found out of order, read again whole. Copies of the
    # example run (their doc IDs made distinct), over 2 MiB: parsed in two parts (a
    # thread each, for a MiB at least each), the second one's queries are met again.
    lines = [b"%s %s %s_%d %s" % (*line.split(b" ", 3)[:3], copy, line.split(b" ", 3)[3])
             for copy in range(600) for line in RUN.read_bytes().splitlines(keepends=True)]
    shuffled = tmp_path / "run.txt"
    shuffled.write_bytes(b"".join(lines[1::2] + lines[::2]))
    assert shuffled.stat().st_size > 2 << 20
    recorder = Recorder()
    evalcore.evaluate_run(str(QRELS), str(shuffled), ["P@5"], threads=2, progress=recorder)
    check_calls(recorder, QRELS.stat().st_size + 2 * shuffled.stat().st_size)


@pytest.mark.parametrize("core", CORES)
def test_inputs_that_are_not_files_report_nothing_but_the_end(core):
    recorder = Recorder()
    CORES[core].evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P@1"], progress=recorder)
    assert recorder.calls == [(0, 0)]


def slow_stream(batches=6, pause=0.05):
    pa = pytest.importorskip("pyarrow")
    schema = pa.schema([("query_id", pa.string()), ("doc_id", pa.string()), ("score", pa.float64())])

    def produce():
        for b in range(batches):
            time.sleep(pause)
            yield pa.record_batch([pa.array([f"q{b}"]), pa.array(["a"]), pa.array([1.0])], schema=schema)

    return pa.RecordBatchReader.from_batches(schema, produce())


def test_calls_come_while_the_work_runs_and_a_raising_callback_stops_it():
    recorder = Recorder()
    qrels = {f"q{b}": {"a": 1} for b in range(6)}
    evalcore.evaluate_run(qrels, slow_stream(), ["P@1"], progress=recorder)  # 0.3 s of batches
    assert len(recorder.calls) >= 2 and recorder.calls[-1] == (0, 0)
    stopping = Recorder(fail_after=1)
    with pytest.raises(KeyboardInterrupt, match="stop"):
        evalcore.evaluate_run(qrels, slow_stream(), ["P@1"], progress=stopping)
    assert evalcore.evaluate_run(qrels, {"q0": {"a": 1.0}}, ["P@1"]).mean["P@1"] == 1.0  # still usable


def test_a_raising_callback_stops_a_file_being_read(tmp_path):
    # The callback is called about every 100 ms: the work must last several of those. Reading
    # 2M unjudged lines took 105 ms once the TREC reader got faster (and the CI trial saw the
    # first call at the end); 3M lines of judged queries, all_trec scored, take about 0.4 s.
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    with open(run, "wb") as out:
        for q in range(30_000):
            out.write(b"".join(b"q%d Q0 d%d %d %d.0 t\n" % (q, d, d, 100 - d) for d in range(100)))
    qrels.write_bytes(b"".join(b"q%d 0 d%d %d\n" % (q, d, d % 3) for q in range(30_000) for d in range(0, 100, 10)))
    stopping = Recorder(fail_after=1)
    slow = Recorder()
    with pytest.raises(KeyboardInterrupt):
        # block_bytes: reads of 64 KiB, so that the work checks often
        evalcore.runs.evaluate._evaluate_run(str(qrels), str(run), ["P@5", "all_trec"], 1, "linear", "score", "skip", 1,
                                             block_bytes=1 << 16, progress=lambda d, t: (slow(d, t), time.sleep(0.2),
                                                                                         stopping(d, t)))
    assert slow.calls and slow.calls[0][0] < slow.calls[0][1]  # it stopped before the end


@pytest.mark.parametrize("core", CORES)
def test_a_corpus_reports_documents(core):
    documents = json.loads((EXAMPLES / "span-corpus.json").read_text())
    recorder = Recorder()
    result = CORES[core].span_evaluate_corpus(documents * 50, progress=recorder)
    check_calls(recorder, len(documents) * 50)
    assert result == evalcore.span_evaluate_corpus(documents * 50)


@pytest.mark.parametrize("operation, args", [
    ("evaluate_run", ({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P@1"])),
    ("span_evaluate_corpus", ([],)),
])
def test_a_progress_that_is_not_callable_is_a_type_error(operation, args):
    outcome = run_all(operation, *args, progress=5)
    assert outcome[0] == "error" and outcome[1][:2] == (
        "TypeError", "progress must be a callable progress(done, total) or None, got int"), outcome


def test_file_bytes_counts_paths_only():
    assert file_bytes(str(QRELS), {"q": {}}, "/no/such/file") == QRELS.stat().st_size


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_bar_is_drawn_on_terminals_only_once_work_is_long_and_cleared():
    assert terminal_bar("run", "bytes", quiet=False, stream=io.StringIO()) is None
    assert terminal_bar("run", "bytes", quiet=True, stream=Terminal()) is None
    out = Terminal()
    bar = ProgressBar("run.txt", "bytes", out, after=0.0)
    bar(512 << 20, 1 << 30)
    assert out.getvalue().startswith("\rrun.txt: [###############               ]  50.0%  512.0 MiB / 1.0 GiB")
    bar.close()
    assert out.getvalue().endswith("\r")
    quick = Terminal()
    ProgressBar("run.txt", "bytes", quick, after=10.0)(1, 2)
    assert quick.getvalue() == ""
