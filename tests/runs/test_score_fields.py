"""Score and grade fields as TREC files spell them, read by both cores alike (the native
parse_number: a plain decimal of up to 15 digits by one division, anything else through
from_chars; the reference reads them in Python): the same values bit for bit, and the same
fault for a field that is not a finite decimal number. (Written for a word-at-a-time parse
of short fields, since reverted: measured slower on sorted runs.)"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from common import run_all, trec_files

# Fields near the word path's edges: 1 to 10 bytes of digits and points (0, 1 or 2 points,
# at either end too), signs, exponents, and bytes that end a number early.
digits = st.text("0123456789", min_size=0, max_size=10)
fields = st.one_of(
    st.builds(lambda a, b: f"{a}.{b}", digits, digits),
    digits.filter(bool),
    st.builds(lambda s, a, b: f"{s}{a}.{b}", st.sampled_from(["-", "+"]), digits, digits),
    st.builds(lambda a, e: f"{a}e{e}", digits.filter(bool), st.integers(-30, 30)),
    st.text("0123456789.-+eE/:x", min_size=1, max_size=10),
)


@given(st.lists(fields, min_size=1, max_size=12))
def test_score_fields_read_alike(scores):
    qrels = "q 0 d0 1\nq 0 d3 2\n"
    run = "".join(f"q Q0 d{i} {i + 1} {score} t\n" for i, score in enumerate(scores))
    with trec_files(qrels, run) as (qrels_path, run_path):
        outcome = run_all("evaluate_run", qrels_path, run_path, ["map", "P@5", "num_ret"], ties="input")
    assert outcome[0] in ("ok", "error")


@given(st.lists(fields, min_size=1, max_size=12))
def test_grade_fields_read_alike(grades):
    qrels = "".join(f"q 0 d{i} {grade}\n" for i, grade in enumerate(grades))
    with trec_files(qrels, "q Q0 d0 1 1.5 t\nq Q0 d1 2 0.5 t\n") as (qrels_path, run_path):
        outcome = run_all("evaluate_run", qrels_path, run_path, ["map", "num_rel", "ndcg"])
    assert outcome[0] in ("ok", "error")
