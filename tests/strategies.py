"""Hypothesis strategies: valid requests, and requests broken in every way the contract names."""

from __future__ import annotations

import copy
import random
from typing import Any, List, Tuple

from hypothesis import settings
from hypothesis import strategies as st

from evalcore import Limits

SIMPLE_IDS = ["a", "b", "c", "d", "e", "f", "g", "h"]

ids = st.one_of(
    st.sampled_from(SIMPLE_IDS),
    st.text(min_size=1, max_size=6),  # any well-formed text: astral characters, combining marks, controls
    st.sampled_from(["😀" * 40, "x" * 80, "~/", "a/b~c", "é\u0301", '"\\\n']),
)

grades = st.one_of(
    st.integers(0, 10),
    st.floats(0, 10, allow_nan=False),
    st.sampled_from([0.0, -0.0, 10.0, 0.5, 1, 3, 2.25]),
)

relevant_at_least = st.one_of(
    st.floats(0, 10, exclude_min=True, allow_nan=False), st.sampled_from([1, 2, 0.5, 10, 3.0])
)


@st.composite
def shuffled_dict(draw: Any, items: List[Tuple[str, Any]]) -> dict:
    """A dict whose key order (document order) is drawn too."""
    return dict(draw(st.permutations(items)))


@st.composite
def valid_ranking_requests(draw: Any, max_queries: int = 4, max_docs: int = 10) -> dict:
    n = draw(st.integers(1, max_queries))
    query_ids = draw(st.lists(ids, min_size=n, max_size=n, unique=True))
    unjudged = draw(st.sampled_from(["error", "nonrelevant", None]))
    k = draw(st.one_of(st.none(), st.integers(1, 12), st.sampled_from([3.0, 1.0, 100])))
    queries = []
    for query_id in query_ids:
        retrieved = draw(st.lists(ids, max_size=max_docs, unique=True))
        if unjudged == "nonrelevant":
            judged = draw(st.lists(st.sampled_from(retrieved), unique=True)) if retrieved else []
        else:
            judged = list(retrieved)  # "error": everything in the top k must be judged
        extra = [d for d in draw(st.lists(ids, max_size=3, unique=True)) if d not in retrieved]
        judged_ids = draw(st.permutations(judged + extra))
        judgments = [draw(shuffled_dict([("id", d), ("grade", draw(grades))])) for d in judged_ids]
        queries.append(draw(shuffled_dict([("id", query_id), ("retrieved", retrieved), ("judgments", judgments)])))
    items: List[Tuple[str, Any]] = [("queries", queries)]
    if k is not None:
        items.append(("k", k))
    if unjudged is not None:
        items.append(("unjudged", unjudged))
    if draw(st.booleans()):
        items.append(("relevantAtLeast", draw(relevant_at_least)))
    if draw(st.booleans()):
        items.append(("gain", draw(st.sampled_from(["linear", "exponential"]))))
    return draw(shuffled_dict(items))


# Values that break some rule wherever they land (copied on every draw: mutations must never
# touch the shared originals, or generation would depend on earlier examples).
odd_values = st.sampled_from(
    [
        None, True, False, 0, -1, 11, 101, 1.5, -0.0, 2**53 + 1, 1e308, 10**400, -(10**400),
        float("nan"), float("inf"), float("-inf"), "", "x", "\ud800", "a\udfffb", "\ud83d\ude00",
        "😀" * 40, "😀" * 41, "y" * 81, "exponential", "nonrelevant", [], {}, {"__proto__": 1},
        {"id": "a", "grade": 1}, [[[[[[["deep"]]]]]]], (1, 2), b"bytes", {1, 2},
    ]
).map(copy.deepcopy)
odd_keys = st.sampled_from(["extra", "__proto__", "constructor", "prototype", "Queries", "k", "id", "grade", "a/b~"])


