"""issue 23 item 4: how the tools treat judged queries the run lacks, queries without a
relevant document and unjudged documents, and the evalcore options that reproduce each
(docs/missing-and-unjudged.md's table), checked against ir_measures' and pytrec_eval's
numbers; ranx's rule (its evaluate refuses differing query sets) where ranx is installed;
evaluate_run's warning on the queries missing="skip" leaves out, in both cores. Tests calling
pytrec_eval (ir_measures' provider too) have it in their names: the sanitizer stage leaves
them out (-k "not pytrec_eval")."""

import math
import re
import warnings

import numpy as np
import pytest

import evalcore
import evalcore.reference
from evalcore import trec_eval as dropin

# q3 is judged and not in the run; q4 is judged with no relevant document; "extra" is in
# the run and not judged; doc z of q1 is unjudged (non-relevant for every tool).
QRELS = {
    "q1": {"a": 2, "b": 0, "c": 1, "d": 1},
    "q2": {"e": 1, "f": 0, "g": 2},
    "q3": {"h": 1, "i": 1},
    "q4": {"j": 0, "k": 0},
    "q5": {"l": 1, "m": 3},
}
RUN = {
    "q1": {"z": 9.0, "b": 8.0, "a": 7.0, "d": 5.0},
    "q2": {"f": 4.0, "e": 3.5, "x": 3.0},
    "q4": {"j": 2.0, "y": 1.0},
    "q5": {"m": 1.5, "n": 1.25, "l": 1.0},
    "extra": {"a": 1.0},
}
# ir_measures name, evalcore name (the same definition), pytrec_eval key
MEASURES = [("nDCG@10", "nDCG@10", "ndcg_cut_10"), ("AP", "AP", "map"), ("P@5", "P@5", "P_5"),
            ("RR", "RR", "recip_rank"), ("R@10", "R@10", "recall_10")]
EVALCORE = [m for _, m, _ in MEASURES]


def zero_filled(result, measure):
    """Per-query values with undefined ones as 0 (what trec_eval, pytrec_eval, ir_measures
    and ranx give there)."""
    return dict(zip(result.query_ids, np.nan_to_num(result.values(measure), nan=0.0).tolist()))


def test_ir_measures_with_pytrec_eval_scores_missing_queries_0_and_means_over_every_judged_query():
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pytrec_eval")
    ours = evalcore.evaluate_run(QRELS, RUN, EVALCORE, missing="zero")
    assert set(ours.query_ids) == set(QRELS)  # the judged queries, the missing one too; not "extra"
    provider = ir_measures.pytrec_eval
    names = [ir_measures.parse_measure(name) for name, _, _ in MEASURES]
    per_query = {}
    for metric in provider.iter_calc(names, QRELS, RUN):
        per_query.setdefault(str(metric.measure), {})[metric.query_id] = metric.value
    aggregate = {str(m): v for m, v in provider.calc_aggregate(names, QRELS, RUN).items()}
    for name, measure, _ in MEASURES:
        values = zero_filled(ours, measure)
        assert per_query[name] == pytest.approx(values, rel=1e-12, abs=1e-15), name
        assert values["q3"] == 0.0 and per_query[name]["q3"] == 0.0
        # ir_measures' mean: over all 5 judged queries, q4 (no relevant document) as 0; evalcore's
        # mean leaves q4 out where the measure is undefined there (R = 0), so the zero-filled
        # mean is the one that matches
        assert aggregate[name] == pytest.approx(sum(values.values()) / len(QRELS), rel=1e-12), name
    assert ours.mean["AP"] != pytest.approx(aggregate["AP"])  # q4 left out of evalcore's mean
    assert ours.defined_counts["AP"] == len(QRELS) - 1 and ours.defined_counts["P@5"] == len(QRELS)
    assert ours.mean["P@5"] == pytest.approx(aggregate["P@5"], rel=1e-12)  # P is never undefined


