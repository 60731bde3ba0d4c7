"""read_conll, pure Python: the twin of cpp/conll/reader.cpp (and of
:func:`evalcore.read_conll`). Lines are read from 1 MiB chunks exactly as the native reader
reads them, so that a fault of the source (a gzip error) and a fault of a line surface in the
same order; every message is the native one."""

from __future__ import annotations

import re
from typing import IO, Iterator, List, Optional, Sequence, Tuple

from ...result_types import ConllCorpus
from ...tags.conll_options import (CHUNK_BYTES, MAX_LINE_BYTES, ONE_FILE_COLUMNS, check_columns, check_max_line_bytes,
                                   corpus, opened)

_FIELD_SEPARATORS = re.compile(rb"[ \t]+")


def commas(n: int) -> str:
    return f"{n:,}"


def lines_of(reader: IO[bytes], name: str, max_line_bytes: int) -> Iterator[Tuple[int, bytes]]:
    """(line number, line without its newline), as cpp/conll/reader.cpp's LineReader."""
    buffer, number, eof = b"", 0, False

    def too_long() -> ValueError:
        return ValueError(f"{name}:{number + 1}: the line is longer than {commas(max_line_bytes)} bytes "
                          f"(max_line_bytes): is this a CoNLL file? Raise max_line_bytes if its lines are that long")

    while True:
        newline = buffer.find(b"\n")
        if newline >= 0:
            if newline > max_line_bytes:
                raise too_long()
            line, buffer = buffer[:newline], buffer[newline + 1:]
            number += 1
            yield number, line
            continue
        if len(buffer) > max_line_bytes:
            raise too_long()
        if eof:
            if buffer:
                number += 1
                yield number, buffer
            return
        chunk = reader.read(CHUNK_BYTES)
        if not chunk:
            eof = True
        buffer += chunk


class Sentence:
    """One sentence: its first line, tokens and per token the chosen columns (bytes)."""

    def __init__(self, first_line: int) -> None:
        self.first_line = first_line
        self.tokens: List[bytes] = []
        self.tags: List[List[bytes]] = []  # per token, one field per chosen column


class Sentences:
    """The sentences of a CoNLL file, as cpp/conll/reader.cpp's SentenceReader gives them."""

    def __init__(self, reader: IO[bytes], name: str, columns: Sequence[int], max_line_bytes: int) -> None:
        self.name = name
        self._lines = lines_of(reader, name, max_line_bytes)
        self._requested = list(columns)
        self._columns: List[int] = []
        self._field_count = 0
        self._first_token_line = 0
        self.documents = 0
        self.document_starts: List[int] = []
        self._sentences = 0

    def _resolve(self, line: int) -> None:
        n = self._field_count
        for c in self._requested:
            index = n + c if c < 0 else c
            if not 0 <= index < n:
                raise ValueError(f"{self.name}:{line}: there is no column {c}: the line has {n} columns (numbered "
                                 f"from 0; -1 is the last); choose the tag columns with columns=")
            self._columns.append(index)

    def next(self) -> Optional[Sentence]:
        sentence: Optional[Sentence] = None
        for number, line in self._lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"{self.name}:{number}: byte {exc.start + 1} of the line is not valid UTF-8: "
                                 f"CoNLL files are read as UTF-8") from None
            fields = [f for f in _FIELD_SEPARATORS.split(line) if f]
            docstart = bool(fields) and fields[0] == b"-DOCSTART-"
            if not fields or docstart:
                if sentence is not None:
                    self._sentences += 1
                if docstart:
                    self.documents += 1
                    self.document_starts.append(self._sentences)
                if sentence is not None:
                    return sentence
                continue
            if self._field_count == 0:
                self._field_count, self._first_token_line = len(fields), number
                self._resolve(number)
            elif len(fields) != self._field_count:
                raise ValueError(f"{self.name}:{number}: {len(fields)} columns where the first token line (line "
                                 f"{self._first_token_line}) has {self._field_count}: every token line has the same "
                                 f"columns")
            if sentence is None:
                sentence = Sentence(number)
            sentence.tokens.append(fields[0])
            sentence.tags.append([fields[c] for c in self._columns])
        if sentence is not None:
            self._sentences += 1
        return sentence


def read_conll(source: object, *, columns: Sequence[int] = ONE_FILE_COLUMNS,
               max_line_bytes: int = MAX_LINE_BYTES) -> ConllCorpus:
    """The reference twin of :func:`evalcore.read_conll`."""
    wanted = check_columns(columns, None)
    limit = check_max_line_bytes(max_line_bytes)
    with opened(source) as (reader, name):
        sentences = Sentences(reader, name, wanted, limit)
        tokens: List[List[str]] = []
        tags: List[List[List[str]]] = [[] for _ in wanted]
        lines: List[int] = []
        while True:
            sentence = sentences.next()
            if sentence is None:
                break
            tokens.append([t.decode("utf-8") for t in sentence.tokens])
            for k in range(len(wanted)):
                tags[k].append([fields[k].decode("utf-8") for fields in sentence.tags])
            lines.append(sentence.first_line)
        return corpus((tokens, tags, lines, sentences.document_starts))
