"""Checks of keyword arguments shared by the native API and the reference."""

from __future__ import annotations

from typing import Any


def check_corpus_options(match: Any, minimum_iou: Any, threads: Any) -> None:
    """The options of span_evaluate_corpus; raises ValueError naming the bad one."""
    if match not in ("exact", "overlap"):
        raise ValueError(f"match must be 'exact' or 'overlap', got {match!r}")
    if isinstance(minimum_iou, bool) or not isinstance(minimum_iou, (int, float)) or not 0 < minimum_iou <= 1:
        raise ValueError(f"minimum_iou must be a number with 0 < minimum_iou <= 1, got {minimum_iou!r}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads must be None or a positive int, got {threads!r}")


def request_body(body: Any) -> bytes:
    """A raw request body as bytes: bytes, bytearray, a memoryview of bytes (C-contiguous,
    one byte an item) or a str (UTF-8 encoded; a lone surrogate gives bytes that are not
    UTF-8, which the parser reports as INVALID_JSON). Anything else is a TypeError: an int
    would be taken as that many NUL bytes, a list of ints or an array's memory as bytes."""
    if isinstance(body, bytes):
        return body if type(body) is bytes else bytes(body)
    if isinstance(body, bytearray):
        return bytes(body)
    if isinstance(body, memoryview):
        if body.itemsize != 1 or body.format not in ("B", "b", "c") or not body.c_contiguous:
            raise TypeError(
                "a memoryview body must be C-contiguous bytes (format 'B', itemsize 1), "
                f"got format {body.format!r}, itemsize {body.itemsize}"
            )
        return body.tobytes()
    if isinstance(body, str):
        return str.encode(body, "utf-8", "surrogatepass")
    raise TypeError(f"body must be bytes, bytearray, a memoryview of bytes or str, got {type(body).__name__}")


# ExactSum.from_bytes and ExactSum.merge (both cores) take a serialized sum only as bytes, checked
# before anything is copied: bytes(2**31) would make 2 GiB of zeros first, bytes([1, 5]) a form
# out of a list, and a memoryview of doubles would be read as its memory's bytes.
_SERIALIZED_SUM = "bytes, a bytearray or a memoryview of bytes"


def _serialized_sum(value: Any, argument: str, wanted: str) -> bytes:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, memoryview):
        if value.itemsize == 1 and value.format in ("B", "b", "c"):
            return value.tobytes()
        raise TypeError(f"{argument} must be a memoryview of bytes (format 'B', itemsize 1), "
                        f"got format {value.format!r}, itemsize {value.itemsize}")
    raise TypeError(f"{argument} must be {wanted}, not {type(value).__name__}")


def exact_sum_data(data: Any) -> bytes:
    """ExactSum.from_bytes's `data` as bytes; TypeError naming it for anything else."""
    return _serialized_sum(data, "ExactSum.from_bytes: data", f"{_SERIALIZED_SUM} (a form to_bytes made)")


def exact_sum_form(other: Any) -> bytes:
    """ExactSum.merge's `other` when it is not an ExactSum of the same core, as bytes."""
    return _serialized_sum(other, "ExactSum.merge: other",
                           f"an ExactSum or a form its to_bytes made ({_SERIALIZED_SUM})")
