"""Progress of long calls: the ``progress=`` callback of evaluate_run and
span_evaluate_corpus, and the bar the CLI draws on a terminal.

A callback is called as ``progress(done, total)`` on the calling thread, about ten times a
second while the call runs and once when it is done (then ``done == total``): bytes of
TREC files read for evaluate_run (a run file not grouped by query is read twice, and
counted so), documents scored for span_evaluate_corpus. If it raises, the call stops
and raises that exception. Without a callback nothing is counted (no cost). How often it
is called, and with which values in between, is not part of the contract: the reference
calls it once per file or document."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Optional, TextIO, cast

#: ``progress(done, total)``; what it returns is ignored.
ProgressCallback = Callable[[int, int], Any]


def check_progress(progress: Any) -> Optional[ProgressCallback]:
    """`progress` if it is None or callable; else a TypeError."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable progress(done, total) or None, got {type(progress).__name__}")
    return cast(Optional[ProgressCallback], progress)


def file_bytes(*sources: Any) -> int:
    """The sizes of the sources that are file paths (str or bytes), added up; a path that
    cannot be stat'ed counts 0 (reading it reports the fault)."""
    total = 0
    for source in sources:
        if isinstance(source, (str, bytes)):
            try:
                total += os.stat(source).st_size
            except (OSError, ValueError):
                pass
    return total


class ProgressBar:
    """A one-line bar on a terminal stream, drawn only once the work has taken longer than
    `after` seconds (short work shows nothing) and at most every 0.1 s; `close()` clears it."""

    def __init__(self, label: str, unit: str = "bytes", stream: Optional[TextIO] = None, after: float = 1.0) -> None:
        self.label: str = label
        self.unit: str = unit
        self.stream: TextIO = sys.stderr if stream is None else stream
        self.start: float = time.monotonic()
        self.after: float = after
        self.drawn: float = 0.0
        self.width: int = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.after or now - self.drawn < 0.1:
            return
        self.drawn = now
        amount = _amount(done, self.unit) + (f" / {_amount(total, self.unit)}" if total else "")
        share = min(done / total, 1.0) if total else 0.0
        bar = "#" * int(share * 30)
        line = f"{self.label}: [{bar:<30}] {share:6.1%}  {amount}" if total else f"{self.label}: {amount}"
        self.width = max(self.width, len(line))
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _amount(count: int, unit: str) -> str:
    if unit != "bytes":
        return f"{count:,} {unit}"
    for size, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if count >= size:
            return f"{count / size:.1f} {name}"
    return f"{count} B"


def terminal_bar(label: str, unit: str, quiet: bool, stream: Optional[TextIO] = None) -> Optional[ProgressBar]:
    """A bar for the CLI: None when `quiet` or when the stream is not a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet or not getattr(stream, "isatty", lambda: False)():
        return None
    return ProgressBar(label, unit, stream)
