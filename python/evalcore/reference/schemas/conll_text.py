"""Reading evaluate_schemas' ``input="conll"``, pure Python: nervaluate 1.2.1's "conll" loader
(``ConllLoader.load``), which reads a str, not a file. The native twin is
cpp/schemas/conll_text.cpp (the scan) and cpp/bindings/schemas_conll.cpp (the checks and
messages); both check in this order: the two arguments are str, each document has as many
lines in pred as in true (documents in order, up to the shorter side's count), the document
counts, then every true document and every predicted one, line by line.

The loader's rules, as its source reads: an empty str has no document; any other is
stripped of trailing whitespace (``str.rstrip()``) and split at ``"\\n\\n"``, so a third
newline starts the next document with an empty line. Each document's lines are its
``split("\\n")``; a line of whitespace alone (``str.strip()``) is skipped, but it counts in
the offsets, which are line indices in the document. Every other line needs a tab; its tag is
the second tab-separated field, read as the "list" loader reads tags (reading.chunk_bio).
An entity still open at the end of its document ends at the document's last line, blank or
not."""

from __future__ import annotations

from functools import partial
from typing import Any, Iterator, List, Tuple

from ...errors import EvaluationError
from .reading import Entity, chunk_bio

_FORM = ("a str of CoNLL lines (input='conll', nervaluate's conll loader: a token, a tab and its BIO tag on each "
         "line, documents separated by a blank line)")
#: What a refused tag ending in "\r" adds: nervaluate splits lines at "\n" alone.
_CRLF = "; its line ends in '\\r\\n': give the string '\\n' line ends (text.replace('\\r\\n', '\\n'))"
#: The code points a line or a tag is shown by in a message, at most.
SHOWN = 60


def shown(text: str) -> str:
    """`text` in a message: its repr, cut after SHOWN code points."""
    return repr(text[:SHOWN]) + ("..." if len(text) > SHOWN else "")


def conll_documents(text: Any, name: str) -> List[str]:
    """nervaluate's documents of `text` (see the module's text)."""
    if type(text) is not str:
        raise EvaluationError("SCHEMA_VIOLATION", f"/{name}", f"{name} must be {_FORM}; got {type(text).__name__}")
    if not text:
        return []
    return text.rstrip().split("\n\n")


def check_conll_corpus(true: Any, pred: Any) -> Tuple[List[str], List[str]]:
    """The documents of both sides, which must hold the same lines: offsets are line indices,
    so a document with another line count in pred would compare other tokens."""
    true_docs, pred_docs = conll_documents(true, "true"), conll_documents(pred, "pred")
    first_line = 1
    for i, (t, p) in enumerate(zip(true_docs, pred_docs)):
        t_lines, p_lines = t.count("\n") + 1, p.count("\n") + 1
        if t_lines != p_lines:
            raise EvaluationError("SCHEMA_VIOLATION", f"/pred/{i}", f"document {i} (from line {first_line} of both) "
                                  f"has {t_lines} lines in true and {p_lines} in pred: give both the same lines, a "
                                  "token each, and separate documents by one blank line (a third newline, or a line of "
                                  "spaces, is a line of the document: it counts in nervaluate's offsets)")
        first_line += t_lines + 1
    if len(true_docs) != len(pred_docs):
        short = "pred" if len(pred_docs) < len(true_docs) else "true"
        raise EvaluationError("SCHEMA_VIOLATION", f"/{short}", f"true has {len(true_docs)} documents and pred has "
                              f"{len(pred_docs)} (documents are separated by a blank line): give one document of "
                              f"predictions for each true one ({short} has none for document "
                              f"{min(len(true_docs), len(pred_docs))}, which starts at line {first_line} of "
                              f"{'true' if short == 'pred' else 'pred'})")
    return true_docs, pred_docs


def _where(name: str, line: int, i: int, offset: int) -> str:
    return f"{name} line {line} (document {i}, offset {offset})"


def _tagged(lines: List[str], name: str, i: int, first_line: int) -> Iterator[Tuple[int, str]]:
    """(offset, tag) of each line that is not blank: its second tab-separated field."""
    for offset, line in enumerate(lines):
        if not line.strip():
            continue
        fields = line.split("\t", 2)
        if len(fields) < 2:
            raise EvaluationError("SCHEMA_VIOLATION", f"/{name}/{i}/{offset}",
                                  f"{_where(name, first_line + offset, i, offset)} has no tab: {shown(line)}; a line "
                                  "is a token, a tab and its BIO tag (nervaluate's conll loader reads the second "
                                  "tab-separated field): separate the token and its tag by a tab")
        yield offset, fields[1]


def _bad_tag(name: str, i: int, first_line: int, offset: int, tag: str) -> EvaluationError:
    return EvaluationError("SCHEMA_VIOLATION", f"/{name}/{i}/{offset}",
                           f"{_where(name, first_line + offset, i, offset)} has the tag {shown(tag)}, which starts "
                           "an entity: it must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as nervaluate's "
                           "conll loader reads them); convert IOB1, IOE, IOBES or BILOU tags to BIO first"
                           + (_CRLF if tag.endswith("\r") else ""))


def read_conll_documents(docs: List[str], name: str) -> List[List[Entity]]:
    """Each document's entities, as nervaluate's conll loader chunks them (reading.chunk_bio)."""
    out: List[List[Entity]] = []
    first_line = 1
    for i, doc in enumerate(docs):
        lines = doc.split("\n")
        refuse = partial(_bad_tag, name, i, first_line)
        out.append(chunk_bio(_tagged(lines, name, i, first_line), len(lines) - 1, refuse))
        first_line += len(lines) + 1
    return out
