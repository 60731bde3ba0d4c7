"""Seeded TREC-style qrels and runs for bench_runs.py: as Python dicts, and as TREC files
written with numpy (fixed-width lines, so a 100-million-line run is written in seconds).

IDs are strings: queries "q" + 7 digits, documents "d" + 7 digits. Within a query the
retrieved documents are distinct (an arithmetic sequence modulo a power of two with an
odd step), and the judged-but-not-retrieved ones continue the same sequence.
"""

from __future__ import annotations

import os
from typing import Dict, Tuple

import numpy as np

POOL = 1 << 23  # document vocabulary (8.4 M), fits 7 digits
# Scores fall by 0.25 to 0.75 per rank from 100: no ties (peers break ties differently:
# trec_eval by doc ID descending, ranx and ir_measures' RR otherwise), all exact in float32.
SCORE_STEPS = np.array([0.25, 0.5, 0.75])


def _ids(prefix: str, numbers: np.ndarray) -> np.ndarray:
    return np.char.add(prefix, np.char.zfill(numbers.astype(str), 7))


def _layout(queries: int, retrieved: int, judged_retrieved: int, judged_other: int, seed: int):
    """Doc numbers (queries × (retrieved + judged_other)), the judged ranks, grades, scores."""
    rng = np.random.default_rng(seed)
    start = rng.integers(0, POOL, size=(queries, 1))
    step = rng.integers(0, POOL // 2, size=(queries, 1)) * 2 + 1
    docs = (start + step * np.arange(retrieved + judged_other)) % POOL
    # Judged retrieved ranks, likelier near the top, as in a pooled collection.
    weights = 1.0 / np.sqrt(np.arange(1, retrieved + 1))
    keys = rng.random((queries, retrieved)) ** (1.0 / weights)  # weighted sampling without replacement
    judged_ranks = np.argsort(-keys, axis=1)[:, :judged_retrieved]
    judged_ranks = np.concatenate(
        [judged_ranks, np.broadcast_to(np.arange(retrieved, retrieved + judged_other), (queries, judged_other))], axis=1)
    grades = rng.choice(4, size=judged_ranks.shape, p=[0.5, 0.25, 0.15, 0.10])
    scores = 100.0 - np.cumsum(rng.choice(SCORE_STEPS, size=(queries, retrieved)), axis=1)
    return docs, judged_ranks, grades, scores


def run_dicts(queries: int = 10_000, retrieved: int = 100, judgments: int = 50, seed: int = 0, shuffled: bool = False
              ) -> Tuple[Dict[str, Dict[str, int]], Dict[str, Dict[str, float]]]:
    """qrels {q: {doc: grade 0..3}} with `judgments` per query (60 % of them retrieved) and
    run {q: {doc: score}} with `retrieved` per query: documents in rank order, or with
    `shuffled` in a random order (seeded), as runs built from a group-by or a parquet file
    arrive."""
    judged_retrieved = judgments * 3 // 5
    docs, judged_ranks, grades, scores = _layout(queries, retrieved, judged_retrieved, judgments - judged_retrieved, seed)
    doc_ids = _ids("d", docs).tolist()
    query_ids = _ids("q", np.arange(queries)).tolist()
    score_rows = scores.tolist()
    rank_rows, grade_rows = judged_ranks.tolist(), grades.tolist()
    orders = np.argsort(np.random.default_rng(seed + 1).random((queries, retrieved)), axis=1).tolist() if shuffled else None
    qrels, run = {}, {}
    for q, query in enumerate(query_ids):
        row = doc_ids[q]
        qrels[query] = {row[r]: g for r, g in zip(rank_rows[q], grade_rows[q])}
        if orders is None:
            run[query] = dict(zip(row[:retrieved], score_rows[q]))
        else:
            run[query] = {row[i]: score_rows[q][i] for i in orders[q]}
    return qrels, run


def write_trec_dicts(qrels: Dict[str, Dict[str, int]], run: Dict[str, Dict[str, float]], folder: str,
                     shuffled: bool = False, seed: int = 0) -> Tuple[str, str]:
    """The dicts as TREC files (run lines in the dicts' order, 'rank' from 1); with
    `shuffled`, the run's lines in a random order (seeded): not grouped by query."""
    qrels_path, run_path = os.path.join(folder, "qrels.txt"), os.path.join(folder, "run.txt")
    with open(qrels_path, "w") as handle:
        handle.writelines(f"{q} 0 {d} {g}\n" for q, judged in qrels.items() for d, g in judged.items())
    lines = [f"{q} Q0 {d} {r} {s!r} bench\n" for q, ranked in run.items() for r, (d, s) in enumerate(ranked.items(), start=1)]
    if shuffled:
        order = np.random.default_rng(seed + 2).permutation(len(lines))
        lines = [lines[i] for i in order]
    with open(run_path, "w") as handle:
        handle.writelines(lines)
    return qrels_path, run_path


def _digits(numbers: np.ndarray, width: int) -> np.ndarray:
    """numbers → (n, width) ASCII digit bytes, zero-padded."""
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    return ((numbers[:, None] // powers) % 10 + 48).astype(np.uint8)


def write_big_trec(folder: str, queries: int = 1_000_000, retrieved: int = 100, judgments: int = 10, seed: int = 0,
                   block: int = 20_000, name: str = "", rank_digits: int = 3, score_digits: int = 2,
                   score_offset: float = 0.0) -> Tuple[str, str]:
    """A run of `queries` × `retrieved` lines and qrels of `judgments` per query (half
    retrieved), grouped by query, written block by block with fixed-width lines:
    ``q0000001 Q0 d0000001 001 99.75 bench`` and ``q0000001 0 d0000001 2``. `rank_digits`
    and `score_digits` (before the point) widen those fields; `score_offset` is added to every
    score (scores fall from 100 by 0.25 to 0.75 a rank, clipped at 0); `name` prefixes the files'
    names."""
    os.makedirs(folder, exist_ok=True)
    tag = f"{queries}x{retrieved}x{judgments}-s{seed}"
    qrels_path = os.path.join(folder, f"{name}qrels-{tag}.txt")
    run_path = os.path.join(folder, f"{name}run-{tag}.txt")
    if os.path.exists(qrels_path) and os.path.exists(run_path):
        return qrels_path, run_path
    template = f"q0000000 Q0 d0000000 {'0' * rank_digits} {'0' * score_digits}.00 bench\n".encode()
    run_line = np.frombuffer(template, dtype=np.uint8)
    qrels_line = np.frombuffer(b"q0000000 0 d0000000 0\n", dtype=np.uint8)
    rank_at, score_at = 21, 22 + rank_digits  # where the rank and the score begin
    half = judgments // 2
    with open(run_path + ".part", "wb") as run_out, open(qrels_path + ".part", "wb") as qrels_out:
        for first in range(0, queries, block):
            n = min(block, queries - first)
            docs, judged_ranks, grades, scores = _layout(n, retrieved, half, judgments - half, seed * 1_000_003 + first)
            q = np.repeat(np.arange(first, first + n), retrieved)
            lines = np.tile(run_line, (n * retrieved, 1))
            lines[:, 1:8] = _digits(q, 7)
            lines[:, 13:20] = _digits(docs[:, :retrieved].ravel(), 7)
            lines[:, rank_at:rank_at + rank_digits] = _digits(np.tile(np.arange(1, retrieved + 1), n), rank_digits)
            top = 10.0 ** score_digits - 0.01
            cents = np.round(np.clip(scores + score_offset, 0, top) * 100).astype(np.int64).ravel()
            lines[:, score_at:score_at + score_digits] = _digits(cents // 100, score_digits)
            lines[:, score_at + score_digits + 1:score_at + score_digits + 3] = _digits(cents % 100, 2)
            run_out.write(lines.tobytes())
            jq = np.repeat(np.arange(first, first + n), judgments)
            judged_docs = np.take_along_axis(docs, judged_ranks, axis=1).ravel()
            rows = np.tile(qrels_line, (n * judgments, 1))
            rows[:, 1:8] = _digits(jq, 7)
            rows[:, 12:19] = _digits(judged_docs, 7)
            rows[:, 20] = grades.ravel().astype(np.uint8) + 48
            qrels_out.write(rows.tobytes())
    os.replace(run_path + ".part", run_path)
    os.replace(qrels_path + ".part", qrels_path)
    return qrels_path, run_path
