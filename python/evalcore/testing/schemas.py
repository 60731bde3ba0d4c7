"""Hypothesis strategies for :func:`evalcore.evaluate_schemas` (nervaluate's schemas): corpora
of spans (any, or unambiguous: no entity overlapping two of the other side), of BIO tags
(ill-formed ones included), of CoNLL strings as nervaluate's conll loader reads them, and the
overlap test they use (docs/schemas.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from hypothesis import strategies as st

#: The labels the strategies draw from by default.
SCHEMA_LABELS = ("PER", "LOC", "ORG", "MISC")
#: Tags nervaluate's list loader reads, and some it refuses or reads leniently (E-, S-, a
#: bare type, a lone prefix).
BIO_TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG")
ILL_FORMED_TAGS = ("E-PER", "S-LOC", "B-", "I-", "X-PER", "PER", "")

Spans = List[List[Dict[str, Any]]]


def overlaps(pred: Dict[str, Any], true: Dict[str, Any]) -> bool:
    """nervaluate's overlap (min_overlap_percentage=1): the inclusive ranges meet and the
    common part is at least 1 % of the true entity."""
    if pred["start"] > true["end"] or pred["end"] < true["start"]:
        return False
    common = min(pred["end"], true["end"]) - max(pred["start"], true["start"]) + 1
    return bool((common / (true["end"] - true["start"] + 1)) * 100.0 >= 1.0)


def is_unambiguous(true_doc: Sequence[Dict[str, Any]], pred_doc: Sequence[Dict[str, Any]]) -> bool:
    """No predicted entity overlaps two true ones, and no true one two predicted ones."""
    for pred in pred_doc:
        if sum(overlaps(pred, true) for true in true_doc) > 1:
            return False
    for true in true_doc:
        if sum(overlaps(pred, true) for pred in pred_doc) > 1:
            return False
    return True


@st.composite
def _entity(draw: Any, low: int, high: int, labels: Sequence[str]) -> Dict[str, Any]:
    start = draw(st.integers(low, high))
    end = draw(st.integers(start, high))
    return {"label": draw(st.sampled_from(labels)), "start": start, "end": end}


@st.composite
def schema_spans(draw: Any, *, max_documents: int = 5, max_entities: int = 6, max_offset: int = 30,
                 labels: Sequence[str] = SCHEMA_LABELS) -> Tuple[Spans, Spans]:
    """``(true, pred)``: documents of ``{"label", "start", "end"}`` entities (end inclusive),
    overlapping in every way (ambiguous ones included), at least one document."""
    count = draw(st.integers(1, max_documents))
    side = st.lists(_entity(0, max_offset, labels), max_size=max_entities)
    return [draw(side) for _ in range(count)], [draw(side) for _ in range(count)]


@st.composite
def unambiguous_schema_spans(draw: Any, *, max_documents: int = 5, max_regions: int = 5,
                             labels: Sequence[str] = SCHEMA_LABELS) -> Tuple[Spans, Spans]:
    """``(true, pred)`` where no entity overlaps two of the other side: each document is a
    row of disjoint regions holding true entities only, predicted ones only, or one of each
    (overlapping or not; a region is sometimes over 100 long, where a small overlap is under
    nervaluate's 1 %)."""
    true: Spans = []
    pred: Spans = []
    for _ in range(draw(st.integers(1, max_documents))):
        t_doc: List[Dict[str, Any]] = []
        p_doc: List[Dict[str, Any]] = []
        low = 0
        for _ in range(draw(st.integers(0, max_regions))):
            width = draw(st.one_of(st.integers(1, 8), st.integers(100, 250)))
            high = low + width - 1
            kind = draw(st.sampled_from(("true", "pred", "pair", "pair")))
            if kind == "pair":
                t_doc.append(draw(_entity(low, high, labels)))
                p_doc.append(draw(_entity(low, high, labels)))
            else:
                side = t_doc if kind == "true" else p_doc
                side.extend(draw(st.lists(_entity(low, high, labels), min_size=1, max_size=2)))
            low = high + 1 + draw(st.integers(0, 3))
        true.append(draw(st.permutations(t_doc)))
        pred.append(draw(st.permutations(p_doc)))
    return true, pred


@st.composite
def bio_tag_corpus(draw: Any, *, max_documents: int = 5, max_tokens: int = 12,
                   ill_formed: bool = True) -> Tuple[List[List[str]], List[List[str]]]:
    """``(true, pred)``: documents of tags of equal length in both, BIO with I- after O and
    type changes inside a chunk; with `ill_formed`, now and then a tag nervaluate's list
    loader refuses when it starts an entity (E-PER, S-LOC, PER, "")."""
    pool = st.sampled_from(BIO_TAGS)
    if ill_formed:
        pool = st.one_of(pool, pool, pool, pool, pool, pool, pool, pool, st.sampled_from(ILL_FORMED_TAGS))
    true, pred = [], []
    for _ in range(draw(st.integers(1, max_documents))):
        n = draw(st.integers(0, max_tokens))
        true.append(draw(st.lists(pool, min_size=n, max_size=n)))
        pred.append(draw(st.lists(pool, min_size=n, max_size=n)))
    return true, pred


#: Lines of whitespace alone (``str.isspace()``, what ``str.strip()`` strips): nervaluate's
#: conll loader skips them but counts them in its offsets. ASCII ones, C1 and Latin-1 ones, and
#: wider ones (a str of 2 bytes a character).
BLANK_LINES = (" ", "\t", "\r", " \t ", "\x0b", "\x1c", "\x85", "\xa0", "\u3000", "\u2028")
#: Tokens (nervaluate never reads them): a space, a character of 4 bytes, an empty one.
CONLL_TOKENS = ("EU", "Z\u00fcrich", "\U0001f600", "-X-", "", " ")
#: Lines nervaluate's conll loader refuses for want of a tab (a zero-width space is not blank).
NO_TAB_LINES = ("EU B-PER", "\u200b", "EU")
#: What may end a CoNLL string: nervaluate strips trailing whitespace first.
CONLL_ENDINGS = ("", "\n", "\n\n", " \n", "\n\n\n")


def tags_as_conll(documents: Sequence[Sequence[str]]) -> str:
    """The CoNLL string nervaluate's conll loader reads as these documents of tags: a line
    ``w{k}<TAB>{tag}`` a token, documents separated by a blank line."""
    return "\n\n".join("\n".join(f"w{k}\t{tag}" for k, tag in enumerate(doc)) for doc in documents)


@st.composite
def conll_texts(draw: Any, *, ill_formed: bool = False, max_documents: int = 4, max_lines: int = 8,
                tags: Sequence[str] = BIO_TAGS) -> Tuple[str, str]:
    """``(true, pred)``: strings for nervaluate's conll loader with the same lines: token lines
    ``TOKEN<TAB>TAG`` (now and then a third field), blank lines (BLANK_LINES), documents
    separated by ``"\n\n"`` or by a third newline too (the next document then starts with an
    empty line), any of CONLL_ENDINGS. Tokens, blanks and endings differ between the sides.
    With `ill_formed`, also tags the loader refuses where they start an entity
    (ILL_FORMED_TAGS), ``"\r"`` line ends (the tag then reads ``"O\r"``), lines without a tab
    and, now and then, a document with a line more in pred, or one document fewer."""
    # Each fault in some examples only, so that others are read whole.
    ill_tags, crlf, no_tab = (draw(st.booleans()), draw(st.integers(0, 3)) == 0, draw(st.integers(0, 3)) == 0) \
        if ill_formed else (False, False, False)
    pool = st.sampled_from(tags)
    if ill_tags:
        pool = st.one_of(*[pool] * 14, st.sampled_from(ILL_FORMED_TAGS))
    sides: Tuple[List[str], List[str]] = ([], [])
    for _ in range(draw(st.integers(0, max_documents))):
        count = draw(st.integers(1, max_lines))
        kinds = draw(st.lists(st.sampled_from(["token", "token", "token", "blank"]), min_size=count, max_size=count))
        lead = draw(st.integers(0, 5)) == 0  # a third newline: the document starts with an empty line
        ending = "\r" if crlf and draw(st.booleans()) else ""
        for side in sides:
            lines = [""] if lead else []
            for kind in kinds:
                if kind == "blank":
                    lines.append(draw(st.sampled_from(BLANK_LINES)))
                elif no_tab and draw(st.integers(0, 19)) == 0:
                    lines.append(draw(st.sampled_from(NO_TAB_LINES)))
                else:
                    extra = draw(st.sampled_from(["", "", "", "\tNNP"]))
                    lines.append(draw(st.sampled_from(CONLL_TOKENS)) + "\t" + draw(pool) + extra + ending)
            side.append("\n".join(lines))
    true, pred = sides
    if ill_formed and pred and draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            k = draw(st.integers(0, len(pred) - 1))
            pred[k] += "\n" + draw(st.sampled_from(BLANK_LINES))  # a line more
        else:
            pred.pop()  # a document fewer
    return ("\n\n".join(true) + draw(st.sampled_from(CONLL_ENDINGS)),
            "\n\n".join(pred) + draw(st.sampled_from(CONLL_ENDINGS)))
