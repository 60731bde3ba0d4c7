"""ir_measures' measure objects as evalcore.evaluate_run's measures (issue 25 item 5, h25-irm3):
every measure evalcore's ir_measures provider serves is taken by evaluate_run as an object too,
read with its parameters and ir_measures' defaults (``RBP`` is ``RBP(p=0.8)``, ``P@5`` is
``P(rel=1)@5``), named by its ``str()``, and gives the provider's numbers (``==``, on both
cores); what evaluate_run can set only for a whole call (``judged_only=True``, nDCG's
``dcg='exp-log2'``) is refused with what to do. Every test that runs ir_measures' evaluation
has ir_measures in its name (tests/test_sanitizer_stage.py)."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

ir_measures = pytest.importorskip("ir_measures.providers").__name__ and __import__("ir_measures")
import evalcore  # noqa: E402 (after the skip)
from common import run_all, slow_examples  # noqa: E402
from evalcore.ir_measures import EvalcoreProvider, translate  # noqa: E402
from evalcore.ir_measures.orders import ranked_as_ir_measures  # noqa: E402
from evalcore.testing import runs  # noqa: E402
from evalcore.testing.diversity import subtopic_judgments  # noqa: E402
from ir_measures import (AP, AP_IA, BPM, ERR, ERR_IA, INSQ, INST, NERR8, NERR9, NERR10, NERR11, NRBP,  # noqa: E402
                         P, P_IA, R, RBP, RR, SDCG, Accuracy, Bpref, Compat, IPrec, Judged, NumQ, NumRel,
                         NumRet, Rprec, SetAP, SetF, SetP, SetR, StRecall, Success, alpha_DCG, alpha_nDCG, infAP,
                         nDCG, nERR_IA, nNRBP)

# What the provider serves on ordinary qrels, parameters at and away from the defaults
ORDINARY = [
    P @ 5, P(rel=2) @ 3, P(judged_only=True) @ 5, R @ 5, AP, AP @ 5, AP(rel=2), AP(judged_only=True), RR, RR(rel=2),
    RR @ 3, Rprec, nDCG, nDCG @ 5, nDCG(gains={0: 0, 1: 1, 2: 5}) @ 10, nDCG(judged_only=True), Success @ 2,
    SetP, SetP(rel=2), SetR, SetF, SetF(beta=0.5), Bpref, infAP(rel=2), NumRet, NumRet(rel=1), NumRel, NumRel(rel=2),
    IPrec @ 0.0, IPrec(rel=2) @ 0.5, IPrec @ 1.0, SetAP, SetAP(rel=2), SetP(relative=True),
    SetP(rel=2, relative=True), Judged, Judged @ 3, NumQ, ERR @ 5, nDCG(dcg="exp-log2") @ 5,
    RBP(rel=1), RBP(p=0.5, rel=2), INST(max_rel=3), INST(T=2.0, max_rel=3), INSQ(max_rel=3), BPM(max_rel=3) @ 5,
    SDCG(max_rel=3) @ 5, NERR8(max_rel=3) @ 5, NERR9(max_rel=2) @ 5, NERR10(max_rel=3), NERR11(T=2.0, max_rel=3),
    INST(min_rel=1, max_rel=2), Compat, Compat(p=0.8), Compat(p=0.9, normalize=False), Accuracy, Accuracy(rel=2) @ 5,
]
DIVERSITY = [alpha_nDCG @ 5, alpha_nDCG(alpha=0.8) @ 20, alpha_DCG @ 10, ERR_IA @ 5, nERR_IA @ 20, NRBP,
             NRBP(alpha=0.3, beta=0.8), nNRBP, AP_IA, P_IA @ 5, StRecall @ 10, alpha_nDCG(rel=2) @ 10,
             AP_IA(rel=2), alpha_nDCG(judged_only=True) @ 10, P_IA(judged_only=True) @ 5]


def _as_evaluate_run_takes(measure, found):
    """The object evaluate_run takes for `measure` and the options the provider passes: the
    object itself, or, for judged_only=True and dcg='exp-log2' (evaluate_run's options for a
    whole call), the object without them, which the object's own refusal names."""
    options = {"judged_only": False, "gain": found.gain}
    if found.judged_only and found.qrels_format == "qrels":
        with pytest.raises(ValueError, match="pass judged_only=True"):
            evalcore.evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, [measure])
        measure, options["judged_only"] = measure(judged_only=False), True
    if found.gain == "exponential":
        with pytest.raises(ValueError, match="pass gain='exponential'"):
            evalcore.evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, [measure])
        measure = measure(dcg="log2")
    return measure, options


