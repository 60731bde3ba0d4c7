"""evalcore's evidence for one value, as text: what a reader needs to see why the value is
what it is. The ranking with grades, gains, discounts and DCG terms, and the ideal DCG's
terms (ranking-evaluate and whole runs); the candidate pairs with their IoUs and the
matching (span-evaluate); the sets each score is computed on (score).

The numbers here restate evalcore's definitions (docs/contract.md) for display; the
values compared are always evalcore's own.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..runs.measures import MEASURE_KINDS, MeasureSpec
from ..reference.runs.evaluate import _gain as _run_gain
from ..runs.result import RunOptions
from ._text import utf16_slice

__all__ = ["ranking_evidence", "run_query_evidence", "score_evidence", "span_evidence", "table"]


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "    ") -> str:
    """Rows as aligned text columns (floats in full: ``repr``)."""
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return "\n".join(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return repr(value) if (not value or value != value.strip() or not value.isprintable()) else value
    return repr(value)


def _ideal_lines(gains: List[float], cutoff: Optional[int]) -> List[str]:
    kept = gains if cutoff is None else gains[:cutoff]
    terms = [g / math.log2(i + 2) for i, g in enumerate(kept)]
    total = 0.0
    for term in terms:
        total += term
    where = "all judgments" if cutoff is None else f"the judgments' gains sorted descending, cut at {cutoff}"
    lines = [f"  ideal DCG = {total!r}: {where}"]
    if kept:
        lines.append(table(["rank", "gain", "log2(rank+1)", "term"],
                           [(i + 1, g, math.log2(i + 2), t) for i, (g, t) in enumerate(zip(kept, terms))]))
    return lines


# ---- ranking-evaluate -------------------------------------------------------------------------


def ranking_evidence(request: Mapping[str, Any], result: Mapping[str, Any], index: int) -> str:
    """Query `index` of a ranking-evaluate result: its top k with grades, relevance, gains,
    discounts, DCG terms and precision at each relevant rank; R; the ideal DCG's terms."""
    query = result["queries"][index]
    k = result["k"]
    exponential = request.get("gain") == "exponential"
    threshold = request.get("relevantAtLeast", 1)
    rows = []
    hits = 0
    for entry in query["ranking"]:
        rank, grade = entry["rank"], entry["grade"]
        gain = None if grade is None else (math.pow(2.0, grade) - 1.0 if exponential else grade)
        if entry["relevant"]:
            hits += 1
        rows.append((rank, entry["id"], grade, entry["relevant"], gain, math.log2(rank + 1),
                     None if gain is None else gain / math.log2(rank + 1), hits / rank if entry["relevant"] else None))
    judgments = request["queries"][index]["judgments"]
    ideal = sorted((float(j["grade"]) for j in judgments), reverse=True)
    ideal_gains = [math.pow(2.0, g) - 1.0 if exponential else g for g in ideal]
    lines = [
        f"evalcore's evidence for query {query['id']!r} (queries[{index}]): k = {k}, relevant from grade {threshold!r}, "
        f"{'exponential' if exponential else 'linear'} gain",
        f"  top {len(rows)} of {len(request['queries'][index]['retrieved'])} retrieved (rank order as given):",
        table(["rank", "id", "grade", "relevant", "gain", "log2(rank+1)", "DCG term", "precision@rank"], rows)
        if rows else "    (nothing retrieved)",
        f"  R = {query['relevantJudgmentCount']} relevant judgments; {query['hitsAtK']} relevant in the top k; "
        f"missed relevant: {query['missedRelevantIds']}",
        f"  DCG = {query['dcgAtK']!r}",
    ]
    lines += _ideal_lines(ideal_gains, k)
    lines.append("  metrics: " + ", ".join(f"{m} = {query[m]!r}" for m in
                                           ("precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK")))
    return "\n".join(lines)


def ranking_macro_evidence(result: Mapping[str, Any], metric: str) -> str:
    """Each query's value of one metric, and how the macro average is formed."""
    rows = [(i, q["id"], q.get(metric)) for i, q in enumerate(result["queries"])]
    count = result["definedQueryCounts"].get(metric)
    return "\n".join([
        f"evalcore's evidence for macro.{metric}: the mean over the {count} queries where it is defined "
        "(summed in query order, one division)",
        table(["index", "query", metric], rows),
    ])


# ---- span-evaluate ----------------------------------------------------------------------------


