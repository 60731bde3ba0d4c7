"""Tags to chunks, pure Python: the twin of cpp/tags/. The reading checks, seqeval's default
(conlleval-style) chunking and its strict mode per scheme, and its auto_detect, written from
their definitions (seqeval/metrics/sequence_labeling.py get_entities, end_of_chunk,
start_of_chunk; seqeval/scheme.py Tokens, the scheme classes, auto_detect).

A corpus is read as seqeval's get_entities reads nested lists: the sentences one after the
other with one "O" after each (and the final "O" it appends), so a chunk's offsets are
positions in that concatenation; ill-formed tags can make a default-mode chunk cross a
sentence boundary there, as in seqeval."""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple

from ...tags.options import MAX_POSITIONS, SCHEMES

Chunk = Tuple[str, int, int]  # type, start, end (exclusive), in positions of the concatenation
PREFIX_LETTERS = "BEILOSU"
ALLOWED: Dict[str, FrozenSet[str]] = {
    "IOB1": frozenset("IOB"), "IOB2": frozenset("IOB"), "IOE1": frozenset("IOE"), "IOE2": frozenset("IOE"),
    "IOBES": frozenset("IOBES"), "BILOU": frozenset("BILOU"),
}
_ANY = frozenset(PREFIX_LETTERS)
# (previous prefixes, current prefixes, tag condition): seqeval's start, inside and end patterns.
Pattern = Tuple[FrozenSet[str], FrozenSet[str], str]


def _p(prev: str, cur: str, cond: str) -> Pattern:
    return (_ANY if prev == "*" else frozenset(prev), _ANY if cur == "*" else frozenset(cur), cond)


PATTERNS: Dict[str, Tuple[List[Pattern], List[Pattern], List[Pattern]]] = {
    "IOB1": ([_p("O", "I", "any"), _p("I", "I", "diff"), _p("B", "I", "any"), _p("I", "B", "same"), _p("B", "B", "same")],
             [_p("B", "I", "same"), _p("I", "I", "same")],
             [_p("I", "I", "diff"), _p("I", "O", "any"), _p("I", "B", "any"), _p("B", "O", "any"), _p("B", "I", "diff"),
              _p("B", "B", "same")]),
    "IOE1": ([_p("O", "I", "any"), _p("I", "I", "diff"), _p("E", "I", "any"), _p("E", "E", "same")],
             [_p("I", "I", "same"), _p("I", "E", "same")],
             [_p("I", "I", "diff"), _p("I", "O", "any"), _p("I", "E", "diff"), _p("E", "I", "same"), _p("E", "E", "same")]),
    "IOB2": ([_p("*", "B", "any")],
             [_p("B", "I", "same"), _p("I", "I", "same")],
             [_p("I", "O", "any"), _p("I", "I", "diff"), _p("I", "B", "any"), _p("B", "O", "any"), _p("B", "I", "diff"),
              _p("B", "B", "any")]),
    "IOE2": ([_p("O", "I", "any"), _p("O", "E", "any"), _p("E", "I", "any"), _p("E", "E", "any"), _p("I", "I", "diff"),
              _p("I", "E", "diff")],
             [_p("I", "E", "same"), _p("I", "I", "same")],
             [_p("E", "*", "any")]),
    "IOBES": ([_p("*", "B", "any"), _p("*", "S", "any")],
              [_p("B", "I", "same"), _p("B", "E", "same"), _p("I", "I", "same"), _p("I", "E", "same")],
              [_p("S", "*", "any"), _p("E", "*", "any")]),
    "BILOU": ([_p("*", "B", "any"), _p("*", "U", "any")],
              [_p("B", "I", "same"), _p("B", "L", "same"), _p("I", "I", "same"), _p("I", "L", "same")],
              [_p("U", "*", "any"), _p("L", "*", "any")]),
}
# auto_detect's prefix sets, scheme by scheme in its order.
_DETECTED = [
    ("IOB2", ["IOB", "IB", "BO", "B"]),
    ("IOE2", ["IOE", "IE", "EO", "E"]),
    ("IOBES", ["IOBES", "IBES", "IOBE", "OBES", "IBE", "BES", "OBE", "BE", "S"]),
    ("BILOU", ["IOBLU", "IBLU", "IOBL", "OBLU", "IBL", "BLU", "OBL", "BL", "U"]),
]


