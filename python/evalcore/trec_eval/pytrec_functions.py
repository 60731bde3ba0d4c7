"""pytrec_eval's module functions: ``parse_qrel``, ``parse_run`` and
``compute_aggregated_measure``, with its behaviour (tested against pytrec-eval-terrier).

The parsers split each line on whitespace and convert the fields as pytrec_eval does
(``int`` for a grade, ``float`` for a score), so they return the same dicts for the same
lines, ``str`` or ``bytes``; where pytrec_eval's tuple unpacking or conversion fails, the
error here is a :class:`~evalcore.RunInputError` (a ValueError, as there) naming the line and
the field, and a document listed twice is a :class:`DuplicateDocumentError`, an
AssertionError as pytrec_eval's ``assert`` is, and a ValueError too (pytrec_eval's assert
vanishes under ``python -O``; this check does not).

``compute_aggregated_measure`` aggregates as pytrec_eval chooses by the name (``num_*``: the
sum, ``gm_*``: exp of the mean, anything else: the mean), but sums exactly, as
:func:`evalcore.evaluate_run`'s means do (docs/contract.md §5): the exact sum rounded once,
divided by the count once. numpy's sum, which pytrec_eval uses, rounds at every addition in
an order that depends on the list's length, so the two can differ in the last bits; they are
equal whenever numpy's additions are exact.
"""

from __future__ import annotations

import collections
import math
from typing import Any, Callable, Dict, Iterable, List, Tuple, TypeVar

from ..errors import RunInputError
from ..runs.exact_sums import ExactSum

__all__ = ["DuplicateDocumentError", "compute_aggregated_measure", "parse_qrel", "parse_run"]

_Value = TypeVar("_Value", int, float)


class DuplicateDocumentError(RunInputError, AssertionError):
    """A document listed twice for one query by ``parse_qrel`` or ``parse_run``: an
    AssertionError, as pytrec_eval raises it, and a :class:`~evalcore.RunInputError`."""


def parse_qrel(f_qrel: Iterable[str]) -> Dict[str, Dict[str, int]]:
    """pytrec_eval's ``parse_qrel``: TREC qrels lines ``QUERY ITERATION DOC GRADE`` into
    ``{query: {doc: grade}}``.

    Args:
        f_qrel: an open file or any iterable of lines (``str``, or ``bytes`` from a file
            opened in binary mode: the IDs are then ``bytes``, as in pytrec_eval).

    Returns:
        A ``collections.defaultdict(dict)``, as pytrec_eval returns: queries and documents in
        the order of the lines, grades as ``int``.

    Raises:
        RunInputError: a line without exactly 4 fields, or a grade ``int()`` does not read
            (``1.0``, ``abc``); the message names the line.
        DuplicateDocumentError: a document listed twice for a query.
    """
    return _parse(f_qrel, "qrels", ("query", "iteration", "document", "grade"), 3, int, "an integer")


def parse_run(f_run: Iterable[str]) -> Dict[str, Dict[str, float]]:
    """pytrec_eval's ``parse_run``: TREC run lines ``QUERY Q0 DOC RANK SCORE TAG`` into
    ``{query: {doc: score}}`` (the rank and tag are not kept; the ranking comes from the
    scores).

    Args:
        f_run: an open file or any iterable of lines (``str`` or ``bytes``, as for
            :func:`parse_qrel`).

    Returns:
        A ``collections.defaultdict(dict)``, as pytrec_eval returns: scores as ``float``
        (``float()`` reads them: ``inf`` and ``nan`` too, as there).

    Raises:
        RunInputError: a line without exactly 6 fields (pytrec_eval's rule; evaluate_run reads
            trec_eval's "at least 6"), or a score ``float()`` does not read.
        DuplicateDocumentError: a document listed twice for a query.
    """
    return _parse(f_run, "run", ("query", "Q0", "document", "rank", "score", "tag"), 4, float, "a number")


def _parse(lines: Iterable[Any], source: str, fields: Tuple[str, ...], value_field: int,
           convert: Callable[[Any], _Value], kind: str) -> Dict[Any, Dict[Any, _Value]]:
    """One pass over the lines, pytrec_eval's checks in its order: the fields, the
    duplicate, then the value."""
    if isinstance(lines, (str, bytes, bytearray)):
        raise RunInputError(
            f"parse_{'qrel' if source == 'qrels' else 'run'} takes an open file or an iterable of lines, not one "
            f"{type(lines).__name__}: pass open(path), or text.splitlines() for text in memory", source)
    table: Dict[Any, Dict[Any, _Value]] = collections.defaultdict(dict)
    for number, line in enumerate(lines, 1):
        parts = line.strip().split()
        if len(parts) != len(fields):
            raise RunInputError(
                f"a {source} line has {len(fields)} fields ({' '.join(fields)}), found {len(parts)}: {line!r}",
                source, number)
        query, document, text = parts[0], parts[2], parts[value_field]
        docs = table[query]
        if document in docs:
            raise DuplicateDocumentError(
                f"document {document!r} is listed twice for query {query!r}: keep one line per document", source, number)
        try:
            docs[document] = convert(text)
        except ValueError:
            raise RunInputError(f"the {fields[value_field]} {text!r} is not {kind}", source, number) from None
    return table


def compute_aggregated_measure(measure: str, values: Iterable[float]) -> float:
    """pytrec_eval's ``compute_aggregated_measure``: the summary of one measure's per-query
    values, by its name: ``num_*`` (num_ret, num_rel, ...) the sum, ``gm_*`` (gm_map,
    gm_bpref, whose per-query values are logarithms) exp of the mean, any other the mean.

    The sum is exact, rounded once (docs/contract.md §5), and ``exp`` is numpy's, as
    pytrec_eval's (on CPUs where numpy uses its own vectorized exp, AVX-512 ones, it can
    differ from ``math.exp`` in the last bit: 31138.22385189847 for a mean of
    21189 / 2048, where ``math.exp`` gives 31138.223851898474); a NaN or infinity gives what adding the floats gives (NaN, ±inf), as in
    pytrec_eval. No values: 0.0 for a sum, NaN for a mean (numpy's values, without its
    warning).

    Args:
        measure: the measure's name, e.g. ``"map"``, ``"num_rel_ret"``, ``"gm_map"``.
        values: its per-query values, e.g. ``[r[measure] for r in evaluator.evaluate(run).values()]``.
    """
    numbers: List[float] = [float(v) for v in values]
    total = _exact_sum(numbers)
    if measure.startswith("num_"):
        return total
    mean = total / len(numbers) if numbers else math.nan
    if not measure.startswith("gm_"):
        return mean
    import numpy  # the runtime dependency; here only, so that the module imports fast

    with numpy.errstate(over="ignore"):  # a mean past ln(largest float): inf, as pytrec_eval's
        return float(numpy.exp(numpy.float64(mean)))


def _exact_sum(numbers: List[float]) -> float:
    if all(math.isfinite(x) for x in numbers):
        return float(ExactSum(numbers))
    infinities = {x for x in numbers if not math.isfinite(x)}  # NaN, or inf and -inf: NaN
    return infinities.pop() if len(infinities) == 1 and not math.isnan(next(iter(infinities))) else math.nan
