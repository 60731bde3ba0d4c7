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