class Sentences:
    """The tags read: `tags` flat, `lengths` per sentence, `where(i, j)` for messages."""

    def __init__(self, name: str, nested: bool) -> None:
        self.name, self.nested = name, nested
        self.tags: List[str] = []
        self.lengths: List[int] = []

    def where(self, i: int, j: int) -> str:
        return f"{self.name}[{i}][{j}]" if self.nested else f"{self.name}[{j}]"

    def locate(self, k: int) -> Tuple[int, int]:
        """Sentence and token of the k-th tag."""
        for i, n in enumerate(self.lengths):
            if k < n:
                return i, k
            k -= n
        raise IndexError(k)


def check_tag(tag: Any, where: str) -> None:
    if not isinstance(tag, str):
        raise TypeError(f"{where} must be a str tag; got {type(tag).__name__}")
    if not tag:
        raise ValueError(f"{where} is an empty string: a tag is 'O' or a prefix and a type, such as 'B-PER'")
    try:
        tag.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{where} holds a lone surrogate: a tag must be valid Unicode (encodable as UTF-8)") from None


def read_sentence(sentences: Sentences, i: int, tags: List[Any], positions: int) -> int:
    """Checks and appends one sentence's tags; returns the positions used so far."""
    if len(tags) + 1 > MAX_POSITIONS - positions:
        raise ValueError(f"{sentences.name}[{i}]: the tags reach {MAX_POSITIONS:,} positions (tags plus one per "
                         f"sentence) at this sentence, the most one call takes; evaluate the corpus in parts")
    for j, tag in enumerate(tags):
        check_tag(tag, sentences.where(i, j))
    sentences.tags.extend(tags)
    sentences.lengths.append(len(tags))
    return positions + len(tags) + 1


def _parse_default(tag: str, suffix: bool) -> Tuple[str, str]:
    if suffix:
        return tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0] or "_"
    return tag[0], tag[1:].split("-", maxsplit=1)[-1] or "_"