def _walk(measures, provider_qrels, qrels, run, qrels_format):
    """Each measure through the provider and as an object through evaluate_run (both cores)."""
    for measure in measures:
        found = translate(measure)
        assert found is not None and EvalcoreProvider().supports(measure), measure
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", evalcore.EvaluationWarning)
            provided = {m.query_id: m.value for m in EvalcoreProvider().evaluator([measure], provider_qrels).iter_calc(run)}
            taken, options = _as_evaluate_run_takes(measure, found)
            ranked = run if found.ties == "evalcore" else ranked_as_ir_measures(run, found.ties)
            outcome = run_all("evaluate_run", qrels, ranked, [taken], missing="skip", qrels_format=qrels_format,
                              ties="score" if found.ties == "evalcore" else "input", **options)
        assert outcome[0] != "error", (measure, outcome)
        result = outcome[1]
        assert result.measures == (str(taken),)  # named by its str()
        for query_id, value in zip(result.query_ids, result.values(str(taken)).tolist()):
            if found.undefined == "omit" and math.isnan(value):
                assert query_id not in provided, measure
            elif found.undefined == "nan" and math.isnan(value):
                assert math.isnan(provided[query_id]), measure
            else:
                assert provided[query_id] == (0.0 if math.isnan(value) else value), (measure, query_id)


# 100 examples: about 60 measures, each through the provider and both cores (~100 ms an example)
@slow_examples(100)
@given(value=runs(grades=("integer", "negative")))
def test_every_measure_ir_measures_through_evalcore_serves_is_an_evaluate_run_object_too(value):
    qrels = {q: g for q, g in value["qrels"].items()}
    run = {q: (docs if isinstance(docs, dict) else {d: -float(i) for i, d in enumerate(docs)})
           for q, docs in value["run"].items()}
    _walk(ORDINARY, qrels, qrels, run, "qrels")


def _served_objects():
    """ir_measures objects the provider serves, their parameters drawn (ir_measures' types)."""
    levels, cutoffs = st.integers(1, 3), st.integers(1, 25)
    unit = st.floats(0.05, 0.95)
    return st.one_of(
        st.builds(lambda kind, rel, k: kind(rel=rel) @ k, st.sampled_from([P, R, Success, AP, RR, Accuracy]), levels,
                  cutoffs),
        st.builds(lambda kind, rel, judged: kind(rel=rel, judged_only=judged), st.sampled_from([AP, RR, Rprec, SetP]),
                  levels, st.booleans()),
        st.builds(lambda k, judged: nDCG(judged_only=judged) @ k, cutoffs, st.booleans()),
        st.builds(lambda k, dcg: nDCG(dcg=dcg) @ k, cutoffs, st.sampled_from(["log2", "exp-log2"])),
        st.builds(lambda k: ERR @ k, cutoffs),
        st.builds(lambda beta, rel: SetF(beta=beta, rel=rel), st.floats(0.1, 3.0), levels),
        st.builds(lambda rel, relative: SetP(rel=rel, relative=relative), levels, st.booleans()),
        st.builds(lambda rel: SetAP(rel=rel), levels),
        st.builds(lambda point, rel: IPrec(rel=rel) @ point, st.sampled_from([0.0, 0.5, 1.0]), levels),
        st.builds(lambda p, rel: RBP(p=p, rel=rel), unit, levels),
        st.builds(lambda t, top: INST(T=t, max_rel=top), st.floats(0.5, 3.0), st.integers(1, 4)),
        st.builds(lambda t, top, k: BPM(T=t, max_rel=top) @ k, st.floats(0.5, 3.0), st.integers(1, 4), cutoffs),
        st.builds(lambda p, top: NERR10(p=p, max_rel=top), unit, st.integers(1, 4)),
        st.builds(lambda p, normalize: Compat(p=p, normalize=normalize), unit, st.booleans()),
        st.sampled_from([NumQ, NumRet, Judged, Bpref, infAP]),
    )


