"""Hypothesis strategies for tagged sentences (issue 24): well-formed tag sequences of every
scheme, ill-formed ones (I- after O, type changes inside a chunk, lone E-/S-, tags without
a prefix, odd dashes, non-ASCII first characters), and corpora of (y_true, y_pred) pairs
with sentences of equal lengths. For testing code that reads tags as seqeval does, as
evalcore's own tests of :func:`evalcore.evaluate_tags` and :func:`evalcore.tags_to_spans` do."""

from __future__ import annotations

from typing import Any, Callable, List, Sequence, Tuple

from hypothesis import strategies as st

#: The prefixes each scheme writes: (single-token chunk, first, inside, last).
SCHEME_PREFIXES = {
    "IOB1": ("I", "I", "I", "I"), "IOB2": ("B", "B", "I", "I"), "IOE1": ("I", "I", "I", "I"),
    "IOE2": ("E", "I", "I", "E"), "IOBES": ("S", "B", "I", "E"), "BILOU": ("U", "B", "I", "L"),
}
TYPES = ("PER", "LOC", "ORG", "MISC")


def _encode(scheme: str, chunks: Sequence[Tuple[str, int]], suffix: bool) -> List[str]:
    """Tags of a sentence: (type, length) chunks, a length of 0 being one "O"."""
    single, first, inside, last = SCHEME_PREFIXES[scheme]
    out: List[str] = []
    for name, length in chunks:
        if length == 0:
            out.append("O")
            continue
        for k in range(length):
            prefix = single if length == 1 else first if k == 0 else last if k == length - 1 else inside
            out.append(f"{name}-{prefix}" if suffix else f"{prefix}-{name}")
    return out


@st.composite
def well_formed_tags(draw: Callable[..., Any], scheme: str = "IOB2", types: int = 4, max_tokens: int = 10,
                     suffix: bool = False) -> List[str]:
    """One sentence tagged in `scheme` (IOB1 and IOE1 as their IOB2/IOE2 forms without B-/E-
    where a chunk does not follow one of its type; close enough for tests of any reader)."""
    chunks = draw(st.lists(st.tuples(st.sampled_from(TYPES[:types]), st.integers(0, 3)), max_size=max_tokens // 2))
    return _encode(scheme, chunks, suffix)[:max_tokens]


def any_tag(types: int = 4, suffix: bool = False) -> Any:
    """A tag seqeval may meet: well-formed ones of every scheme, and the ill-formed kinds."""
    names = st.sampled_from(TYPES[:types] + ("", "A-B"))
    prefixes = st.sampled_from(list("BIOESLU.") + ["X", "É"])
    dashes = st.sampled_from(["-", "-", "", "--"])
    formed = st.builds(lambda p, d, n: (n + d + p if suffix else p + d + n) if n or p == "O" else p, prefixes, dashes, names)
    return st.one_of(st.just("O"), formed, st.sampled_from(["PER", "O-PER", ".", "B", "I", "E", "S"]))


@st.composite
def tag_corpora(draw: Callable[..., Any], types: int = 4, ill_formed: bool = True, max_sentences: int = 5,
                max_tokens: int = 8, suffix: bool = False, scheme: str = "IOB2") -> Tuple[List[List[str]], List[List[str]]]:
    """(y_true, y_pred): sentences of equal lengths (empty ones included). Ill-formed: any
    tag anywhere; else both sides well-formed in `scheme`, the prediction a perturbed copy."""
    count = draw(st.integers(0, max_sentences))
    y_true: List[List[str]] = []
    y_pred: List[List[str]] = []
    for _ in range(count):
        if ill_formed and draw(st.booleans()):
            tags = draw(st.lists(any_tag(types, suffix), max_size=max_tokens))
            pred = [draw(st.one_of(st.just(t), any_tag(types, suffix))) for t in tags]
        else:
            tags = draw(well_formed_tags(scheme, types, max_tokens, suffix))
            other = draw(well_formed_tags(scheme, types, max_tokens, suffix))
            pred = [draw(st.sampled_from([t, other[k] if k < len(other) else "O"])) for k, t in enumerate(tags)]
        y_true.append(tags)
        y_pred.append(pred)
    return y_true, y_pred
