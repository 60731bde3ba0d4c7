"""Benchmark `evalcore conll` on a seeded CoNLL file of 1,000,000 sentences (issue 24, item 6).

Writes (once; kept if present) a file of ``--sentences`` sentences (1,000,000) of about
``--tokens`` tokens (30; 20 to 40), one token line ``WORD TRUE PRED`` each, a blank line between
sentences and a ``-DOCSTART-`` line every 100 sentences: IOB2 tags of 4 types, predictions that
keep each true chunk with probability 0.8 and otherwise drop, shift or retype it. Then, each in
a child process of its own, whose wall time and peak resident memory (getrusage's ru_maxrss of
the child, read by a wrapper process of its own) are reported, the median of ``--repeats`` runs:

* the floor: reading the file in 1 MiB chunks and counting its lines in Python;
* ``evalcore conll FILE`` (the native stream: no Python object per token);
* ``evalcore.evaluate_tags(evalcore.read_conll(FILE) ...)``: the lists read into Python, then
  scored (what a user without the stream would do: 30 million str objects per column).

Run from the repository root:
  python bench/bench_conll.py [--sentences N] [--tokens T] [--repeats R] [--file PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from typing import List, Tuple

TYPES = ("PER", "LOC", "ORG", "MISC")

FLOOR = """
import sys
lines = 0
with open(sys.argv[1], "rb") as f:
    while True:
        chunk = f.read(1 << 20)
        if not chunk:
            break
        lines += chunk.count(b"\\n")
print(lines)
"""
LISTS = """
import sys, warnings, evalcore
warnings.simplefilter("ignore")
corpus = evalcore.read_conll(sys.argv[1])
gold, pred = corpus["tags"]
print(evalcore.evaluate_tags(gold, pred)["report"]["micro avg"]["f1-score"])
"""


def write_file(path: str, sentences: int, tokens: int, seed: int) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for i in range(sentences):
            if i % 100 == 0:
                out.write("-DOCSTART- O O\n\n")
            n = rng.randint(tokens - 10, tokens + 10)
            true = ["O"] * n
            pred = ["O"] * n
            j = 0
            while j < n:
                if rng.random() < 0.15:
                    length, kind = min(rng.randint(1, 3), n - j), rng.choice(TYPES)
                    true[j:j + length] = [f"B-{kind}"] + [f"I-{kind}"] * (length - 1)
                    fate = rng.random()
                    if fate < 0.8:
                        pred[j:j + length] = true[j:j + length]
                    elif fate < 0.87:
                        other = rng.choice(TYPES)
                        pred[j:j + length] = [f"B-{other}"] + [f"I-{other}"] * (length - 1)
                    elif fate < 0.94 and j + length < n:
                        pred[j + 1:j + length + 1] = true[j:j + length]
                    j += length + 1
                else:
                    j += 1
            out.write("".join(f"w{rng.randrange(50000)} {a} {b}\n" for a, b in zip(true, pred)))
            out.write("\n")


# A fresh parent per measurement: RUSAGE_CHILDREN's ru_maxrss is the largest of all the
# children a process has waited for, so each target runs under a wrapper of its own.
WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True)
sys.stdout.write(done.stdout)
sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
"""


def child(argv: List[str]) -> Tuple[float, float, str]:
    """(wall seconds, peak RSS in MiB, stdout) of one child process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", WRAPPER, *argv], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    return wall, int(done.stderr.strip().splitlines()[-1]) / 1024, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=1_000_000)
    parser.add_argument("--tokens", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--file", default=None, help="where the file goes (default: /tmp/bench_conll_N.conll)")
    args = parser.parse_args()
    path = args.file or f"/tmp/bench_conll_{args.sentences}.conll"
    if not os.path.exists(path):
        start = time.perf_counter()
        write_file(path, args.sentences, args.tokens, args.seed)
        print(f"wrote {path} in {time.perf_counter() - start:.1f} s")
    size = os.path.getsize(path)
    print(f"file: {path}, {size / 2**20:,.1f} MiB, {args.sentences:,} sentences; medians of {args.repeats}; "
          f"peak RSS is the child's ru_maxrss")
    cases = [("floor: read the file, count lines", [sys.executable, "-c", FLOOR, path]),
             ("evalcore conll FILE (native stream)", [sys.executable, "-m", "evalcore.cli", "conll", path]),
             ("read_conll + evaluate_tags (Python lists)", [sys.executable, "-c", LISTS, path])]
    for name, argv in cases:
        walls, peaks = [], []
        for _ in range(args.repeats):
            wall, peak, out = child(argv)
            walls.append(wall)
            peaks.append(peak)
        print(f"{name:<44} {statistics.median(walls):8.2f} s   peak RSS {max(peaks):8.1f} MiB")
        if "conll" in name:
            print("    " + out.splitlines()[0])


if __name__ == "__main__":
    main()