# 100 examples: up to 8 measures each, through the provider and both cores (~40 ms an example)
@slow_examples(100)
@given(value=runs(grades=("integer", "negative")), measures=st.lists(_served_objects(), min_size=1, max_size=8))
def test_ir_measures_objects_with_drawn_parameters_give_the_providers_numbers(value, measures):
    run = {q: (docs if isinstance(docs, dict) else {d: -float(i) for i, d in enumerate(docs)})
           for q, docs in value["run"].items()}
    _walk(measures, value["qrels"], value["qrels"], run, "qrels")


# 100 examples: as above, for 15 diversity measures read with their subtopics
@slow_examples(100)
@given(value=subtopic_judgments())
def test_every_diversity_measure_ir_measures_through_evalcore_serves_is_an_evaluate_run_object_too(value):
    records = [ir_measures.Qrel(q, d, g, s) for q, subs in value["qrels"].items() for s, docs in subs.items()
               for d, g in docs.items()]
    _walk(DIVERSITY, records, value["qrels"], value["run"], "subtopics")


def test_objects_are_read_with_their_parameters_and_ir_measures_defaults():
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1, "d5": 0}}
    run = {"q1": {"d1": 1.2, "d2": 1.1, "d5": 0.3}, "q2": {"d6": 2.0, "d4": 1.0, "d5": 0.5}}
    # str(RBP) is "RBP", str(RBP(p=0.8)) too: ir_measures' default p is stated
    assert str(RBP) == str(RBP(p=0.8)) == "RBP"
    result = evalcore.evaluate_run(qrels, run, [RBP, RBP(p=0.5), SetAP(rel=2), SetP(relative=True), P @ 2])
    assert result.measures == ("RBP", "RBP(p=0.5)", "SetAP(rel=2)", "SetP(relative=True)", "P@2")
    named = evalcore.evaluate_run(qrels, run, ["RBP(p=0.8)", "RBP(p=0.5)", "set_map", "set_relative_P", "P@2"],
                                  relevant_at_least=2)
    assert result.mean["RBP"] == named.mean["RBP(p=0.8)"] and result.mean["SetAP(rel=2)"] == named.mean["set_map"]
    assert result.values(str(RBP)).tolist() == pytest.approx([0.2, 0.16], rel=1e-15)  # (by str(measure))
    # P@2 is ir_measures' P(rel=1)@2: its level is 1 whatever evaluate_run's relevant_at_least
    assert evalcore.evaluate_run(qrels, run, [P @ 2], relevant_at_least=2).mean == {"P@2": 0.5}
    assert evalcore.evaluate_run(qrels, run, ["P@2"], relevant_at_least=2).mean == {"P@2": 0.25}  # (the name's)


def test_objects_evaluate_run_refuses_say_why_and_what_to_do():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    cases = [
        (RBP @ 5, r"read as 'RBP\(p=0\.8\)@5' .*RBP takes no cutoff"),
        (INST, r"read as 'INST\(T=1\.0,min_rel=0\)' .*INST needs max_rel"),
        (SetAP(rel=0), "set_map at the level rel > 0"),
        (P(judged_only=True) @ 5, r"name 'P@5' and pass judged_only=True"),
        (nDCG(dcg="exp-log2") @ 10, r"name 'nDCG@10' and pass gain='exponential'"),
        (ERR_IA @ 5, "pass qrels_format='subtopics'"),
    ]
    for measure, message in cases:
        with pytest.raises(ValueError, match=message):
            evalcore.evaluate_run(qrels, run, [measure])
    with pytest.raises(ValueError, match="'P@5' is listed twice"):
        evalcore.evaluate_run(qrels, run, [P @ 5, P(rel=1) @ 5])  # (one measure to ir_measures too)
    with pytest.raises(ValueError, match="'P@5' is listed twice"):
        evalcore.evaluate_run(qrels, run, ["P@5", P @ 5])


