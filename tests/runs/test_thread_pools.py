"""The thread pools under memory pressure (issue 21, items 3 and 10).

Each case runs in a subprocess under an address-space limit (RLIMIT_AS), set after the
imports, relative to what the process already maps: a regression shows as the child's
SIGABRT (std::terminate: a thread that could not start, or an exception leaving a worker),
which the returncode reveals, not as a crash of the test run.

Not under AddressSanitizer: it maps terabytes of shadow memory up front, which any
address-space limit refuses (the first CI stage runs these tests).
"""
import json
import os
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/, which holds common.py

limited = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", "") or not sys.platform.startswith("linux"),
                             reason="RLIMIT_AS and /proc/self/status (Linux), not under AddressSanitizer")

# The child's preamble: `limit(extra)` caps the address space at what is mapped now plus
# `extra` bytes; `outcome(call)` is what call() gave, as JSON-able data.
PREAMBLE = r"""
import json, resource, sys
sys.path.insert(0, {tests!r})
import evalcore, evalcore.reference
from common import _run

def mapped():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))

def limit(extra):
    cap = mapped() + extra
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

def outcome(function, *args, **kwargs):
    try:
        kind, value = _run(function, args, kwargs)
    except MemoryError:
        return ["MemoryError"]
    if kind == "ok":
        value = value.to_dict() if hasattr(value, "to_dict") else value
    return [kind, value]
"""


def run_child(body, *args, timeout=300):
    script = PREAMBLE.format(tests=TESTS) + body
    proc = subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"the child ended with {proc.returncode}: {proc.stderr[-3000:]}"
    return json.loads(proc.stdout.splitlines()[-1])


def write_lines(path, lines):
    with open(path, "w", encoding="ascii") as f:
        f.writelines(line + "\n" for line in lines)
    return str(path)


# ---- item 3: more threads than can start -------------------------------------------------

MANY_THREADS_TREC = r"""
qrels, run = sys.argv[1:]
expected = outcome(evalcore.evaluate_run, qrels, run, ["AP", "nDCG@10"], threads=1)
limit(256 << 20)  # 255 threads' stacks (2 to 8 MiB each) do not fit
print(json.dumps([expected, outcome(evalcore.evaluate_run, qrels, run, ["AP", "nDCG@10"], threads=256)]))
"""


@limited
def test_256_threads_under_an_address_space_limit_read_a_tiny_trec_run(tmp_path):
    # std::terminate (SIGABRT) before: the stream's parsers were started one per thread
    # asked for, whatever the file's size, and a failed start destroyed the joinable rest.
    qrels = write_lines(tmp_path / "qrels.txt", [f"q{q} 0 d{d} {d % 3}" for q in range(3) for d in range(6)])
    run = write_lines(tmp_path / "run.txt", [f"q{q} Q0 d{d} {d} {10 - d} t" for q in range(3) for d in range(8)])
    expected, got = run_child(MANY_THREADS_TREC, qrels, run)
    assert expected[0] == "ok" and got == expected


MANY_THREADS_COMPARE = r"""
queries = 300
qrels = {f"q{i}": {"a": 1, "b": i % 2, "c": i % 3} for i in range(queries)}
runs = {"x": {f"q{i}": ["a", "b", "c"] for i in range(queries)},
        "y": {f"q{i}": ["c", "a", "b"] if i % 3 else ["b", "a"] for i in range(queries)},
        "z": {f"q{i}": ["b", "c", "a"] if i % 5 else ["a"] for i in range(queries)}}
evaluated = {name: evalcore.evaluate_run(qrels, run, ["AP", "P@2"]) for name, run in runs.items()}
def comparison(threads):
    try:
        return evalcore.compare(None, evaluated, ["AP", "P@2"], tests=["t", "wilcoxon", "randomization", "bootstrap"],
                                intervals=["t", "bootstrap"], resamples=2000, seed=7, threads=threads).to_json()
    except MemoryError:
        return "MemoryError"
expected = comparison(1)
limit(256 << 20)  # 255 threads' stacks (2 to 8 MiB each) do not fit
print(json.dumps([expected, comparison(256)]))
"""


@limited
def test_256_threads_under_an_address_space_limit_compare_evaluated_runs():
    # std::terminate (SIGABRT) before: the resampling pool started a thread per share of
    # the resamples; now the threads that could not start leave their shares to the others
    # (the result does not depend on the threads).
    expected, got = run_child(MANY_THREADS_COMPARE)
    assert expected != "MemoryError" and got == expected


# ---- item 3: std::bad_alloc on a worker thread ----------------------------------------

# The run is not grouped by query, so it is read whole and parsed in parts, one a thread.
WORKER_OUT_OF_MEMORY = r"""
qrels, run, size, room = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
evalcore.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, ["P@1"])  # warm: the module's own memory
limit(size * 2 + room)  # the file's text fits, its records (about 40 bytes a line) do not
print(json.dumps([outcome(evalcore.evaluate_run, qrels, run, ["AP"], threads=t) for t in (1, 2, 4)]))
"""


@limited
def test_an_allocation_failing_on_a_worker_thread_is_a_memory_error(tmp_path):
    # std::terminate (SIGABRT) before for threads=2 and 4, where threads=1 raised MemoryError:
    # the std::bad_alloc left its worker thread.
    queries, depth = 2000, 400
    qrels = write_lines(tmp_path / "qrels.txt", [f"q{q} 0 d{d} 1" for q in range(queries) for d in range(0, 40, 7)])
    run = write_lines(tmp_path / "run.txt", [f"q{q} Q0 d{d} {d} {depth - d} t" for d in range(depth) for q in range(queries)])
    # A worker's first throw needs its thread-local block (the exception state of the
    # libstdc++ linked into the module), which glibc allocates then and, with no memory left,
    # aborts the process on ("cannot allocate memory for thread-local data", exit 127): no
    # exception the library could catch. Which thread meets the limit first varies from run
    # to run, so when that abort ends the child, it runs again with 1 MiB more room: enough
    # for the block, not for the records, and a std::terminate (SIGABRT) still fails.
    for room in (0, 1 << 20):
        try:
            got = run_child(WORKER_OUT_OF_MEMORY, qrels, run, os.path.getsize(run), room)
            break
        except AssertionError as error:
            if room or "ended with 127: cannot allocate memory for thread-local data" not in str(error):
                raise
    assert got == [["MemoryError"]] * 3


# ---- item 10: a file's size is no reason to reserve memory -------------------------------

SPARSE_QRELS = r"""
qrels, run = sys.argv[1:]
limit(1 << 30)  # less than the file's 4 GiB
native = outcome(evalcore.evaluate_run, qrels, run, ["AP"])
reference = outcome(evalcore.reference.evaluate_run, qrels, run, ["AP"])
print(json.dumps([native, reference]))
"""


@limited
def test_a_sparse_4_gib_qrels_file_reports_the_line_limit_as_the_reference(tmp_path):
    # MemoryError before: the native reader reserved the file's size up front, where the
    # reference reads line by line and stops at the first line over max_line_bytes.
    qrels = tmp_path / "sparse.txt"
    with open(qrels, "wb") as f:
        f.write(b"q1 0 d1 1\n")
        f.seek((4 << 30) - 1)
        f.write(b"\n")  # no disk: a hole of 4 GiB of NUL bytes, one line
    run = write_lines(tmp_path / "run.txt", ["q1 Q0 d1 1 1 t"])
    native, reference = run_child(SPARSE_QRELS, qrels, run)
    assert native == reference
    assert native[0] == "error" and native[1][0] == "RunInputError", native
    assert "max_line_bytes" in native[1][1]
