"""Benchmark evalcore.evaluate_tags against seqeval on a seeded tagged corpus.

The corpus: ``--sentences`` sentences (10,000) of ``--tokens`` tokens (30), IOB2 tags of 4
entity types; the predictions keep each reference chunk with probability 0.8, else drop it,
shift it by a token or change its type, and add spurious chunks. Timed, in one run, on the
same Python lists (so every figure includes reading them):

* ``evalcore.evaluate_tags(y_true, y_pred)`` (default mode; and ``mode="strict"``);
* ``seqeval.metrics.classification_report(y_true, y_pred, output_dict=True)`` plus
  ``accuracy_score(y_true, y_pred)`` (what evaluate_tags returns; strict with
  ``scheme=IOB2``);
* the same two on the unfavourable input: every sentence's tags shuffled (ill-formed
  everywhere: I- after O, type changes, many short chunks);
* the floor: iterating over every tag of both lists in Python, once.

Each figure is the median over ``--repeats`` timed calls after one untimed call; the ratios
are of medians of the same run. The reports are checked equal (==) to seqeval's first.

Run from the repository root:
  python bench/bench_tags.py [--sentences N] [--tokens T] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import warnings
from typing import Any, Callable, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import evalcore  # noqa: E402
from measure import dist_version, time_calls  # noqa: E402

TYPES = ("PER", "LOC", "ORG", "MISC")


def tagged_corpus(sentences: int, tokens: int, seed: int = 24) -> Tuple[List[List[str]], List[List[str]]]:
    """Seeded IOB2 references and predictions of equal lengths."""
    rng = random.Random(seed)
    y_true: List[List[str]] = []
    y_pred: List[List[str]] = []
    for _ in range(sentences):
        truth = ["O"] * tokens
        pred = ["O"] * tokens
        i = 0
        while i < tokens:
            if rng.random() < 0.2:
                length = min(rng.randint(1, 3), tokens - i)
                name = rng.choice(TYPES)
                truth[i:i + length] = [f"B-{name}"] + [f"I-{name}"] * (length - 1)
                fate = rng.random()
                start, kind = i, name
                if fate < 0.8:
                    pass
                elif fate < 0.87:
                    start = -1  # missed
                elif fate < 0.94:
                    start = min(i + 1, tokens - length)
                else:
                    kind = rng.choice(TYPES)
                if start >= 0:
                    pred[start:start + length] = [f"B-{kind}"] + [f"I-{kind}"] * (length - 1)
                i += length + 1
            else:
                if rng.random() < 0.02:
                    pred[i] = f"B-{rng.choice(TYPES)}"  # spurious
                i += 1
        y_true.append(truth)
        y_pred.append(pred)
    return y_true, y_pred


def shuffled(corpus: List[List[str]], seed: int) -> List[List[str]]:
    rng = random.Random(seed)
    out = []
    for sentence in corpus:
        copy = list(sentence)
        rng.shuffle(copy)
        out.append(copy)
    return out


def median(fn: Callable[[], Any], repeats: int) -> float:
    fn()
    return statistics.median(time_calls(fn, repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from seqeval.metrics import accuracy_score, classification_report
    from seqeval.scheme import IOB2

    warnings.simplefilter("ignore")
    y_true, y_pred = tagged_corpus(args.sentences, args.tokens)
    ill_true, ill_pred = shuffled(y_true, 1), shuffled(y_pred, 2)

    def ours(t: Any, p: Any, mode: str = "default") -> Callable[[], Any]:
        return lambda: evalcore.evaluate_tags(t, p, mode=mode)

    def theirs(t: Any, p: Any, mode: str = "default") -> Callable[[], Any]:
        strict = {"mode": "strict", "scheme": IOB2} if mode == "strict" else {}
        return lambda: (classification_report(t, p, output_dict=True, **strict), accuracy_score(t, p))

    def floor() -> None:
        for side in (y_true, y_pred):
            for sentence in side:
                for _tag in sentence:
                    pass

    for t, p, mode in ((y_true, y_pred, "default"), (y_true, y_pred, "strict"), (ill_true, ill_pred, "default")):
        report, accuracy = theirs(t, p, mode)()
        result = ours(t, p, mode)()
        assert result["report"] == report and result["accuracy"] == accuracy, "evalcore differs from seqeval"
    print(f"corpus: {args.sentences:,} sentences x {args.tokens} tokens, {len(TYPES)} types, IOB2; "
          f"seqeval {dist_version('seqeval')}, evalcore {evalcore.__version__}; medians of {args.repeats}")
    print(f"floor (iterating both lists): {median(floor, args.repeats) * 1000:9.1f} ms")
    for label, t, p, mode in (("IOB2, default mode", y_true, y_pred, "default"),
                              ("IOB2, strict mode", y_true, y_pred, "strict"),
                              ("shuffled tags (ill-formed), default mode", ill_true, ill_pred, "default")):
        mine = median(ours(t, p, mode), args.repeats)
        peer = median(theirs(t, p, mode), max(1, args.repeats // 2))
        print(f"{label:42s} evalcore {mine * 1000:8.1f} ms   seqeval {peer * 1000:9.1f} ms   {peer / mine:7.1f}x")


if __name__ == "__main__":
    main()
