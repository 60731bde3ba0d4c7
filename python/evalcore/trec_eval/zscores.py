"""trec_eval's ``-Z Zmean_file``: each per-topic value printed, and added into the summary,
as a z-score — its deviation from a reference mean in units of the reference standard
deviation, both read per (topic, measure) from the file.

The file (trec_eval's get_zscores.c) has one line per (topic, measure value name, mean,
standard deviation), fields separated by whitespace. Per topic and value (trec_eval's
convert_zscores.c), before the value is printed or accumulated:

- found, standard deviation not 0: ``(value - mean) / stddev``;
- found, standard deviation 0: 0 when the value equals the mean, else -1000000;
- the topic or the value name not in the file: -1000000 (trec_eval's MISSING_ZSCORE_VALUE).

Printed names get a ``Z`` in front (``Znum_ret``, padded to 22 bytes after it); counts are
printed with 4 decimals like every other value; the summary keeps each measure's rule
(counts summed, means, gm_map's exp of the mean, num_q the number of topics), and the
runid and relstring lines are printed as without -Z.

Where evalcore differs (docs/trec_eval.md): trec_eval looks the topic and the name up with
a binary search that reads one entry past the end of its arrays when the key sorts after
every entry (a topic after the file's last, a name after the topic's last): it crashes
(segmentation fault) or takes the next topic's entry. evalcore finds exactly the topic's own
entry or none. trec_eval reads the numbers with ``atof`` (``0.5x`` is 0.5, ``abc`` is 0) and
keeps duplicate lines (which one it finds depends on its sort): evalcore refuses a number
that is not a plain decimal one (or is not finite) and a repeated (topic, name), naming the
line.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple

from . import output_format as te
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)

MISSING_ZSCORE_VALUE = -1000000.0
# strtod's decimal numbers, all of the field; hexadecimal, inf and nan are refused.
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


class ZScores:
    """The (mean, standard deviation) of each (topic, value name) of a Zmean_file."""

    def __init__(self, entries: Dict[Tuple[str, str], Tuple[float, float]]) -> None:
        self.entries = entries

    def convert(self, columns: Sequence[te.Column], queries: Sequence[str], table: np.ndarray) -> np.ndarray:
        """The topics × columns table of values as z-scores. Columns without a number of
        their own (runid, relstring: their text is printed as it is) are left alone."""
        out = np.array(table, dtype=np.float64, copy=True)
        for c, column in enumerate(columns):
            if column.name == "runid" or not column.zscored:
                continue
            found = [self.entries.get((query, column.name)) for query in queries]
            known = np.array([entry is not None for entry in found], dtype=bool)
            mean = np.array([entry[0] if entry else 0.0 for entry in found], dtype=np.float64)
            stddev = np.array([entry[1] if entry else 1.0 for entry in found], dtype=np.float64)
            values = out[:, c]
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # as C: inf, nan
                scaled = (values - mean) / np.where(stddev != 0.0, stddev, 1.0)
            converted = np.where(stddev != 0.0, scaled, np.where(values == mean, 0.0, MISSING_ZSCORE_VALUE))
            out[:, c] = np.where(known, converted, MISSING_ZSCORE_VALUE)
        return out

    def convert_row(self, columns: Sequence[te.Column], query: str, values: Sequence[float]) -> List[float]:
        """One topic's values (a list, as output_format.topic_values gives them) as z-scores."""
        table = np.array([list(values)], dtype=np.float64).reshape(1, len(values))
        converted: List[float] = self.convert(columns, [query], table)[0].tolist()
        return converted


def read_zscores(path: str) -> ZScores:
    """Reads a Zmean_file; raises TrecEvalError with trec_eval's messages (exit 255: its
    main returns -1) for a file it cannot read or a malformed line, and evalcore's (exit 2)
    for what evalcore refuses (see the module's docstring)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        data = b""
    if not data:  # trec_eval refuses an empty file too (it reads the file's size first)
        raise te.TrecEvalError(f"trec_eval.get_zscores: Cannot read zscores file '{path}'\n", 255, "exact")
    if b"\0" in data:
        at = data[:data.index(b"\0")].count(b"\n") + 1
        raise te.TrecEvalError(f"{path}: line {at}: a NUL byte (trec_eval reads a Zmean_file up to the first, "
                               "and stops at it: remove it)", 2, "evalcore")
    if not data.endswith(b"\n"):
        data += b"\n"
    entries: Dict[Tuple[str, str], Tuple[float, float]] = {}
    for number, raw in enumerate(data[:-1].split(b"\n"), start=1):
        fields = raw.split()  # bytes.split() splits at exactly C's isspace characters
        if len(fields) != 4:
            raise te.TrecEvalError(f"trec_eval.get_zscores: Malformed line {number}\n", 255, "exact")
        qid, name = (field.decode("utf-8", "surrogateescape") for field in fields[:2])
        mean = _number(fields[2], "mean", path, number)
        stddev = _number(fields[3], "standard deviation", path, number)
        if (qid, name) in entries:
            raise te.TrecEvalError(f"{path}: line {number}: topic {qid!r} measure {name!r} is given twice "
                                   "(trec_eval would take either line): keep one", 2, "evalcore")
        entries[(qid, name)] = (mean, stddev)
    return ZScores(entries)


def _number(text: bytes, what: str, path: str, line: int) -> float:
    shown = text.decode("utf-8", "backslashreplace")
    if not _DECIMAL.match(text):
        raise te.TrecEvalError(f"{path}: line {line}: the {what} '{shown}' is not a decimal number (trec_eval "
                               "would read what atof makes of it, 0 for text)", 2, "evalcore")
    value = float(text)
    if not math.isfinite(value):
        raise te.TrecEvalError(f"{path}: line {line}: the {what} '{shown}' is out of range", 2, "evalcore")
    return value
