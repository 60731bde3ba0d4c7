"""`evalcore trec` against the real trec_eval 10 binary: wall time of the same command line
on the same files, and the outputs compared.

    python bench/bench_trec_cli.py --trec-eval /path/to/trec_eval [--queries 10000] [--retrieved 1000]
        [--judgments 100] [--repeats 3]

The files: `queries` × `retrieved` run lines (every query retrieves `retrieved` documents,
scores strictly falling, so no ties: written by numpy with fixed-width fields) and qrels of
`judgments` graded judgments (0..3) per query, half of them retrieved, likelier near the
top; every judged query is in the run (no -c needed). Each command line is timed as a
child process, trec_eval and evalcore alternating, `repeats` times; the figure is each
one's median wall time and their ratio. stdout must be equal byte for byte, except the
lines of trec_eval's measures evalcore does not print (counted and reported: a ratio over
fewer lines is not a like-for-like figure). `cat` of the run file is the floor: what merely
reading the input costs.

evalcore's modules are byte-compiled first, as `pip install` does for an installed wheel:
from a source checkout (an editable install, or PYTHONDONTWRITEBYTECODE set) every run
would otherwise compile them again, about 0.05 to 0.1 s a command on this machine, which no
user of the wheel pays.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import List, Optional, Sequence, Tuple


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from run_generators import write_big_trec  # noqa: E402

COMMANDS = (("-q", "-m", "all_trec"), ("-m", "map", "-m", "ndcg_cut.10"))


def write_files(folder: str, queries: int, retrieved: int, judgments: int, seed: int = 0) -> Tuple[str, str]:
    """``q0000001 Q0 d0000001 0001 850.75 bench`` and ``q0000001 0 d0000001 2`` lines: scores
    fall by 0.25 to 0.75 a rank from 100 + 0.75 × retrieved + 1, so they stay above 0 (no ties)."""
    return write_big_trec(folder, queries, retrieved, judgments, seed, block=1_000, name="cli-", rank_digits=4,
                          score_digits=3, score_offset=0.75 * retrieved + 1)


def byte_compile_evalcore() -> str:
    """Write evalcore's .pyc files (the package's own __pycache__ folders, which git ignores)."""
    spec = importlib.util.find_spec("evalcore")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("evalcore is not installed in this interpreter")
    folder = list(spec.submodule_search_locations)[0]
    if not compileall.compile_dir(folder, quiet=1):
        raise SystemExit(f"compileall failed in {folder}")
    return folder


def timed(command: Sequence[str], out_path: str) -> float:
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode(errors='replace')[:500]}")
    return seconds


def compare(trec_out: str, ours_out: str) -> Tuple[int, int, bool]:
    """(trec_eval's lines, the lines evalcore printed, whether evalcore's are exactly
    trec_eval's with the other measures' lines left out)."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "trec_eval"))
    from test_trec_eval_golden import supported_lines  # the golden tests' filter, the same rule

    with open(trec_out, "rb") as handle:
        theirs = handle.read()
    with open(ours_out, "rb") as handle:
        ours = handle.read()
    return theirs.count(b"\n"), ours.count(b"\n"), supported_lines(theirs) == ours


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", required=True, help="the trec_eval 10 binary")
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--retrieved", type=int, default=1_000)
    parser.add_argument("--judgments", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", default=os.path.join(tempfile.gettempdir(), "evalcore-bench"))
    args = parser.parse_args(argv)
    os.makedirs(args.folder, exist_ok=True)
    print(f"byte-compiled {byte_compile_evalcore()} (as pip install does)")
    qrels, run = write_files(args.folder, args.queries, args.retrieved, args.judgments)
    print(f"run: {os.path.getsize(run) / 1e6:.0f} MB, {args.queries * args.retrieved:,} lines; "
          f"qrels: {args.queries * args.judgments:,} lines; {os.cpu_count()} cores")
    floor = statistics.median(timed(["cat", run], os.devnull) for _ in range(args.repeats))
    print(f"floor (cat of the run file): {floor:.3f} s")
    ours_cmd = [sys.executable, "-m", "evalcore.cli", "trec"]
    for flags in COMMANDS:
        theirs_t: List[float] = []
        ours_t: List[float] = []
        trec_out = os.path.join(args.folder, "trec_eval.out")
        ours_out = os.path.join(args.folder, "evalcore.out")
        for _ in range(args.repeats):
            theirs_t.append(timed([args.trec_eval, *flags, qrels, run], trec_out))
            ours_t.append(timed([*ours_cmd, *flags, qrels, run], ours_out))
        lines, printed, equal = compare(trec_out, ours_out)
        a, b = statistics.median(theirs_t), statistics.median(ours_t)
        print(f"{' '.join(flags):<26} trec_eval {a:8.3f} s   evalcore {b:7.3f} s   {a / b:5.1f} x   "
              f"lines {printed:,} of {lines:,}   {'identical' if equal else 'DIFFERENT'}")
        if not equal:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
