"""evaluate_run with trec_eval's preference judgments (qrels_format="prefs" / "qrels_prefs"):
the 14 prefs_* measures native == reference on generated judgments and runs (ties,
unjudged documents, missing queries), the reader's faults (file, line, what to do) in both
cores, values worked out by hand from trec_eval's definitions, and the refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import run_all, slow_examples, trec_files
from evalcore.testing import run_options
from evalcore.testing.preferences import PREFERENCE_MEASURE_NAMES, preferences

RUN = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq1 Q0 x 4 1 t\n"


def evaluate_both(prefs_text, run_text, measures, rel_format="prefs", **options):
    with trec_files(prefs_text, run_text) as (qrels, run):
        return run_all("evaluate_run", qrels, run, measures, qrels_format=rel_format, **options)


# A small budget: each example writes two files and reads them in both cores (the counts
# themselves are checked against trec_eval's binary by the golden cases, pref_* in
# tests/data/trec_eval/cli).
@slow_examples(150)
@given(st.booleans(), st.data(),
       st.one_of(st.sampled_from(PREFERENCE_MEASURE_NAMES[-2:]).map(lambda name: [name]),
                 st.lists(st.sampled_from(PREFERENCE_MEASURE_NAMES[:-2]), unique=True, min_size=1, max_size=4)),
       run_options())
def test_native_equals_reference(with_subgroups, data, measures, options):
    value = data.draw(preferences(with_subgroups=with_subgroups))
    options.pop("gain", None)
    options.pop("relevant_at_least", None)
    options.pop("judged_only", None)
    outcome = evaluate_both(value["prefs"], value["run"], measures, "prefs" if with_subgroups else "qrels_prefs",
                            **options)
    assert outcome[0] == "ok", outcome  # generated judgments are consistent
    for name in outcome[1].measures:
        values = outcome[1].values(name)
        assert all(v >= 0 and (name.startswith("prefs_num") or v <= 1) for v in values), (name, values)


def test_values_by_hand():
    # Group g (one sub-group): a 2, b 1, y 1, c 0; ranking a b c x: internal ranks a 0 b 1 c 2, y 3.
    # Preferences: a>b a>y a>c b>c y>c: retrieved fulfilled a>b a>c b>c; implied a>y fulfilled,
    # y>c not (y not retrieved).
    prefs = "q1 g s a 2\nq1 g s b 1\nq1 g s y 1\nq1 g s c 0\n"
    result = evaluate_both(prefs, RUN, "all_prefs")[1]
    row = {m: float(result.values(m)[0]) for m in result.measures}
    assert (row["prefs_num_prefs_poss"], row["prefs_num_prefs_ful"], row["prefs_num_prefs_ful_ret"]) == (5, 4, 3)
    assert row["prefs_simp"] == 4 / 5 and row["prefs_simp_ret"] == 3 / 3 and row["prefs_simp_imp"] == 4 / 5
    assert row["prefs_pair"] == 4 / 5 and row["prefs_avgjg"] == 4 / 5
    # Rnonrel: R = 3 relevant, N = 1: (4 + R_ret (2) * 2) / (5 + R (3) * 2)
    assert row["prefs_avgjg_Rnonrel"] == (4 + 2 * 2) / (5 + 3 * 2)


def test_sub_groups_combine_transitively():
    # s1: a > b; s2: b > c: a > c is implied too (3 preferences); d (judged alone) adds none.
    prefs = "q1 g s1 a 2\nq1 g s1 b 1\nq1 g s2 b 5\nq1 g s2 c 4\nq1 g s3 d 1\n"
    result = evaluate_both(prefs, "q1 Q0 c 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 a 3 1 t\n", ["prefs_num_prefs_poss", "prefs_simp"])
    assert result[1].values("prefs_num_prefs_poss").tolist() == [3.0]
    assert result[1].values("prefs_simp").tolist() == [0.0]  # the ranking reverses all three


def test_qrels_prefs_reads_qrels_and_ties_go_by_id():
    # Tied scores: document ID ascending (form_prefs_counts.c), not trec_eval's usual descending.
    qrels = "q1 0 b 1\nq1 0 a 0\n"
    up = evaluate_both(qrels, "q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\n", "prefs_simp", "qrels_prefs")[1]
    assert up.values("prefs_simp").tolist() == [0.0]  # a ranks above b
    down = evaluate_both(qrels, "q1 Q0 a 1 0 t\nq1 Q0 b 2 1 t\n", "prefs_simp", "qrels_prefs")[1]
    assert down.values("prefs_simp").tolist() == [1.0]


def test_missing_queries():
    prefs = "q1 g s a 1\nq1 g s b 0\nq9 g s a 1\nq9 g s b 0\n"
    skipped = evaluate_both(prefs, RUN, ["prefs_simp"])[1]
    assert skipped.query_ids == ["q1"] and skipped.missing_query_ids == ["q9"]
    zero = evaluate_both(prefs, RUN, ["prefs_simp", "prefs_num_prefs_poss"], missing="zero")[1]
    assert zero.query_ids == ["q1", "q9"] and zero.values("prefs_simp").tolist() == [1.0, 0.0]
    assert zero.values("prefs_num_prefs_poss").tolist() == [1.0, 1.0]


S, Q = "a prefs line has 5 fields: query judgment_group judgment_subgroup document rel_level", \
    "a qrels_prefs line has 4 fields: query judgment_group document rel_level"


@pytest.mark.parametrize("rel_format, text, line, message", [
    ("prefs", "q1 g s a\n", 1, f"{S}, found 4"),
    ("prefs", "q1 g s a 1\nq1 g s b 1 x\n", 2, f"{S}, found more"),
    ("qrels_prefs", "# comment\n\nq1 g a one\n", 3, "the rel_level 'one' is not a finite number"),
    ("qrels_prefs", "q1 g a 1\nq1 g b -3.0\n", 2, "the rel_level -3 is trec_eval's mark for no level (a group "
     "judged at most -3 is miscounted there): use another value"),
    ("prefs", "q1 g s a 1\nq1 g t a -1\nq1 g u b 0\nq1 g v a 0\n", 4,  # -1 is neither 0 nor > 0
     "query 'q1' judgment group 'g' judges document 'a' non-relevant (0) and relevant (> 0) (first on line 1)"),
    ("qrels_prefs", "q1 g a 1 x\n", 1, f"{Q}, found more"),
    ("prefs", "q1 g s a 1\nq1 g t a 1\nq1 g s a 2\n", 3,
     "query 'q1' judgment group 'g' sub-group 's' gives document 'a' two rel_levels (first on line 1)"),
    ("prefs", "q1 g s a 1\nq1 h s a 0\nq1 g t a 0\n", 3,
     "query 'q1' judgment group 'g' judges document 'a' non-relevant (0) and relevant (> 0) (first on line 1)"),
    ("prefs", "q1 g s a 2\nq1 g s b 1\nq1 g t b 2\nq1 g t a 1\nq1 h s a 1\n", 4,
     "query 'q1' judgment group 'g': the preferences of its sub-groups contradict each other (a cycle); put "
     "contradicting judgments in different judgment groups"),
    ("prefs", "q1 g s a 2\nq1 g s b 1\nq1 g t b 2\nq1 g t a 1\nq1 g x\n", 4,  # the cycle is there by line 4
     "query 'q1' judgment group 'g': the preferences of its sub-groups contradict each other (a cycle); put "
     "contradicting judgments in different judgment groups"),
])
def test_reader_faults(rel_format, text, line, message):
    with trec_files(text, RUN) as (qrels, run):
        outcome = run_all("evaluate_run", qrels, run, "prefs_simp", qrels_format=rel_format)
        assert outcome[1] == ("RunInputError", f"{qrels}:{line}: {message}", qrels, line)


@pytest.mark.parametrize("module", [evalcore, evalcore.reference])
def test_formats_and_measures_refused(module):
    with trec_files("q1 g s a 1\n", RUN) as (qrels, run):
        with pytest.raises(ValueError, match="'prefs_simp' reads preference judgments: pass qrels_format='prefs'"):
            module.evaluate_run(qrels, run, ["map", "prefs_simp"])
        with pytest.raises(ValueError, match="'map' does not read preference judgments.*nicknames all_prefs, prefs"):
            module.evaluate_run(qrels, run, ["prefs_simp", "map"], qrels_format="prefs")
        with pytest.raises(ValueError, match="'prefs_simp' reads preference judgments"):
            module.evaluate_run(qrels, run, "prefs_simp", qrels_format="qrels_jg")
        with pytest.raises(TypeError, match="qrels must be the path of a TREC file.*write it to a file first"):
            module.evaluate_run({"q1": {"a": 1}}, run, "prefs_simp", qrels_format="qrels_prefs")
