"""Tags to spans: :func:`tags_to_spans`, the chunks of a tagged sentence (or corpus) as
seqeval finds them, by the native core. Twin: :mod:`evalcore.reference.tags.evaluate`."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

from .. import _core
from ..result_types import TagSpan
from .options import check_tag_options, finish_spans


def tags_to_spans(
    tags: Union[Sequence[str], Sequence[Sequence[str]]],
    *,
    scheme: str = "IOB2",
    mode: str = "default",
    suffix: bool = False,
    tokens: Optional[List[str]] = None,
    separators: Union[None, str, List[str]] = None,
) -> List[TagSpan]:
    """The chunks of a tag sequence as spans ``{"label", "start", "end"}`` (end exclusive).

    ``mode="default"`` chunks as seqeval's default does (``get_entities``, conlleval-style
    and lenient: I- after O starts a chunk, a type change ends one, tags without a prefix
    are read as seqeval reads them), whatever the scheme. ``mode="strict"`` is seqeval's
    ``mode="strict", scheme=<scheme>``: only chunks the scheme's patterns make, and a tag
    whose prefix the scheme lacks is refused; ``scheme="auto"`` picks IOB2, IOE2, IOBES or
    BILOU from the set of prefixes, as seqeval's ``auto_detect`` does.

    Args:
        tags: one sentence (a list of str), or a corpus (a list of such lists): its spans
            are then in positions of the sentences laid end to end with one ``"O"`` after
            each, as seqeval's ``get_entities`` numbers a nested list.
        scheme: ``"IOB1"``, ``"IOB2"`` (or ``"BIO"``), ``"IOE1"``, ``"IOE2"``, ``"IOBES"``,
            ``"BILOU"`` or ``"auto"``; used by ``mode="strict"`` only.
        mode: ``"default"`` or ``"strict"``.
        suffix: True when the prefix ends the tag (``"PER-B"``), seqeval's ``suffix=True``.
        tokens: one str per tag (one sentence only): the offsets are then UTF-16 code units
            of the text ``tokens[0] + separators[0] + tokens[1] + ...``, which
            :func:`evalcore.tags.tokens_text` returns for a check.
        separators: the str between two tokens: None (one space), one str for every gap,
            or a list of ``len(tokens) - 1``.

    Returns:
        The spans in order, ``start`` and ``end`` in token positions (or text offsets).

    Raises:
        TypeError: tags (or a sentence, tag, token) of the wrong type; the message names
            the sentence and token, e.g. ``tags[2][5]``.
        ValueError: an empty tag, a bad option, tokens that do not fit the tags, or in
            strict mode a tag the scheme does not take (naming it and what to use instead).
    """
    scheme_code, strict = check_tag_options(scheme, mode, suffix)
    spans, nested = _core.tags_to_spans(tags, scheme_code, strict, suffix)
    return finish_spans(spans, nested, len(tags), tokens, separators)  # type: ignore[return-value]
