"""The C/W/L family (issue 25 item 2): cwl_eval 1.0.12's RBP, INST, INSQ, BPM, SDCG and NERR8-11
with their five figures and residuals. Both cores agree bit for bit; both agree with cwl_eval
itself — through its Python classes (unrounded: every figure and residual), through
ir_measures' cwl_eval provider (the names' spelling and its gain scaling), and through its
command line on examples/cwl/ (printed to 4 decimals)."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import expect_result, slow_examples
from evalcore.runs.cwl_names import CWL_FIGURES
from evalcore.runs.measures import parse_measures
from evalcore.testing import runs

cwl_metrics = pytest.importorskip("cwl.ruler.cwl_ruler")
ranking_module = pytest.importorskip("cwl.ruler.ranking")
ir_measures = pytest.importorskip("ir_measures")
from ir_measures.providers.cwl_eval import IrmQrelHandler  # noqa: E402 (after the skips)

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples", "cwl")

# One measure of each kind, with parameters off their defaults where they have them.
BASES = ["RBP(p=0.8,rel=1)", "RBP(p=0.5,rel=2)", "RBP(p=0.9,max_rel=3)", "INST(T=2,max_rel=3)", "INSQ(max_rel=2)",
         "BPM(T=1.5,max_rel=3)@4", "SDCG(max_rel=3)@5", "NERR8(max_rel=3)@4", "NERR9(min_rel=1,max_rel=2)@6",
         "NERR10(p=0.7,max_rel=3)", "NERR11(T=2,max_rel=3)"]
# Between the sums' orders: numpy's pairwise np.sum and BLAS's dot against evalcore's sums in
# rank order over 1000 terms (each exact to half an ulp), so agreement to 1e-12 relative.
CLOSE = {"rel_tol": 1e-12, "abs_tol": 1e-12}


def _cwl_metric(name):
    """cwl_eval's own metric object for one of BASES (its constructor's parameters)."""
    base, _, rest = name.partition("(")
    params = dict(p.split("=") for p in rest.split(")")[0].split(","))
    cutoff = int(name.split("@")[1]) if "@" in name else None
    t = float(params.get("T", 1.0))
    return {"RBP": lambda: cwl_metrics.RBPCWLMetric(float(params.get("p", 0.8))),
            "INST": lambda: cwl_metrics.INSTCWLMetric(t), "INSQ": lambda: cwl_metrics.INSQCWLMetric(t),
            "BPM": lambda: cwl_metrics.BPMCWLMetric(t, cutoff), "SDCG": lambda: cwl_metrics.NDCGCWLMetric(cutoff),
            "NERR8": lambda: cwl_metrics.NERReq8CWLMetric(cutoff), "NERR9": lambda: cwl_metrics.NERReq9CWLMetric(cutoff),
            "NERR10": lambda: cwl_metrics.NERReq10CWLMetric(float(params.get("p", 0.9))),
            "NERR11": lambda: cwl_metrics.NERReq11CWLMetric(t)}[base](), params


def _cwl_figures(name, qrels, ranked, query):
    """cwl_eval's ten figures (EU, ETU, EC, ETC, ED, then the residuals) for one query, the
    qrels prepared as ir_measures' provider prepares them (negatives to 0, then binary at rel
    or scaled by min_rel and max_rel)."""
    metric, params = _cwl_metric(name)
    rel = float(params["rel"]) if "rel" in params else None
    handler = IrmQrelHandler(rel, None if rel else float(params.get("min_rel", 0)),
                             None if rel else float(params["max_rel"]))
    for doc, grade in qrels.get(query, {}).items():
        handler.put_value(query, doc, max(grade, 0))
    maker = ranking_module.RankingMaker(query, handler, None, max_gain=1.0, max_cost=1.0, min_cost=1.0, max_n=1000)
    for doc in ranked:
        maker.add(doc, "_")
    metric.residuals = True
    metric.measure(maker.get_ranking())
    return [metric.expected_utility, metric.expected_total_utility, metric.expected_cost, metric.expected_total_cost,
            metric.expected_items, metric.residual_expected_utility, metric.residual_expected_total_utility,
            metric.residual_expected_cost, metric.residual_expected_total_cost, metric.residual_expected_items]


def _ranked(scores):
    """evalcore's order (score, then document ID, descending), which cwl_eval takes as given."""
    return sorted(scores, key=lambda d: (scores[d], d), reverse=True)


ALL_NAMES = [f"{b}.{f}" if f != "EU" else b for b in BASES for f in CWL_FIGURES]
# Each base's value and one other figure, in turn (every figure and residual is read by some base).
DIFFERENTIAL_NAMES = BASES + [f"{b}.{CWL_FIGURES[1 + i % 9]}" for i, b in enumerate(BASES)]


