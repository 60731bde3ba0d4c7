"""Writes the example qrels and four runs of examples/compare (seeded: running it again
gives the same files). 30 queries; each has 40 candidate documents, 15 of them judged
(grades 0-2); each run ranks 20 documents by a noisy score that weighs relevance more or
less: "bm25" least, "rm3" a little more, "dense" most; "splade" (issue 26, written last so
the others stay as they were) between rm3 and dense, and it lacks query 417, so that its
comparisons show a dropped query.

    python examples/compare/make_runs.py
"""

import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = [str(q) for q in range(401, 431)]
SYSTEMS = {"bm25": 1.0, "rm3": 1.15, "dense": 1.7, "splade": 1.4}
MISSING = {"splade": {"417"}}  # queries a run leaves out


def main() -> None:
    rng = np.random.default_rng(2024)
    pools, grades = {}, {}
    for q in QUERIES:
        pools[q] = [f"LA{int(x):06d}" for x in rng.choice(999_999, size=40, replace=False)]
        judged = rng.choice(40, size=15, replace=False)
        grades[q] = {pools[q][i]: int(g) for i, g in zip(judged, rng.choice(3, size=15, p=[0.6, 0.25, 0.15]))}
    with open(os.path.join(HERE, "qrels.txt"), "w") as out:
        for q in QUERIES:
            out.writelines(f"{q} 0 {doc} {grade}\n" for doc, grade in grades[q].items())
    difficulty = {q: rng.uniform(0.5, 2.0) for q in QUERIES}
    for system, weight in SYSTEMS.items():
        with open(os.path.join(HERE, f"{system}.txt"), "w") as out:
            for q in QUERIES:
                relevance = np.array([grades[q].get(doc, 0) for doc in pools[q]], dtype=float)
                scores = weight * relevance + rng.normal(0.0, difficulty[q], size=40)
                order = np.argsort(-scores, kind="stable")[:20]
                if q in MISSING.get(system, ()):
                    continue
                for rank, i in enumerate(order, start=1):
                    out.write(f"{q} Q0 {pools[q][i]} {rank} {20 - rank + scores[i]:.4f} {system}\n")


if __name__ == "__main__":
    main()
