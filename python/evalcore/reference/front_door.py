"""evaluate_json in pure Python: the twin of evalcore.evaluate_json (used, for instance, as
the server's reference backend in the load benchmark)."""

from __future__ import annotations

import json
import math
from typing import Any, List, Optional

from ..errors import EvaluationError
from ..limits import LimitsLike, resolve_limits
from ._json import compact_json
from .ranking import ranking_evaluate
from .score import score
from .spans import span_evaluate

_TOO_LARGE = 10**400  # an int no binary64 holds: the reader reports NUMERIC_OVERFLOW where it sits
_OPERATIONS = {"ranking-evaluate": ranking_evaluate, "span-evaluate": span_evaluate, "score": score}


class _Repeated(dict):
    repeated: str = ""


def _object(pairs: List[Any]) -> dict:
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


def loads_strictly(body: bytes) -> Any:
    """UTF-8 JSON as evalcore reads it: NaN/Infinity kept (to be refused where they sit),
    literals past binary64 made unrepresentable ints, a repeated key a DUPLICATE_FIELD."""
    try:
        value = json.loads(
            body.decode("utf-8"),
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


def evaluate_json(operation: str, body: bytes, *, limits: LimitsLike = None) -> bytes:
    """Pure-Python twin of :func:`evalcore.evaluate_json` for valid requests and most faults
    (its byte limit applies to the body, like the native one)."""
    if operation not in _OPERATIONS:
        raise ValueError(f"unknown operation {operation!r}")
    if limits is not None or operation != "score":
        lim = resolve_limits(limits)
        if len(body) > lim.input_bytes:
            raise EvaluationError("INPUT_LIMIT", "", f"the body is {len(body)} bytes, over inputBytes = {lim.input_bytes}")
        roomy = dict(lim.as_dict(), input_bytes=2**53 - 1)  # the body was measured; not its canonical form again
        return compact_json(_OPERATIONS[operation](loads_strictly(body), limits=roomy))
    return compact_json(score(loads_strictly(body)))
