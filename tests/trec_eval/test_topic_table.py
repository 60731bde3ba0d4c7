"""The per-topic table of ``evalcore trec --format trec_eval``: the core's lines equal
output_format.per_topic_lines' (the Python rule they replace on the hot path) for any
values, names and topic IDs; the totals are sums left to right."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from evalcore import _core
from evalcore.trec_eval import output_format as te
from evalcore.trec_eval import topic_table

# Values trec_eval prints: any double (NaN as "-nan"), whole numbers for integer columns.
_values = st.floats(allow_nan=True, allow_infinity=True, width=64)
_names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=30)
# Topic IDs as the CLI holds them: str with surrogate escapes for bytes that are not UTF-8.
_topics = st.binary(min_size=1, max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape"))


@st.composite
def _tables(draw):
    columns = draw(st.lists(st.tuples(_names, st.booleans()), min_size=1, max_size=6))
    topics = draw(st.lists(_topics, min_size=0, max_size=6))
    rows = []
    for _ in topics:
        row = []
        for _, integer in columns:
            if integer:
                row.append(float(draw(st.integers(min_value=-(1 << 62), max_value=1 << 62))))
            else:
                row.append(draw(_values))
        rows.append(row)
    return columns, topics, rows


# 200 examples: the formatting is one loop over independent cells; the boundaries that matter
# (NaN, ±inf, -0.0, huge and tiny values, padding past 22 characters) are drawn early.
@settings(max_examples=200, deadline=None)
@given(_tables())
def test_core_lines_equal_the_python_rule(table):
    columns, topics, rows = table
    specs = []
    for name, integer in columns:
        column = te.Column(name, lambda row: 0.0)
        column.integer = integer
        specs.append(column)
    values = np.array(rows, dtype=np.float64).reshape(len(topics), len(columns))
    expected = "".join(te.per_topic_lines(specs, t, list(v)) for t, v in zip(topics, rows))
    assert topic_table.topic_lines(specs, topics, values) == expected.encode("utf-8", "surrogateescape")


def test_summary_only_columns_are_not_printed_per_topic():
    shown, hidden = te.Column("map", lambda row: 0.0), te.Column("gm_map", lambda row: 0.0)
    hidden.summary_only = True
    lines = topic_table.topic_lines([shown, hidden], ["q1"], np.array([[0.5, 0.25]]))
    assert lines == te.line("map", "q1", "0.5000").encode()


def test_totals_add_left_to_right():
    # 1e16 + 1 + 1 is 1e16 left to right; a pairwise sum gives 1e16 + 2.
    table = np.array([[1e16], [1.0], [1.0]])
    total = 0.0
    for v in table[:, 0]:
        total += v
    assert topic_table.summary_totals(table) == [total] == [1e16]
    assert math.fsum(table[:, 0]) != total


def test_bad_shapes_are_refused():
    import pytest

    with pytest.raises(ValueError, match="one row per topic"):
        _core.trec_topic_lines(["map"], [False], [b"q1", b"q2"], np.zeros((1, 1)), [None])
    with pytest.raises(ValueError, match="one integer flag and one text list"):
        _core.trec_topic_lines(["map"], [], [b"q1"], np.zeros((1, 1)), [None])
    with pytest.raises(ValueError, match="one text per topic"):
        _core.trec_topic_lines(["relstring"], [False], [b"q1"], np.zeros((1, 1)), [[b"'1'", b"'2'"]])


# ---- every column of every measure: the table equals the per-topic rule ----------------------

@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), min_size=0, max_size=5),
       st.sampled_from([["all_trec"], ["official", "set"], ["relstring.3", "11pt_avg.0.2,0.9", "iprec_at_recall"],
                        ["gm_map", "gm_bpref", "num_ret", "utility.1,2,3,4"]]),
       st.randoms(use_true_random=False))
def test_the_table_equals_each_topics_values(topics, measures, rng):
    """column_table and topic_lines give what topic_values and per_topic_lines give topic by
    topic, for every column the plans of these measures make (vectorized or not, relstring's
    text), on values drawn as evalcore gives them (NaN where undefined)."""
    plan = te.plan(measures)
    width = len(plan.specs)
    values = np.array([[rng.choice([math.nan, 0.0, 0.25, 1.0, 3.0, -1.0, 12.0, 1e-300]) for _ in range(width)]
                       for _ in topics]).reshape(len(topics), width)
    for index in plan.counts.values():  # counts are never undefined
        values[:, index] = [rng.choice([0.0, 1.0, 2.0, 5.0]) for _ in topics]
    retrieved_index = plan.counts["NumRet"]
    bogus = np.array(topics, dtype=bool)
    table = topic_table.TopicTable(values, values[:, retrieved_index].astype(np.int64), bogus)
    queries = [f"q{i}" for i in range(len(topics))]
    got = topic_table.column_table(plan.columns, table)
    expected_lines = []
    for t, row in enumerate(table.rows()):
        expected = te.topic_values(plan.columns, row)
        for c, (a, b) in enumerate(zip(got[t].tolist(), expected)):
            assert a == b or (math.isnan(a) and math.isnan(b)), (plan.columns[c].name, a, b)
        expected_lines.append(te.per_topic_lines(plan.columns, queries[t], expected))
    assert topic_table.topic_lines(plan.columns, queries, got, table) == "".join(expected_lines).encode()


# Where a fast %6.4f goes wrong: exact halves (0.03125 is 0.0312|5: to even), values just
# off a half (0.00005 is not exactly representable), the sign of values rounding to 0, the
# edge of the fast path (2^50) and subnormals.
@pytest.mark.parametrize("value", [0.03125, 0.09375, 0.00005, 0.00015, 0.99995, 9.99995, 0.5, 1.0, 0.1, 1 / 3,
                                   -0.0, -1e-300, 1e-300, 5e-324, -0.00004, -0.00005, 2.0 ** 50 - 0.5, 2.0 ** 50, 2.0 ** 52 - 0.5, 2.0 ** 52,
                                   2.0 ** 52 + 1, 2.0 ** 53, 1e300, -1e300, 123456.78905, 0.00625, 0.0000499999])
def test_fixed_point_text_as_printf(value):
    column = te.Column("x", lambda row: 0.0)
    assert topic_table.topic_lines([column], ["q"], np.array([[value]])) == te.line("x", "q", te.number(value)).encode()
