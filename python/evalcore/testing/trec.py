"""TREC qrels and run text from :func:`evalcore.testing.runs` values, and strategies that
damage it the ways real files are damaged: malformed lines, repeats, comments, blank
lines, extra fields, CRLF. For testing TREC readers against evalcore's."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from hypothesis import strategies as st

from ._text import SURROGATES

__all__ = ["trec_lines", "trec_text"]

Draw = Callable[..., Any]

_BAD_LINES = st.sampled_from([
    "q1 0 d1", "q1 0 d1 1 extra", "q1 Q0 d1 1", "q1 Q0 d1 1 x tag", "q1 Q0 d1 1 nan tag", "q1 Q0 d1 1 1e999 tag",
    "q1 0 d1 +-1", "q1 0 d1 0x10", "   ", "", "\t\r", "q1 Q0 d1 1 2.0 tag extra", "q1 0 d1 1_0",
    "q1 Q0 d1 1 inf tag", "q1 Q0 d1 1 2abc tag", "q1 0 d1 5e-1 x", "q1#x Q0 d1 1 2 tag",
])

# Lines both formats skip: blank ones and comments (the first non-blank byte is '#'), which
# may look like data lines, be indented, or be long (past a small max_line_bytes).
_BLANK_SPACE = st.text(alphabet=" \t\r\x0b\x0c", max_size=3)
_SKIPPED_LINES = st.one_of(
    _BLANK_SPACE,
    st.tuples(_BLANK_SPACE, st.sampled_from(["#", "# ", "##", "#\t"]),
              st.one_of(st.text(st.characters(blacklist_characters="\n", blacklist_categories=SURROGATES), max_size=30),
                        st.sampled_from(["q1 Q0 d1 1 2.0 tag", "q1 0 d1 1", "q9 Q0 x 1 1 t", "x" * 50]))).map("".join),
)
# What may follow a line's last field: nothing, spaces, or more fields (a run line ignores
# those after its 6th; a qrels line with a 5th is malformed).
_EXTRA_FIELDS = st.one_of(
    _BLANK_SPACE,
    st.sampled_from([" extra", "\tx y z", " # not a comment", " 1 2 3 4 5 6 7", " é😀"]),
)


# Field separators as files have them: any run of C spaces (trec_eval's own output is
# tab-separated), and long runs that push a line past 64 bytes; control bytes other than
# spaces, which belong to the field they are in.
_SEPARATOR = st.one_of(st.text(alphabet=" \t\r\x0b\x0c", min_size=1, max_size=3), st.just(" " * 70))
_CONTROL = st.sampled_from(["\x00", "\x01", "\x08", "\x0e", "\x1f", "\x7f", "\x85", "\xa0"])


def trec_lines(value: Dict[str, Any], kind: str) -> str:
    """The ``"qrels"`` or ``"run"`` of a :func:`~evalcore.testing.runs` value as TREC file
    text: ``query 0 doc grade`` or ``query Q0 doc rank score tag`` lines (ranked lists get
    descending scores), in the dicts' order."""
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run'; got {kind!r}")
    out = []
    for q, entries in value[kind].items():
        items: List[Tuple[str, float]] = (list(entries.items()) if isinstance(entries, dict)
                                          else [(d, float(-i)) for i, d in enumerate(entries)])
        for rank, (doc, number) in enumerate(items, start=1):
            out.append(f"{q} 0 {doc} {number!r}" if kind == "qrels" else f"{q} Q0 {doc} {rank} {number!r} tag")
    return "\n".join(out) + ("\n" if out else "")


@st.composite
def trec_text(draw: Draw, base: str) -> str:
    """TREC text with lines repeated, moved or replaced by malformed ones, blank lines and
    comments put anywhere (inside a query's lines too), extra fields after a line's last,
    fields separated by runs of spaces and tabs, control bytes inside fields, and CRLF
    line ends."""
    lines = base.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.sampled_from(["repeat", "bad", "move", "skipped", "skipped", "extra", "spacing", "control"]))
        at = draw(st.integers(0, len(lines)))
        if action == "bad":
            lines.insert(at, draw(_BAD_LINES))
        elif action == "skipped":
            lines.insert(at, draw(_SKIPPED_LINES))
        elif lines and action == "extra":
            at = min(at, len(lines) - 1)
            lines[at] += draw(_EXTRA_FIELDS)
        elif lines and action == "spacing":
            at = min(at, len(lines) - 1)
            fields = lines[at].split(" ")
            inner = draw(st.lists(_SEPARATOR, min_size=len(fields) - 1, max_size=len(fields) - 1))
            lines[at] = (draw(_BLANK_SPACE) + fields[0] + "".join(s + f for s, f in zip(inner, fields[1:]))
                         + draw(_BLANK_SPACE))
        elif lines and action == "control":
            at = min(at, len(lines) - 1)
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + draw(_CONTROL) + lines[at][cut:]
        elif lines and action == "repeat":
            lines.insert(at, draw(st.sampled_from(lines)))
        elif lines:
            lines.insert(at, lines.pop(draw(st.integers(0, len(lines) - 1))))
    return ("\r\n" if draw(st.integers(0, 4)) == 0 else "\n").join(lines)
