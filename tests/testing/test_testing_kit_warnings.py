"""issue 21 item 14: the kit does not leak its own warnings. evalcore warns (EvaluationWarning)
when a run evaluates nothing, and the kit generates such runs on purpose: under warnings as
errors (``pytest -W error``, ``filterwarnings = error``) assert_matches failed on them, and
otherwise they were noise in the user's output. The user's own warnings still reach the user.

pyproject.toml ignores EvaluationWarning for this suite, so these tests set the filters
themselves (warnings.simplefilter inside the test), and one runs pytest in a project of
its own, as a user's would be."""

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import evalcore
from evalcore import EvaluationWarning
from evalcore.testing import Mismatch, assert_matches, qrels_run
from planted import ranking

TESTS = Path(__file__).resolve().parents[1]  # tests/, which holds planted/


@pytest.mark.parametrize("measure, correct", [("nDCG@10", ranking.ndcg_at(10)), ("AP", ranking.average_precision())])
def test_generated_inputs_pass_under_warnings_as_errors(measure, correct):
    # The default inputs include empty qrels and runs without a judged query (evalcore warns
    # on both); before the fix the first such input raised EvaluationWarning out of assert_matches.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert assert_matches(correct, measure) > 0


def test_a_difference_is_still_a_mismatch_under_warnings_as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Mismatch, match="log2"):
            assert_matches(ranking.ndcg_at(10, discount_of=ranking.discount_log2_rank), "nDCG@10")


def test_no_evaluation_warning_reaches_the_user():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert_matches(ranking.ndcg_at(10), "nDCG@10", examples=100)
    assert [w for w in caught if issubclass(w.category, EvaluationWarning)] == []


def test_the_users_own_warnings_are_not_hidden():
    def warns(qrels, run):
        warnings.warn("our metric is deprecated", DeprecationWarning)
        return ranking.ndcg_at(10)(qrels, run)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Mismatch, match="your function raised DeprecationWarning: our metric is deprecated"):
            assert_matches(warns, "nDCG@10", examples=5)


def test_evalcore_warnings_of_the_users_own_calls_are_not_hidden():
    # The user's function calling evalcore itself: those warnings are the user's to see.
    def through_evalcore(qrels, run):
        result = evalcore.evaluate_run(qrels, run, ["nDCG@10"], threads=1)
        return dict(zip(result.query_ids, result.values("nDCG@10").tolist()))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert assert_matches(qrels_run(through_evalcore), "nDCG@10", examples=100) > 0
    ours = [w for w in caught if issubclass(w.category, EvaluationWarning)]
    assert ours and all(w.filename == __file__ for w in ours)


USER_PROJECT_TEST = """
import sys
sys.path.insert(0, {tests!r})
from evalcore.testing import check_against_evalcore
from planted import ranking

def test_our_ndcg():
    check_against_evalcore(ranking.ndcg_at(10), "nDCG@10")

def test_our_ap():
    check_against_evalcore(ranking.average_precision(), "AP")
"""


def test_a_user_project_with_filterwarnings_error(tmp_path):
    # A project of the user's own: its pytest configuration turns every warning into an error,
    # and nothing ignores evalcore's (this suite's pyproject.toml does not apply there).
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings =\n    error\n")
    (tmp_path / "test_metrics.py").write_text(textwrap.dedent(USER_PROJECT_TEST.format(tests=str(TESTS))))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "error", "-rw"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "2 passed" in output and "EvaluationWarning" not in output and "warning" not in output.lower(), output


def test_an_unknown_run_option_is_named_before_any_input():
    with pytest.raises(TypeError, match="run_options: .*'tie'.*evaluate_run's options are relevant_at_least"):
        assert_matches(ranking.ndcg_at(10), "nDCG@10", run_options={"tie": "input"})
