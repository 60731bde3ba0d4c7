"""issue 23 items 4 and 6: ``evalcore trec`` follows one rule for judged queries the run
lacks whatever the measures' spelling (trec_eval 10's: an error unless -c or --missing), says
what it drops, and its errors say what to do: the trec_eval spelling of an ir_measures or
ranx name in trec_eval format, files given in the wrong order, --relevant-at-least as -l,
and the measures all_trec brings in that evalcore leaves out."""

import json
import pathlib
import subprocess
import sys

import pytest

import evalcore
from evalcore.trec_eval import output_format as te
from evalcore.trec_eval.guidance import left_out_notice
from evalcore.trec_eval.guidance import trec_eval_equivalent

ROOT = pathlib.Path(__file__).resolve().parents[2]
QRELS = str(ROOT / "examples" / "trec" / "qrels.txt")  # topic 306 is judged and not in the run
RUN = str(ROOT / "examples" / "trec" / "run.txt")


def trec(*args):
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *args], capture_output=True, timeout=120,
                          text=True)


# ---- one rule for the judged queries the run lacks -------------------------------------------


@pytest.mark.parametrize("measure", ["ndcg@10", "nDCG@10", "ndcg_cut.10", "ndcg_cut_10"])
def test_a_missing_query_stops_whatever_the_spelling(measure):
    # Before: -m ndcg@10 (evalcore's table) exited 0 over the run's queries alone, while
    # -m ndcg_cut.10 (trec_eval format) exited 4.
    done = trec(QRELS, RUN, "-m", measure)
    assert done.returncode == 4 and done.stdout == "", done.stderr
    assert "306" in done.stderr


def test_the_stop_in_evalcore_formats_says_how_many_which_and_what_to_do():
    done = trec(QRELS, RUN, "-m", "nDCG@10", "--format", "json")
    judged = len(evalcore.evaluate_run(QRELS, RUN, ["NumRel"], missing="zero").query_ids)
    assert done.stderr == (f"evalcore trec: 1 of the {judged} judged queries are not in the run: '306'; as in trec_eval "
                           "10 that stops the evaluation: give -c (or --missing zero) to score them as empty rankings "
                           "(value 0), or --missing skip to leave them out of the means\n")


def test_missing_skip_evaluates_with_a_warning_naming_the_dropped_queries():
    done = trec(QRELS, RUN, "-m", "nDCG@10", "--missing", "skip")
    assert done.returncode == 0, done.stderr
    expected = evalcore.evaluate_run(QRELS, RUN, ["nDCG@10"])
    judged = len(expected.query_ids) + 1
    assert done.stdout == f"nDCG@10               \tall\t{expected.mean['nDCG@10']:.4f}\n"
    assert done.stderr == (f"evalcore trec: warning: 1 of the {judged} judged queries are not in the run and were left "
                           f"out (--missing skip): '306'; means are over the {judged - 1} the run has; -c (--missing "
                           "zero) scores them as empty rankings (value 0, as trec_eval -c and ir_measures do)\n")


def test_missing_zero_and_c_are_one_and_silent():
    zero, c = trec(QRELS, RUN, "-m", "nDCG@10", "--missing", "zero"), trec(QRELS, RUN, "-m", "nDCG@10", "-c")
    assert zero.returncode == c.returncode == 0 and zero.stdout == c.stdout and zero.stderr == c.stderr == ""


def test_json_says_which_queries_were_dropped_and_under_which_policy():
    done = trec(QRELS, RUN, "-m", "nDCG@10", "--missing", "skip", "--format", "json")
    data = json.loads(done.stdout)
    assert data["missingQueryIds"] == ["306"] and data["options"]["missing"] == "skip"
    assert "306" not in [q["id"] for q in data.get("queries", [])]
    assert data["warnings"] and "'306'" in data["warnings"][0]
    scored = json.loads(trec(QRELS, RUN, "-m", "nDCG@10", "-c", "--format", "json").stdout)
    assert scored["missingQueryIds"] == ["306"] and scored["options"]["missing"] == "zero" and scored["warnings"] == []


