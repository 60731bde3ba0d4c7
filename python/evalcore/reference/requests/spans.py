"""span-evaluate (docs/contract.md §3) and its corpus form in pure Python: the reference the native core must equal."""

from __future__ import annotations

from typing import Any, Dict, Final, List, Mapping, Optional, Sequence, Set, Tuple

from ...requests.conventions import span_conventions
from ...errors import EvaluationError
from ...limits import Limits, LimitsLike, raise_hint
from ...result_types import (SpanEnvelope, SpanLabelResult, SpanMatch,
                            SpanResult)
from ._reading import child_pointer, shown
from ._request import checked_request, envelope
from ._schema import expect_array, expect_enum, expect_number, expect_object, expect_string, members

OPERATION = "span-evaluate"
PROFILE: Final = "annotation-span-evaluation-v1"
DEFAULTS: Dict[str, Any] = {"match": "exact", "minimumIou": 0.5}
MAX_OFFSET = 9007199254740991
SPAN_FIELDS = ("id", "label", "start", "end")
# Corpus documents carry no per-request limits: only the matching step bound stays.
UNLIMITED = Limits(
    input_bytes=MAX_OFFSET, output_bytes=MAX_OFFSET, json_depth=MAX_OFFSET, json_nodes=MAX_OFFSET,
    text_utf16_units=MAX_OFFSET, references=MAX_OFFSET, predictions=MAX_OFFSET,
)

# ---- phase 2: schema -------------------------------------------------------------------


def _validate_span(span: Any, pointer: str, id_required: bool = True) -> None:
    # A corpus document's spans may leave the id out (issue 24 item 5; numbered by the corpus).
    expect_object(span, pointer, "a span", SPAN_FIELDS if id_required else SPAN_FIELDS[1:])
    for key, value, member_pointer in members(span, pointer, "a span", SPAN_FIELDS):
        if key in ("id", "label"):
            expect_string(value, member_pointer, f"a span {key}")
        else:
            expect_number(value, member_pointer, key, 0, MAX_OFFSET, integer=True)


def _validate_schema(request: Any, limits: Limits, pointer: str = "", with_options: bool = True) -> None:
    known = ("text", "references", "predictions") + (("match", "minimumIou") if with_options else ())
    what = "the request" if with_options else "a document"
    # A corpus document may leave its text out (issue 24 item 5): scored by offsets alone.
    required = ("text", "references", "predictions") if with_options else ("references", "predictions")
    expect_object(request, pointer, what, required)
    for key, value, member_pointer in members(request, pointer, what, known):
        if key == "text":
            expect_string(value, member_pointer, "text", 0, limits.text_utf16_units, limit_name="textUtf16Units")
        elif key in ("references", "predictions"):
            limit = limits.references if key == "references" else limits.predictions
            spans = expect_array(value, member_pointer, key, 0, limit, key)
            for i, span in enumerate(spans):
                _validate_span(span, child_pointer(member_pointer, i), with_options)
        elif key == "match":
            expect_enum(value, member_pointer, "match", ("exact", "overlap"))
        else:
            expect_number(value, member_pointer, "minimumIou", 0, 1, exclusive_minimum=True)


# ---- phase 3: semantic checks ---------------------------------------------------------------


def _text_facts(text: str) -> Tuple[int, Set[int]]:
    """UTF-16 length, and the offsets that fall between the two halves of a surrogate pair."""
    units = 0
    inside: Set[int] = set()
    for ch in text:
        if ord(ch) > 0xFFFF:
            inside.add(units + 1)
            units += 2
        else:
            units += 1
    return units, inside


