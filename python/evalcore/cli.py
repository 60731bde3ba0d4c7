"""The `evalcore` command: run an operation on a JSON request file (or stdin).

    evalcore ranking-evaluate|span-evaluate|score [FILE|-] [--pretty] [--limits JSON]

Exit 0 with the response on stdout; 1 with the error JSON (SPEC §1.3) on stderr; 2 for
usage errors. Output numbers are written in ECMAScript form, as the hashes cover them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence

from .errors import EvaluationError
from .limits import resolve_limits
from .reference._json import compact_json, ecma_number, json_string

_TOO_LARGE = 10**400  # an int no binary64 can hold: the reader reports NUMERIC_OVERFLOW where it sits


class _DuplicateKeys(dict):
    """A JSON object in which some key was repeated (json.loads would keep the last one)."""

    duplicate: str = ""


def _object_pairs(pairs: List[Any]) -> dict:
    obj = _DuplicateKeys()
    for key, value in pairs:
        if key in obj and not obj.duplicate:
            obj.duplicate = key
        obj[key] = value
    return obj if obj.duplicate else dict(obj)


def _first_duplicate(value: Any, pointer: str = "") -> Optional[str]:
    stack = [(value, pointer)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, _DuplicateKeys):
            return at + "/" + node.duplicate.replace("~", "~0").replace("/", "~1")
        if isinstance(node, dict):
            children = [(v, at + "/" + k.replace("~", "~0").replace("/", "~1")) for k, v in node.items()]
        elif isinstance(node, list):
            children = [(v, f"{at}/{i}") for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))
    return None


def parse_request(body: bytes) -> Any:
    """Strict JSON: UTF-8 only, no NaN/Infinity, no repeated keys, no literal past binary64."""
    try:
        text = body.decode("utf-8")
        value = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_constant=lambda name: float(name.replace("Infinity", "inf")),
            parse_float=lambda s: float(s) if abs(float(s)) != float("inf") else _TOO_LARGE,
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise EvaluationError("INVALID_JSON", "", f"the body is not one well-formed UTF-8 JSON text: {exc}") from None
    duplicate = _first_duplicate(value)
    if duplicate is not None:
        raise EvaluationError("DUPLICATE_FIELD", duplicate, "this key appears more than once in its object")
    return value


def _pretty(value: Any, indent: str = "") -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = ",\n".join(f"{inner}{json_string(k)}: {_pretty(v, inner)}" for k, v in value.items())
        return "{\n" + items + "\n" + indent + "}"
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(inner + _pretty(v, inner) for v in value) + "\n" + indent + "]"
    if isinstance(value, float):
        return ecma_number(value)
    return compact_json(value).decode("utf-8")


def _operations() -> Dict[str, Callable[..., Dict[str, Any]]]:
    import evalcore

    return {"ranking-evaluate": evalcore.ranking_evaluate, "span-evaluate": evalcore.span_evaluate, "score": evalcore.score}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the `evalcore` console script; returns the exit status."""
    operations = _operations()
    parser = argparse.ArgumentParser(prog="evalcore", description="Score supplied evaluation data deterministically.")
    parser.add_argument("operation", choices=sorted(operations), help="the operation to run")
    parser.add_argument("file", nargs="?", default="-", help="request JSON file, or - for stdin (default)")
    parser.add_argument("--pretty", action="store_true", help="indent the response")
    parser.add_argument("--limits", help='limit overrides as JSON, e.g. \'{"input_bytes": 500000}\'')
    args = parser.parse_intermixed_args(argv)
    try:
        limits = resolve_limits(json.loads(args.limits)) if args.limits else None
    except (ValueError, TypeError) as exc:
        parser.error(f"--limits: {exc}")
    try:
        body = sys.stdin.buffer.read() if args.file == "-" else open(args.file, "rb").read()
    except OSError as exc:
        parser.error(f"cannot read {args.file}: {exc.strerror}")
    try:
        response = operations[args.operation](parse_request(body), limits=limits)
    except EvaluationError as err:
        sys.stderr.write(compact_json(err.body).decode("utf-8") + "\n")
        return 1
    text = _pretty(response) if args.pretty else compact_json(response).decode("utf-8")
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