def test_trec_eval_format_takes_missing_skip_and_zero():
    # skip: the run's topics only (trec_eval 9.x's without -c), with the warning; zero: -c.
    skip = trec(QRELS, RUN, "-q", "-m", "map", "--missing", "skip")
    assert skip.returncode == 0 and "\t306\t" not in skip.stdout and "num_q" not in skip.stdout
    assert skip.stderr.startswith("evalcore trec: warning: 1 of the ") and "'306'" in skip.stderr
    lines = [line for line in skip.stdout.splitlines() if line.endswith("all\t" + line.split("\t")[-1])]
    assert lines[-1].startswith("map") and "\tall\t" in lines[-1]
    zero, c = trec(QRELS, RUN, "-q", "-m", "map", "--missing", "zero"), trec(QRELS, RUN, "-q", "-c", "-m", "map")
    assert zero.returncode == c.returncode == 0 and zero.stdout == c.stdout and "\t306\t" in c.stdout
    assert trec(QRELS, RUN, "-c", "-m", "map", "--missing", "skip").returncode == 2


# ---- the trec_eval spelling of a name trec_eval calls illegal --------------------------------


@pytest.mark.parametrize("name, equivalent", [
    ("nDCG@10", "-m ndcg_cut.10"), ("ndcg@10", "-m ndcg_cut.10"), ("ndcg_cut_10", "-m ndcg_cut.10"),
    ("AP", "-m map"), ("MAP@100", "-m map_cut.100"), ("map@100", "-m map_cut.100"), ("P@5", "-m P.5"),
    ("P_5", "-m P.5"), ("P(rel=2)@10", "-m P.10 -l 2"), ("precision@10-l2", "-m P.10 -l 2"), ("R@100", "-m recall.100"),
    ("RR", "-m recip_rank"), ("mrr", "-m recip_rank"), ("Success@5", "-m success.5"), ("hit_rate@5", "-m success.5"),
    ("IPrec@0.2", "-m iprec_at_recall.0.2"), ("Rprec", "-m Rprec"), ("r-precision", "-m Rprec"), ("Bpref", "-m bpref"),
    ("NumRet(rel=1)", "-m num_rel_ret -l 1"), ("SetP", "-m set_P"), ("SetF(beta=0.5)", "-m set_F.0.5"),
    ("RR@10", None), ("Judged@10", None), ("nDCG(gains={0:0,1:1,2:3})@10", None), ("P(rel=1.5)@10", None),
    ("official", None), ("nonsense", None),
])
def test_trec_eval_equivalent(name, equivalent):
    assert trec_eval_equivalent(name) == equivalent


def test_an_evalcore_name_in_trec_eval_format_suggests_trec_eval_s():
    done = trec(QRELS, RUN, "--format", "trec_eval", "-c", "-m", "map", "-m", "nDCG@10")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("trec_eval: illegal measure 'nDCG@10'\n"
                           "evalcore trec: 'nDCG@10' is not trec_eval's spelling; in trec_eval format give -m "
                           "ndcg_cut.10 (trec_eval's measure of that definition), or leave out --format trec_eval for "
                           "evalcore's table\n")
    # the suggestion computes the same values
    suggested = trec(QRELS, RUN, "-c", "-q", "-m", "ndcg_cut.10")
    table = trec(QRELS, RUN, "-c", "-q", "-m", "nDCG@10", "--format", "csv")
    per_query = {line.split("\t")[1]: float(line.split("\t")[2]) for line in suggested.stdout.splitlines()
                 if line.startswith("ndcg_cut_10") and "\tall\t" not in line}
    rows = [row.split(",") for row in table.stdout.splitlines()[1:] if ",all," not in row]
    assert per_query == {q: round(float(v), 4) for _, q, v in rows}


def test_an_evalcore_only_name_in_trec_eval_format_says_to_leave_the_format_out():
    done = trec(QRELS, RUN, "--format", "trec_eval", "-c", "-m", "Judged@10")
    assert done.returncode == 1 and done.stderr.splitlines() == [
        "trec_eval: illegal measure 'Judged@10'",
        "evalcore trec: trec_eval has no measure 'Judged@10'; leave out --format trec_eval (or give --format table, "
        "json or csv) to compute it"]
    # a name nobody has, and trec_eval's own refusals, stay trec_eval's message alone
    assert trec(QRELS, RUN, "--format", "trec_eval", "-m", "foo").stderr == "trec_eval: illegal measure 'foo'\n"
    assert trec(QRELS, RUN, "-m", "P.", "-m", "nDCG@10", "--format", "trec_eval").stderr == (
        "trec_eval: improper measure in parameter 'P'\ntrec_eval: illegal measure 'P'\n")


