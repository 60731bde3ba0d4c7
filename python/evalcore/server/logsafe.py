"""Log lines that a client cannot forge: control characters in anything logged are escaped.

A request path arrives percent-decoded, so ``GET /x%0d%0a2026-12-01 ...`` would otherwise
write a line break and a fake access line. Escaping happens once, on the whole rendered
message, so no logging call (now or later) has to remember which of its arguments came from
a client.
"""

from __future__ import annotations

import logging
from typing import Iterable

# The usual short forms, for readability; every other non-printable character gets \\xNN,
# \\uNNNN or \\UNNNNNNNN. The backslash itself is escaped, so that an escape in the log is
# never ambiguous with the same characters sent literally.
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _escape_char(char: str) -> str:
    if char in _SHORT:
        return _SHORT[char]
    if char.isprintable():
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_controls(text: str) -> str:
    """`text` with every non-printable character (C0 and C1 controls, DEL, line and paragraph
    separators, format characters such as bidi overrides, non-ASCII spaces) and the
    backslash written as a Python-style escape; printable text, non-ASCII letters included,
    is unchanged."""
    if text.isprintable() and "\\" not in text:  # the common case, at C speed
        return text
    return "".join(_escape_char(char) for char in text)


def _escape_traceback(text: str) -> str:
    """A traceback keeps its line structure, but each line is escaped and indented: an
    exception's message may carry client text, and no line of it may start like a record."""
    return "\n".join("    " + escape_controls(line) for line in text.split("\n"))


class EscapeControls(logging.Filter):
    """Renders the record's message and escapes it (and any traceback) in place."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = escape_controls(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = _escape_traceback(self._formatter.formatException(record.exc_info))
        return True


def install(names: Iterable[str]) -> None:
    """Adds the filter to each named logger, once (a logger's filters see only its own records)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, EscapeControls) for f in logger.filters):
            logger.addFilter(EscapeControls())