def test_pytrec_eval_scores_the_run_s_judged_queries_alone():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    keys = {key for _, _, key in MEASURES}
    theirs = pytrec_eval.RelevanceEvaluator(QRELS, {"ndcg_cut", "map", "P", "recip_rank", "recall"}).evaluate(RUN)
    skipped = evalcore.evaluate_run(QRELS, RUN, EVALCORE, missing="skip")
    assert list(theirs) == skipped.query_ids == ["q1", "q2", "q4", "q5"]  # q3 dropped, "extra" ignored
    for _, measure, key in MEASURES:
        values = zero_filled(skipped, measure)
        assert {q: theirs[q][key] for q in theirs} == pytest.approx(values, rel=1e-12, abs=1e-15), key
    # The drop-in gives pytrec_eval's queries and values, without evaluate_run's warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = dropin.RelevanceEvaluator(QRELS, {"ndcg_cut", "map", "P", "recip_rank", "recall"}).evaluate(RUN)
    assert list(ours) == list(theirs)
    assert {q: {k: ours[q][k] for k in keys} for q in ours} == {q: {k: theirs[q][k] for k in keys} for q in theirs}


def test_ranx_refuses_differing_query_sets_unless_made_comparable():
    ranx = pytest.importorskip("ranx")
    with pytest.raises(AssertionError, match="make_comparable"):
        ranx.evaluate(QRELS, RUN, "ndcg@10")


@pytest.mark.parametrize("module", [evalcore, evalcore.reference], ids=["native", "reference"])
def test_skip_warns_with_the_count_and_the_first_ids_in_both_cores(module):
    text = ("1 of the 5 judged queries are not in the run and were left out (missing='skip'): 'q3'; means are over "
            "the 4 the run has; missing='zero' scores them as empty rankings (value 0, as trec_eval -c and "
            "ir_measures do)")
    with pytest.warns(evalcore.EvaluationWarning, match=re.escape(text)):
        result = module.evaluate_run(QRELS, RUN, ["AP"])
    assert result.warnings == [text] and result.missing_query_ids == ["q3"]
    assert result.to_dict(per_query=False)["missingQueryIds"] == ["q3"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = module.evaluate_run(QRELS, RUN, ["AP"], missing="zero")
    assert zero.warnings == [] and zero.missing_query_ids == ["q3"] and "q3" in zero.query_ids


def test_the_warning_names_the_first_five_and_counts_the_rest():
    qrels = {f"q{i:02d}": {"d": 1} for i in range(12)}
    result = evalcore.evaluate_run(qrels, {"q00": ["d"]}, ["AP"])
    native = result.warnings
    assert native == evalcore.reference.evaluate_run(qrels, {"q00": ["d"]}, ["AP"]).warnings
    assert native[0].startswith("11 of the 12 judged queries are not in the run and were left out (missing='skip'): "
                                "'q01', 'q02', 'q03', 'q04', 'q05' and 6 more; means are over the 1 the run has")


def test_unjudged_documents_are_non_relevant_and_judged_only_drops_them_as_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # trec_eval -J (pytrec_eval's judged_docs_only_flag) is evalcore's judged_only=True
    theirs = pytrec_eval.RelevanceEvaluator(QRELS, {"P"}, judged_docs_only_flag=True).evaluate(RUN)
    ours = evalcore.evaluate_run(QRELS, RUN, ["P@5"], judged_only=True)
    assert {q: theirs[q]["P_5"] for q in theirs} == zero_filled(ours, "P@5")
    # q1's ranking z b a d: z is unjudged, non-relevant; with judged_only it is dropped and
    # the ranks close up (b a d)
    plain, judged = (evalcore.evaluate_run(QRELS, RUN, ["P@2"], judged_only=j) for j in (False, True))
    assert zero_filled(plain, "P@2")["q1"] == 0.0 and zero_filled(judged, "P@2")["q1"] == 1 / 2
    assert not math.isnan(plain.values("P@2")[0])