def _lone_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _check_semantics(request: Mapping[str, Any], pointer: str = "") -> None:
    """Raise the first semantic fault in document order (docs/validation-order.md, phase 3)."""
    # No text (a corpus document, issue 24 item 5): no offset is past its end, none splits a pair.
    length, inside = _text_facts(request["text"]) if "text" in request else (MAX_OFFSET, set())
    for key, value in request.items():
        at = child_pointer(pointer, key)
        if key == "text":
            if _lone_surrogate(value):
                raise EvaluationError("INVALID_UNICODE", at, "the text contains a lone surrogate; send well-formed Unicode")
        elif key in ("references", "predictions"):
            seen_ids: Set[str] = set()
            seen_spans: Set[Tuple[str, int, int]] = set()
            for i, span in enumerate(value):
                span_at = child_pointer(at, i)
                start, end = int(span["start"]), int(span["end"])
                if not start < end <= length or start in inside or end in inside:
                    raise EvaluationError("INVALID_SPAN", span_at, _span_problem(start, end, length, inside))
                shape = (span["label"], start, end)
                if shape in seen_spans:
                    raise EvaluationError(
                        "DUPLICATE_SPAN", span_at,
                        f"a span with label {shown(span['label'])} and offsets [{start}, {end}) is already in {key}",
                    )
                seen_spans.add(shape)
                for field, field_value in span.items():
                    if field not in ("id", "label"):
                        continue
                    field_at = child_pointer(span_at, field)
                    if _lone_surrogate(field_value):
                        raise EvaluationError(
                            "INVALID_UNICODE", field_at, f"{shown(field_value)} contains a lone surrogate; send well-formed Unicode"
                        )
                    if field == "id":
                        if field_value in seen_ids:
                            raise EvaluationError("DUPLICATE_ID", field_at, f"the id {shown(field_value)} is used twice in {key}")
                        seen_ids.add(field_value)


def _span_problem(start: int, end: int, length: int, inside: Set[int]) -> str:
    if start >= end:
        return f"a span needs start < end, got [{start}, {end})"
    if end > length:
        return f"the span [{start}, {end}) ends past the text's {length} UTF-16 code units"
    return f"the span [{start}, {end}) splits a surrogate pair; offsets count UTF-16 code units"


# ---- phase 4: matching ------------------------------------------------------------------------


def _iou(p: Mapping[str, Any], r: Mapping[str, Any]) -> float:
    ps, pe, rs, re_ = int(p["start"]), int(p["end"]), int(r["start"]), int(r["end"])
    inter = max(0, min(pe, re_) - max(ps, rs))
    union = (pe - ps) + (re_ - rs) - inter
    return inter / union


def _candidates(preds: Sequence[Mapping[str, Any]], refs: Sequence[Mapping[str, Any]], exact: bool, minimum_iou: float) -> List[List[Tuple[float, int]]]:
    by_label: Dict[str, List[int]] = {}
    for j, r in enumerate(refs):
        by_label.setdefault(r["label"], []).append(j)
    out = []
    for p in preds:
        found = []
        for j in by_label.get(p["label"], ()):
            r = refs[j]
            if exact:
                if int(r["start"]) == int(p["start"]) and int(r["end"]) == int(p["end"]):
                    found.append((1.0, j))
            else:
                iou = _iou(p, r)
                if iou >= minimum_iou:
                    found.append((iou, j))
        found.sort(key=lambda c: (-c[0], c[1]))  # refs are in ID order, so j orders by ID
        out.append(found)
    return out


def _kuhn(candidates: List[List[Tuple[float, int]]], reference_count: int, step_limit: int) -> Tuple[List[Optional[int]], int]:
    """Kuhn's augmenting paths, iteratively, counting one step per candidate looked at."""
    owner: List[Optional[int]] = [None] * reference_count
    steps = 0
    for first in range(len(candidates)):
        visited = [False] * reference_count
        stack = [[first, 0, -1]]  # prediction, next candidate, reference waiting on a deeper call
        returned = False
        while stack:
            frame = stack[-1]
            p, _, waiting = frame
            if waiting >= 0:
                frame[2] = -1
                if returned:
                    owner[waiting] = p
                    stack.pop()
                    continue
            if frame[1] == len(candidates[p]):
                stack.pop()
                returned = False
                continue
            r = candidates[p][frame[1]][1]
            frame[1] += 1
            steps += 1
            if steps > step_limit:
                raise EvaluationError(
                    "MATCHING_LIMIT", "", f"matching needed more than matchingSteps = {step_limit} steps; send fewer overlapping spans"
                    f"{raise_hint('matchingSteps')}"
                )
            if visited[r]:
                continue
            visited[r] = True
            holder = owner[r]
            if holder is None:
                owner[r] = p
                stack.pop()
                returned = True
                continue
            frame[2] = r
            stack.append([holder, 0, -1])
    return owner, steps


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r != 0 else 0.0


