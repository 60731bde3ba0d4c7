"""Pure-Python twin of cpp/runs/prefs_measures.cpp: trec_eval 10's preference measures
(prefs_num_prefs_poss ... prefs_avgjg_imp) from the counts form_prefs_counts.c makes, with the
same definitions, order of summation and results (docs/measures.md).

A query's judged documents get internal ranks: the retrieved ones 0, 1, ... in rank order
(score descending, then document ID ascending: form_prefs_counts.c's own tie order), the
others after them in byte order of their IDs. A judgment group with one sub-group keeps its
equivalence classes (documents of one rel_level, rel_level descending, ranks ascending); one
with several is a set of preferences closed under transitivity. A preference A > B is
"retrieved" (both retrieved), "implied" (one of them) or neither ("notoccur")."""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...runs.measures import KIND, MeasureSpec
from ...runs.preferences import preference_paths
from ...runs.result import RunEvaluation, RunOptions, options_dict
from ...runs.sources import readable
from .prefs_records import Preference, read_prefs
from .reading import _read_file

# A count of the counts array (trec_eval's unsigned short): it wraps at 2^16 as there.
_COUNT_WRAP = 1 << 16


class Group:
    """One judgment group's counts (trec_eval's JG): preferences fulfilled and possible."""

    def __init__(self) -> None:
        self.ful_ret = self.poss_ret = self.ful_imp = self.poss_imp = self.notoccur = 0
        self.rel = self.rel_ret = self.nonrel = self.nonrel_ret = 0
        self.classes: Optional[List[List[int]]] = None  # one sub-group: ranks per rel_level
        self.pairs: List[Tuple[int, int]] = []           # several: the closed preferences (i over j)
        self.level: Dict[int, float] = {}                # several: each document's rel_level


class QueryCounts:
    """A query's groups, its counts array (sparse: (better, worse) -> count) and how many of
    its judged documents are retrieved, of how many."""

    def __init__(self, groups: List[Group], counts: Dict[Tuple[int, int], int], judged_ret: int, judged: int) -> None:
        self.groups, self.counts, self.judged_ret, self.judged = groups, counts, judged_ret, judged


def ranking(docs: Sequence[bytes], scores: Optional[Sequence[float]], options: RunOptions) -> List[bytes]:
    """Score descending, then document ID ascending (form_prefs_counts.c), or the input order;
    then the first max_retrieved."""
    order = list(range(len(docs)))
    if options.ties_by_score and scores is not None:
        order.sort(key=lambda i: docs[i])
        order.sort(key=lambda i: -scores[i])  # stable: equal scores keep the ID order
    if options.max_retrieved >= 0:
        order = order[:options.max_retrieved]
    return [docs[i] for i in order]


def _classify(group: Group, better: int, worse: int, judged_ret: int) -> None:
    """One preference `better` > `worse` (internal ranks) into the group's counts."""
    if better < worse:
        if worse < judged_ret:
            group.ful_ret += 1
        elif better < judged_ret:
            group.ful_imp += 1
        else:
            group.notoccur += 1
    elif better < judged_ret:
        group.poss_ret += 1
    elif worse < judged_ret:
        group.poss_imp += 1
    else:
        group.notoccur += 1


def _add(counts: Dict[Tuple[int, int], int], better: int, worse: int) -> None:
    counts[(better, worse)] = (counts.get((better, worse), 0) + 1) % _COUNT_WRAP


def _class_group(members: List[Tuple[float, int]], judged_ret: int, counts: Dict[Tuple[int, int], int]) -> Group:
    group = Group()
    classes: List[List[int]] = []
    levels: List[float] = []
    for rel, rank in members:  # sorted: rel_level descending, rank ascending
        if not levels or levels[-1] != rel:
            levels.append(rel)
            classes.append([])
        classes[-1].append(rank)
    group.classes = classes
    for c, ranks in enumerate(classes):
        retrieved = sum(1 for r in ranks if r < judged_ret)
        if levels[c] > 0.0:
            group.rel_ret, group.rel = group.rel_ret + retrieved, group.rel + len(ranks)
        else:
            group.nonrel_ret, group.nonrel = group.nonrel_ret + retrieved, group.nonrel + len(ranks)
        for lower in classes[c + 1:]:
            for better in ranks:
                for worse in lower:
                    _add(counts, better, worse)
                    _classify(group, better, worse, judged_ret)
    group.poss_ret += group.ful_ret  # trec_eval's possible counts include the fulfilled ones
    group.poss_imp += group.ful_imp
    return group


def _closure(edges: Dict[int, Set[int]]) -> Dict[int, Set[int]]:
    """Everything each document is preferred to, directly or through others."""
    closed: Dict[int, Set[int]] = {}
    for start in edges:
        seen: Set[int] = set()
        stack = list(edges[start])
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(edges.get(node, ()))
        closed[start] = seen
    return closed


