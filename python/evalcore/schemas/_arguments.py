"""evaluate_schemas' keyword arguments and result layout, shared by the native function and its
twin (pure Python: the reference imports it)."""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence

#: The four SemEval-2013 schemas in the order of every result.
SCHEMAS = ("strict", "exact", "partial", "ent_type")
#: The inputs evaluate_schemas reads.
INPUTS = ("spans", "tags", "conll")
#: What ``matching`` says in every result (docs/schemas.md, "The matching").
MATCHING = "maximum"


def check_schema_options(labels: Optional[Sequence[str]], input: str, threads: Optional[int]) -> Optional[List[str]]:
    """Checks the keyword arguments; returns `labels` as a list (None: every label).

    Raises:
        ValueError: `input` is not "spans", "tags" or "conll", or `threads` is below 1.
        TypeError: `labels` is not a list or tuple of str, or `threads` not an int.
    """
    if input not in INPUTS:
        raise ValueError(f"input must be 'spans', 'tags' or 'conll', got {input!r}")
    if threads is not None and (type(threads) is not int or threads < 1):
        if type(threads) is not int:
            raise TypeError(f"threads must be None or an int of at least 1, got {type(threads).__name__}")
        raise ValueError(f"threads must be None or at least 1, got {threads}")
    if labels is None:
        return None
    if type(labels) not in (list, tuple):
        raise TypeError(f"labels must be None or a list of str (nervaluate's tags=), got {type(labels).__name__}")
    for i, label in enumerate(labels):
        if type(label) is not str:
            raise TypeError(f"labels[{i}] must be a str, got {type(label).__name__}")
    return list(labels)


def as_list(documents: Any) -> Any:
    """An iterator's (a generator's) documents as a list; anything else as it is (a list or a
    tuple is read, any other value is refused naming its type)."""
    if isinstance(documents, Iterator):
        return list(documents)
    return documents