# 100 examples: the reference twin walks cwl_eval's 1000 ranks in Python, twice for a residual
# (about 0.1 s an example for these 22 measures): 300 took 37 s with all 110 figures; this
# takes about 2 s. Every figure of every base is compared with cwl_eval below.
@slow_examples(100)
@given(value=runs(max_docs=12), max_retrieved=st.sampled_from([None, 3]), judged_only=st.booleans(),
       missing=st.sampled_from(["skip", "zero"]))
def test_both_cores_agree(value, max_retrieved, judged_only, missing):
    result = expect_result("evaluate_run", value["qrels"], value["run"], DIFFERENTIAL_NAMES, max_retrieved=max_retrieved,
                           judged_only=judged_only, missing=missing)
    for name in result.measures:
        assert not any(math.isnan(v) for v in result.values(name)), name  # defined for every query


# 60 examples: each scores 11 measures x 10 figures twice over 1000 ranks with numpy in
# cwl_eval (about 0.1 s an example), so the property stays under 10 s in the dev profile.
@slow_examples(60)
@given(value=runs(max_docs=14, max_queries=2, ties=False, empty=False, ranked_lists=False))
def test_agrees_with_cwl_eval(value):
    import evalcore

    result = evalcore.evaluate_run(value["qrels"], value["run"], ALL_NAMES)
    for i, query in enumerate(result.query_ids):
        ranked = _ranked(value["run"][query])
        for base in BASES:
            expected = _cwl_figures(base, value["qrels"], ranked, query)
            for figure, want in zip(CWL_FIGURES, expected):
                name = base if figure == "EU" else f"{base}.{figure}"
                got = float(result.values(name)[i])
                assert math.isclose(got, want, **CLOSE), (query, name, got, want)


# 40 examples: ir_measures' provider runs cwl_eval once per measure and query (numpy over
# 1000 ranks), about 0.1 s an example.
@slow_examples(40)
@given(value=runs(max_docs=10, max_queries=2, ties=False, empty=False, ranked_lists=False))
def test_agrees_with_ir_measures_provider(value):
    import evalcore
    from ir_measures.providers.cwl_eval import CwlEvalProvider

    # (RBP with max_rel is evalcore's: ir_measures' RBP takes rel only)
    measures = [ir_measures.parse_measure(b) for b in BASES if not b.startswith("RBP(p=0.9,max_rel")]
    provider = CwlEvalProvider()
    provider.initialize()
    evaluator = provider.evaluator(measures, [ir_measures.Qrel(q, d, g) for q, docs in value["qrels"].items()
                                              for d, g in docs.items()])
    run = [ir_measures.ScoredDoc(q, d, s) for q, docs in value["run"].items() for d, s in docs.items()]
    result = evalcore.evaluate_run(value["qrels"], value["run"], measures)  # ir_measures objects, as names
    compared = 0
    for metric in evaluator.iter_calc(run):
        compared += 1
        name = str(metric.measure)
        got = float(result.values(name)[list(result.query_ids).index(metric.query_id)])
        assert math.isclose(got, metric.value, **CLOSE), (metric.query_id, name, got, metric.value)
        for figure in ("expected_total_utility", "expected_cost", "expected_total_cost", "expected_items"):
            short = {"expected_total_utility": "ETU", "expected_cost": "EC", "expected_total_cost": "ETC",
                     "expected_items": "ED"}[figure]
            other = evalcore.evaluate_run(value["qrels"], value["run"], f"{name}.{short}")
            assert math.isclose(float(other.values(f"{name}.{short}")[list(other.query_ids).index(metric.query_id)]),
                                getattr(metric, figure), **CLOSE), (name, short)
    assert compared == len(measures) * len(result.query_ids)


# cwl_eval's default metrics that evalcore has, and their names here (gains in [0, 1], read
# as they are: max_rel=1).
CLI_NAMES = {"RBP@0.2": "RBP(p=0.2,max_rel=1)", "RBP@0.4": "RBP(p=0.4,max_rel=1)", "RBP@0.8": "RBP(p=0.8,max_rel=1)",
             "NDCG-k@5": "SDCG(max_rel=1)@5", "NDCG-k@10": "SDCG(max_rel=1)@10", "INST-T=1.0": "INST(T=1,max_rel=1)",
             "INST-T=2.0": "INST(T=2,max_rel=1)", "INST-T=3.0": "INST(T=3,max_rel=1)"}