def _array_group(members: List[Tuple[bytes, float, int]], judged_ret: int,
                 counts: Dict[Tuple[int, int], int]) -> Group:
    group = Group()
    subs: Dict[bytes, List[Tuple[float, int]]] = {}
    for sub, rel, rank in members:
        subs.setdefault(sub, []).append((rel, rank))
        group.level[rank] = rel
    edges: Dict[int, Set[int]] = {rank: set() for rank in group.level}
    for judged in subs.values():
        for rel, rank in judged:
            edges[rank].update(r for level, r in judged if level < rel)
    for better, worse_set in sorted(_closure(edges).items()):
        for worse in sorted(worse_set):
            if worse != better:
                group.pairs.append((better, worse))
                _add(counts, better, worse)
                _classify(group, better, worse, judged_ret)
    for rank, rel in group.level.items():
        if rel > 0.0:
            group.rel += 1
            group.rel_ret += rank < judged_ret
        elif rel == 0.0:
            group.nonrel += 1
            group.nonrel_ret += rank < judged_ret
    group.poss_ret += group.ful_ret
    group.poss_imp += group.ful_imp
    return group


def query_counts(preferences: Sequence[Preference], ranked: Sequence[bytes]) -> QueryCounts:
    """form_prefs_counts.c's counts for one query's judgments and ranking."""
    judged = {doc for _g, _s, doc, _r in preferences}
    rank_of: Dict[bytes, int] = {}
    for doc in ranked:
        if doc in judged:
            rank_of[doc] = len(rank_of)
    judged_ret = len(rank_of)
    for doc in sorted(judged - set(rank_of)):
        rank_of[doc] = len(rank_of)
    by_group: Dict[bytes, List[Tuple[bytes, float, int]]] = {}
    for group_name, sub, doc, rel in preferences:
        by_group.setdefault(group_name, []).append((sub, rel, rank_of[doc]))
    counts: Dict[Tuple[int, int], int] = {}
    groups: List[Group] = []
    for name in sorted(by_group):
        members = sorted(by_group[name], key=lambda m: (m[0], -m[1], m[2]))
        if len({sub for sub, _r, _k in members}) == 1:
            groups.append(_class_group([(rel, rank) for _s, rel, rank in members], judged_ret, counts))
        else:
            groups.append(_array_group(members, judged_ret, counts))
    return QueryCounts(groups, counts, judged_ret, len(rank_of))


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else math.nan  # trec_eval's (double) 0 / 0 (poss >= ful always)


def _recalculated(group: Group, judged_ret: int, retrieved_only: bool) -> Tuple[int, int]:
    """m_prefs_avgjg_Rnonrel*.c's recalculate(): the group's counts with only its first R
    non-relevant documents (R: its relevant ones, or with `retrieved_only` its retrieved ones)."""
    ful = poss = 0
    if group.classes is not None:
        classes = group.classes
        if retrieved_only:
            classes = [[r for r in ranks if r < judged_ret] for ranks in classes]
        kept = classes[-1][:group.rel_ret if retrieved_only else group.rel]
        pairs = [(a, b) for c1 in range(len(classes)) for c2 in range(c1 + 1, len(classes) - 1)
                 for a in classes[c1] for b in classes[c2]]
        pairs += [(a, b) for ranks in classes for a in ranks for b in kept]
        for a, b in pairs:
            if a < b and (retrieved_only or a < judged_ret):
                ful += 1
            else:
                poss += 1
        return ful, poss + ful
    bound = judged_ret if retrieved_only else max(group.level, default=-1) + 1
    seen, first_discarded = 0, bound
    for rank in sorted(group.level):
        if rank < bound and group.level[rank] == 0.0:
            seen += 1
            if seen == group.rel + 1:
                first_discarded = rank
                break
    for a, b in group.pairs:
        if any(r >= first_discarded and group.level[r] == 0.0 for r in (a, b)):
            continue
        if retrieved_only and (a >= judged_ret or b >= judged_ret):
            continue
        if a < b and a < judged_ret:
            ful += 1
        else:
            poss += 1
    return ful, poss + ful


