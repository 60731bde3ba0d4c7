"""Hypothesis strategies for CoNLL files (:func:`evalcore.read_conll`,
:func:`evalcore.evaluate_conll`): valid files, and hostile ones.

:func:`conll_files` draws a file's bytes: token lines of ``WORD TRUE PRED`` (spaces, tabs or
runs of them between fields), blank lines (several in a row, trailing ones), ``-DOCSTART-``
lines, CRLF line ends and a last line with or without its newline; with ``hostile=True`` also
lines with another number of fields, bytes that are not UTF-8 (a lone ``\\xff``, a surrogate's
encoding, a truncated sequence) and long lines (pair it with a small ``max_line_bytes``)."""

from __future__ import annotations

from typing import Any, Callable, List

from hypothesis import strategies as st

#: Tags of every kind evaluate_tags reads differently: BIO, IOBES, no prefix, no type.
CONLL_TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER", "B-MISC", "I-MISC", "X", ".", "PER")
#: The tags on which conlleval.pl and seqeval's default mode read the same chunks.
BIO_TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MISC", "I-MISC")
_HOSTILE_BYTES = (b"\xff", b"\xed\xa0\x80", b"\xe2\x82", b"\xc0\xaf", b"\xf4\x90\x80\x80")


@st.composite
def conll_files(draw: Callable[..., Any], hostile: bool = False, tags: Any = CONLL_TAGS, columns: int = 3,
                max_lines: int = 30, docstart: bool = True) -> bytes:
    """A CoNLL file's bytes: `columns` fields a token line (the word, then tags drawn from
    `tags`); see the module's text for the rest."""
    separator = st.sampled_from([b" ", b"\t", b"  ", b" \t"])
    words = st.sampled_from([b"EU", b"rejects", b"German", b"Z\xc3\xbcrich", b"-X-", b"\xf0\x9f\x98\x80", b"."])
    kinds = ["token"] * 6 + ["blank"] * 2 + (["docstart"] if docstart else [])
    if hostile:
        kinds += ["fields", "bytes", "long"]
    lines: List[bytes] = []
    for _ in range(draw(st.integers(0, max_lines))):
        kind = draw(st.sampled_from(kinds))
        if kind == "blank":
            line = draw(st.sampled_from([b"", b" ", b"\t"]))
        elif kind == "docstart":
            line = b"-DOCSTART-" + draw(separator) + b"O" + draw(separator) + b"O"
        else:
            count = columns if kind != "fields" else draw(st.integers(1, columns + 2))
            fields = [draw(words)] + [draw(st.sampled_from(tags)).encode() for _ in range(count - 1)]
            if kind == "bytes":
                fields[draw(st.integers(0, count - 1))] += draw(st.sampled_from(_HOSTILE_BYTES))
            if kind == "long":
                fields[0] = fields[0] * draw(st.integers(10, 40))
            line = b""
            for k, field in enumerate(fields):
                line += (draw(separator) if k else draw(st.sampled_from([b"", b" "]))) + field
            line += draw(st.sampled_from([b"", b"", b" ", b"\t"]))
        lines.append(line)
    ending: bytes = draw(st.sampled_from([b"\n", b"\r\n"]))
    text = ending.join(lines)
    last: bytes = draw(st.sampled_from([ending, b"", ending * 2]))
    return text + last if lines else text
