"""evaluate_json in pure Python: the twin of evalcore.evaluate_json (used, for instance, as
the server's reference backend in the load benchmark)."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, List, Optional, Tuple

from ...requests._arguments import request_body
from ...errors import EvaluationError
from ...limits import DEFAULT_LIMITS, SCORE_LIMITS, Limits, LimitsLike, raise_hint, resolve_limits
from ._json import compact_json
from ._reading import child_pointer, read_request
from .ranking import ranking_evaluate
from .score import score
from .spans import span_evaluate

_TOO_LARGE = 10**400  # an int no binary64 holds: the reader reports NUMERIC_OVERFLOW where it sits
_OPERATIONS = {"ranking-evaluate": ranking_evaluate, "span-evaluate": span_evaluate, "score": score}


class _Repeated(dict[str, Any]):  # (not typing.Dict, which would add Generic to the bases)
    repeated: str = ""


def _object(pairs: List[Any]) -> Dict[str, Any]:
    obj = _Repeated()
    for key, value in pairs:
        if key in obj and not obj.repeated:
            obj.repeated = key
        obj[key] = value
    return obj if obj.repeated else dict(obj)


def _first_repeat(value: Any) -> Optional[str]:
    stack = [(value, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, _Repeated):
            return at + "/" + node.repeated.replace("~", "~0").replace("/", "~1")
        if isinstance(node, dict):
            items = [(v, at + "/" + k.replace("~", "~0").replace("/", "~1")) for k, v in node.items()]
        elif isinstance(node, list):
            items = [(v, f"{at}/{i}") for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(items))
    return None


# A JSON string (so that brackets inside one are not counted), or a bracket.
_STRING_OR_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def _too_deep(body: bytes, json_depth: int) -> Optional[Tuple[int, bytes]]:
    """Where the first container deeper than `json_depth` opens: (its offset, the closers
    of the containers around it, innermost first); None if there is none."""
    open_brackets: List[int] = []
    for token in _STRING_OR_BRACKET.finditer(body):
        c = body[token.start()]
        if c in b"[{":
            if len(open_brackets) == json_depth:
                closers = bytes(ord("]") if o == ord("[") else ord("}") for o in reversed(open_brackets))
                return token.start(), closers
            open_brackets.append(c)
        elif c in b"]}" and open_brackets:
            open_brackets.pop()
    return None


def _last_pointer(value: Any) -> str:
    """The pointer of the last value in document order."""
    pointer = ""
    while isinstance(value, (dict, list)) and value:
        key = next(reversed(value)) if isinstance(value, dict) else len(value) - 1
        pointer = child_pointer(pointer, key)
        value = value[key]
    return pointer


def _loads(text: bytes) -> Any:
    try:
        value = json.loads(
            text.decode("utf-8"),
            object_pairs_hook=_object,
            parse_constant=lambda name: float(name.replace("Infinity", "inf")),
            parse_float=lambda s: _TOO_LARGE if math.isinf(float(s)) else float(s),
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise EvaluationError("INVALID_JSON", "", f"the body is not one well-formed UTF-8 JSON text: {exc}") from None
    repeated = _first_repeat(value)
    if repeated is not None:
        raise EvaluationError("DUPLICATE_FIELD", repeated, "this key appears more than once in its object")
    return value


def loads_strictly(body: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """UTF-8 JSON as evalcore reads it: NaN/Infinity kept (to be refused where they sit),
    literals past binary64 made unrepresentable ints, a repeated key a DUPLICATE_FIELD.

    json.loads recurses per level, so nesting past ``limits.json_depth`` is found first
    by a scan: the text up to that container is parsed with a placeholder in its place
    (any fault before it wins, as in the native parser, which reads in document order), and
    then INPUT_LIMIT is raised at it. Nesting within the limit but deeper than Python's
    recursion allows (only with json_depth raised past about 900) raises RecursionError."""
    cut = _too_deep(body, limits.json_depth)
    if cut is None:
        return _loads(body)
    offset, closers = cut
    head = _loads(body[:offset] + b"0" + closers)
    read_request(head, Limits(**dict(limits.as_dict(), input_bytes=2**53 - 1)))  # faults before the cut
    raise EvaluationError(
        "INPUT_LIMIT", _last_pointer(head), f"containers are nested deeper than jsonDepth = {limits.json_depth}{raise_hint('jsonDepth')}"
    )


def evaluate_json(operation: str, body: Any, *, limits: LimitsLike = None) -> bytes:
    """Pure-Python twin of :func:`evalcore.evaluate_json` for valid requests and most faults
    (its byte limit applies to the body, like the native one)."""
    if operation not in _OPERATIONS:
        raise ValueError(f"unknown operation {operation!r}")
    data = request_body(body)
    lim = resolve_limits(limits, SCORE_LIMITS if operation == "score" else DEFAULT_LIMITS)
    if len(data) > lim.input_bytes:
        raise EvaluationError("INPUT_LIMIT", "", f"the body is {len(data)} bytes, over inputBytes = {lim.input_bytes}"
                                           f"{raise_hint('inputBytes')}")
    roomy = dict(lim.as_dict(), input_bytes=2**53 - 1)  # the body was measured; not its canonical form again
    return compact_json(_OPERATIONS[operation](loads_strictly(data, lim), limits=roomy))
