"""evaluate_run with trec_eval's preference judgments (``qrels_format="prefs"`` or
``"qrels_prefs"``): ``query judgment_group judgment_subgroup document rel_level`` lines
(``-R prefs``), or an ordinary qrels file read as preferences (``-R qrels_prefs``: its
iteration column is the judgment group), and trec_eval 10's 14 preference measures
(``prefs_num_prefs_poss`` ... ``prefs_avgjg_imp``; nicknames ``all_prefs`` and ``prefs``).
Twin: :mod:`evalcore.reference.runs.prefs_measures`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, List, Optional, Sequence

from .measures import MeasureSpec
from .result import RunEvaluation, RunOptions, normalize_source, options_dict
from .sources import readable
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

#: evaluate_run's preference formats (trec_eval's -R prefs and -R qrels_prefs).
PREFERENCE_FORMATS = ("prefs", "qrels_prefs")
_SHAPES = {"prefs": "query judgment_group judgment_subgroup document rel_level",
           "qrels_prefs": "query judgment_group document rel_level"}


def preference_paths(qrels: Any, run: Any, qrels_format: str) -> List[Any]:
    """The judgments and run of a preference evaluation: TREC file paths (str, bytes or
    os.PathLike; ``*.gz`` decompressed first), TypeError for anything else."""
    sources = []
    for value, role, shape in ((qrels, "qrels", _SHAPES[qrels_format]), (run, "run", "query Q0 document rank score tag")):
        source = normalize_source(value, role) if isinstance(value, (str, bytes, os.PathLike)) else None
        if not isinstance(source, (str, bytes)):
            raise TypeError(f"with qrels_format={qrels_format!r}, {role} must be the path of a TREC file ({shape} "
                            f"lines), got {type(value).__name__}: write it to a file first")
        sources.append(source)
    return sources


def evaluate_preferences(qrels: Any, run: Any, specs: Sequence[MeasureSpec], options: RunOptions, gain: str,
                         ties: str, missing: str, max_line_bytes: int, qrels_format: str,
                         run_name: Optional[str] = None) -> RunEvaluation:
    """The native core's evaluation of a run against preference judgments (both files)."""
    from .. import _core

    qrels_source, run_source = preference_paths(qrels, run, qrels_format)
    with readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, copy_name):
        run_name = copy_name if run_name is None else run_name
        try:
            query_ids, values, mean, defined, missing_ids = _core.evaluate_run_prefs(
                os.fsencode(qrels_file), os.fsencode(run_file), qrels_format == "prefs", [s.native() for s in specs],
                options.ties_by_score, options.missing_zero, max_line_bytes, options.max_retrieved,
                b"" if qrels_name is None else os.fsencode(qrels_name), b"" if run_name is None else os.fsencode(run_name))
        except OSError as err:  # named as open() names it: the path as given
            given = qrels_source if os.fsdecode(qrels_file) == err.filename else run_source
            raise OSError(err.errno, err.strerror, given) from None
    return RunEvaluation([s.name for s in specs], query_ids, np.frombuffer(values, dtype=np.float64), mean, defined,
                         options_dict(options, gain, ties, missing), missing_ids)
