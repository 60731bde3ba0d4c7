"""The C/W/L family's names (issue 25 item 2): ir_measures' spellings of the measures its
cwl_eval provider computes — ``RBP(p=0.8,rel=1)``, ``INST(T=2,max_rel=3)``,
``INSQ(max_rel=3)``, ``BPM(T=1,max_rel=3)@10``, ``SDCG(max_rel=3)@10``,
``NERR8(max_rel=3)@10``, ``NERR9(...)@k``, ``NERR10(p=0.9,max_rel=3)``,
``NERR11(T=2,max_rel=3)``, and cwl_eval's dynamic BPM, ``BPMD(T=1,hb=1,hc=1,gain_med=0.5,max_rel=3)@10``
(issue 25 item 2, cwl2) — each optionally followed by one of cwl_eval's figures,
``.EU`` (the value, the default), ``.ETU``, ``.EC``, ``.ETC``, ``.ED`` or a residual,
``.ResEU`` ... ``.ResED``. cwl_eval's options that change its numbers are parameters of
every name (cwl2): ``depth=`` (its ``--max_depth``), ``max_gain=`` (its ``--max_gain``: grades
read as its gains, unscaled), ``cost=`` (every ranked item's cost, a cost file's for the run's
element type), ``max_cost=``, ``min_cost=`` (its ``--max_cost``, ``--min_cost``).
docs/measures.md defines them. Nothing here imports the core.
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Optional, Tuple

#: The kinds, in the order of cpp/runs/measures.hpp's MeasureKind (cwl_rbp ... cwl_nerr11).
CWL_KINDS = ("CwlRBP", "CwlINST", "CwlINSQ", "CwlBPM", "CwlSDCG", "CwlNERR8", "CwlNERR9", "CwlNERR10", "CwlNERR11",
             "CwlBPMD")  # (issue 25 item 2, cwl2: the dynamic BPM)
#: cwl_eval's figures, in its print order, then their residuals (its -r columns).
CWL_FIGURES = ("EU", "ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResEC", "ResETC", "ResED")
#: The figure index of the hidden measure counting clipped grades (runs/cwl_clipping.py).
CWL_CLIPPED_FIGURE = 10
#: cwl_eval's depth (its --max_depth default, the one ir_measures' provider uses).
CWL_DEPTH = 1000
#: The deepest depth= taken (each measure walks this many ranks per query, twice for a residual).
CWL_MAX_DEPTH = 1_000_000
#: A C/W/L measure's numbers (cpp/runs/cwl_measures.hpp): figure, min_rel, max_rel, rel (0:
#: graded), depth, raw (1: max_gain=), cost (NaN: unknown), max_cost, min_cost, hb, hc, gain_med.
CWL_PARAMETER_COUNT = 12

# name -> (kind, its own parameter and default (None: none), cutoff taken: required or none)
_BASES: Dict[str, Tuple[str, Optional[Tuple[str, float]], bool]] = {
    "RBP": ("CwlRBP", ("p", 0.8), False), "INST": ("CwlINST", ("T", 1.0), False),
    "INSQ": ("CwlINSQ", ("T", 1.0), False), "BPM": ("CwlBPM", ("T", 1.0), True),
    "SDCG": ("CwlSDCG", None, True), "NERR8": ("CwlNERR8", None, True), "NERR9": ("CwlNERR9", None, True),
    "NERR10": ("CwlNERR10", ("p", 0.9), False), "NERR11": ("CwlNERR11", ("T", 1.0), False),
    "BPMD": ("CwlBPMD", ("T", 1.0), True),
}
# Parameters that make RBP(p=x, ...) cwl_eval's RBP rather than trec_eval's rbp.
_CWL_ONLY = frozenset({"rel", "min_rel", "max_rel", "max_gain", "depth", "cost", "max_cost", "min_cost"})
# cwl_eval's metrics that refuse gains above 1 (their validate_gain_range): INST and NERR.
_GAINS_TO_ONE = frozenset({"INST", "NERR8", "NERR9", "NERR10", "NERR11"})
_NAME = re.compile(r"^(RBP|INST|INSQ|BPMD|BPM|SDCG|NERR8|NERR9|NERR10|NERR11)(?:\((.*)\))?(?:@([0-9]+))?"
                   r"(?:\.(EU|ETU|EC|ETC|ED|ResEU|ResETU|ResEC|ResETC|ResED))?$", re.S)


def _finite(value: Any, what: str, text: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"measure {text!r}: {what} must be a finite number, got {value!r}")
    return float(value)


def _positive(params: Dict[str, Any], key: str, default: float, text: str) -> float:
    value = _finite(params.pop(key, default), key, text)
    if not value > 0:
        raise ValueError(f"measure {text!r}: {key} must be > 0 (cwl_eval: no free lunches), got {value!r}")
    return value


def _options(params: Dict[str, Any], base: str, text: str) -> Tuple[float, float, float, float, float, float, float]:
    """cwl_eval's options that change numbers, and the dynamic BPM's: (depth, cost or NaN,
    max_cost, min_cost, hb, hc, gain_med); popped from `params`."""
    depth = params.pop("depth", CWL_DEPTH)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= CWL_MAX_DEPTH:
        raise ValueError(f"measure {text!r}: depth (cwl_eval's --max_depth, the ranks read) must be an integer from "
                         f"1 to {CWL_MAX_DEPTH:,}, got {depth!r}")
    cost = _positive(params, "cost", 1.0, text) if "cost" in params else math.nan
    max_cost, min_cost = _positive(params, "max_cost", 1.0, text), _positive(params, "min_cost", 1.0, text)
    hb = hc = gain_med = 0.0
    if base == "BPMD":  # cwl_eval's BPMDCWLMetric(T=1, K=10, hb=1.0, hc=1.0, gain_med=0.5)
        hb, hc = _finite(params.pop("hb", 1.0), "hb", text), _finite(params.pop("hc", 1.0), "hc", text)
        gain_med = _finite(params.pop("gain_med", 0.5), "gain_med", text)
    return float(depth), cost, max_cost, min_cost, hb, hc, gain_med


def cwl_measure(text: str) -> Optional[Tuple[str, int, float, Tuple[float, ...]]]:
    """A C/W/L name → (kind, cutoff, parameter, its CWL_PARAMETER_COUNT numbers), or None
    when `text` is not one. ``RBP(p=x)`` alone (no ``rel``, ``min_rel``, ``max_rel`` nor
    figure) is None: trec_eval's rbp, as before. A ValueError says what is wrong."""
    match = _NAME.match(text)
    if match is None:
        return None
    base, params_text, at, figure = match.groups()
    from .measures import _ir_params  # (measures imports this module)

    params = _ir_params(params_text, text) if params_text else {}
    if base == "RBP" and figure is None and not _CWL_ONLY & params.keys():
        return None
    kind, own, takes_cutoff = _BASES[base]
    parameter = 0.0
    if own is not None:
        parameter = _finite(params.pop(own[0], own[1]), own[0], text)
        if own[0] == "p" and not 0 < parameter < 1:
            raise ValueError(f"measure {text!r}: the persistence p must be between 0 and 1 (exclusive), got {parameter!r}")
        if own[0] == "T" and not parameter > 0:
            raise ValueError(f"measure {text!r}: T, the gain the user wants, must be > 0, got {parameter!r}")
    if base == "SDCG" and params.pop("dcg", "log2") != "log2":
        raise ValueError(f"measure {text!r}: SDCG's dcg must be 'log2' (cwl_eval's discount)")
    rel = params.pop("rel", None) if base == "RBP" else None
    min_rel, max_rel = params.pop("min_rel", None), params.pop("max_rel", None)
    max_gain = params.pop("max_gain", None)
    options = _options(params, base, text)
    if params:
        raise ValueError(f"measure {text!r}: {base} (C/W/L) has no parameter {', '.join(sorted(params))}")
    if max_gain is not None:
        if rel is not None or min_rel is not None or max_rel is not None:
            raise ValueError(f"measure {text!r}: give max_gain= (cwl_eval's gains, unscaled) or rel=/min_rel=/max_rel= "
                             f"(ir_measures' scaling), not both")
        max_gain = _finite(max_gain, "max_gain", text)
        if not max_gain > 0:
            raise ValueError(f"measure {text!r}: max_gain must be > 0, got {max_gain!r}")
        if base in _GAINS_TO_ONE and max_gain > 1:
            raise ValueError(f"measure {text!r}: {base}'s gains must be at most 1 (cwl_eval refuses larger ones for "
                             f"it, the residuals' max_gain too), got max_gain={max_gain!r}; use max_rel= to scale")
        low, high = 0.0, max_gain
    elif rel is not None:
        if min_rel is not None or max_rel is not None:
            raise ValueError(f"measure {text!r}: give rel= (binary gains) or min_rel=/max_rel= (graded), not both")
        rel = _finite(rel, "rel", text)
        if not rel > 0:
            raise ValueError(f"measure {text!r}: rel must be > 0, got {rel!r}")
        low, high = 0.0, 1.0
    else:
        if max_rel is None:
            raise ValueError(f"measure {text!r}: {base} needs max_rel, the grade whose gain is 1 (grades are "
                             f"clipped to [min_rel, max_rel] and scaled to [0, 1], as ir_measures' cwl_eval provider "
                             f"does), e.g. {base}(max_rel=3)" + ("@10" if takes_cutoff else "")
                             + "; max_rel=1 reads grades in [0, 1] as cwl_eval's own gains; max_gain=G reads "
                             "them unscaled, as cwl_eval --max_gain G")
        low, high = _finite(0 if min_rel is None else min_rel, "min_rel", text), _finite(max_rel, "max_rel", text)
        if not low < high:
            given = "min_rel" if min_rel is not None else "min_rel (not given: its default, 0)"
            raise ValueError(f"measure {text!r}: {given} must be below max_rel, got {low!r} and {high!r}")
    cutoff = 0
    if at is not None:
        if not takes_cutoff:
            raise ValueError(f"measure {text!r}: {base} (C/W/L) takes no cutoff: it reads {CWL_DEPTH} ranks")
        if not re.fullmatch(r"[1-9][0-9]{0,17}", at):
            raise ValueError(f"measure {text!r}: the cutoff {at!r} must be a positive integer")
        cutoff = int(at)
    elif takes_cutoff:
        raise ValueError(f"measure {text!r}: {base} needs a cutoff, e.g. {base}(max_rel=3)@10")
    index = CWL_FIGURES.index(figure or "EU")
    raw = 0.0 if max_gain is None else 1.0
    depth, *costs = options
    return kind, cutoff, parameter, (float(index), low, high, 0.0 if rel is None else rel, depth, raw, *costs)
