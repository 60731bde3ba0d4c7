"""Python objects that fight back: subclasses and scalars whose __eq__, __hash__, __float__,
__index__ or items() run code that mutates or frees what is being read, shared and cyclic
references. Neither core may crash (the CI runs this file under ASan), and both must agree.

Each case is built fresh for each implementation (its side effects change the input)."""

from __future__ import annotations

from typing import Any, Dict

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import run_fresh

SPAN = {"id": "s", "label": "PER", "start": 0, "end": 3}


# ---- item 1: a key whose __eq__ drops what the corpus reader holds -------------------------


def test_corpus_key_whose_eq_drops_the_lists_being_read():
    def make():
        doc: Dict[Any, Any] = {}

        class Key(str):
            def __hash__(self):
                return str.__hash__(self)

            def __eq__(self, other):
                doc["references"] = None  # frees the list a lookup-based reader would hold
                doc[self] = None
                return str.__eq__(self, other)

        doc["text"] = "Ann went"
        doc["references"] = [dict(SPAN, id=f"r{i}", end=i + 1) for i in range(8)]
        doc[Key("predictions")] = [dict(SPAN, id=f"p{i}", end=i + 1) for i in range(0, 8, 2)]
        return ([doc],), {}

    outcome = run_fresh("span_evaluate_corpus", make)
    # Read by storage, as json.dumps reads it: no method of the key ran, all is there.
    assert outcome[0] == "ok" and outcome[1]["overall"]["matched"] == 4 and outcome[1]["overall"]["references"] == 8


# ---- item 2: a grade whose __float__ clears the dicts being read ---------------------------