# ---- --relevant-at-least in trec_eval format --------------------------------------------------


def test_relevant_at_least_is_l_in_trec_eval_format():
    l2 = trec(QRELS, RUN, "-q", "-c", "-l", "2", "-m", "P.5", "-m", "map")
    given = trec(QRELS, RUN, "-q", "-c", "--relevant-at-least", "2", "-m", "P.5", "-m", "map")
    assert l2.returncode == given.returncode == 0 and given.stdout == l2.stdout and given.stderr == ""
    assert given.stdout != trec(QRELS, RUN, "-q", "-c", "-m", "P.5", "-m", "map").stdout
    assert trec(QRELS, RUN, "-c", "-l", "2", "--relevant-at-least", "2", "-m", "map").returncode == 2
    fractional = trec(QRELS, RUN, "-c", "--relevant-at-least", "2.5", "-m", "map")
    assert fractional.returncode == 2 and fractional.stdout == ""
    assert "--relevant-at-least 2.5: trec_eval format takes an integer level, as trec_eval's -l" in fractional.stderr


# ---- the qrels and the run given in the wrong order -------------------------------------------

# (tests/runs/test_swapped_files.py: both cores of evaluate_run give this message)
_SWAPPED_QRELS = ("a qrels line has 4 fields: query iteration document grade, found more; it looks like a run line "
                  "(query Q0 document rank score tag): the qrels and run files look swapped (the qrels come first)")


@pytest.mark.parametrize("measures", [["-m", "map"], ["-m", "nDCG@10"]], ids=["trec_eval format", "evalcore table"])
def test_swapped_files_say_they_look_swapped(measures):
    done = trec(RUN, QRELS, "-c", *measures)
    assert done.stdout == "" and done.returncode == (2 if measures[1] == "map" else 1)
    assert done.stderr == f"evalcore trec: {RUN}:1: {_SWAPPED_QRELS}\n"


# ---- what all_trec leaves out ------------------------------------------------------------------


def test_all_trec_leaves_nothing_out_now_and_says_nothing():
    done = trec(QRELS, RUN, "-c", "-m", "all_trec")
    lacking = [m for m in te.TABLE if m in te.NICKNAMES["all_trec"] and m not in te.SUPPORTED]
    assert done.returncode == 0 and lacking == [] and done.stderr == ""
    # what evalcore has prints no notice
    assert trec(QRELS, RUN, "-c", "-m", "official").stderr == ""
    assert trec(QRELS, RUN, "-c", "-m", "set").stderr == ""


def test_a_measure_a_nickname_brings_in_and_evalcore_lacks_is_named(monkeypatch):
    # Every measure of all_trec is evalcore's now; were one not (a measure trec_eval adds),
    # the plan leaves it out and the notice names it, on one line.
    monkeypatch.setattr(te, "SUPPORTED", te.SUPPORTED - {"infAP", "rbp"})
    plan = te.plan(["all_trec"])
    assert plan.left_out == ("infAP", "rbp")
    assert not any(c.name in ("infAP", "rbp") for c in plan.columns)
    assert left_out_notice(["all_trec"], plan.left_out) == (
        "-m all_trec: left out 2 trec_eval measures evalcore does not have yet (trec_eval 10 prints them): infAP, rbp")


def test_the_notice_is_made_from_supported(monkeypatch):
    # As measures land (SUPPORTED grows), the notice shrinks: it is computed, not listed.
    monkeypatch.setattr(te, "SUPPORTED", te.SUPPORTED - {"ndcg"})
    plan = te.plan(["all_trec"])
    assert "ndcg" in plan.left_out and all(m not in te.SUPPORTED for m in plan.left_out)
    assert list(plan.left_out) == [m for m in te.TABLE if m in te.NICKNAMES["all_trec"] and m not in te.SUPPORTED
                                   and m not in te.OTHER_QRELS_FORMAT]