def test_names_errors_for_rbp_and_the_valid_list():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    with pytest.raises(ValueError, match=r"rbp's persistence is named as in rbp\.p=0\.95 \(trec_eval's form\), or "
                                         r"rbp\.95 \(ranx's RBP, p = 0\.95.*neither takes a cutoff"):
        evalcore.evaluate_run(qrels, run, ["rbp.95@8"])
    with pytest.raises(ValueError, match=r"unknown measure 'STREC@5'; did you mean 'strec@10' or 'StRecall@10'") as error:
        evalcore.evaluate_run(qrels, run, ["STREC@5"])  # (ir_measures has no STREC: its StRecall, ndeval's strec)
    valid = str(error.value).split("Valid: ", 1)[1]
    for name in ("NumQ", "alpha_nDCG@k", "ERR_IA@k", "nERR_IA@k", "alpha_DCG@k", "P_IA@k", "StRecall@k", "NRBP",
                 "nNRBP", "AP_IA", "strec@k"):
        assert name in valid, name
    assert evalcore.evaluate_run(qrels, run, ["NumQ"]).mean == {"NumQ": 1.0}  # the names the list names are names
    subtopics = evalcore.evaluate_run({"q": {"0": {"a": 1}}}, run, ["strec@10", "StRecall(rel=2)@10"],
                                      qrels_format="subtopics")
    assert subtopics.mean == {"strec@10": 1.0, "StRecall(rel=2)@10": 0.0}


# ir_measures' set-measure names as strings (trec_eval's set_map and set_relative_P), each
# with the level as evaluate_run's other names take it: given, or relevant_at_least.
SET_NAMES = [("SetAP", "set_map"), ("SetAP(rel=2)", "set_map"), ("SetP(relative=True)", "set_relative_P"),
             ("SetP(relative=True,rel=2)", "set_relative_P"), ("SetP(relative=False)", "set_P"),
             ("SetP(relative=False,rel=2)", "set_P")]


@given(runs(), st.sampled_from([1, 2]))
def test_set_measure_names_read_as_trec_eval_names_and_objects(value, level):
    qrels, run = value["qrels"], value["run"]
    for name, trec_name in SET_NAMES:
        outcome = run_all("evaluate_run", qrels, run, [name], relevant_at_least=level)
        assert outcome[0] == "ok", (name, outcome)
        rel = 2 if "rel=2" in name else level
        expected = evalcore.evaluate_run(qrels, run, [trec_name], relevant_at_least=rel)
        assert outcome[1].values(name).tobytes() == expected.values(trec_name).tobytes(), name
    objects = [SetAP(rel=level), SetP(relative=True, rel=level)]
    by_object = evalcore.evaluate_run(qrels, run, objects)
    by_name = evalcore.evaluate_run(qrels, run, [f"SetAP(rel={level})", f"SetP(relative=True,rel={level})"])
    for measure, name in zip(objects, by_name.measures):
        assert by_object.values(measure).tobytes() == by_name.values(name).tobytes()


def test_one_object_alone_and_values_by_object():
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1, "d5": 0}}
    run = {"q1": {"d1": 1.2, "d2": 1.1, "d5": 0.3}, "q2": {"d6": 2.0, "d4": 1.0, "d5": 1.0}}
    alone = run_all("evaluate_run", qrels, run, AP)
    assert alone[0] == "ok" and alone[1].measures == ("AP",)
    both = evalcore.evaluate_run(qrels, run, [RBP, AP])
    assert both.values(RBP).tobytes() == both.values("RBP").tobytes() and both.values(RBP)[1] == 0.128
    with pytest.raises(KeyError, match="'SetAP' was not computed"):
        both.values(SetAP)


@pytest.mark.parametrize("name, message", [
    ("SetAP(rel=0)", "set_map at the level rel > 0"), ("SetAP(x=1)", "takes no other parameter"),
    ("SetP(relative=1)", "relative is True or False"),
    ("INST(T=1,max_rel=0)", r"min_rel \(not given: its default, 0\) must be below max_rel"),
    ("INST(T=1,min_rel=2,max_rel=1)", "measure 'INST.*': min_rel must be below max_rel")])
def test_set_and_cwl_name_refusals(name, message):
    outcome = run_all("evaluate_run", {"q": {"d": 1}}, {"q": {"d": 1.0}}, [name])
    assert outcome[0] == "error" and outcome[1][0] == "ValueError", outcome
    import re

    assert re.search(message, outcome[1][1]), outcome
