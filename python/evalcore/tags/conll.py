"""CoNLL files: :func:`read_conll` (the sentences, tokens and tag columns) and
:func:`evaluate_conll` (seqeval's report with conlleval's counts, streamed through the native
reader in cpp/conll/ without a Python object per token). Twins:
:mod:`evalcore.reference.tags.conll_reader` and :mod:`evalcore.reference.tags.conll_evaluate`;
the format is docs/conll.md's."""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence

from .. import _core
from ..result_types import ConllCorpus, ConllEvaluation
from .conll_options import (MAX_LINE_BYTES, ONE_FILE_COLUMNS, CHUNK_BYTES, check_columns, check_max_line_bytes,
                            conll_tag_options, corpus, evaluation, opened, pair_columns)
from .options import finish_evaluation

assert CHUNK_BYTES == 1 << 20  # cpp/conll/reader.cpp's chunk_bytes: the twin reads as much at a time


def read_conll(
    source: "str | os.PathLike[str] | bytes",
    *,
    columns: Sequence[int] = ONE_FILE_COLUMNS,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> ConllCorpus:
    """The sentences of a CoNLL file: tokens (column 0) and the chosen tag columns.

    Fields are separated by runs of spaces and tabs; a ``"\\r"`` before a line's ``"\\n"``
    is dropped; a line with no field ends a sentence (several in a row end one); a line whose
    first field is ``-DOCSTART-`` ends the sentence and starts a document, and is not a token.
    Every token line has as many fields as the file's first token line. The file is UTF-8.

    Args:
        source: a path (str or os.PathLike; a name ending in ``.gz`` is decompressed), or
            the file's bytes (for a str of text, pass ``text.encode()``).
        columns: the tag columns to return, numbered from 0 (negative numbers from the end).
            The default ``(-2, -1)`` is conlleval's convention: the true tag, then the
            predicted one, in the last two columns of each line.
        max_line_bytes: the longest line taken (bytes before its newline).

    Returns:
        ``{"tokens", "tags", "lines", "documents"}``: ``tags[k]`` is column ``columns[k]``
        as a list of sentences, each a list of str, ready for :func:`evalcore.evaluate_tags`.

    Raises:
        ValueError: the message starts with the file's name and line: a line too long, not
            UTF-8, with another number of columns than the first token line, a column that
            does not exist; a ``.gz`` file that does not decompress.
        OSError: the file cannot be opened.
        TypeError: an argument of the wrong type.
    """
    wanted = check_columns(columns, None)
    limit = check_max_line_bytes(max_line_bytes)
    with opened(source) as (reader, name):
        return corpus(_core.read_conll(reader, name, wanted, limit))


def evaluate_conll(
    gold: "str | os.PathLike[str] | bytes",
    pred: "str | os.PathLike[str] | bytes | None" = None,
    *,
    columns: Optional[Sequence[int]] = None,
    scheme: str = "IOB2",
    mode: str = "default",
    suffix: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> ConllEvaluation:
    """seqeval's report of a CoNLL file with conlleval's counts, read and scored as a stream.

    One file (`pred` None) holds the true and the predicted tags (by default the last two
    columns, conlleval's convention); two files hold the same tokens line for line, the true
    tags in `gold`, the predicted ones in `pred` (by default the last column of each). The
    chunks are evaluate_tags' (seqeval's `mode` and `scheme`): ``report`` and ``accuracy``
    equal :func:`evalcore.evaluate_tags` on the lists :func:`read_conll` gives.

    Args:
        gold: a path (``.gz`` decompressed) or the file's bytes.
        pred: None, or the file of predicted tags.
        columns: two column numbers (from 0; negative from the end): the true tags' and the
            predicted tags' (in `gold`, or with two files in `gold` and in `pred`).
        scheme: strict mode's scheme (not ``"auto"``: it needs every tag before the first chunk).
        mode: ``"default"`` or ``"strict"``, as :func:`evalcore.evaluate_tags`.
        suffix: True when the prefix ends the tag (``"PER-B"``).
        max_line_bytes: the longest line taken (bytes before its newline).

    Returns:
        ``{"tokens", "correctTokens", "sentences", "documents", "phrases", "found",
        "correct", "types", "report", "accuracy"}``, a
        :class:`~evalcore.tags.display.TagsResultDict` (``==`` the plain dict), which Jupyter
        shows as its per-type table with supports (docs/report.md).

    Raises:
        ValueError: as :func:`read_conll`; files whose tokens or sentences differ (naming both
            files and lines); no token; in strict mode a tag the scheme does not take.
        OSError: a file cannot be opened.

    Warns:
        EvaluationWarning: as :func:`evalcore.evaluate_tags`.
    """
    scheme_code, strict = conll_tag_options(scheme, mode, suffix)
    wanted = pair_columns(columns, pred is not None)
    limit = check_max_line_bytes(max_line_bytes)
    with opened(gold, "gold") as (gold_reader, gold_name):
        if pred is None:
            core = _core.evaluate_conll(gold_reader, gold_name, None, "", wanted, limit, scheme_code, strict, suffix)
        else:
            with opened(pred, "pred") as (pred_reader, pred_name):
                core = _core.evaluate_conll(gold_reader, gold_name, pred_reader, pred_name, wanted, limit,
                                            scheme_code, strict, suffix)
    finish_evaluation(core[:5], "report")  # its warnings
    return evaluation(*core)