def _iou(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    inter = max(0, min(int(a["end"]), int(b["end"])) - max(int(a["start"]), int(b["start"])))
    union = (int(a["end"]) - int(a["start"])) + (int(b["end"]) - int(b["start"])) - inter
    return inter / union


def span_evidence(request: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """The spans with their covered text, every same-label pair with its IoU, and
    evalcore's matching."""
    text = request["text"]
    match = request.get("match", "exact")
    minimum = request.get("minimumIou", 0.5)
    matched = {(m["predictionId"], m["referenceId"]) for m in result["matches"]}
    spans = [(side, s["id"], s["label"], int(s["start"]), int(s["end"]), utf16_slice(text, int(s["start"]), int(s["end"])))
             for side in ("references", "predictions") for s in sorted(request[side], key=lambda s: s["id"])]
    pairs = []
    for p in sorted(request["predictions"], key=lambda s: s["id"]):
        for r in sorted(request["references"], key=lambda s: s["id"]):
            if p["label"] == r["label"]:
                iou = _iou(p, r)
                exact = (int(p["start"]), int(p["end"])) == (int(r["start"]), int(r["end"]))
                candidate = exact if match == "exact" else iou >= minimum
                pairs.append((p["id"], r["id"], p["label"], iou, exact, candidate, (p["id"], r["id"]) in matched))
    lines = [
        f"evalcore's evidence: match = {match!r}" + (f", minimumIou = {minimum!r}" if match == "overlap" else "")
        + f"; offsets in UTF-16 code units (the text is {len(text.encode('utf-16-le')) // 2} units, {len(text)} code points)",
        "  spans:",
        table(["side", "id", "label", "start", "end", "covered text"], spans) if spans else "    (none)",
        "  same-label pairs (IoU = intersection / (both lengths - intersection)):",
        table(["prediction", "reference", "label", "IoU", "same boundaries", "candidate", "matched"], pairs)
        if pairs else "    (none)",
        f"  matched {result['matchedCount']} of {result['predictionCount']} predictions and {result['referenceCount']} references; "
        f"unmatched predictions {result['unmatchedPredictionIds']}, references {result['unmatchedReferenceIds']}",
        f"  precision = {result['precision']!r}, recall = {result['recall']!r}, f1 = {result['f1']!r}, "
        f"meanMatchedIou = {result['meanMatchedIou']!r}",
    ]
    if match == "overlap":  # with exact matching a prediction has one candidate at most: any matching is maximum
        lines.insert(-1, "  the matching is a maximum one-to-one matching of the candidates (contract §3: as many pairs as "
                         "there can be, found by augmenting paths); a greedy one (the pair of highest IoU first, or each "
                         "prediction in turn taking its best free reference) can match fewer")
    return "\n".join(lines)


# ---- score --------------------------------------------------------------------------------------


def _pairs(request: Mapping[str, Any]) -> List[Tuple[Any, Any]]:
    if request.get("items") is not None:
        return [(item["predicted"], item["ground_truth"]) for item in request["items"]]
    return [(request["predicted"], request["ground_truth"])]


def score_evidence(request: Mapping[str, Any], response: Mapping[str, Any], item: Optional[int]) -> str:
    """The sets each item is scored on: predictions with repeats dropped and cut at k,
    the ground truth's set, their intersection."""
    k = response["k"]
    pairs = _pairs(request)
    chosen = range(len(pairs)) if item is None else [item]
    lines = [f"evalcore's evidence: k = {k!r}; repeated predictions dropped (the first kept), then the first k kept"]
    for i in list(chosen)[:6]:
        predicted, truth = pairs[i]
        kept: List[str] = []
        for value in predicted:
            if value not in kept:
                kept.append(value)
        kept = kept if k is None else kept[:k]
        truth_set = sorted(set(truth))
        common = sorted(set(kept) & set(truth))
        lines.append(f"  item {i}: predicted {list(predicted)!r} -> set {kept!r} ({len(kept)}); ground truth {list(truth)!r} -> "
                     f"set {truth_set!r} ({len(truth_set)}); both: {common!r} ({len(common)}); "
                     + ", ".join(f"{m} = {v!r}" for m, v in response["per_item"][i].items()))
    if item is None and len(pairs) > 6:
        lines.append(f"  ... {len(pairs) - 6} more items")
    return "\n".join(lines)


# ---- whole runs -----------------------------------------------------------------------------------


def _ordered(docs: Mapping[str, Any] | Sequence[str], options: RunOptions,
             judged: Mapping[str, float]) -> List[Tuple[str, Optional[float]]]:
    if isinstance(docs, Mapping):
        items = [(d, float(s)) for d, s in docs.items()]
        if options.ties in ("optimistic", "pessimistic"):  # issue 25 item 3: grade breaks ties first
            sign = 1.0 if options.ties == "optimistic" else -1.0
            items.sort(key=lambda item: (item[1], sign * judged.get(item[0], -math.inf), item[0].encode("utf-8")),
                       reverse=True)
        elif options.ties_by_score:
            items.sort(key=lambda item: (item[1], item[0].encode("utf-8")), reverse=True)
        return [(d, s) for d, s in items]
    return [(d, None) for d in docs]


def _order_text(options: RunOptions, scored: bool, ranked: List[Tuple[str, Optional[float]]]) -> str:
    """How the ranking shown was ordered, and, for ties="average", that the value is not its."""
    if not scored or not options.ties_by_score:
        return "as given"
    if options.ties in ("optimistic", "pessimistic"):
        unjudged = "last" if options.ties == "optimistic" else "first"
        direction = "descending" if options.ties == "optimistic" else "ascending"
        return (f"score descending, then grade {direction} (unjudged {unjudged}), then document ID descending: "
                f"ties={options.ties!r}")
    if options.ties == "average":
        scores = [s for _, s in ranked]
        tied = sum(1 for i, s in enumerate(scores) if (i == 0 or scores[i - 1] != s) and scores[i + 1:i + 2] == [s])
        return ("score descending, equal scores shown by document ID descending; ties='average': the value is the "
                f"expectation over every order of each group of equal scores, not this order's value (tied groups "
                f"of 2 or more here: {tied})")
    return "score descending, then document ID descending"


def run_query_evidence(qrels: Mapping[str, Mapping[str, Any]], run: Mapping[str, Any], query: str, spec: MeasureSpec,
                       options: RunOptions, value: Any) -> str:
    """One query of a run as evalcore ranks it (its tie rule, ``options.ties``: trec_eval's
    score descending, then document ID descending by default; the grade orders; for
    ``"average"``, the order by ID, with the note that the value is the expectation over the
    orders of the tied groups), with grades, relevance, gains, discounts and DCG terms, the
    ideal DCG's terms, R and the cutoff."""
    kind = MEASURE_KINDS[spec.kind]
    judged: Dict[str, float] = {d: float(g) for d, g in qrels.get(query, {}).items()}
    ranked = _ordered(run.get(query, {}), options, judged)
    if options.max_retrieved >= 0:
        ranked = ranked[:options.max_retrieved]
    if options.judged_only:
        ranked = [(d, s) for d, s in ranked if d in judged and judged[d] >= 0]
    threshold = options.relevant_at_least if spec.rel is None else spec.rel
    cutoff = spec.cutoff or None
    rows = []
    hits = 0
    dcg = 0.0
    for rank, (doc, score) in enumerate(ranked, start=1):
        grade = judged.get(doc)
        relevant = grade is not None and grade >= threshold
        hits += relevant
        gain = None if grade is None else _run_gain(grade, spec, options)
        term = None if gain is None else gain / math.log2(rank + 1)
        if term is not None and (cutoff is None or rank <= cutoff):
            dcg += term
        rows.append((rank, doc, score, grade, relevant, gain, math.log2(rank + 1), term, hits / rank if relevant else None))
    order = _order_text(options, isinstance(run.get(query), Mapping), ranked)
    relevant_count = sum(1 for g in judged.values() if g >= threshold)
    lines = [
        f"evalcore's evidence for query {query!r} ({spec.name}: {kind}, cutoff {cutoff or 'none'}, relevant from grade "
        f"{threshold!r}; evalcore's value {value!r}):",
        f"  the ranking ({order}; {len(rows)} documents):",
        table(["rank", "doc", "score", "grade", "relevant", "gain", "log2(rank+1)", "DCG term", "precision@rank"], rows)
        if rows else "    (nothing retrieved)",
        f"  R = {relevant_count} relevant judgments ({len(judged)} judged); DCG"
        + (f"@{cutoff}" if cutoff else "") + f" = {dcg!r}",
    ]
    if kind == "nDCG":
        lines += _ideal_lines(sorted((_run_gain(g, spec, options) for g in judged.values()), reverse=True), cutoff)
    unretrieved = sorted(d for d, g in judged.items() if g >= threshold and d not in {doc for doc, _ in ranked})
    if unretrieved:
        lines.append(f"  relevant but not retrieved: {unretrieved}")
    return "\n".join(lines)
