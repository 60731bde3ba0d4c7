"""The exceptions evalcore raises for input it rejects: EvaluationError for a request of
the three operations (docs/contract.md §1.3), RunInputError for qrels and runs (evaluate_run)."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Type, Union

from .result_types import ErrorBody, MixpeekBody

#: Every error code and the HTTP status it maps to.
STATUS_BY_CODE: Dict[str, int] = {
    "INVALID_JSON": 400,
    "INPUT_LIMIT": 413,
    "OUTPUT_LIMIT": 413,
    "SCHEMA_VIOLATION": 422,
    "DUPLICATE_FIELD": 422,
    "UNSAFE_KEY": 422,
    "INVALID_NUMBER": 422,
    "NUMERIC_OVERFLOW": 422,
    "INVALID_UNICODE": 422,
    "DUPLICATE_ID": 422,
    "UNJUDGED_DOCUMENT": 422,
    "INVALID_SPAN": 422,
    "DUPLICATE_SPAN": 422,
    "MATCHING_LIMIT": 422,
}


class EvaluationError(ValueError):
    """A request evalcore rejects.

    Attributes:
        code: the contract's error code, e.g. ``"DUPLICATE_ID"``.
        status: the HTTP status the code maps to (400, 413 or 422).
        pointer: RFC 6901 JSON Pointer to the offending value (``""`` = whole request).
        message: what is wrong and how to fix it, naming the field and the limit.
    """

    def __init__(self, code: str, pointer: str, message: str) -> None:
        if code not in STATUS_BY_CODE:
            raise KeyError(f"unknown evalcore error code {code!r}")
        super().__init__(f"{code} at {pointer or '(request)'}: {message}")
        self.code: str = code
        self.status: int = STATUS_BY_CODE[code]
        self.pointer: str = pointer
        self.message: str = message

    @property
    def body(self) -> ErrorBody:
        """The error object of docs/contract.md §1.3: ``{"error": {code, status, message, pointer}}``."""
        return {
            "error": {
                "code": self.code,
                "status": self.status,
                "message": self.message,
                "pointer": self.pointer,
            }
        }

    @property
    def mixpeek_body(self) -> MixpeekBody:
        """The error in Mixpeek's shapes (score over HTTP): 422 as FastAPI's
        ``{"detail": [{"loc", "msg", "type"}]}``, 400 and 413 as
        ``{"success": false, "status", "error": {"message", "type", "code"}}``."""
        if self.status == 422:
            loc: List[Union[str, int]] = ["body"]
            if self.pointer:
                for token in self.pointer[1:].split("/"):
                    token = token.replace("~1", "/").replace("~0", "~")
                    loc.append(int(token) if token.isdigit() else token)
            return {"detail": [{"loc": loc, "msg": self.message, "type": self.code.lower()}]}
        kind = {400: "BadRequestError", 413: "PayloadTooLargeError"}.get(self.status, "Error")
        return {"success": False, "status": self.status, "error": {"message": self.message, "type": kind, "code": self.code}}

    # keep the fields through pickling (multiprocessing)
    def __reduce__(self) -> Tuple[Type[EvaluationError], Tuple[str, str, str]]:
        return (type(self), (self.code, self.pointer, self.message))


class RunInputError(ValueError):
    """Qrels or a run that :func:`evalcore.evaluate_run` rejects for what it holds (a file
    that cannot be opened or read is ``OSError``, as ``open()`` raises it).

    ``str(error)`` is the whole message, source and line first: ``"run.txt:17: a run line
    has at least 6 fields: ..."``.

    Attributes:
        message: the fault alone, e.g. ``"a run line has at least 6 fields: ..."``.
        source: the file path, or ``"qrels"``/``"run"`` (``"qrels table"``/``"run table"``
            for tables) when the input is not a file.
        line: the 1-based line of the file that is at fault, or None when not a file.
    """

    def __init__(self, message: str, source: str, line: Optional[int] = None) -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.message: str = message
        self.source: str = source
        self.line: Optional[int] = line

    def __reduce__(self) -> Tuple[Type[RunInputError], Tuple[str, str, Optional[int]]]:
        return (type(self), (self.message, self.source, self.line))


class DistributionConflictWarning(UserWarning):
    """Warned at import when the unrelated PyPI project named ``evalcore`` is installed in the
    same environment: both write the import package ``evalcore/``, so the files of the two may
    be mixed. The message says how to separate them."""