def test_cwl_eval_command_on_the_example(tmp_path):
    """cwl_eval's command line (`-r`: the residuals too) on examples/cwl/, whose run lists each
    query in evalcore's rank order (cwl_eval takes the file's order) and whose qrels hold
    gains in [0, 1]. It prints 4 decimals ({:.4f}): a printed figure is within 5e-5 of
    cwl_eval's double, and evalcore's within 1e-12 of that, hence the tolerance."""
    import evalcore

    gains, run = (os.path.abspath(os.path.join(EXAMPLES, f)) for f in ("gains.qrels", "run.txt"))
    out = subprocess.run([sys.executable, "-m", "cwl.cwl_eval", gains, run, "-r"], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout  # (cwd: it writes cwl.log there)
    names = [n if f == "EU" else f"{n}.{f}" for n in CLI_NAMES.values() for f in CWL_FIGURES]
    result = evalcore.evaluate_run(gains, run, names)
    compared = 0
    for line in out.splitlines():
        topic, metric, *printed = line.split("\t")
        if metric not in CLI_NAMES:
            continue
        i = list(result.query_ids).index(topic)
        for figure, text in zip(CWL_FIGURES, printed):
            name = CLI_NAMES[metric] if figure == "EU" else f"{CLI_NAMES[metric]}.{figure}"
            got = float(result.values(name)[i])
            assert abs(got - float(text)) <= 5e-5 + 1e-9, (topic, metric, figure, got, text)
            compared += 1
    assert compared == 3 * len(CLI_NAMES) * 10


def test_hand_worked_values():
    """RBP over one relevant document at rank 2 (p = 0.5): W_2 = 0.5 / (1 - 0.5**1000) — cwl_eval
    normalises over its 1000 ranks; trec_eval's rbp is (1 - p) p, the same up to 2**-1000."""
    got = expect_result("evaluate_run", {"q": {"a": 0, "b": 1}}, {"q": ["a", "b"]},
                        ["RBP(p=0.5,rel=1)", "RBP(p=0.5,rel=1).ED", "RBP(p=0.5,rel=1).ResEU", "rbp.p=0.5",
                         "SDCG(max_rel=1)@2", "BPM(T=1,max_rel=1)@5.ED"])
    values = {m: float(got.values(m)[0]) for m in got.measures}
    assert values["RBP(p=0.5,rel=1)"] == 0.25 == values["rbp_p=0.5"]
    assert values["RBP(p=0.5,rel=1).ED"] == 2.0  # 1 / W_1 = 1 / (1 - p)
    assert values["RBP(p=0.5,rel=1).ResEU"] == pytest.approx(0.25, rel=1e-15)  # ranks 3.. at gain 1: p^2
    assert values["SDCG(max_rel=1)@2"] == pytest.approx(1 / (1 + 1 / math.log2(3)) / math.log2(3), rel=1e-15)
    assert values["BPM(T=1,max_rel=1)@5.ED"] == 2.0  # the gain bound is reached at rank 2


@pytest.mark.parametrize("name, message", [
    ("INST(T=2)", "needs max_rel"), ("INST(T=0,max_rel=1)", "must be > 0"), ("SDCG(max_rel=1)", "needs a cutoff"),
    ("INST(max_rel=1)@5", "takes no cutoff"), ("NERR10(p=1,max_rel=1)", "between 0 and 1"),
    ("RBP(p=0.5,rel=1,max_rel=2)", "not both"), ("INSQ(min_rel=2,max_rel=2)", "below max_rel"),
    ("NERR8(max_rel=1,k=3)@5", "no parameter k"), ("SDCG(max_rel=1,dcg='exp')@5", "log2"),
    ("RBP(p=0.5,rel=0)", "rel must be > 0"), ("INST(max_rel=float('nan'))", "name=literal"),
])
def test_refused_names(name, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_measures(name)


def test_rbp_without_rel_stays_trec_evals():
    assert [s.kind for s in parse_measures(["RBP(p=0.8)", "RBP(p=0.8,rel=1)"])] == [
        s.kind for s in parse_measures(["rbp.p=0.8", "RBP(p=0.8,rel=1).EU"])]


def test_rankings_past_cwl_evals_depth():
    """Ranks past 1000 are not read (cwl_eval truncates at its depth): a run of 1,005 documents."""
    import evalcore

    qrels = {"q": {f"d{i}": (i % 4) for i in range(990, 1005)}}
    run = {"q": {f"d{i}": float(2000 - i) for i in range(1005)}}
    result = evalcore.evaluate_run(qrels, run, ALL_NAMES)
    ranked = _ranked(run["q"])
    for base in BASES:
        for figure, want in zip(CWL_FIGURES, _cwl_figures(base, qrels, ranked, "q")):
            name = base if figure == "EU" else f"{base}.{figure}"
            assert math.isclose(float(result.values(name)[0]), want, **CLOSE), (name, want)


def test_squares_are_products_in_both_cores():
    # Found by test_both_cores_agree: INST(T=2) on grades 3 and 2.25 was 1 ulp apart when the
    # twin squared with `** 2.0` (the C library's pow, within 0.52 ulp in glibc) and the core
    # with x * x; both multiply now.
    result = expect_result("evaluate_run", {"q1": {"d0": 2.25, "d1": 3}}, {"q1": ["d1", "d0"]},
                           ["INST(T=2,max_rel=3)", "INSQ(T=2,max_rel=3)", "NERR11(T=2,max_rel=3)"])
    assert result.mean["INST(T=2,max_rel=3)"] == 0.454015435300814
