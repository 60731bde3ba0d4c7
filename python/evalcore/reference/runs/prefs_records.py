"""Pure-Python twin of cpp/runs/prefs_records.cpp: trec_eval's preference judgments read into
queries, ``-R prefs`` (``query judgment_group judgment_subgroup document rel_level`` lines)
and ``-R qrels_prefs`` (an ordinary qrels file, ``query judgment_group document rel_level``,
one sub-group ``0`` per group), with the same faults, messages and lines as the native reader."""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Set, Tuple

from ...runs.result import line_too_long
from .reading import _SPACES, _SPLIT, _Fault, _fail, _number, _quoted, _read_bytes, _valid_utf8

_SHAPES = {"prefs": "a prefs line has 5 fields: query judgment_group judgment_subgroup document rel_level",
           "qrels_prefs": "a qrels_prefs line has 4 fields: query judgment_group document rel_level"}
# One judgment: (judgment group, sub-group, document, rel_level), all IDs as bytes.
Preference = Tuple[bytes, bytes, bytes, float]
QRELS_PREFS_SUBGROUP = b"0"  # trec_eval's sub-group for every qrels_prefs line


def _has_cycle(edges: Dict[bytes, Set[bytes]]) -> bool:
    """Whether the preference graph has a cycle (Kahn's algorithm leaves a node unsorted)."""
    indegree: Dict[bytes, int] = {node: 0 for node in edges}
    for targets in edges.values():
        for target in targets:
            indegree[target] = indegree.get(target, 0) + 1
    ready = [node for node, degree in indegree.items() if degree == 0]
    removed = 0
    while ready:
        node = ready.pop()
        removed += 1
        for target in edges.get(node, ()):
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    return removed != len(indegree)


def _consistency_faults(lines: List[Tuple[bytes, Preference, int]], fault: _Fault) -> None:
    """A document with two rel_levels in one sub-group, judged 0 in one sub-group of a group
    and more than 0 in another, or a group whose sub-groups' preferences form a cycle: the
    judgments trec_eval stops at (or aborts on) when it meets them."""
    first: Dict[Tuple[bytes, bytes, bytes, bytes], Tuple[float, int]] = {}
    zero: Dict[Tuple[bytes, bytes, bytes, bool], int] = {}
    groups: Dict[Tuple[bytes, bytes], List[Tuple[Preference, int]]] = {}
    for query, (group, sub, doc, rel), number in lines:
        known = first.setdefault((query, group, sub, doc), (rel, number))
        if known[0] != rel:
            fault.consider(number, b"query " + _quoted(query) + b" judgment group " + _quoted(group) + b" sub-group " +
                           _quoted(sub) + b" gives document " + _quoted(doc) +
                           f" two rel_levels (first on line {known[1]})".encode())
        other = zero.get((query, group, doc, rel > 0.0)) if rel >= 0.0 else None  # negative: neither
        if other is not None:
            fault.consider(number, b"query " + _quoted(query) + b" judgment group " + _quoted(group) +
                           b" judges document " + _quoted(doc) +
                           f" non-relevant (0) and relevant (> 0) (first on line {other})".encode())
        if rel >= 0.0:
            zero.setdefault((query, group, doc, rel == 0.0), number)
        groups.setdefault((query, group), []).append(((group, sub, doc, rel), number))
    for (query, group), members in groups.items():
        subs: Dict[bytes, List[Tuple[bytes, float]]] = {}
        for (_g, sub, doc, rel), _n in members:
            subs.setdefault(sub, []).append((doc, rel))
        if len(subs) < 2:
            continue
        edges: Dict[bytes, Set[bytes]] = {}
        for judged in subs.values():
            for doc, rel in judged:
                edges.setdefault(doc, set()).update(d for d, r in judged if r < rel)
        if _has_cycle(edges):
            fault.consider(members[-1][1], b"query " + _quoted(query) + b" judgment group " + _quoted(group) +
                           b": the preferences of its sub-groups contradict each other (a cycle); "
                           b"put contradicting judgments in different judgment groups")


def read_prefs(file: str, rel_format: str, max_line_bytes: int,
               name: Optional[str] = None) -> List[Tuple[bytes, List[Preference]]]:
    """The judgments of a prefs or qrels_prefs file: queries in order of first appearance,
    each one's judgments in line order. RunInputError for the first faulty line."""
    source = os.fsdecode(file) if name is None else name
    data, long_line = _read_bytes(file, max_line_bytes, source)
    width = 5 if rel_format == "prefs" else 4
    fault = _Fault()
    lines: List[Tuple[bytes, Preference, int]] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        text = line.strip(_SPACES)
        if not text or text[0] == 0x23:  # blank, or '#': a comment
            continue
        fields = _SPLIT.split(text)
        value = _number(fields[-1]) if len(fields) == width else None
        if len(fields) != width:
            found = "more" if len(fields) > width else str(len(fields))
            fault.consider(number, f"{_SHAPES[rel_format]}, found {found}".encode())
        elif not _valid_utf8(fields[0]):
            fault.consider(number, b"the query ID is not valid UTF-8")
        elif value is None:
            fault.consider(number, b"the rel_level " + _quoted(fields[-1]) + b" is not a finite number")
        elif value == -3.0:
            fault.consider(number, b"the rel_level -3 is trec_eval's mark for no level (a group judged at most -3 "
                                   b"is miscounted there): use another value")
        if fault.position is not None or value is None:
            break
        sub = fields[2] if width == 5 else QRELS_PREFS_SUBGROUP
        lines.append((fields[0], (fields[1], sub, fields[-2], value), number))
    if long_line is not None:
        fault.consider(long_line, line_too_long(max_line_bytes).encode())
    _consistency_faults(lines, fault)
    if fault.position is not None:
        raise _fail(source, fault.position, fault.message)
    queries: Dict[bytes, List[Preference]] = {}
    for query, preference, _number_ in lines:
        queries.setdefault(query, []).append(preference)
    return list(queries.items())
