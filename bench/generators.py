"""Seeded request generators for the benchmarks.

Every generator is deterministic for a given seed (it uses its own ``random.Random``,
never the global one), so two runs of a benchmark time exactly the same request.
"""

from __future__ import annotations

import json
import random
from typing import Any, Dict, List, Tuple

import evalcore

# The "service-max" shape: as large as a single request gets in the service, while staying
# inside evalcore's default limits (checked below rather than assumed).
QUERIES = 50
RETRIEVED_PER_QUERY = 100
JUDGMENTS_PER_QUERY = 25
K = 100

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36(n: int) -> str:
    digits = []
    while True:
        n, r = divmod(n, 36)
        digits.append(_BASE36[r])
        if n == 0:
            return "".join(reversed(digits))


def count_json_values(value: Any) -> int:
    """Count JSON values the way evalcore's ``jsonNodes`` limit does.

    Every value counts once: objects, arrays, strings, numbers, booleans and null.
    Object keys are not values and do not count.
    """
    if isinstance(value, dict):
        return 1 + sum(count_json_values(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(count_json_values(v) for v in value)
    return 1


def compact_size(value: Any) -> int:
    """Bytes of the compact JSON text; equals the canonical size for ASCII-only requests
    (canonical JSON only reorders keys, which does not change the length)."""
    return len(json.dumps(value, separators=(",", ":")))


def _grade(rng: random.Random, rank: int) -> int:
    # Real runs put their better documents near the top, so higher grades are likelier
    # at small ranks; zeros (judged non-relevant) occur everywhere.
    top_heavy = max(0.0, 1.0 - rank / RETRIEVED_PER_QUERY)  # 1.0 at the top, ~0 at the bottom
    weights = [3.0, 1.0 + top_heavy, 0.5 + 2 * top_heavy, 0.2 + 2 * top_heavy]
    return rng.choices((0, 1, 2, 3), weights=weights)[0]


def _query(rng: random.Random, index: int) -> Dict[str, Any]:
    # 4-digit base36 (36**3 .. 36**4 - 1) gives 5-character IDs such as "d1x9k": short
    # enough for 50 x (100 + 25) IDs to fit in inputBytes = 100000.
    not_retrieved = rng.randint(2, 4)
    pool = [f"d{_base36(n)}" for n in rng.sample(range(36**3, 36**4), RETRIEVED_PER_QUERY + not_retrieved)]
    retrieved = pool[:RETRIEVED_PER_QUERY]
    extra = pool[RETRIEVED_PER_QUERY:]

    # Mostly documents the run retrieved (as in pooled judging), plus a few it missed.
    judged_ranks = sorted(rng.sample(range(RETRIEVED_PER_QUERY), JUDGMENTS_PER_QUERY - not_retrieved))
    judgments: List[Dict[str, Any]] = [
        {"id": retrieved[r], "grade": _grade(rng, r + 1)} for r in judged_ranks
    ]
    # Missed documents get a positive grade, so recall is below 1 as in real runs.
    judgments += [{"id": doc, "grade": rng.randint(1, 3)} for doc in extra]
    rng.shuffle(judgments)
    return {"id": f"q{index}", "retrieved": retrieved, "judgments": judgments}


def service_max_request(seed: int = 0) -> Dict[str, Any]:
    """The "service-max" ranking-evaluate request.

    50 queries x 100 retrieved IDs x 25 graded judgments (integer grades 0..3), k = 100,
    ``unjudged: "nonrelevant"``. IDs are unique within their list; every query has at
    least one relevant judgment (the missed documents), so every metric is defined and
    comparable with trec_eval, which reports 0 where evalcore reports null.

    Raises AssertionError if the request would break evalcore's default limits, and
    evalcore.EvaluationError if evalcore refuses it.
    """
    rng = random.Random(seed)
    request = {
        "queries": [_query(rng, i) for i in range(QUERIES)],
        "k": K,
        "unjudged": "nonrelevant",
    }

    limits = evalcore.DEFAULT_LIMITS
    size = compact_size(request)
    nodes = count_json_values(request)
    assert size <= limits.input_bytes, f"request is {size} bytes > {limits.input_bytes}"
    assert nodes <= limits.json_nodes, f"request has {nodes} JSON values > {limits.json_nodes}"
    grades = [j["grade"] for q in request["queries"] for j in q["judgments"]]
    assert set(grades) == {0, 1, 2, 3}, "expected every grade 0..3, including zeros"
    # Proof that the defaults accept it (raises EvaluationError otherwise).
    evalcore.ranking_evaluate(request)
    return request


# ---------------------------------------------------------------------------------------
# Span corpus (span-evaluate)
# ---------------------------------------------------------------------------------------

SPAN_LABELS = ("PER", "ORG", "LOC", "MISC")

# A small lowercase ASCII vocabulary: Python string indices are then UTF-16 code units.
_SPAN_VOCABULARY = (
    "the of and to in a is that for it as was with be by on not he this are or his from at "
    "which but have an they you were her she there been one all we their has would when if "
    "so no will more about can said out up them some could into than its time only new other "
    "city river north bank court market station harbor valley council school church museum "
    "bridge street garden castle tower port forest mountain village island company agency "
    "union group party league society institute foundation ministry office board team club "
    "anna boris clara david elena felix greta hugo irene jonas karla lucas maria nikolai oscar "
    "paula quentin rosa stefan teresa ulrich vera walter yasmin zoltan report season treaty "
    "festival award prize war crisis summit contract election merger storm launch release"
).split()

# Prediction kinds and their target shares (drawn per prediction, so shares are "about").
SPAN_PREDICTION_KINDS = ("exact", "shifted", "wrong_label", "spurious")
SPAN_PREDICTION_WEIGHTS = (0.60, 0.15, 0.10, 0.15)


def _span_text(rng: random.Random) -> Tuple[str, List[Tuple[int, int]]]:
    """ASCII words separated by single spaces, 600..1000 characters; returns the text and
    the half-open [start, end) offsets of every word."""
    # Words are at most 10 characters, so stopping at the first word that reaches
    # `target` (<= 989) keeps the text within 600..1000 characters.
    target = rng.randint(600, 989)
    words: List[str] = []
    bounds: List[Tuple[int, int]] = []
    position = 0
    while position < target:
        word = rng.choice(_SPAN_VOCABULARY)
        start = position + (1 if words else 0)
        words.append(word)
        bounds.append((start, start + len(word)))
        position = start + len(word)
    return " ".join(words), bounds


def _iou(a: Tuple[int, int], b: Tuple[int, int]) -> float:
    inter = min(a[1], b[1]) - max(a[0], b[0])
    if inter <= 0:
        return 0.0
    return inter / (max(a[1], b[1]) - min(a[0], b[0]))


def _shifted_candidates(first: int, last: int, n_words: int) -> List[Tuple[int, int]]:
    """Word ranges (inclusive word indices) one word away from [first, last]: grown,
    shrunk or moved by one word on either side."""
    out = []
    if first > 0:
        out.append((first - 1, last))          # grow left
    if last + 1 < n_words:
        out.append((first, last + 1))          # grow right
    if last > first:
        out.append((first + 1, last))          # shrink left
        out.append((first, last - 1))          # shrink right
    if first > 0:
        out.append((first - 1, last - 1))      # move left
    if last + 1 < n_words:
        out.append((first + 1, last + 1))      # move right
    return [c for c in out if c[0] <= c[1]]


def _span_document(rng: random.Random) -> Dict[str, Any]:
    text, words = _span_text(rng)
    n_words = len(words)

    # References: non-overlapping runs of 1..4 words, at least one word apart, so that a
    # boundary shift by one word never lands on another reference.
    n_refs = rng.randint(17, 23)
    lengths = [rng.choices((1, 2, 3, 4), weights=(40, 35, 17, 8))[0] for _ in range(n_refs)]
    free = n_words - sum(lengths) - (n_refs - 1)
    assert free >= 0, "text too short for its references"
    # Stars and bars: spread the `free` words over the n_refs + 1 gaps.
    cuts = sorted(rng.randint(0, free) for _ in range(n_refs))
    gaps = [b - a for a, b in zip([0] + cuts, cuts + [free])]
    ref_words: List[Tuple[int, int]] = []  # inclusive word ranges
    w = gaps[0]
    for i, length in enumerate(lengths):
        ref_words.append((w, w + length - 1))
        w += length + 1 + gaps[i + 1]
    covered = set()
    for a, b in ref_words:
        covered.update(range(a, b + 1))

    references = []
    for i, (a, b) in enumerate(ref_words):
        references.append(
            {"id": f"r{i}", "label": rng.choice(SPAN_LABELS), "start": words[a][0], "end": words[b][1]}
        )

    # Predictions: each non-spurious one is derived from its own reference (no reference is
    # used twice), so exact matches, near misses and label errors stay distinct.
    n_preds = rng.randint(17, 23)
    unused = list(range(n_refs))
    rng.shuffle(unused)
    kinds = rng.choices(SPAN_PREDICTION_KINDS, weights=SPAN_PREDICTION_WEIGHTS, k=n_preds)
    predictions = []
    seen = set()

    def add(label: str, start: int, end: int, kind: str) -> bool:
        key = (label, start, end)
        if key in seen:
            return False
        seen.add(key)
        predictions.append({"label": label, "start": start, "end": end, "_kind": kind})
        return True

    free_runs: List[Tuple[int, int]] = []  # maximal runs of words outside every reference
    run_start = None
    for i in range(n_words + 1):
        if i < n_words and i not in covered:
            if run_start is None:
                run_start = i
        elif run_start is not None:
            free_runs.append((run_start, i - 1))
            run_start = None

    for kind in kinds:
        if kind != "spurious" and not unused:
            kind = "spurious"
        if kind == "exact":
            ref = references[unused.pop()]
            add(ref["label"], ref["start"], ref["end"], kind)
        elif kind == "wrong_label":
            ref = references[unused.pop()]
            label = rng.choice([l for l in SPAN_LABELS if l != ref["label"]])
            add(label, ref["start"], ref["end"], kind)
        elif kind == "shifted":
            index = unused.pop()
            ref = references[index]
            a, b = ref_words[index]
            candidates = [
                (words[x][0], words[y][1]) for x, y in _shifted_candidates(a, b, n_words)
            ]
            target = (ref["start"], ref["end"])
            typical = [c for c in candidates if 0.5 <= _iou(c, target) <= 0.9]
            if typical:
                start, end = rng.choice(typical)
            else:  # a short reference next to a long word: the closest overlapping change
                start, end = max(candidates, key=lambda c: _iou(c, target))
            add(ref["label"], start, end, kind)
        else:  # spurious: 1..3 words lying entirely outside every reference
            for _ in range(20):
                x, y = rng.choice(free_runs)
                length = min(rng.randint(1, 3), y - x + 1)
                first = rng.randint(x, y - length + 1)
                if add(rng.choice(SPAN_LABELS), words[first][0], words[first + length - 1][1], kind):
                    break

    rng.shuffle(predictions)
    for i, p in enumerate(predictions):
        p["id"] = f"p{i}"
    return {
        "text": text,
        "references": references,
        "predictions": [
            {"id": p["id"], "label": p["label"], "start": p["start"], "end": p["end"]} for p in predictions
        ],
        "_kinds": [p["_kind"] for p in predictions],
    }


def span_corpus(n_documents: int = 10_000, seed: int = 0, *, with_kinds: bool = False) -> List[Dict[str, Any]]:
    """A seeded corpus for span evaluation: ``n_documents`` documents, each
    ``{"text", "references", "predictions"}``.

    * text: 600..1000 ASCII characters, words from a small vocabulary joined by single
      spaces, so Python string indices equal UTF-16 code-unit offsets;
    * spans: ``{"id", "label", "start", "end"}``, half-open ``[start, end)`` on word
      boundaries, ``0 <= start < end <= len(text)``, labels from SPAN_LABELS;
    * references: 17..23 per document (20 on average), non-overlapping runs of 1..4 words
      at least one word apart, IDs "r0", "r1", ... in text order;
    * predictions: 17..23 per document (20 on average), IDs "p0", "p1", ... in shuffled
      order; each is drawn as one of SPAN_PREDICTION_KINDS with weights 60/15/10/15 %:
      an exact copy of a reference (label and boundaries), the same reference grown,
      shrunk or moved by one word (same label; IoU in 0.5..0.9 whenever a one-word
      change allows it, else the closest overlapping one), the same boundaries with
      another label, or a spurious 1..3-word
      span outside every reference. Each non-spurious prediction uses its own reference.

    No (label, start, end) repeats on either side of a document. The generator draws from
    one ``random.Random(seed)`` document after document, so ``span_corpus(m, s)`` is a
    prefix of ``span_corpus(n, s)`` for m <= n. ``with_kinds=True`` keeps, per document,
    ``"_kinds"``: the kind of each prediction (for statistics; not part of the input).
    """
    rng = random.Random(seed)
    docs = [_span_document(rng) for _ in range(n_documents)]
    if not with_kinds:
        for d in docs:
            del d["_kinds"]
    return docs


def check_span_corpus(documents: List[Dict[str, Any]]) -> None:
    """Assert the invariants promised by span_corpus (raises AssertionError)."""
    for n, d in enumerate(documents):
        text = d["text"]
        assert text.isascii(), n
        starts = {0} | {i + 1 for i, c in enumerate(text) if c == " "}
        ends = {len(text)} | {i for i, c in enumerate(text) if c == " "}
        for side, prefix in (("references", "r"), ("predictions", "p")):
            spans = d[side]
            assert len({s["id"] for s in spans}) == len(spans), (n, side, "duplicate id")
            assert all(s["id"].startswith(prefix) for s in spans), (n, side)
            keys = [(s["label"], s["start"], s["end"]) for s in spans]
            assert len(set(keys)) == len(keys), (n, side, "duplicate (label, start, end)")
            for s in spans:
                assert s["label"] in SPAN_LABELS, (n, s)
                assert 0 <= s["start"] < s["end"] <= len(text), (n, s)
                assert s["start"] in starts and s["end"] in ends, (n, s, "not on word boundaries")


def span_corpus_stats(documents: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Averages and shares describing a corpus (from span_corpus(..., with_kinds=True) the
    prediction kinds and the IoU of shifted predictions too)."""
    n = len(documents)
    text_lengths = [len(d["text"]) for d in documents]
    stats: Dict[str, Any] = {
        "documents": n,
        "text_chars_mean": sum(text_lengths) / n,
        "text_chars_min": min(text_lengths),
        "text_chars_max": max(text_lengths),
        "text_chars_total": sum(text_lengths),
        "references_per_doc": sum(len(d["references"]) for d in documents) / n,
        "predictions_per_doc": sum(len(d["predictions"]) for d in documents) / n,
        "references_total": sum(len(d["references"]) for d in documents),
        "predictions_total": sum(len(d["predictions"]) for d in documents),
        "json_bytes": compact_size(
            [{k: v for k, v in d.items() if not k.startswith("_")} for d in documents]
        ),
    }
    if documents and "_kinds" in documents[0]:
        counts = {k: 0 for k in SPAN_PREDICTION_KINDS}
        ious: List[float] = []
        for d in documents:
            by_bounds = {}
            for r in d["references"]:
                by_bounds.setdefault(r["label"], []).append((r["start"], r["end"]))
            for p, kind in zip(d["predictions"], d["_kinds"]):
                counts[kind] += 1
                if kind == "shifted":
                    ious.append(max(_iou((p["start"], p["end"]), b) for b in by_bounds[p["label"]]))
        total = sum(counts.values())
        stats["prediction_kind_shares"] = {k: c / total for k, c in counts.items()}
        ious.sort()
        stats["shifted_iou"] = {
            "min": ious[0],
            "median": ious[len(ious) // 2],
            "max": ious[-1],
            "share_0.5_to_0.9": sum(0.5 <= x <= 0.9 for x in ious) / len(ious),
        }
    return stats



# ---------------------------------------------------------------------------------------
# Set scoring (score)
# ---------------------------------------------------------------------------------------

SCORE_VOCABULARY = 50_000  # document numbers 0..49999, IDs "doc0" .. "doc49999"


def score_batch(n_items: int = 100_000, seed: int = 0) -> Dict[str, Any]:
    """A seeded batch request for ``evalcore.score``: ``{"items": [...]}``, no "metrics",
    no "k".

    Each item is ``{"predicted", "ground_truth"}``: 8..12 predicted and 8..12 ground-truth
    IDs ("doc" + a number below SCORE_VOCABULARY; 10 on average each), of which 0..10
    (uniform, at most the shorter list) are shared; the predicted list is shuffled so the
    shared IDs are not first. No ID repeats within a list and no list is empty, so a set
    per list is the whole truth (predicted repeats and the empty-set conventions never
    apply, and set-based libraries such as scikit-learn agree). Every ID is its own str
    object, as after JSON parsing.

    One ``random.Random(seed)`` draws item after item, so ``score_batch(m, s)["items"]`` is
    a prefix of ``score_batch(n, s)["items"]`` for m <= n.
    """
    rng = random.Random(seed)
    population = range(SCORE_VOCABULARY)
    items: List[Dict[str, Any]] = []
    for _ in range(n_items):
        n_predicted = rng.randint(8, 12)
        n_truth = rng.randint(8, 12)
        shared = rng.randint(0, min(n_predicted, n_truth, 10))
        numbers = rng.sample(population, n_predicted + n_truth - shared)  # distinct
        ground_truth = [f"doc{n}" for n in numbers[:n_truth]]
        predicted = [f"doc{n}" for n in numbers[:shared] + numbers[n_truth:]]
        rng.shuffle(predicted)
        items.append({"predicted": predicted, "ground_truth": ground_truth})
    return {"items": items}


if __name__ == "__main__":
    req = service_max_request()
    print(f"service-max: {compact_size(req)} bytes, {count_json_values(req)} JSON values")