def _evaluate(request: Mapping[str, Any], match: str, minimum_iou: float, step_limit: int) -> SpanResult:
    preds = sorted(request["predictions"], key=lambda s: s["id"])
    refs = sorted(request["references"], key=lambda s: s["id"])
    candidates = _candidates(preds, refs, match == "exact", minimum_iou)
    owner, _ = _kuhn(candidates, len(refs), step_limit)
    matched_pred = {p: r for r, p in enumerate(owner) if p is not None}
    matches: List[SpanMatch] = []
    iou_total = 0.0
    for i, p in enumerate(preds):
        if i not in matched_pred:
            continue
        r = refs[matched_pred[i]]
        iou = next(c[0] for c in candidates[i] if c[1] == matched_pred[i])
        iou_total += iou
        exact = int(r["start"]) == int(p["start"]) and int(r["end"]) == int(p["end"])
        matches.append({"predictionId": p["id"], "referenceId": r["id"], "label": p["label"], "iou": iou, "exactBoundaries": exact})
    labels = sorted({s["label"] for s in preds} | {s["label"] for s in refs})
    per_label: List[SpanLabelResult] = []
    for label in labels:
        rc = sum(1 for s in refs if s["label"] == label)
        pc = sum(1 for s in preds if s["label"] == label)
        mc = sum(1 for m in matches if m["label"] == label)
        lp, lr = _ratio(mc, pc), _ratio(mc, rc)
        per_label.append({"label": label, "referenceCount": rc, "predictionCount": pc, "matchedCount": mc,
                          "precision": lp, "recall": lr, "f1": _f1(lp, lr)})
    precision, recall = _ratio(len(matches), len(preds)), _ratio(len(matches), len(refs))
    return {
        "profile": PROFILE,
        "offsetUnit": "utf16-code-unit",
        "referenceCount": len(refs),
        "predictionCount": len(preds),
        "matchedCount": len(matches),
        "precision": precision,
        "recall": recall,
        "f1": _f1(precision, recall),
        "precisionDefined": len(preds) > 0,
        "recallDefined": len(refs) > 0,
        "meanMatchedIou": iou_total / len(matches) if matches else None,
        "matches": matches,
        "unmatchedPredictionIds": [p["id"] for i, p in enumerate(preds) if i not in matched_pred],
        "unmatchedReferenceIds": [r["id"] for j, r in enumerate(refs) if owner[j] is None],
        "perLabel": per_label,
        "conventions": list(span_conventions(match)),
    }


def span_evaluate(request: Mapping[str, Any], *, limits: LimitsLike = None) -> SpanEnvelope:
    """Match labeled spans exactly or by IoU and score them (docs/contract.md §3); pure Python.

    Same signature, output and errors as :func:`evalcore.span_evaluate`.
    """
    full, lim = checked_request(request, limits, _validate_schema, DEFAULTS)
    _check_semantics(full)
    result = _evaluate(full, full["match"], float(full["minimumIou"]), lim.matching_steps)
    return envelope(OPERATION, result, full, lim, "send fewer spans")


def matching_steps(request: Mapping[str, Any]) -> int:
    """How many steps (docs/contract.md §3) the matching of a valid span request takes; for tests."""
    full = dict(DEFAULTS, **request)
    preds = sorted(full["predictions"], key=lambda s: s["id"])
    refs = sorted(full["references"], key=lambda s: s["id"])
    candidates = _candidates(preds, refs, full["match"] == "exact", float(full["minimumIou"]))
    return _kuhn(candidates, len(refs), MAX_OFFSET)[1]
