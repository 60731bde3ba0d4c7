"""evaluate_run with trec_eval's ``qrels_jg`` judgments (``qrels_format="qrels_jg"``): the
judgments of several assessors (judgment groups) per query, ``query group document grade``
lines, and the measures that average over the groups: ``map_avgjg``, ``P_avgjg`` and
``Rprec_mult_avgjg`` (trec_eval's names; the nickname ``qrels_jg`` names all three).
Twin: :mod:`evalcore.reference.runs.judgment_groups`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, List, Optional, Sequence

from .measures import DIVERSITY_KINDS, JUDGMENT_GROUP_KINDS, PREFERENCE_KINDS, MeasureSpec
from .result import RunEvaluation, RunOptions, normalize_source, options_dict
from .sources import readable
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

#: The formats evaluate_run's ``qrels_format`` takes.
QRELS_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs", "subtopics")  # subtopics: issue 25 item 1
_PREFERENCES = ("prefs", "qrels_prefs")  # trec_eval's preference formats (runs/preferences.py)


def _reader(kind: int) -> str:
    """The judgments a measure kind reads: its qrels_format family."""
    if kind in JUDGMENT_GROUP_KINDS:
        return "qrels_jg"
    if kind in DIVERSITY_KINDS:
        return "subtopics"
    return "prefs" if kind in PREFERENCE_KINDS else "qrels"


def check_qrels_format(qrels_format: Any, specs: Sequence[MeasureSpec]) -> None:
    """ValueError unless `qrels_format` is one evalcore reads and every measure reads it: the
    judgment-group measures need ``qrels_jg`` judgments, the preference measures ``prefs`` or
    ``qrels_prefs`` ones, which the other measures cannot read."""
    if qrels_format not in QRELS_FORMATS:
        raise ValueError(f"qrels_format must be one of {', '.join(repr(f) for f in QRELS_FORMATS)}, got {qrels_format!r}")
    family = "prefs" if qrels_format in _PREFERENCES else qrels_format
    for spec in specs:
        needed = _reader(spec.kind)
        if needed == family:
            continue
        if needed == "subtopics":
            raise ValueError(f"measure {spec.name!r} is a diversity measure: it needs judgments per subtopic; pass "
                             "qrels_format='subtopics' (query subtopic document grade lines, or a subtopic column)")
        if family == "subtopics":
            raise ValueError(f"measure {spec.name!r} does not read subtopic judgments; with qrels_format='subtopics' "
                             "ask for the diversity measures (alpha_nDCG@k, ERR_IA@k, NRBP, nNRBP, P_IA@k, AP_IA, "
                             "StRecall@k, ...)")
        if needed == "qrels_jg":
            raise ValueError(f"measure {spec.name!r} averages over judgment groups: it needs qrels_jg judgments "
                             "(query group document grade lines); pass qrels_format='qrels_jg'")
        if needed == "prefs":
            raise ValueError(f"measure {spec.name!r} reads preference judgments: pass qrels_format='prefs' (query "
                             "group subgroup document rel_level lines) or 'qrels_prefs' (a qrels file read as them)")
        if family == "qrels_jg":
            raise ValueError(f"measure {spec.name!r} does not read qrels_jg judgments; with qrels_format='qrels_jg' "
                             "ask for map_avgjg, P_avgjg[.k,...] or Rprec_mult_avgjg[.x,...] (nickname qrels_jg)")
        raise ValueError(f"measure {spec.name!r} does not read preference judgments; with qrels_format="
                         f"{qrels_format!r} ask for the prefs_* measures (nicknames all_prefs, prefs)")


def judgment_group_paths(qrels: Any, run: Any) -> List[Any]:
    """The qrels and run of a qrels_jg evaluation: TREC file paths (str, bytes or os.PathLike;
    ``*.gz`` decompressed first), TypeError for anything else."""
    sources = []
    for value, role, shape in ((qrels, "qrels", "query group document grade"),
                               (run, "run", "query Q0 document rank score tag")):
        source = normalize_source(value, role) if isinstance(value, (str, bytes, os.PathLike)) else None
        if not isinstance(source, (str, bytes)):
            raise TypeError(f"with qrels_format='qrels_jg', {role} must be the path of a TREC file ({shape} lines), "
                            f"got {type(value).__name__}: write it to a file first")
        sources.append(source)
    return sources


def evaluate_judgment_groups(qrels: Any, run: Any, specs: Sequence[MeasureSpec], options: RunOptions, gain: str,
                             ties: str, missing: str, max_line_bytes: int, run_name: Optional[str] = None) -> RunEvaluation:
    """The native core's evaluation of a run against qrels_jg judgments (both files)."""
    from .. import _core

    qrels_source, run_source = judgment_group_paths(qrels, run)
    with readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, copy_name):
        run_name = copy_name if run_name is None else run_name
        try:
            query_ids, values, mean, defined, missing_ids = _core.evaluate_run_jg(
                os.fsencode(qrels_file), os.fsencode(run_file), [s.native() for s in specs], options.relevant_at_least,
                options.ties_by_score, options.missing_zero, max_line_bytes, options.max_retrieved,
                options.judged_only, b"" if qrels_name is None else os.fsencode(qrels_name),
                b"" if run_name is None else os.fsencode(run_name))
        except OSError as err:  # named as open() names it: the path as given
            given = qrels_source if os.fsdecode(qrels_file) == err.filename else run_source
            raise OSError(err.errno, err.strerror, given) from None
    return RunEvaluation([s.name for s in specs], query_ids, np.frombuffer(values, dtype=np.float64), mean, defined,
                         options_dict(options, gain, ties, missing), missing_ids)
