"""trec_eval's gain parameters, ``-m NAME.LEVEL=GAIN,...`` (meas_init.c's get_param_pairs and
gain_init.c's setup_gains): for ``G``, ``dcg``, ``ideal_dcg``, ``ndcg``, ``ndcg_rel`` and ``Rndcg``.
Nothing here imports the compiled core."""

from __future__ import annotations

import math
import re
from typing import Callable, List, Tuple

#: The trec_eval measures that take level=gain pairs, and their evalcore kinds.
PAIR_MEASURES = {"G": "trec_G", "dcg": "trec_dcg", "ideal_dcg": "trec_ideal_dcg", "ndcg": "trec_ndcg",
                 "ndcg_rel": "trec_ndcg_rel", "Rndcg": "trec_Rndcg"}
_VALID_LEVEL = re.compile(r"[+-]?[0-9]+")
_LONG_MAX = (1 << 63) - 1


def _strict_number(text: str) -> float:
    return float(text)


def gain_pairs(text: str, name: str, number: Callable[[str], float] = _strict_number) -> Tuple[Tuple[float, float], ...]:
    """The (level, gain) pairs of `text` (``1=3,2=7``) in their order, as trec_eval reads them: a
    ValueError unless every comma-separated part has one '='; a level that is not an integer
    (optional sign, digits) is ignored, as trec_eval ignores it; `number` reads a gain (trec_eval:
    C's atof; evaluate_run: a number). Gains must be finite."""
    last = ","
    for char in text:  # get_param_pairs' check: alternating '=' and ',', ending after a '='
        if char in ",=":
            if char == last:
                last = ","
                break
            last = char
    if last != "=":
        raise ValueError(f"measure {name!r}: malformed pair parameters in {text!r}: give LEVEL=GAIN pairs, e.g. 1=3,2=7")
    pairs: List[Tuple[float, float]] = []
    for part in text.split(","):
        level_text, _, gain_text = part.partition("=")
        try:
            gain = number(gain_text)
        except ValueError:
            raise ValueError(f"measure {name!r}: the gain {gain_text!r} is not a number") from None
        if not math.isfinite(gain):
            raise ValueError(f"measure {name!r}: the gain {gain_text!r} must be a finite number")
        if _VALID_LEVEL.fullmatch(level_text):
            pairs.append((float(max(-_LONG_MAX - 1, min(_LONG_MAX, int(level_text)))), gain))
    return tuple(pairs)