def _locations(value: Any, out: List[Tuple[Any, Any]]) -> List[Tuple[Any, Any]]:
    """Every (container, key-or-index) in the value."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                out.append((node, key))
                stack.append(item)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                out.append((node, i))
                stack.append(item)
    return out


@st.composite
def mutated(draw: Any, base: st.SearchStrategy) -> Any:
    """A valid request with one to three faults put in: replaced, removed, added, repeated or reordered parts."""
    value = copy.deepcopy(draw(base))
    for _ in range(draw(st.integers(1, 3))):
        places = _locations(value, [])
        if not places:
            break
        container, key = draw(st.sampled_from(places))
        action = draw(st.sampled_from(["replace", "replace", "remove", "add", "repeat", "reorder", "surrogate"]))
        if action == "replace":
            container[key] = draw(odd_values)
        elif action == "remove":
            del container[key]
        elif action == "add":
            if isinstance(container, dict):
                container[draw(odd_keys)] = draw(odd_values)
            else:
                container.insert(draw(st.integers(0, len(container))), draw(odd_values))
        elif action == "repeat":
            if isinstance(container, list):
                container.insert(draw(st.integers(0, len(container))), copy.deepcopy(container[key]))
        elif action == "reorder":
            if isinstance(container, dict):
                items = draw(st.permutations(list(container.items())))
                container.clear()
                container.update(items)
        elif isinstance(container[key], str) and container[key]:
            text = container[key]
            cut = draw(st.integers(0, len(text)))
            container[key] = text[:cut] + draw(st.sampled_from(["\ud800", "\udc00", "\ud83d\ude00"])) + text[cut:]
    return value


def _small_or_default(name: str, low: int, high: int) -> st.SearchStrategy:
    return st.one_of(st.just(getattr(Limits(), name)), st.integers(low, high))


limits = st.one_of(
    st.none(),
    st.builds(
        Limits,
        input_bytes=_small_or_default("input_bytes", 20, 3000),
        output_bytes=_small_or_default("output_bytes", 50, 20000),
        json_depth=_small_or_default("json_depth", 1, 6),
        json_nodes=_small_or_default("json_nodes", 3, 80),
        queries=_small_or_default("queries", 1, 5),
        retrieved_per_query=_small_or_default("retrieved_per_query", 1, 10),
        judgments_per_query=_small_or_default("judgments_per_query", 1, 10),
        max_k=_small_or_default("max_k", 1, 12),
    ),
)

ranking_requests = st.one_of(valid_ranking_requests(), mutated(valid_ranking_requests()))


# ---- span-evaluate ------------------------------------------------------------------------

# Text with astral characters (two UTF-16 units), combining marks and plain letters.
span_texts = st.text(alphabet=st.sampled_from(list("ab c") + ["😀", "\u0301", "é", "𝒳", "\n"]), max_size=24)
labels = st.sampled_from(["PER", "LOC", "ORG", "é", "😀"])


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _inside_pairs(text: str) -> set:
    inside, units = set(), 0
    for ch in text:
        if ord(ch) > 0xFFFF:
            inside.add(units + 1)
        units += 2 if ord(ch) > 0xFFFF else 1
    return inside


@st.composite
def span_lists(draw: Any, text: str, prefix: str, max_spans: int = 8) -> list:
    n = utf16_len(text)
    inside = _inside_pairs(text)
    boundaries = [b for b in range(n + 1) if b not in inside]
    spans, shapes = [], set()
    for i in draw(st.permutations(range(draw(st.integers(0, max_spans))))):
        if len(boundaries) < 2:
            break
        start, end = sorted(draw(st.lists(st.sampled_from(boundaries), min_size=2, max_size=2, unique=True)))
        label = draw(labels)
        if (label, start, end) in shapes:
            continue
        shapes.add((label, start, end))
        spans.append(draw(shuffled_dict([("id", f"{prefix}{i}"), ("label", label), ("start", start), ("end", end)])))
    return spans


@st.composite
def valid_span_documents(draw: Any) -> dict:
    text = draw(span_texts)
    references = draw(span_lists(text, "r"))
    # Predictions: copies and shifts of references, plus fresh spans.
    predictions = draw(span_lists(text, "p"))
    for i, ref in enumerate(references):
        if draw(st.booleans()) and all((p["label"], p["start"], p["end"]) != (ref["label"], ref["start"], ref["end"]) for p in predictions):
            predictions.append({"id": f"c{i}", "label": ref["label"], "start": ref["start"], "end": ref["end"]})
    return draw(shuffled_dict([("text", text), ("references", references), ("predictions", predictions)]))


@st.composite
def valid_span_requests(draw: Any) -> dict:
    items = list(draw(valid_span_documents()).items())
    if draw(st.booleans()):
        items.append(("match", draw(st.sampled_from(["exact", "overlap"]))))
    if draw(st.booleans()):
        items.append(("minimumIou", draw(st.sampled_from([0.5, 1, 1.0, 0.1, 1e-9, 0.75]) | st.floats(0, 1, exclude_min=True))))
    return draw(shuffled_dict(items))


@st.composite
def shifted_offsets(draw: Any, base: st.SearchStrategy) -> dict:
    """Offsets moved anywhere: past the end, reversed, inside a surrogate pair, onto another span."""
    request = copy.deepcopy(draw(base))
    spans = request["references"] + request["predictions"]
    if spans:
        span = draw(st.sampled_from(spans))
        span[draw(st.sampled_from(["start", "end"]))] = draw(st.integers(0, utf16_len(request["text"]) + 2))
        if len(spans) > 1 and draw(st.booleans()):
            other = draw(st.sampled_from(spans))
            span.update(label=other["label"], start=other["start"], end=other["end"])
    return request


span_requests = st.one_of(valid_span_requests(), mutated(valid_span_requests()), shifted_offsets(valid_span_requests()))

span_limits = st.one_of(
    st.none(),
    st.builds(
        Limits,
        matching_steps=st.integers(1, 40),
        text_utf16_units=_small_or_default("text_utf16_units", 1, 20),
        references=_small_or_default("references", 1, 6),
        predictions=_small_or_default("predictions", 1, 6),
        output_bytes=_small_or_default("output_bytes", 200, 3000),
        json_nodes=_small_or_default("json_nodes", 5, 120),
    ),
)


# ---- score ------------------------------------------------------------------------------------

score_ids = st.one_of(st.sampled_from(["a", "b", "c", "d", "", " a", "A"]), st.text(max_size=4))
id_lists = st.lists(score_ids, max_size=8)


@st.composite
def valid_score_requests(draw: Any) -> dict:
    items: List[Tuple[str, Any]] = []
    if draw(st.booleans()):
        items += [("predicted", draw(id_lists)), ("ground_truth", draw(id_lists))]
        if draw(st.booleans()):
            items.append(("items", None))
    else:
        pairs = draw(st.lists(st.tuples(id_lists, id_lists), min_size=1, max_size=6))
        items.append(("items", [draw(shuffled_dict([("predicted", p), ("ground_truth", g)])) for p, g in pairs]))
        if draw(st.booleans()):
            items.append((draw(st.sampled_from(["predicted", "ground_truth"])), None))
    if draw(st.booleans()):
        items.append(("metrics", draw(st.permutations(["precision", "recall", "f1", "f2"])).copy()[: draw(st.integers(1, 4))]))
    if draw(st.booleans()):
        items.append(("k", draw(st.one_of(st.none(), st.integers(1, 6), st.sampled_from([2.0, 2**53 - 1])))))
    return draw(shuffled_dict(items))


score_requests = st.one_of(valid_score_requests(), mutated(valid_score_requests()))


# ---- bulk runs (evaluate_run) -----------------------------------------------------------

RUN_DOCS = [f"d{i}" for i in range(12)] + ["D", "é", "😀x", "a b"]
run_scores = st.one_of(st.sampled_from([0.0, -0.0, 1.0, 1.5, 2.0, -3.0, 1e300]), st.floats(-5, 5, allow_nan=False))
run_grades = st.one_of(st.integers(-2, 4), st.sampled_from([0.5, 1.5, 2.25, -0.0]), st.floats(-1, 4, allow_nan=False))
MEASURE_CHOICES = [
    "P@1", "P@5", "R@3", "R@100", "RR@2", "RR", "AP@4", "AP", "nDCG@3", "nDCG@10", "nDCG",
    # trec_eval's, ir_measures' and gdeval's measures that ranking-evaluate lacks, with levels and gains
    "NumRet", "NumRel", "num_rel_ret", "NumRet(rel=2)", "Rprec", "Bpref", "Bpref(rel=2)", "IPrec@0.3", "IPrec@0",
    "iprec_at_recall_1.00", "Success@2", "SetP", "SetR", "SetF", "set_F.0.5", "Judged@5", "Judged", "ERR@5", "ERR",
    "P(rel=2)@3", "AP(rel=0.5)", "RR(rel=2)@3", "nDCG(gains={0:0,1:1,2:3})@5", "nDCG(gains={1:-1,2:0.5})",
]


# Scores that float32 holds exactly: trec_eval rounds scores to float32 before sorting.
float32_scores = st.one_of(st.sampled_from([0.0, 1.0, 1.5, 2.0, -3.0]), st.integers(-40, 40).map(lambda i: i / 8))


@st.composite
def run_inputs(draw: Any, integer_grades: bool = False, ranked_lists: Any = None, scores: Any = run_scores) -> dict:
    """{"qrels": {q: {doc: grade}}, "run": {q: {doc: score}} or {q: [doc, ...]}}: queries
    overlap partly, scores tie often, some queries have no relevant judgment."""
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q4", "q5", "10", "ü"]), unique=True, max_size=5))
    grade = st.integers(0, 3) if integer_grades else run_grades
    qrels = {}
    for q in queries:
        if draw(st.integers(0, 5)) > 0:
            docs = draw(st.lists(st.sampled_from(RUN_DOCS), unique=True, max_size=8))
            qrels[q] = {d: draw(grade) for d in docs}
    lists = draw(st.booleans()) if ranked_lists is None else ranked_lists
    run: dict = {}
    for q in queries:
        if draw(st.integers(0, 5)) > 0:
            docs = draw(st.lists(st.sampled_from(RUN_DOCS), unique=True, max_size=10))
            run[q] = list(docs) if lists else {d: draw(scores) for d in docs}
    return {"qrels": qrels, "run": run}


run_options = st.fixed_dictionaries(
    {},
    optional={
        "relevant_at_least": st.sampled_from([1, 2, 0.5, 1.5]),
        "gain": st.sampled_from(["linear", "exponential"]),
        "ties": st.sampled_from(["score", "input"]),
        "missing": st.sampled_from(["skip", "zero"]),
        # trec_eval -M and -J: they change the ranking every measure reads
        "max_retrieved": st.sampled_from([None, 0, 1, 2, 3, 6]),
        "judged_only": st.booleans(),
    },
)


def trec_lines(value: dict, kind: str) -> str:
    """The qrels or run of run_inputs as TREC file text (run lists get descending scores)."""
    out = []
    for q, entries in value[kind].items():
        items = list(entries.items()) if isinstance(entries, dict) else [(d, float(-i)) for i, d in enumerate(entries)]
        for rank, (doc, number) in enumerate(items, start=1):
            out.append(f"{q} 0 {doc} {number!r}" if kind == "qrels" else f"{q} Q0 {doc} {rank} {number!r} tag")
    return "\n".join(out) + ("\n" if out else "")


bad_lines = st.sampled_from([
    "q1 0 d1", "q1 0 d1 1 extra", "q1 Q0 d1 1", "q1 Q0 d1 1 x tag", "q1 Q0 d1 1 nan tag", "q1 Q0 d1 1 1e999 tag",
    "q1 0 d1 +-1", "q1 0 d1 0x10", "   ", "", "\t\r", "q1 Q0 d1 1 2.0 tag extra", "q1 0 d1 1_0",
    "q1 Q0 d1 1 inf tag", "q1 Q0 d1 1 2abc tag", "q1 0 d1 5e-1 x", "q1#x Q0 d1 1 2 tag",
])

# Lines both formats skip: blank ones and comments (the first non-blank byte is '#'), which
# may look like data lines, be indented, or be long (past a small max_line_bytes).
_blank_space = st.text(alphabet=" \t\r\x0b\x0c", max_size=3)
skipped_lines = st.one_of(
    _blank_space,
    st.tuples(_blank_space, st.sampled_from(["#", "# ", "##", "#\t"]),
              st.one_of(st.text(st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=30),
                        st.sampled_from(["q1 Q0 d1 1 2.0 tag", "q1 0 d1 1", "q9 Q0 x 1 1 t", "x" * 50]))).map("".join),
)
# What may follow a line's last field: nothing, spaces, or more fields (a run line ignores
# those after its 6th; a qrels line with a 5th is malformed).
extra_fields = st.one_of(
    _blank_space,
    st.sampled_from([" extra", "\tx y z", " # not a comment", " 1 2 3 4 5 6 7", " é😀"]),
)


@st.composite
def trec_text(draw: Any, base: str) -> str:
    """TREC text with lines repeated, moved or replaced by malformed ones, blank lines and
    comments put anywhere (inside a query's lines too), extra fields after a line's last,
    and CRLF line ends."""
    lines = base.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.sampled_from(["repeat", "bad", "move", "skipped", "skipped", "extra"]))
        at = draw(st.integers(0, len(lines)))
        if action == "bad":
            lines.insert(at, draw(bad_lines))
        elif action == "skipped":
            lines.insert(at, draw(skipped_lines))
        elif lines and action == "extra":
            at = min(at, len(lines) - 1)
            lines[at] += draw(extra_fields)
        elif lines and action == "repeat":
            lines.insert(at, draw(st.sampled_from(lines)))
        elif lines:
            lines.insert(at, lines.pop(draw(st.integers(0, len(lines) - 1))))
    return ("\r\n" if draw(st.integers(0, 4)) == 0 else "\n").join(lines)


# ---- evalcore.compare ------------------------------------------------------------------


def at_most(examples: int) -> settings:
    """@settings for a property too costly an example for the ci profile's 2,500: at most
    `examples` (the profile's own count where that is lower, as in dev)."""
    return settings(max_examples=min(examples, settings.default.max_examples))


COMPARE_DOCS = [f"d{i}" for i in range(8)]
_RANKINGS = 7 * 8 * 7 * 6 * 5 * 4 * 3  # codes of the rankings of 0..6 distinct documents of COMPARE_DOCS


def compare_ranking(code: int, shortest: int = 0) -> list:
    """The ranking a code stands for: its base-7 low digit is the length (shortest up to 6),
    the rest picks the documents one at a time (mixed radix 8, 7, 6, ...). Small codes are
    short rankings of the first documents, where hypothesis shrinks to."""
    length, code = shortest + code % (7 - shortest), code // (7 - shortest)
    pool, out = list(COMPARE_DOCS), []
    for _ in range(length):
        code, i = divmod(code, len(pool))
        out.append(pool.pop(i))
    return out


@st.composite
def compare_inputs(draw: Any, max_queries: int = 24, max_runs: int = 4) -> dict:
    """{"qrels", "runs": {name: {q: [doc, ...]}}}: 2..max_runs runs ranking a small pool per
    query, so that measures tie across runs and between queries (zero differences, tied
    |differences|), some queries have no relevant document (undefined measures) and some
    runs lack queries (dropped, or zeros with missing="zero"). A run often repeats the
    previous run's ranking of a query (a zero difference), and lists its queries in an order
    of its own. Few queries are common.

    Each query's judgments, each run's query order and each (run, query) entry are one
    integer draw (compare_ranking decodes them): an example costs few draws, so that the
    differential test can run thousands."""
    n = draw(st.integers(1, max_queries))
    queries = [f"q{i:02d}" for i in range(n)]
    qrels = {}
    for q in queries:
        code, grades = divmod(draw(st.integers(0, _RANKINGS * 4096 - 1)), 4096)  # 6 grades of 2 bits
        qrels[q] = {d: (grades >> (2 * i)) & 3 for i, d in enumerate(compare_ranking(code, shortest=1))}
    names = draw(st.lists(st.sampled_from(["bm25", "dense", "rm3", "splade", "x y", "é"]), min_size=2,
                          max_size=max_runs, unique=True))
    runs: dict = {}
    previous: dict = {}
    for name in names:
        order = list(queries)
        shuffle = draw(st.integers(0, 2**32 - 1))
        if shuffle:  # 0: the qrels' order
            random.Random(shuffle).shuffle(order)
        run = {}
        for q in order:
            code, kind = divmod(draw(st.integers(0, 10 * _RANKINGS - 1)), 10)
            if kind == 0:
                continue  # this run lacks the query
            run[q] = list(previous[q]) if kind <= 3 and q in previous else compare_ranking(code)
        runs[name] = previous = run
    return {"qrels": qrels, "runs": runs}
