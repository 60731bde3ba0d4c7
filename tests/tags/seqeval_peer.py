"""seqeval itself, called as its users call it, for the agreement tests of tests/tags/."""

from __future__ import annotations

import math
import struct
import warnings
from typing import Any, List, Optional, Tuple

from seqeval import scheme as seqeval_schemes
from seqeval.metrics import accuracy_score, classification_report
from seqeval.metrics.sequence_labeling import get_entities

SCHEME_CLASSES = {"auto": None, "IOB1": seqeval_schemes.IOB1, "IOB2": seqeval_schemes.IOB2,
                  "IOE1": seqeval_schemes.IOE1, "IOE2": seqeval_schemes.IOE2, "IOBES": seqeval_schemes.IOBES,
                  "BILOU": seqeval_schemes.BILOU}


def seqeval_report(y_true: Any, y_pred: Any, scheme: str, mode: str, suffix: bool) -> Tuple[str, Any, Any, bool]:
    """("ok", report, accuracy, warned) or ("error", exception, None, False)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            report = classification_report(y_true, y_pred, output_dict=True, mode=None if mode == "default" else mode,
                                           scheme=SCHEME_CLASSES[scheme], suffix=suffix)
            accuracy = accuracy_score(y_true, y_pred)
        except Exception as error:  # seqeval's KeyError, IndexError, ValueError, TypeError, ZeroDivisionError
            return "error", error, None, False
    warned = any(w.category.__name__ in ("UndefinedMetricWarning", "RuntimeWarning") for w in caught)
    return "ok", report, accuracy, warned


def seqeval_spans(tags: List[Any], suffix: bool = False) -> Optional[List[Tuple[str, int, int]]]:
    """get_entities with the end made exclusive; None where seqeval raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return [(name, start, end + 1) for name, start, end in get_entities(tags, suffix)]
        except Exception:
            return None


def strict_spans(sentences: List[List[str]], scheme: str, suffix: bool = False) -> Optional[List[Tuple[str, int, int]]]:
    """seqeval's strict entities of each sentence, moved to positions of the concatenation
    with one "O" after each sentence; None where seqeval raises."""
    try:
        entities = seqeval_schemes.Entities(sentences, SCHEME_CLASSES[scheme], suffix)
    except Exception:
        return None
    out: List[Tuple[str, int, int]] = []
    base = 0
    for sentence, found in zip(sentences, entities.entities):
        out.extend((e.tag, base + e.start, base + e.end) for e in found)
        base += len(sentence) + 1
    return out


def assert_same_numbers(ours: Any, theirs: Any, path: str = "$") -> None:
    """Same keys in the same order, ints equal, floats equal bit for bit (nan as nan)."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), f"{path}: keys {list(ours)} != {list(theirs)}"
        for key in theirs:
            assert_same_numbers(ours[key], theirs[key], f"{path}.{key}")
        return
    if isinstance(ours, float):
        theirs = float(theirs)
        same = (math.isnan(ours) and math.isnan(theirs)) or struct.pack("<d", ours) == struct.pack("<d", theirs)
        assert same, f"{path}: {ours!r} != {theirs!r}"
        return
    assert type(ours) is int and ours == int(theirs), f"{path}: {ours!r} != {theirs!r}"
