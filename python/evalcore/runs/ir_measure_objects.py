"""ir_measures' measure objects (``ir_measures.nDCG@10``, ``ir_measures.RBP``,
``ir_measures.SetAP(rel=2)``) as evaluate_run's measures (issue 25 item 5, h25-irm3).

An object carries its parameters and, for those not given, ir_measures' defaults, which its
``str()`` leaves out: ``str(RBP(p=0.8))`` is ``"RBP"``, while evalcore's name ``RBP`` needs
its persistence; ``str(P@5)`` is ``"P@5"``, whose relevance level evalcore takes from
evaluate_run's ``relevant_at_least``, while ir_measures' is 1. So an object is read with every
parameter it has stated (``RBP(p=0.8)``, ``P(rel=1)@5``) and parsed as that name, and its
results are named by its ``str()``. Nothing here imports ir_measures: an object is known by
its ``NAME``, ``params``, ``SUPPORTED_PARAMS``, ``AT_PARAM`` and ``[param]`` (the value given,
else the default, else ir_measures' bare ``object()`` for "none").

Three parameters have no per-measure form in evalcore, and are refused with what to do:
``judged_only=True`` (but for the diversity measures, which take it) and nDCG's
``dcg='exp-log2'`` are evaluate_run's ``judged_only=True`` and ``gain="exponential"``, which
hold for all the measures of a call. ``SetAP`` and ``SetP(relative=True)`` are trec_eval's
``set_map`` and ``set_relative_P`` at the measure's ``rel``.
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Optional

from .ir_params import _ir_params
from .measures import KIND, MeasureSpec, parse_measures

# The diversity measures (ir_measures' pyndeval ones) take judged_only themselves.
_TAKES_JUDGED_ONLY = frozenset({"alpha_DCG", "alpha_nDCG", "ERR_IA", "nERR_IA", "AP_IA", "P_IA"})
# ir_measures' set measures evalcore names as trec_eval only: the kind and its trec_eval name
_TREC_SET_MEASURES = {"SetAP": ("SetMAP", "set_map"), "SetRelP": ("SetRelP", "set_relative_P")}


def _set_measure(name: str, said: str, kind: str, params: Dict[str, Any], default: Optional[float]) -> MeasureSpec:
    """SetAP or SetRelP (SetP(relative=True)) as trec_eval's set_map or set_relative_P at the
    level `rel` (`default` when not given; None: evaluate_run's relevant_at_least)."""
    evalcore_kind, trec_name = _TREC_SET_MEASURES[kind]
    level = params.pop("rel", default)
    if params or (level is not None and (isinstance(level, bool) or not isinstance(level, (int, float))
                                         or not 0 < level < math.inf)):
        raise ValueError(f"{said} is trec_eval's {trec_name} at the level rel > 0 (a finite number), and takes no "
                         "other parameter")
    return MeasureSpec(name, KIND[evalcore_kind], rel=None if level is None else float(level))


def ir_set_name_spec(text: str) -> Optional[MeasureSpec]:
    """ir_measures' ``SetAP[(rel=L)]`` and ``SetP(relative=True[,rel=L])`` written as names:
    trec_eval's set_map and set_relative_P, at the level L or, as for evalcore's other names,
    evaluate_run's relevant_at_least; None for any other name."""
    match = re.fullmatch(r"(SetAP|SetP)(?:\((.*)\))?", text)
    if match is None:
        return None
    params = _ir_params(match.group(2), text) if match.group(2) else {}
    kind = match.group(1)
    if kind == "SetP":
        relative = params.pop("relative", None)
        if relative is None:
            return None  # SetP itself: the ir_measures names' parser reads it
        if relative is not True:
            if relative is not False:
                raise ValueError(f"measure {text!r}: SetP's relative is True or False, got {relative!r}")
            plain = "SetP" + (f"(rel={params.pop('rel')!r})" if "rel" in params else "")
            if params:
                raise ValueError(f"measure {text!r}: evalcore has no parameter {', '.join(sorted(params))} for SetP")
            return parse_measures([plain])[0]._replace(name=text)  # ir_measures' SetP
        kind = "SetRelP"
    return _set_measure(text, f"measure {text!r}", kind, params, None)


def is_ir_measure(value: object) -> bool:
    """Whether `value` is an ir_measures measure object (read through its attributes)."""
    return (isinstance(getattr(value, "NAME", None), str) and isinstance(getattr(value, "params", None), dict)
            and isinstance(getattr(value, "SUPPORTED_PARAMS", None), dict))


def _literal(value: Any) -> str:
    if isinstance(value, dict):  # nDCG's gains
        return "{" + ",".join(f"{_literal(k)}:{_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _stated(measure: Any) -> Dict[str, Any]:
    """The measure's parameters, each given or at ir_measures' default (those without one left out)."""
    values = {}
    for param in measure.SUPPORTED_PARAMS:
        value = measure[param]
        if type(value) is not object:  # (ir_measures' "not provided" is a bare object())
            values[param] = value
    return values


def ir_measure_spec(measure: Any) -> MeasureSpec:
    """The MeasureSpec of an ir_measures measure object, named by its ``str()``: its parameters
    and ir_measures' defaults stated, read as evalcore reads that name (docs/ir-measures.md).

    Raises:
        ValueError: a measure evalcore does not have, a parameter it does not take or refuses,
            ``judged_only=True`` or ``dcg='exp-log2'`` (evaluate_run's options: the message
            says which).
    """
    # (Not measure.validate_params(): it refuses what ir_measures' own parse_measure makes and
    # its providers evaluate, e.g. INST(T=2,max_rel=3), T an int; evalcore checks the values.)
    shown = str(measure)
    kind = measure.NAME
    params = _stated(measure)
    at = params.pop(getattr(measure, "AT_PARAM", "cutoff"), None)
    if params.get("judged_only") is True and kind not in _TAKES_JUDGED_ONLY:
        raise ValueError(
            f"ir_measures measure {shown!r}: judged_only=True is evaluate_run's judged_only=True, which ranks judged "
            f"documents only for all the measures of a call: name {str(measure(judged_only=False))!r} and pass "
            "judged_only=True (evalcore.ir_measures' provider does that for you)")
    if params.get("judged_only") is False and kind not in _TAKES_JUDGED_ONLY:
        del params["judged_only"]
    if params.get("dcg") == "exp-log2" and kind == "nDCG":
        raise ValueError(
            f"ir_measures measure {shown!r}: dcg='exp-log2' is evalcore's nDCG with the gains 2**grade - 1, "
            "evaluate_run's gain='exponential', which holds for all the measures of a call (no per-measure form "
            f"covers every grade): name {str(measure(dcg='log2'))!r} and pass gain='exponential' "
            "(evalcore.ir_measures' provider does that for you)")
    if params.get("dcg") == "log2":  # (nDCG's, SDCG's default: evalcore's discount)
        del params["dcg"]
    if kind == "SetP" and params.pop("relative", False) is True:
        kind = "SetRelP"
    if kind in _TREC_SET_MEASURES:
        return _set_measure(shown, f"ir_measures measure {shown!r}", kind, params, 1)
    stated = ",".join(f"{name}={_literal(value)}" for name, value in sorted(params.items()))
    text = kind + (f"({stated})" if stated else "") + ("" if at is None else f"@{at}")
    try:
        specs = parse_measures([text])
    except ValueError as error:
        raise ValueError(f"ir_measures measure {shown!r}, read as {text!r} (its parameters and ir_measures' "
                         f"defaults stated): {error}") from None
    if len(specs) != 1:  # (no ir_measures name reads as several)
        raise ValueError(f"ir_measures measure {shown!r}: read as {text!r}, which names {len(specs)} measures")
    return specs[0]._replace(name=shown)
