"""trec_eval's relstring in evaluate_run (runs/text_measures.py): the text the command line
prints for each query, in RunEvaluation.texts, equal in both cores; refused with a message
where values must be numbers."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalcore
import evalcore.reference
from common import IMPLEMENTATIONS, run_all, slow_examples

ROOT = pathlib.Path(__file__).resolve().parents[2]
QRELS = str(ROOT / "examples" / "trec" / "qrels.txt")
RUN = str(ROOT / "examples" / "trec" / "run.txt")


def cli_texts(*flags: str) -> dict:
    """measure → query → text, from `evalcore trec -q -c FLAGS` (the quotes taken off)."""
    done = subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", "-q", "-c", *flags, QRELS, RUN],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    texts: dict = {}
    for line in done.stdout.splitlines():
        name, query, value = line.split("\t")
        if query != "all":
            texts.setdefault(name.strip(), {})[query] = value[1:-1]
    return texts


@pytest.mark.parametrize("names", [["relstring"], ["relstring.5", "relstring.20"], ["relstring.3.7"],
                                   ["relstring.0"]])
def test_the_texts_are_what_the_command_line_prints(names):
    # (trec_eval prints one relstring a command line, the first -m's: each is asked for alone)
    printed = {key: texts for name in names for key, texts in cli_texts("-m", name).items()}
    for module in IMPLEMENTATIONS.values():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # topic 306: judged, not in the run
            evaluation = module.evaluate_run(QRELS, RUN, names)
        assert evaluation.measures == ()
        assert set(evaluation.texts) == set(printed)
        for name, texts in evaluation.texts.items():
            assert list(texts) == evaluation.query_ids
            # the command line's -c also prints topic 306 (its stand-in ranking); the run's queries agree
            assert texts == {q: printed[name][q] for q in evaluation.query_ids}


def test_beside_numeric_measures_nothing_else_changes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = evalcore.evaluate_run(QRELS, RUN, ["map", "P@5"], missing="zero")
        mixed = evalcore.evaluate_run(QRELS, RUN, ["map", "relstring.4", "P@5"], missing="zero")
    assert mixed.measures == plain.measures and mixed.mean == plain.mean
    assert mixed.per_query.to_dict() == plain.per_query.to_dict()
    assert plain.texts == {} and "texts" not in plain.to_dict()
    # a judged query the run lacks (missing="zero") is an empty ranking: an empty text
    assert mixed.texts["relstring_4"][mixed.query_ids[-1]] == ""
    assert json.loads(mixed.to_json())["texts"] == mixed.texts
    with pytest.raises(KeyError, match=r"'relstring_4' is text, not a number: read evaluation.texts"):
        mixed.values("relstring_4")


grades = st.one_of(st.integers(-3, 12).map(float), st.floats(-2.5, 11.5, allow_nan=False))


@st.composite
def judged_runs(draw):
    docs = [f"d{i}" for i in range(8)]
    queries = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(docs), grades, max_size=6)) for q in queries}
    run = {q: draw(st.dictionaries(st.sampled_from(docs), st.integers(0, 3).map(float), max_size=8))
           for q in draw(st.lists(st.sampled_from(["a", "b", "c", "z"]), max_size=4, unique=True))}
    return qrels, run


# Each example is two evaluations of a few queries; 200 cover grades past 9, below 0 and
# fractional, unjudged and unretrieved documents, ties and every option here, while the
# per-rank grades underneath are the RankGrade kind the run differential tests already fuzz.
@slow_examples(200)
@given(data=judged_runs(), names=st.lists(st.sampled_from(["relstring", "relstring.3", "relstring.12", "map"]),
                                          min_size=1, max_size=3, unique=True),
       options=st.fixed_dictionaries({"missing": st.sampled_from(["skip", "zero"]), "ties": st.sampled_from(["score", "input"]),
                                      "max_retrieved": st.sampled_from([None, 2]), "judged_only": st.booleans()}))
def test_native_equals_reference(data, names, options):
    qrels, run = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_all("evaluate_run", qrels, run, names, **options)


@pytest.mark.parametrize("names, message", [
    (["relstring", "relstring"], "measure 'relstring' is listed twice"),
    (["relstring.1e9"], "relstring: the length must be a number up to 10000000, got '1e9'"),
])
def test_refusals_alike(names, message):
    outcome = run_all("evaluate_run", {"q": {"a": 1}}, {"q": {"a": 1.0}}, names)
    assert outcome[0] == "error" and message in str(outcome[1])


def test_where_values_must_be_numbers_relstring_is_refused_with_what_to_do():
    qrels, run = {"q": {"a": 1}}, {"x": {"q": {"a": 1.0}}, "y": {"q": {"a": 2.0}}}
    for module in IMPLEMENTATIONS.values():
        with pytest.raises(ValueError, match=r"'relstring' is text .* RunEvaluation.texts; compare"):
            module.compare(qrels, run, ["relstring"])
        with pytest.raises(ValueError, match=r"needs qrels_format='qrels', not 'qrels_jg'"):
            module.evaluate_run(qrels, run["x"], ["relstring"], qrels_format="qrels_jg")
