"""What ``evalcore trec`` adds to an error so that it says what to do: the trec_eval spelling
of an ir_measures or ranx name that ``--format trec_eval`` calls an illegal measure
(``nDCG@10`` is ``-m ndcg_cut.10``), and the notice of the measures a nickname brings in
that evalcore does not have yet. Nothing here imports the compiled core."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from . import output_format as te
from ..runs.measures import MEASURE_KINDS, MeasureSpec, parse_measures

# evalcore's kind -> trec_eval's measure without a cutoff, and with one (None: trec_eval has
# no such measure).
_WHOLE: Dict[str, str] = {"AP": "map", "nDCG": "ndcg", "RR": "recip_rank", "Rprec": "Rprec", "Bpref": "bpref",
                          "NumRet": "num_ret", "NumRel": "num_rel", "NumRelRet": "num_rel_ret", "SetP": "set_P",
                          "SetR": "set_recall"}
_CUT: Dict[str, str] = {"P": "P", "R": "recall", "AP": "map_cut", "nDCG": "ndcg_cut", "Success": "success"}


def _trec_eval_measure(spec: MeasureSpec) -> Optional[str]:
    """trec_eval's -m argument computing `spec` with -l's level, or None."""
    kind = MEASURE_KINDS[spec.kind] if spec.kind < len(MEASURE_KINDS) else ""
    if spec.gains:  # trec_eval's ndcg gains are a parameter of ndcg alone, without a cutoff
        return None
    if kind == "IPrec":
        return f"iprec_at_recall.{spec.parameter:g}"
    if kind == "SetF":
        return "set_F" if spec.parameter == 1.0 else f"set_F.{spec.parameter:g}"
    if spec.cutoff:
        base = _CUT.get(kind)
        return None if base is None else f"{base}.{spec.cutoff}"
    return _WHOLE.get(kind)


def trec_eval_equivalent(name: str) -> Optional[str]:
    """The trec_eval command-line spelling of an evalcore measure name: ``"-m ndcg_cut.10"``
    for ``nDCG@10``, ``"-m P.10 -l 2"`` for ``P(rel=2)@10``; None when the name is not
    evalcore's, names several measures, or trec_eval has no such measure (``Judged@10``,
    ``RR@10``, an nDCG with gains) or level (a fractional ``rel``)."""
    try:
        specs = parse_measures([name])
    except (ValueError, TypeError):
        return None
    if len(specs) != 1:
        return None
    measure = _trec_eval_measure(specs[0])
    if measure is None:
        return None
    rel = specs[0].rel
    if rel is None:
        return f"-m {measure}"
    if rel != int(rel) or rel < 1:  # trec_eval's -l is an integer (atol)
        return None
    return f"-m {measure} -l {int(rel)}"


def illegal_measure_hint(arguments: Sequence[str]) -> Optional[str]:
    """For the -m argument trec_eval calls an illegal measure (the first whose name is
    neither a measure nor a nickname of its table), what to give instead: its trec_eval
    spelling, or evalcore's formats when it is a name of evalcore's alone. None when the
    name is not evalcore's either, or trec_eval stops at an earlier argument."""
    for argument in arguments:
        name, dot, text = argument.partition(".")
        if dot and not text:  # trec_eval's "improper measure" comes first
            return None
        if name in te.TABLE or name in te.NICKNAMES:
            continue
        equivalent = trec_eval_equivalent(argument)
        if equivalent is not None:
            return (f"{argument!r} is not trec_eval's spelling; in trec_eval format give {equivalent} (trec_eval's "
                    "measure of that definition), or leave out --format trec_eval for evalcore's table")
        try:
            parse_measures([argument])
        except (ValueError, TypeError):
            return None
        return (f"trec_eval has no measure {argument!r}; leave out --format trec_eval (or give --format table, "
                "json or csv) to compute it")
    return None


def left_out_notice(arguments: Sequence[str], left_out: Sequence[str]) -> Optional[str]:
    """The stderr line of the measures of trec_eval's table the -m nicknames brought in and
    evalcore does not have yet (left out of the output), or None when there are none."""
    if not left_out:
        return None
    nicknames: List[str] = []
    for argument in arguments or ["official"]:
        if argument in te.NICKNAMES and argument not in nicknames:
            nicknames.append(argument)
    given = " ".join(f"-m {n}" for n in nicknames)
    return (f"{given}: left out {len(left_out)} trec_eval measures evalcore does not have yet (trec_eval 10 prints "
            f"them): {', '.join(left_out)}")