def _end_of_chunk(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    if prev_tag in ("E", "S"):
        return True
    if prev_tag in ("B", "I") and tag in ("B", "S", "O"):
        return True
    return prev_tag != "O" and prev_tag != "." and prev_type != type_


def _start_of_chunk(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    if tag in ("B", "S"):
        return True
    if prev_tag in ("E", "S", "O") and tag in ("E", "I"):
        return True
    return tag != "O" and tag != "." and prev_type != type_


def default_chunks(sentences: Sentences, suffix: bool) -> List[Chunk]:
    """seqeval's get_entities over the sentences, each followed by "O", then one more "O"."""
    parsed: Dict[str, Tuple[str, str]] = {}
    chunks: List[Chunk] = []
    prev_tag, prev_type, begin, i, k = "O", "", 0, 0, 0

    def step(tag: str, type_: str) -> None:
        nonlocal prev_tag, prev_type, begin
        if _end_of_chunk(prev_tag, tag, prev_type, type_):
            chunks.append((prev_type, begin, i))  # seqeval's end is i - 1, inclusive
        if _start_of_chunk(prev_tag, tag, prev_type, type_):
            begin = i
        prev_tag, prev_type = tag, type_

    for n in sentences.lengths:
        for text in sentences.tags[k:k + n]:
            if text not in parsed:
                parsed[text] = _parse_default(text, suffix)
            step(*parsed[text])
            i += 1
        k += n
        step("O", "_")
        i += 1
    step("O", "_")
    return chunks


def _prefix(tag: str, suffix: bool) -> str:
    return tag[-1] if suffix else tag[0]


def _strict_tag(tag: str, suffix: bool) -> str:
    return (tag[:-1] if suffix else tag[1:]).strip("-") or "_"


def _matches(patterns: List[Pattern], prev: Tuple[str, str], cur: Tuple[str, str]) -> bool:
    for prev_prefixes, cur_prefixes, cond in patterns:
        if prev[0] in prev_prefixes and cur[0] in cur_prefixes and (
                cond == "any" or (cond == "same") == (prev[1] == cur[1])):
            return True
    return False


def _strict_message(where: str, tag: str, scheme: str, suffix: bool) -> str:
    letters = ", ".join(sorted(ALLOWED[scheme]))
    return (f"{where} = {tag!r}: mode='strict' with scheme {scheme!r} takes tags whose {'last' if suffix else 'first'} "
            f"character is one of {letters}, as seqeval does; pass the scheme the data is tagged in, or use "
            f"mode='default', which reads any tag")


def detect_scheme(sentences: Sentences, suffix: bool) -> str:
    """seqeval's auto_detect over the sentences (y_true for evaluate_tags)."""
    prefixes: Set[str] = set()
    for k, tag in enumerate(sentences.tags):
        letter = _prefix(tag, suffix)
        if letter not in PREFIX_LETTERS:
            i, j = sentences.locate(k)
            raise ValueError(f"{sentences.where(i, j)} = {tag!r}: scheme='auto' reads the "
                             f"{'last' if suffix else 'first'} character of each tag of {sentences.name} as a "
                             f"prefix (one of B, E, I, L, O, S, U) and this one has none; pass mode='default', "
                             f"which reads any tag")
        prefixes.add(letter)
    for scheme, sets in _DETECTED:
        if any(prefixes == set(s) for s in sets):
            return scheme
    found = ", ".join(sorted(prefixes)) or "none"
    raise ValueError(f"scheme='auto' cannot tell the scheme of {sentences.name}: its tags have the prefixes {found}, "
                     f"which fit none of IOB2, IOE2, IOBES and BILOU (seqeval's auto_detect); pass the scheme "
                     f"(IOB1 and IOE1 are never detected)")


def check_strict(sentences: Sentences, scheme: str, suffix: bool) -> None:
    """The first tag whose prefix the scheme does not take (seqeval: KeyError or ValueError)."""
    allowed = ALLOWED[scheme]
    for k, tag in enumerate(sentences.tags):
        if _prefix(tag, suffix) not in allowed:
            i, j = sentences.locate(k)
            raise ValueError(_strict_message(sentences.where(i, j), tag, scheme, suffix))


def strict_chunks(sentences: Sentences, scheme: str, suffix: bool) -> List[Chunk]:
    """seqeval's Tokens.entities for each sentence, at its position in the concatenation."""
    starts, insides, ends = PATTERNS[scheme]
    outside = ("O", "_")
    chunks: List[Chunk] = []
    base = k = 0
    for n in sentences.lengths:
        tokens = [(_prefix(t, suffix), _strict_tag(t, suffix)) for t in sentences.tags[k:k + n]] + [outside]
        i, prev = 0, outside
        while i < len(tokens):
            token = tokens[i]
            if _matches(starts, prev, token):
                end, inner = i + 1, token
                while end < len(tokens) and _matches(insides, inner, tokens[end]):
                    inner = tokens[end]
                    end += 1
                if _matches(ends, tokens[end - 1], tokens[end]):
                    chunks.append((token[1], base + i, base + end))
                i = end
            else:
                i += 1
            prev = tokens[i - 1]
        k += n
        base += n + 1
    return chunks


def chunks_of(sentences: Sentences, scheme_code: int, strict: bool, suffix: bool,
              detect_in: Optional[Sentences] = None) -> Tuple[List[Chunk], Optional[str]]:
    """The chunks (and the scheme strict mode used): `detect_in` is what auto detects on."""
    if not strict:
        return default_chunks(sentences, suffix), None
    scheme = SCHEMES[scheme_code]
    if scheme == "auto":
        scheme = detect_scheme(detect_in or sentences, suffix)
    return strict_chunks(sentences, scheme, suffix), scheme
