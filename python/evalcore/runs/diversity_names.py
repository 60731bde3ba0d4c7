"""The names of the diversity measures (evaluate_run's ``qrels_format="subtopics"``):
ir_measures' (``alpha_nDCG(alpha=0.5,judged_only=False)@20``, ``ERR_IA@20``, ``NRBP(beta=0.8)``,
``nNRBP``, ``P_IA@10``, ``AP_IA`` or ``MAP_IA``, ``StRecall@10``, ``α_nDCG@20``) and ndeval's
and pyndeval's (``alpha-nDCG@20``, ``ERR-IA@20``, ``NRBP``, ``MAP-IA``, ``P-IA@10``,
``strec@10``). docs/measures.md defines them."""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Optional

from .measures import KIND, MeasureSpec, _cutoff, _ir_params

#: ndeval's alpha and beta (its defaults, and ir_measures').
DEFAULT_ALPHA = 0.5
DEFAULT_BETA = 0.5

_NAMES = {
    "alpha_DCG": "AlphaDCG", "α_DCG": "AlphaDCG", "alpha-DCG": "AlphaDCG",
    "alpha_nDCG": "AlphaNDCG", "α_nDCG": "AlphaNDCG", "alpha-nDCG": "AlphaNDCG",
    "ERR_IA": "ERRIA", "ERR-IA": "ERRIA", "nERR_IA": "NERRIA", "nERR-IA": "NERRIA",
    "NRBP": "NRBP", "nNRBP": "NNRBP", "P_IA": "PIA", "P-IA": "PIA",
    "AP_IA": "APIA", "MAP_IA": "APIA", "MAP-IA": "APIA", "StRecall": "StRecall", "strec": "StRecall",
}
# The parameters each kind takes (ir_measures' for its measures; ndeval's alpha reaches ERR-IA
# too, through the gains it adds up, so ERR_IA takes alpha= as well).
_PARAMETERS = {
    "AlphaDCG": {"rel", "alpha", "judged_only"}, "AlphaNDCG": {"rel", "alpha", "judged_only"},
    "ERRIA": {"rel", "alpha", "judged_only"}, "NERRIA": {"rel", "alpha", "judged_only"},
    "NRBP": {"rel", "alpha", "beta"}, "NNRBP": {"rel", "alpha", "beta"},
    "PIA": {"rel", "judged_only"}, "APIA": {"rel", "judged_only"}, "StRecall": {"rel"},
}
_NO_CUTOFF = {"NRBP", "NNRBP", "APIA"}
_NAME = re.compile(r"^([A-Za-z_α-]+)(?:\((.*)\))?(?:@([0-9]+))?$", re.S)


def _unit(value: Any, key: str, text: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"measure {text!r}: {key} must be a number from 0 to 1, got {value!r}")
    return float(value)


def diversity_spec(text: str) -> Optional[MeasureSpec]:
    """The MeasureSpec of a diversity measure's name, None for another name; ValueError for
    a diversity name with a parameter it does not take or out of range, or a cutoff missing
    (alpha-DCG, alpha-nDCG, ERR-IA, nERR-IA, P-IA and StRecall need one) or not taken."""
    match = _NAME.match(text)
    if match is None or match.group(1) not in _NAMES:
        return None
    name, at = match.group(1), match.group(3)
    kind = _NAMES[name]
    params: Dict[str, Any] = _ir_params(match.group(2), text) if match.group(2) else {}
    unknown = sorted(set(params) - _PARAMETERS[kind])
    if unknown:
        raise ValueError(f"measure {text!r}: {name} takes no parameter {', '.join(unknown)} "
                         f"(it takes {', '.join(sorted(_PARAMETERS[kind]))})")
    if kind in _NO_CUTOFF and at is not None:
        raise ValueError(f"measure {text!r}: {name} takes no cutoff (it reads the whole ranking)")
    if kind not in _NO_CUTOFF and at is None:
        raise ValueError(f"measure {text!r}: {name} needs a cutoff, e.g. {name}@20")
    rel = params.get("rel")
    if rel is not None and (isinstance(rel, bool) or not isinstance(rel, (int, float)) or not 0 < rel < math.inf):
        raise ValueError(f"measure {text!r}: rel must be a finite number > 0, got {rel!r}")
    judged_only = params.get("judged_only", False)
    if not isinstance(judged_only, bool):
        raise ValueError(f"measure {text!r}: judged_only must be True or False, got {judged_only!r}")
    alpha = _unit(params.get("alpha", DEFAULT_ALPHA), "alpha", text)
    beta = _unit(params.get("beta", DEFAULT_BETA), "beta", text)
    return MeasureSpec(text, KIND[kind], 0 if at is None else _cutoff(at, text), None if rel is None else float(rel),
                       (), 0.0, (alpha, beta, 1.0 if judged_only else 0.0))