def _per_group(q: QueryCounts, kind: str) -> float:
    total = 0.0
    for g in q.groups:
        if kind in ("PrefsAvgJGRnonrel", "PrefsAvgJGRnonrelRet"):
            retrieved_only = kind.endswith("Ret")
            r, n = (g.rel_ret, g.nonrel_ret) if retrieved_only else (g.rel, g.nonrel)
            if r >= n:
                ful = g.ful_ret + (0 if retrieved_only else g.ful_imp) + g.rel_ret * (r - n)
                poss = g.poss_ret + (0 if retrieved_only else g.poss_imp + g.notoccur) + g.rel * (r - n)
            else:
                ful, poss = _recalculated(g, q.judged_ret, retrieved_only)
            total += _ratio(ful, poss)
            continue
        ful = g.ful_ret + (0 if kind == "PrefsAvgJGRet" else g.ful_imp)
        poss = g.poss_ret + {"PrefsAvgJG": g.poss_imp + g.notoccur, "PrefsAvgJGImp": g.poss_imp}.get(kind, 0)
        if poss:
            total += ful / poss
    return total / len(q.groups) if total > 0.0 else 0.0  # NaN > 0 is false: a 0 / 0 group gives 0


def _pairs(q: QueryCounts, regions: int) -> float:
    """prefs_pair*: the mean over document pairs of the share of their preferences fulfilled;
    regions 1: both retrieved, 2: and one retrieved, 3: and neither (counted, adding 0)."""
    unordered = sorted({(min(i, j), max(i, j)) for i, j in q.counts if q.counts[(i, j)] or q.counts.get((j, i))})
    total, pairs = 0.0, 0
    njr = q.judged_ret
    for region in (1, 2, 3)[:regions]:
        for i, j in unordered:
            if (region == 1 and j < njr) or (region == 2 and i < njr <= j) or (region == 3 and i >= njr):
                pairs += 1
                if region < 3:
                    up, down = q.counts.get((i, j), 0), q.counts.get((j, i), 0)
                    total += up / (up + down)
    return total / pairs if pairs else 0.0


def prefs_value(spec: MeasureSpec, q: QueryCounts) -> float:
    """One measure's value for a query (trec_eval's: 0 where its ratio has no preferences)."""
    kind = next(name for name, index in KIND.items() if index == spec.kind)
    groups = q.groups
    ful_ret = sum(g.ful_ret for g in groups)
    ful = ful_ret + sum(g.ful_imp for g in groups)
    poss_ret = sum(g.poss_ret for g in groups)
    poss_imp = poss_ret + sum(g.poss_imp for g in groups)
    poss = poss_imp + sum(g.notoccur for g in groups)
    if kind == "PrefsNumPoss":
        return float(poss)
    if kind == "PrefsNumFul":
        return float(ful)
    if kind == "PrefsNumFulRet":
        return float(ful_ret)
    if kind in ("PrefsSimp", "PrefsSimpRet", "PrefsSimpImp"):
        top, bottom = {"PrefsSimp": (ful, poss), "PrefsSimpRet": (ful_ret, poss_ret),
                       "PrefsSimpImp": (ful, poss_imp)}[kind]
        return top / bottom if bottom else 0.0
    if kind in ("PrefsPair", "PrefsPairImp", "PrefsPairRet"):
        return _pairs(q, {"PrefsPair": 3, "PrefsPairImp": 2, "PrefsPairRet": 1}[kind])
    return _per_group(q, kind)


def evaluate_preferences(qrels: object, run: object, specs: Sequence[MeasureSpec], options: RunOptions, gain: str,
                         ties: str, missing: str, max_line_bytes: int, rel_format: str) -> RunEvaluation:
    """The twin of the native evaluation: judged queries in run order, then the missing ones
    (with missing="zero" scored against an empty ranking)."""
    from .evaluate import exact_sum

    qrels_source, run_source = preference_paths(qrels, run, rel_format)
    with readable(qrels_source, run_source) as (qrels_file, qrels_name, run_file, run_name):
        judged = read_prefs(qrels_file, rel_format, max_line_bytes, qrels_name)
        ranked = _read_file(run_file, False, max_line_bytes, run_name)
    preferences = dict(judged)
    query_ids: List[bytes] = []
    rows: List[List[float]] = []

    def add(query: bytes, ranked_docs: List[bytes]) -> None:
        counts = query_counts(preferences[query], ranked_docs)
        query_ids.append(query)
        rows.append([prefs_value(spec, counts) for spec in specs])

    for query, docs, scores in ranked:
        if query in preferences:
            add(query, ranking(docs, scores, options))
    seen = set(query_ids)
    missing_ids = [query for query, _p in judged if query not in seen]
    if options.missing_zero:
        for query in missing_ids:
            add(query, [])
    mean = [exact_sum([row[m] for row in rows]) / len(rows) if rows else None for m in range(len(specs))]
    values = np.array(rows, dtype=np.float64).reshape(len(rows), len(specs))
    return RunEvaluation([s.name for s in specs], [q.decode("utf-8") for q in query_ids], values, mean,
                         [len(rows)] * len(specs), options_dict(options, gain, ties, missing),
                         [q.decode("utf-8") for q in missing_ids])