def test_run_grade_whose_float_clears_the_dicts_being_read():
    def make():
        qrels: Dict[str, Any] = {}

        class Grade:
            def __float__(self):
                for inner in list(qrels.values()):
                    inner.clear()
                qrels.clear()  # the inner dicts are now referenced by no one but the reader
                return 1.0

        qrels["q1"] = {"d0": 1, "d1": Grade(), **{f"d{i}": 2 for i in range(2, 40)}}
        qrels["q2"] = {"d0": 1}
        run = {"q1": {f"d{i}": float(40 - i) for i in range(40)}, "q2": {"d0": 1.0}}
        return (qrels, run, ["P@5", "AP", "nDCG@10"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "ok"
    # q1's entries as they were when reading began (a snapshot); q2's dict was emptied
    # before it was reached.
    plain = evalcore.evaluate_run(
        {"q1": {"d0": 1, "d1": 1.0, **{f"d{i}": 2 for i in range(2, 40)}}, "q2": {}},
        {"q1": {f"d{i}": float(40 - i) for i in range(40)}, "q2": {"d0": 1.0}},
        ["P@5", "AP", "nDCG@10"],
    )
    assert outcome[1] == plain


def test_run_score_with_only_index_that_mutates_the_run():
    def make():
        run: Dict[str, Any] = {}

        class Score:
            def __index__(self):
                run["q1"].clear()
                run.clear()
                return 3

        run["q1"] = {"a": Score(), "b": 1.0, "c": 2.0}
        return ({"q1": {"a": 1, "b": 1}}, run, ["RR", "P@2"]), {}

    assert run_fresh("evaluate_run", make)[0] == "ok"


# ---- item 6: IDs compared by their text ----------------------------------------------------


class OtherHash(str):
    """A str subclass that a dict keeps apart from the plain str of the same text."""

    def __hash__(self):
        return 7

    def __eq__(self, other):
        return False


def test_run_document_twice_through_a_str_subclass_key():
    def make():
        return ({"q": {"a": 1, "b": 1}}, {"q": {OtherHash("a"): 5.0, "a": 1.0, "b": 3.0}}, ["AP"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "error" and "has document 'a' twice (entries 0 and 1)" in outcome[1][1]


def test_qrels_document_twice_through_a_str_subclass_key():
    def make():
        return ({"q": {OtherHash("a"): 1, "a": 0}}, {"q": ["a"]}, ["P@1"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "error" and outcome[1][2] == "qrels" and "twice" in outcome[1][1]


def test_query_twice_through_a_str_subclass_key():
    def make():
        return ({"q": {"a": 1}}, {OtherHash("q"): ["a"], "q": ["a"]}, ["P@1"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "error" and "query 'q' is given twice (entries 0 and 1)" in outcome[1][1]


# ---- item 7: one rule for mappings: items(), as json.dumps ---------------------------------


class ItemsOverride(dict):
    """A dict whose items() disagrees with its storage."""

    def items(self):
        return [(key, 0 if isinstance(value, (int, float)) else value) for key, value in dict.items(self)]


def test_dict_subclass_is_read_through_items_in_runs():
    def make():
        return ({"q": ItemsOverride(a=1, b=1)}, {"q": {"a": 2.0, "b": 1.0}}, ["P@2"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "ok" and outcome[1].mean["P@2"] == 0.0  # items() says: nothing relevant (storage: 1.0)


def test_dict_subclass_is_read_through_items_in_requests():
    def make():
        request = {"predicted": ["a"], "ground_truth": ["a"], "k": ItemsOverride()}
        return (request,), {}

    assert run_fresh("score", make) == ("error", ("SCHEMA_VIOLATION", 422, "/k"))


def test_items_must_give_pairs():
    class Bad(dict):
        def items(self):
            return [("a",)]

    assert run_fresh("score", lambda: (({"predicted": Bad(), "ground_truth": []},), {})) == (
        "error", ("SCHEMA_VIOLATION", 422, "/predicted"))
    outcome = run_fresh("evaluate_run", lambda: (({"q": Bad()}, {"q": ["a"]}, ["P@1"]), {}))
    assert outcome[0] == "error" and "the items() of a Bad must give (key, value) tuples" in outcome[1][1]


def test_items_giving_a_key_twice_is_duplicate_field():
    class Twice(dict):
        def items(self):
            return [("predicted", ["a"]), ("predicted", ["b"])]

    def make():
        return (Twice(),), {}

    assert run_fresh("score", make) == ("error", ("DUPLICATE_FIELD", 422, "/predicted"))


def test_items_that_mutates_an_enclosing_dict():
    def make():
        outer: Dict[str, Any] = {}

        class Mutating(dict):
            def items(self):
                outer.clear()  # the request being read
                return dict.items(self)

        outer.update(predicted=["a", "b"], ground_truth=Mutating(), metrics=["f1"])
        return (outer,), {}

    assert run_fresh("score", make) == ("error", ("SCHEMA_VIOLATION", 422, "/ground_truth"))


def test_subclassed_scalars_are_read_by_value():
    class Loud(float):
        def __float__(self):
            return 99.0

        def __lt__(self, other):
            raise AssertionError("no method of a subclass runs")

    class Number(int):
        def __index__(self):
            return 99

        def __float__(self):
            return 99.0

    def make():
        return ({"q": {"a": Number(1), "b": 0}}, {"q": {"a": Loud(1.0), "b": Loud(2.0)}}, ["RR"]), {}

    outcome = run_fresh("evaluate_run", make)
    assert outcome[0] == "ok" and outcome[1].mean["RR"] == 0.5


# ---- item 3: shared and cyclic references ---------------------------------------------------


def shared_nest(levels: int, width: int) -> list:
    nested: Any = ["a"] * width
    for _ in range(levels):
        nested = [nested] * width
    return nested


@pytest.mark.parametrize("implementation", [evalcore], ids=["native"])  # the reference: below, smaller
def test_score_with_shared_lists_stops_at_the_default_node_limit(implementation):
    nested = shared_nest(4, 1000)  # a few kB of objects, 10**15 values
    for request in ({"predicted": nested, "ground_truth": ["a"]}, {"items": [{"predicted": nested, "ground_truth": []}]}):
        with pytest.raises(evalcore.EvaluationError) as err:
            implementation.score(request)
        assert err.value.code == "INPUT_LIMIT" and "jsonNodes = 10000000" in err.value.message


def test_score_with_one_list_shared_by_many_items_stops_at_the_node_limit():
    ids = [f"id{i}" for i in range(1000)]

    def make():
        return ({"items": [{"predicted": ids, "ground_truth": ids}] * 5000},), {"limits": {"json_nodes": 100_000}}

    assert run_fresh("score", make) == ("error", ("INPUT_LIMIT", 413, ""))


def test_score_with_one_long_string_shared_stops_at_the_byte_limit():
    def make():
        long_id = "x" * 1_000_000
        return ({"predicted": [long_id] * 1000, "ground_truth": ["x"]},), {"limits": {"input_bytes": 10_000_000}}

    assert run_fresh("score", make) == ("error", ("INPUT_LIMIT", 413, ""))


def test_score_within_limits_reads_the_fast_way_and_slow_way_alike():
    # Just under and just over the node limit: 1 + 2 lists + 6 IDs = 9 values.
    for limit, expected in ((9, "ok"), (8, "error")):
        def make():
            return ({"predicted": ["a", "b", "c"], "ground_truth": ["a", "b", "d"]},), {"limits": {"json_nodes": limit}}

        assert run_fresh("score", make)[0] == expected


def test_corpus_with_shared_lists_stops_at_the_node_limit():
    spans = [dict(SPAN, id=f"s{i}") for i in range(100)]
    doc = {"text": "Ann went", "references": spans, "predictions": spans}

    def make():
        return ([doc] * 2000,), {"limits": {"json_nodes": 100_000}}

    outcome = run_fresh("span_evaluate_corpus", make)
    assert outcome[0] == "error" and outcome[1][0] == "INPUT_LIMIT" and outcome[1][2] == "/99"


def test_corpus_node_limit_counts_fast_and_slow_documents_alike():
    odd = {"text": "Ann went", "references": [SPAN], "predictions": [dict(SPAN, extra=1)]}  # read the slow way
    plain = {"text": "Ann went", "references": [SPAN], "predictions": [SPAN]}  # 4 + 10 = 14 values
    for limit in (27, 28, 29, 42, 43):

        def make():
            return ([plain, odd, plain],), {"limits": {"json_nodes": limit}}

        run_fresh("span_evaluate_corpus", make)


def test_corpus_document_nested_in_a_text_stops_at_the_depth_limit():
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]

    def make():
        return ([{"text": deep, "references": [], "predictions": []}],), {}

    assert run_fresh("span_evaluate_corpus", make) == ("error", ("INPUT_LIMIT", 413, "/0/text" + "/0" * 19))


def test_cycles_are_refused_where_they_close():
    def corpus():
        doc: Dict[str, Any] = {"text": "Ann went", "references": [], "predictions": []}
        doc["predictions"].append(doc)
        return ([doc],), {}

    assert run_fresh("span_evaluate_corpus", corpus) == ("error", ("INPUT_LIMIT", 413, "/0/predictions/0"))

    def score_request():
        items: list = []
        items.append({"predicted": items, "ground_truth": []})
        return ({"items": items},), {}

    assert run_fresh("score", score_request) == ("error", ("INPUT_LIMIT", 413, "/items/0/predicted"))

    def ranking():
        request: Dict[str, Any] = {"k": 1}
        request["queries"] = [request]
        return (request,), {}

    assert run_fresh("ranking_evaluate", ranking) == ("error", ("INPUT_LIMIT", 413, "/queries/0"))


# ---- the class of bug: hostile objects generated ---------------------------------------------


def hostile_value(draw: Any, target: list) -> Any:
    """A grade/score/ID-ish object whose methods may clear `target`'s containers when called."""
    kind = draw(st.sampled_from(["float", "index", "str-eq", "str-hash", "float-sub", "plain"]))
    value = draw(st.integers(0, 3))

    def sabotage() -> None:
        for container in target:
            container.clear()

    if kind == "float":
        return type("F", (), {"__float__": lambda self: (sabotage(), float(value))[1]})()
    if kind == "index":
        return type("I", (), {"__index__": lambda self: (sabotage(), value)[1]})()
    if kind == "str-eq":
        return type("E", (str,), {"__eq__": lambda self, o: (sabotage(), False)[1], "__hash__": lambda self: 1})(f"d{value}")
    if kind == "str-hash":
        return type("H", (str,), {"__hash__": lambda self: (sabotage(), 5)[1]})(f"d{value}")
    if kind == "float-sub":
        return type("G", (float,), {"__float__": lambda self: (sabotage(), 9.0)[1]})(float(value))
    return value


class Mutating(dict):
    target: list = []

    def items(self):
        for container in self.target:
            container.clear()
        return dict.items(self)


@given(st.data())
def test_hostile_objects_in_runs_never_crash_and_both_agree(data):
    n_queries = data.draw(st.integers(1, 4))
    layout = [(data.draw(st.integers(0, 5)), data.draw(st.integers(0, 5)), data.draw(st.booleans())) for _ in range(n_queries)]
    picks = data.draw(st.lists(st.integers(0, 10 ** 6), min_size=64, max_size=64))
    kinds = data.draw(st.lists(st.sampled_from(["float", "index", "str-eq", "str-hash", "float-sub", "plain", "plain"]),
                               min_size=64, max_size=64))

    def make():
        target: list = []
        counter = iter(range(64))

        def hostile() -> Any:
            i = next(counter) % 64
            drawn = iter([kinds[i], picks[i] % 4])
            return hostile_value(lambda strategy: next(drawn), target)

        qrels: Dict[Any, Any] = {}
        run: Dict[Any, Any] = {}
        for q, (n_judged, n_ranked, subclass) in enumerate(layout):
            judged = Mutating() if subclass else {}
            for d in range(n_judged):
                judged[hostile() if d % 3 == 2 else f"d{d}"] = hostile()
            qrels[f"q{q}"] = judged
            run[f"q{q}"] = {f"d{d}": hostile() if d % 2 else float(d) for d in range(n_ranked)}
            target.extend([judged, run[f"q{q}"]])
        target.extend([qrels, run])
        Mutating.target = target
        return (qrels, run, ["P@3", "AP", "nDCG@5", "RR"]), {}

    run_fresh("evaluate_run", make)


@given(st.data())
def test_hostile_objects_in_requests_never_crash_and_both_agree(data):
    operation = data.draw(st.sampled_from(["score", "span_evaluate_corpus", "ranking_evaluate"]))
    kinds = data.draw(st.lists(st.sampled_from(["float", "index", "str-eq", "str-hash", "float-sub", "plain"]),
                               min_size=32, max_size=32))
    subclass_at = data.draw(st.integers(0, 6))

    def make():
        target: list = []
        counter = iter(range(10 ** 6))

        def hostile(default: Any) -> Any:
            kind = kinds[next(counter) % 32]
            if kind == "plain":
                return default
            drawn = iter([kind, 1])
            return hostile_value(lambda strategy: next(drawn), target)

        def container(i: int, **members: Any) -> dict:
            made = Mutating(members) if i == subclass_at else dict(members)
            target.append(made)
            return made

        Mutating.target = target
        if operation == "score":
            ids = [hostile("a"), "b", hostile("c")]
            target.append(ids)
            request: Any = container(0, predicted=ids, ground_truth=[hostile("a")], k=hostile(2))
            return (request,), {}
        if operation == "span_evaluate_corpus":
            spans = [container(i, id=hostile("s"), label="PER", start=hostile(0), end=3) for i in range(1, 3)]
            target.append(spans)
            doc = container(0, text=hostile("Ann went"), references=spans[:1], predictions=spans)
            return ([doc, dict(doc)],), {}
        query = container(1, id=hostile("q"), retrieved=[hostile("d1"), "d2"],
                          judgments=[container(2, id="d1", grade=hostile(1)), container(3, id="d2", grade=2)])
        target.append(query["retrieved"] if isinstance(query, dict) else [])
        return (container(0, queries=[query], k=hostile(2)),), {}

    run_fresh(operation, make)
