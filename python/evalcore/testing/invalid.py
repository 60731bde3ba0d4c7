"""Requests with one known fault: ``(request, expected_code, expected_pointer)``.

Each is a valid request with exactly one fault put in, so the error evalcore reports is
known in advance (docs/contract.md §1.3): the code, and the RFC 6901 pointer to the
offending value. For testing that your validation rejects what evalcore rejects, where
evalcore does. ``form="json"`` gives request bodies as bytes (for evaluate_json or an HTTP
service), which also reach INVALID_JSON and DUPLICATE_FIELD.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from hypothesis import strategies as st

from ..errors import STATUS_BY_CODE
from ..limits import DEFAULT_LIMITS, SCORE_LIMITS, Limits
from ._text import boundaries, inside_pairs, utf16_length
from .faults import OPERATIONS
from .strategies import ranking_requests, score_requests, span_requests

__all__ = ["error_codes", "invalid_requests"]

Draw = Callable[..., Any]
Tokens = Tuple[Any, ...]
Invalid = Tuple[Any, str, str]

_PARSE = ("INPUT_LIMIT", "UNSAFE_KEY", "INVALID_NUMBER", "NUMERIC_OVERFLOW")
_OWN = {
    "ranking-evaluate": ("SCHEMA_VIOLATION", "INVALID_UNICODE", "DUPLICATE_ID", "UNJUDGED_DOCUMENT", "OUTPUT_LIMIT"),
    "span-evaluate": ("SCHEMA_VIOLATION", "INVALID_UNICODE", "DUPLICATE_ID", "INVALID_SPAN", "DUPLICATE_SPAN",
                      "MATCHING_LIMIT", "OUTPUT_LIMIT"),
    "score": ("SCHEMA_VIOLATION", "INVALID_UNICODE", "OUTPUT_LIMIT"),
}
_REQUIRED: Dict[str, Dict[Tokens, Tuple[str, ...]]] = {
    "ranking-evaluate": {(): ("queries",), ("queries", 0): ("id", "retrieved", "judgments"),
                         ("queries", 0, "judgments", 0): ("id", "grade")},
    "span-evaluate": {(): ("text", "references", "predictions"), ("references", 0): ("id", "label", "start", "end"),
                      ("predictions", 0): ("id", "label", "start", "end")},
    "score": {("items", 0): ("predicted", "ground_truth")},
}


class _Raw:
    """A JSON literal written as is (``NaN``, ``1e400``)."""

    def __init__(self, text: str) -> None:
        self.text = text


class _Pairs:
    """A JSON object with its members as given (a key may repeat)."""

    def __init__(self, pairs: List[Tuple[str, Any]]) -> None:
        self.pairs = pairs


def _write(value: Any) -> str:
    if isinstance(value, _Raw):
        return value.text
    if isinstance(value, (_Pairs, dict)):
        pairs = value.pairs if isinstance(value, _Pairs) else list(value.items())
        return "{" + ",".join(json.dumps(k) + ":" + _write(v) for k, v in pairs) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_write(v) for v in value) + "]"
    return json.dumps(value)  # ASCII, lone surrogates as \ud800 escapes


def _pointer(tokens: Tokens) -> str:
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def _places(value: Any, tokens: Tokens = ()) -> List[Tuple[Tokens, Any]]:
    """Every (tokens, value) inside `value`, the value itself first."""
    out = [(tokens, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, tokens + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _places(item, tokens + (i,))
    return out


def _get(value: Any, tokens: Tokens) -> Any:
    for t in tokens:
        value = value[t]
    return value


def _set(value: Any, tokens: Tokens, new: Any) -> Any:
    """A copy of `value` with the value at `tokens` replaced or added (copies along the path only)."""
    if not tokens:
        return new
    head, rest = tokens[0], tokens[1:]
    if isinstance(value, dict):
        out = dict(value)
        out[head] = _set(value[head], rest, new) if rest else new  # a last key may be new (an option)
        return out
    items = list(value)
    items[head] = _set(value[head], rest, new)
    return items


def _shape(tokens: Tokens) -> Tokens:
    return tuple(0 if isinstance(t, int) else t for t in tokens)


def _limits(operation: str, limits: Optional[Limits]) -> Limits:
    if limits is not None:
        return limits
    return SCORE_LIMITS if operation == "score" else DEFAULT_LIMITS


def error_codes(operation: str, *, form: str = "python", limits: Optional[Limits] = None) -> Tuple[str, ...]:
    """The error codes :func:`invalid_requests` gives for `operation` in `form` under
    `limits` (None: the contract's defaults): those evalcore can return there. Not
    reachable: INVALID_JSON and DUPLICATE_FIELD for Python values (they are JSON text's),
    MATCHING_LIMIT under 2,000,000 steps (100 spans a side never need as many), and
    OUTPUT_LIMIT where the other limits keep the output under ``output_bytes``."""
    _check(operation, form)
    lim = _limits(operation, limits)
    codes = list(_PARSE) + [c for c in _OWN[operation] if c not in ("MATCHING_LIMIT", "OUTPUT_LIMIT")]
    if form == "json":
        codes += ["INVALID_JSON", "DUPLICATE_FIELD"]
    if operation == "span-evaluate" and _matching_size(lim) is not None:
        codes.append("MATCHING_LIMIT")
    if _big_request(operation, lim) is not None:
        codes.append("OUTPUT_LIMIT")
    return tuple(c for c in STATUS_BY_CODE if c in codes)


def _check(operation: str, form: str) -> None:
    if operation not in OPERATIONS:
        raise ValueError(f"operation must be one of {', '.join(OPERATIONS)}; got {operation!r}")
    if form not in ("python", "json"):
        raise ValueError(f"form must be 'python' or 'json'; got {form!r}")


# ---- requests built whole: over the output limit, over the matching steps ------------------


def _compact_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _big_request(operation: str, lim: Limits) -> Optional[Dict[str, Any]]:
    """A valid request whose result is surely longer than ``output_bytes`` (counting only
    parts of the result the contract names), or None when the other limits leave no room
    for one."""
    if operation == "ranking-evaluate":
        queries, docs = min(lim.queries, 50), min(lim.retrieved_per_query, lim.max_k, 100)
        ids = [f"{j:016d}" for j in range(docs)]
        request: Dict[str, Any] = {"queries": [{"id": f"q{i}", "retrieved": ids, "judgments": []} for i in range(queries)],
                                   "k": docs, "unjudged": "nonrelevant"}
        # each query's metrics (nothing is relevant: precision 0, the rest undefined) and ranking (contract §2)
        floor = sum(_compact_size({
            "precisionAtK": 0, "recallAtK": None, "reciprocalRankAtK": None, "averagePrecisionAtK": None,
            "ndcgAtK": None, "id": f"q{i}", "missedRelevantIds": [],
            "ranking": [{"rank": r + 1, "id": d, "grade": None, "relevant": False, "judged": False}
                        for r, d in enumerate(ids)]}) for i in range(queries))
    elif operation == "span-evaluate":
        n = min(lim.references, lim.predictions, lim.text_utf16_units, lim.matching_steps, 100)  # one step a match
        spans = [{"id": f"{i:06d}", "label": "L", "start": i, "end": i + 1} for i in range(n)]
        request = {"text": "a" * n, "references": spans, "predictions": [dict(s) for s in spans]}
        # every prediction matches its twin (contract §3: the matches list)
        floor = _compact_size([{"predictionId": s["id"], "referenceId": s["id"], "label": "L", "iou": 1,
                                "exactBoundaries": True} for s in spans])
    else:
        n = 1000
        request = {"items": [{"predicted": ["a"], "ground_truth": ["a"]} for _ in range(n)]}
        floor = _compact_size([{"precision": 1, "recall": 1, "f1": 1, "f2": 1}] * n)  # per_item (contract §4)
    nodes = sum(1 for _ in _places(request))
    if floor <= lim.output_bytes or _compact_size(request) > lim.input_bytes or nodes > lim.json_nodes:
        return None
    return request


def _matching_size(lim: Limits) -> Optional[int]:
    """How many predictions overlapping one reference make Kuhn's matching take more
    than ``matching_steps`` steps: the first takes 1, each later one 2 (the reference,
    then its holder's only candidate), so n of them take 2n - 1 (contract §3)."""
    n = lim.matching_steps // 2 + 2
    if n > min(lim.predictions, 100) or 2 * n + 2 > lim.text_utf16_units:
        return None
    return n


def _matching_request(n: int) -> Dict[str, Any]:
    length = 2 * n + 2
    return {"text": "a" * length, "match": "overlap", "minimumIou": 0.5,
            "references": [{"id": "r", "label": "L", "start": 0, "end": length}],
            "predictions": [{"id": f"p{i:03d}", "label": "L", "start": 0, "end": length - i} for i in range(n)]}


# ---- one fault in a valid request ------------------------------------------------------------


def _leaves(request: Any) -> List[Tokens]:
    return [t for t, v in _places(request) if t and not isinstance(v, (dict, list))]


def _objects(request: Any) -> List[Tokens]:
    return [t for t, v in _places(request) if isinstance(v, dict)]


def _parse_fault(draw: Draw, request: Any, code: str, form: str, lim: Limits) -> Optional[Invalid]:
    places = _leaves(request)
    if code == "UNSAFE_KEY":
        at = draw(st.sampled_from(_objects(request)))
        key = draw(st.sampled_from(["__proto__", "constructor", "prototype"]))
        obj = dict(_get(request, at))
        obj[key] = draw(st.sampled_from([1, "x", None]))
        return _set(request, at, obj), code, _pointer(at + (key,))
    if not places:
        return None
    at = draw(st.sampled_from(places))
    if code == "INVALID_NUMBER":
        bad = draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))
        return _set(request, at, _Raw(bad) if form == "json" else float(bad.replace("Infinity", "inf"))), code, _pointer(at)
    if code == "NUMERIC_OVERFLOW":
        big = draw(st.sampled_from(["1e400", "-1e400", "1" + "0" * 400]))
        return _set(request, at, _Raw(big) if form == "json" else (-1 if big[0] == "-" else 1) * 10**400), code, _pointer(at)
    if code == "INPUT_LIMIT":
        kind = draw(st.sampled_from(["depth", "cycle", "bytes", "nodes"] if form == "python" else ["depth", "bytes", "nodes"]))
        if kind == "depth" and len(at) <= lim.json_depth:
            deep: Any = 1
            for _ in range(lim.json_depth + 1 - len(at)):
                deep = [deep]
            return _set(request, at, deep), code, _pointer(at + (0,) * (lim.json_depth - len(at)))
        if kind == "cycle" and len(at) + 1 < lim.json_depth:
            loop: List[Any] = []
            loop.append(loop)
            return _set(request, at, loop), code, _pointer(at + (0,))
        if kind == "bytes" and lim.input_bytes < 10_000_000:
            return _set(request, at, "x" * (lim.input_bytes + 1)), code, ""
        if kind == "nodes" and lim.json_nodes < 1_000_000 and len(at) < lim.json_depth:
            return _set(request, at, [0] * (lim.json_nodes + 1)), code, ""
        return None
    return None


def _json_fault(draw: Draw, request: Any, code: str) -> Optional[Invalid]:
    if code == "DUPLICATE_FIELD":
        choices = [t for t in _objects(request) if _get(request, t)]
        if not choices:
            return None
        at = draw(st.sampled_from(choices))
        obj = _get(request, at)
        key = draw(st.sampled_from(list(obj)))
        return _set(request, at, _Pairs(list(obj.items()) + [(key, obj[key])])), code, _pointer(at + (key,))
    body = _write(request).encode("utf-8")
    if draw(st.booleans()):
        return body[: draw(st.integers(0, len(body) - 1))], code, ""  # a proper prefix: never whole JSON
    cut = body.index(b'"') + 1 if b'"' in body else 1
    return body[:cut] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + body[cut:], code, ""


def _lone_surrogate(text: str) -> str:
    """`text` with one character replaced by a lone surrogate, its UTF-16 length kept (or
    1 for an empty text)."""
    for i, ch in enumerate(text):
        if ord(ch) <= 0xFFFF:
            return text[:i] + "\udc00" + text[i + 1:]
    return "\udc00" + ("\udc00" + text[1:] if text else "")


def _unicode_fault(draw: Draw, operation: str, request: Any) -> Optional[Invalid]:
    strings = [t for t, v in _places(request) if isinstance(v, str) and t and not _is_enum(operation, t)]
    if operation == "ranking-evaluate":
        # query IDs and retrieved documents: a changed judgment ID would leave a document unjudged
        strings = [t for t in strings if (len(t) == 3 and t[-1] == "id") or t[-2:-1] == ("retrieved",)]
    if not strings:
        return None
    at = draw(st.sampled_from(strings))
    return _set(request, at, _lone_surrogate(_get(request, at))), "INVALID_UNICODE", _pointer(at)


def _is_enum(operation: str, tokens: Tokens) -> bool:
    return tokens in (("gain",), ("unjudged",), ("match",)) or (operation == "score" and tokens[:1] == ("metrics",))


_WRONG_TYPE = {str: 5, int: "1", float: "1.5", bool: 1, list: {"x": 1}, dict: [1], type(None): 1.5}


def _schema_fault(draw: Draw, operation: str, request: Any) -> Optional[Invalid]:
    kind = draw(st.sampled_from(["type", "unknown", "missing", "range"]))
    if kind == "unknown":
        at = draw(st.sampled_from(_objects(request)))
        return _set(request, at, {**_get(request, at), "extra": 1}), "SCHEMA_VIOLATION", _pointer(at + ("extra",))
    if kind == "missing":
        required = _REQUIRED[operation]
        choices = [t for t in _objects(request) if required.get(_shape(t))]
        if operation == "score":
            choices.append(())
        at = draw(st.sampled_from(choices))
        obj = dict(_get(request, at))
        if at == () and operation == "score":  # the one-form rule: a pair, or items, whole
            key = "predicted" if obj.get("predicted") is not None else "items"
            if draw(st.booleans()):
                obj[key] = None
            else:
                del obj[key]
            return obj, "SCHEMA_VIOLATION", ""
        del obj[draw(st.sampled_from(list(required[_shape(at)])))]
        return _set(request, at, obj), "SCHEMA_VIOLATION", _pointer(at)
    if kind == "range":
        return _range_fault(draw, operation, request)
    places = [t for t, v in _places(request) if t and not (operation == "score" and v is None)]
    at = draw(st.sampled_from(places))
    value = _get(request, at)
    return _set(request, at, _WRONG_TYPE[type(value)]), "SCHEMA_VIOLATION", _pointer(at)


def _range_fault(draw: Draw, operation: str, request: Any) -> Optional[Invalid]:
    """A number, string or list out of the contract's range, where one is."""
    options: List[Tuple[Tokens, Any]] = []
    if operation == "ranking-evaluate":
        options += [(("k",), v) for v in (0, 101, 2.5, -1)] + [(("relevantAtLeast",), v) for v in (0, 10.5, -1)]
        options += [(("gain",), "Linear"), (("unjudged",), "ignore"), (("queries",), [])]
        for t, v in _places(request):
            if t[-1:] == ("grade",):
                options += [(t, -0.5), (t, 11)]
            if t[-1:] == ("id",) or t[-2:-1] == ("retrieved",):
                options += [(t, ""), (t, "x" * 81), (t, "😀" * 40 + "x")]
    elif operation == "span-evaluate":
        options += [(("minimumIou",), v) for v in (0, 1.5, -0.1)] + [(("match",), "fuzzy")]
        for t, v in _places(request):
            if t[-1:] in (("start",), ("end",)):
                options += [(t, -1), (t, 2**53), (t, 1.5)]
            if t[-1:] in (("id",), ("label",)):
                options += [(t, ""), (t, "é" * 81)]
    else:
        options += [(("k",), v) for v in (0, -2, 1.5)] + [(("metrics",), v) for v in ([], ["f3"], ["f1", "f1"])]
    at, value = draw(st.sampled_from(options))
    pointer = _pointer(at)
    if operation == "score" and at == ("metrics",) and value:
        pointer = _pointer(at + (len(value) - 1,))
    return _set(request, at, value), "SCHEMA_VIOLATION", pointer


def _ranking_fault(draw: Draw, request: Any, code: str) -> Optional[Invalid]:
    queries = request["queries"]
    i = draw(st.integers(0, len(queries) - 1))
    query = queries[i]
    if code == "DUPLICATE_ID":
        where = draw(st.sampled_from(["queries", "retrieved", "judgments"]))
        if where == "queries":
            copy = dict(query)
            return {**request, "queries": queries + [copy]}, code, f"/queries/{len(queries)}/id"
        if where == "retrieved" and query["retrieved"]:
            doc = draw(st.sampled_from(query["retrieved"]))
            new = {**query, "retrieved": query["retrieved"] + [doc]}
            return _set(request, ("queries", i), new), code, f"/queries/{i}/retrieved/{len(query['retrieved'])}"
        if query["judgments"]:
            judgment = draw(st.sampled_from(query["judgments"]))
            new = {**query, "judgments": query["judgments"] + [dict(judgment)]}
            return _set(request, ("queries", i), new), code, f"/queries/{i}/judgments/{len(query['judgments'])}/id"
        return None
    if code == "UNJUDGED_DOCUMENT":
        k = int(request.get("k", 10))
        taken = set(query["retrieved"]) | {j["id"] for j in query["judgments"]}
        doc = next(f"unjudged{n}" for n in range(len(taken) + 1) if f"unjudged{n}" not in taken)
        j = draw(st.integers(0, min(k - 1, len(query["retrieved"]))))
        new = {**query, "retrieved": query["retrieved"][:j] + [doc] + query["retrieved"][j:]}
        return _set(request, ("queries", i), new), code, f"/queries/{i}/retrieved/{j}"
    return None


def _span_fault(draw: Draw, request: Any, code: str) -> Optional[Invalid]:
    text = request["text"]
    side = draw(st.sampled_from(["references", "predictions"]))
    spans = request[side]
    shapes = {(s["label"], s["start"], s["end"]) for s in spans}
    ids = {s["id"] for s in spans}
    new_id = next(f"x{n}" for n in range(len(ids) + 1) if f"x{n}" not in ids)
    places = boundaries(text)
    at = f"/{side}/{len(spans)}"
    if code == "DUPLICATE_SPAN":
        if not spans:
            return None
        old = draw(st.sampled_from(spans))
        added = {"id": new_id, "label": old["label"], "start": old["start"], "end": old["end"]}
    elif code == "DUPLICATE_ID":
        free = [("L", a, b) for a in places for b in places if a < b and ("L", a, b) not in shapes]
        if not spans or not free:
            return None
        label, start, end = draw(st.sampled_from(free))
        added = {"id": draw(st.sampled_from(sorted(ids))), "label": label, "start": start, "end": end}
        at += "/id"
    else:
        length = utf16_length(text)
        bad = [(a, a) for a in places] + [(b, a) for a in places for b in places if a < b] + [(0, length + 1)]
        bad += [(p, p + 1) for p in inside_pairs(text)] + [(p - 1, p) for p in inside_pairs(text)]
        start, end = draw(st.sampled_from(bad))
        added = {"id": new_id, "label": "L", "start": start, "end": end}
    return {**request, side: spans + [added]}, code, at


def invalid_requests(operation: str, *, form: str = "python", codes: Optional[Sequence[str]] = None,
                     limits: Optional[Limits] = None) -> st.SearchStrategy[Invalid]:
    """``(request, expected_code, expected_pointer)``: a valid request of `operation` with
    one fault put in, and the error evalcore reports for it.

    Args:
        operation: ``"ranking-evaluate"``, ``"span-evaluate"`` or ``"score"``.
        form: ``"python"``: the request as Python values (as ranking_evaluate etc. take
            them); ``"json"``: as UTF-8 JSON bytes (as evaluate_json and HTTP take them).
        codes: only these error codes (default: every code of :func:`error_codes`).
        limits: the limits the request will be evaluated under (None: the contract's
            defaults): faults over a limit are built for these.

    Every code of the contract comes out: the parse-level faults anywhere (an unsafe
    key, NaN, 1e400, nesting, a container inside itself, too many bytes or values), a
    wrong type, an unknown or missing field, a value out of range, a lone surrogate, a
    repeated ID, an unjudged document in the top k, an empty, reversed, too long or
    pair-splitting span, a repeated span, too many matching steps, too long a result, and
    in JSON text a repeated key or text that is not JSON.
    """
    _check(operation, form)
    lim = _limits(operation, limits)
    available = error_codes(operation, form=form, limits=limits)
    chosen = list(available if codes is None else codes)
    unknown = [c for c in chosen if c not in available]
    if unknown or not chosen:
        raise ValueError(f"codes must be a non-empty choice of {', '.join(available)} for {operation} ({form}); "
                         f"got {chosen!r}")
    if operation == "ranking-evaluate":
        bases = ranking_requests(max_queries=3, max_docs=5, unjudged=False, astral=True)
    elif operation == "span-evaluate":
        bases = span_requests(max_spans=4, max_text=12)
    else:
        bases = score_requests(max_ids=4, max_items=3)

    @st.composite
    def draw_invalid(draw: Draw) -> Invalid:
        code = draw(st.sampled_from(chosen))
        found: Optional[Invalid] = None
        if code == "OUTPUT_LIMIT":
            found = _big_request(operation, lim), code, ""
        elif code == "MATCHING_LIMIT":
            found = _matching_request(_matching_size(lim) or 0), code, ""
        while found is None:
            request = draw(bases)
            if code in _PARSE:
                found = _parse_fault(draw, request, code, form, lim)
            elif code in ("INVALID_JSON", "DUPLICATE_FIELD"):
                found = _json_fault(draw, request, code)
            elif code == "SCHEMA_VIOLATION":
                found = _schema_fault(draw, operation, request)
            elif code == "INVALID_UNICODE":
                found = _unicode_fault(draw, operation, request)
            elif operation == "ranking-evaluate":
                found = _ranking_fault(draw, request, code)
            else:
                found = _span_fault(draw, request, code)
        request, code, pointer = found
        if form == "json" and not isinstance(request, bytes):
            request = _write(request).encode("utf-8")
        return request, code, pointer

    return draw_invalid()
