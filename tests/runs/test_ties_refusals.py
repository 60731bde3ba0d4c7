"""Issue 25 item 3 (h25-ties3): what the tie rules' refusals say, and where a result says which
rule made its numbers. The refusal messages and docs/measures.md's tables ("Ties") say the same
thing ("not defined" only where there is no number to take the expectation of, "not
implemented" otherwise); subtopic qrels are refused with their own order's reason; `evalcore
trec` says a tie rule (or gain) that is not trec_eval's on stderr, and in table format on a `#`
line; RunEvaluation's repr names the rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import evalcore
import evalcore.reference
from evalcore.runs.measures import MEASURE_KINDS, parse_measures
from evalcore.runs.ties import REFUSED_AVERAGE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "measures.md"

# Each row of the docs' refusal table (its first column) and measures it stands for.
ROW_MEASURES = {
    "IPrec (iprec_at_recall), 11pt_avg": ["iprec_at_recall_0.50", "11pt_avg"],
    "infAP": ["infAP"],
    "yaap": ["yaap"],
    "gm_map, gm_bpref": ["gm_map", "gm_bpref"],
    "relstring": ["relstring"],
    "G": ["G"],
    "ndcg_rel with a negative gain parameter, or a gain for level -1 or -2": ["ndcg_rel.1=2,2=-1", "ndcg_rel.-1=2"],
    "Compat": ["Compat"],
    "INST": ["INST(T=2,max_rel=3)"],
    "BPM, BPMD": ["BPM(T=1,max_rel=3)@5", "BPMD(T=1,max_rel=3)@5"],
    "NERR8, NERR9, NERR10, NERR11": ["NERR8(max_rel=3)@5", "NERR9(max_rel=3)@5", "NERR10(p=0.9,max_rel=3)",
                                     "NERR11(T=1,max_rel=3)"],
}


def _table_rows(header: str):
    """The rows (lists of cells) of the docs table whose header line starts with `header`."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def _refusal(measures, **kwargs):
    messages = []
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError) as refused:
            module.evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, measures, **kwargs)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]  # both cores, the same words
    return messages[0]


def test_the_docs_refusal_table_and_the_messages_say_the_same_thing():
    rows = _table_rows("| measure | expectation | why | instead |")
    assert [row[0] for row in rows] == list(ROW_MEASURES)
    for row in rows:
        assert row[1] in ("not defined", "not implemented"), row
        for name in ROW_MEASURES[row[0]]:
            message = _refusal([name], ties="average")
            assert re.match(rf"ties='average' is {row[1]} for measure ", message), (name, message)
    # Every refused kind has a row (and only relstring's value is not a number).
    numeric = [name for names in ROW_MEASURES.values() for name in names if name != "relstring"]
    covered = {MEASURE_KINDS[spec.kind] for spec in parse_measures(numeric)}
    assert set(REFUSED_AVERAGE) <= covered | {"RankGrade"}
    assert [row[0] for row in rows if row[1] == "not defined"] == ["relstring"]


def test_the_docs_format_table_and_the_messages_say_the_same_thing(tmp_path):
    rows = _table_rows("| `qrels_format` | `ties=\"average\"` |")
    subtopics = {row[0].split("`")[1]: row for row in rows}['"subtopics"']
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 1 a 1\n")
    run.write_text("q Q0 a 1 1.0 r\n")
    for ties, said in (("average", subtopics[1]), ("optimistic", subtopics[2]), ("pessimistic", subtopics[2])):
        message = _refusal_of_file(str(qrels), str(run), ["alpha_nDCG@5"], ties, "subtopics")
        assert message.startswith(f"ties={ties!r} takes qrels_format='qrels': with qrels_format='subtopics', "
                                  "the diversity measures order tied documents as ndeval/pyndeval does: score "
                                  "descending, then document ID ascending (ties='score')"), message
        assert said in message and "trec_eval" not in message, message
        assert message.endswith(": give ties='score' or 'input'")
    assert "a grade per subtopic" in _refusal_of_file(str(qrels), str(run), ["alpha_nDCG@5"], "optimistic", "subtopics")
    for qrels_format, measure in (("qrels_jg", "map_avgjg"), ("qrels_prefs", "prefs_simp")):
        message = _refusal_of_file(str(qrels), str(run), [measure], "average", qrels_format)
        assert "trec_eval's order (score, then document ID descending; ties='score')" in message
        assert "not implemented" in message


def _refusal_of_file(qrels, run, measures, ties, qrels_format):
    messages = []
    for module in (evalcore, evalcore.reference):
        with pytest.raises(ValueError) as refused:
            module.evaluate_run(qrels, run, measures, ties=ties, qrels_format=qrels_format)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    return messages[0]


@pytest.fixture
def tied_files(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 a 1\nq 0 c 1\nq 0 d 0\n")
    run.write_text("q Q0 a 1 1.0 r\nq Q0 b 2 1.0 r\nq Q0 c 3 1.0 r\nq Q0 d 4 0.5 r\n")
    return str(qrels), str(run)


@pytest.mark.parametrize("ties, said", [
    ("average", "--ties average (not trec_eval's): each value the exact expectation over every order"),
    ("input", "--ties input (not trec_eval's): documents in the order given"),
    ("optimistic", "--ties optimistic (not trec_eval's): tied documents by grade, highest first"),
    ("pessimistic", "--ties pessimistic (not trec_eval's): tied documents by grade, lowest first"),
])
def test_evalcore_trec_says_a_tie_rule_that_is_not_trec_evals(tied_files, capsys, ties, said):
    from evalcore.cli import main

    assert main(["trec", "--format", "table", "--ties", ties, "-m", "map", *tied_files]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"# {said}" + captured.out.splitlines()[0][len(said) + 2:]
    assert captured.err.startswith(f"evalcore trec: note: {said}")
    assert main(["trec", "--format", "csv", "--ties", ties, "-m", "map", *tied_files]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "measure,query,value"  # no comment a CSV reader would take as a row
    assert captured.err.startswith(f"evalcore trec: note: {said}")
    assert main(["trec", "--format", "json", "--ties", ties, "-m", "map", *tied_files]) == 0
    captured = capsys.readouterr()
    assert f'"ties": "{ties}"' in captured.out and captured.err.startswith("evalcore trec: note: ")


def test_evalcore_trec_says_nothing_with_trec_evals_rule(tied_files, capsys):
    from evalcore.cli import main

    for form in ("table", "csv"):
        assert main(["trec", "--format", form, "--ties", "score", "-m", "map", *tied_files]) == 0
        captured = capsys.readouterr()
        assert "#" not in captured.out and captured.err == ""
    assert main(["trec", "--format", "table", "-m", "map", *tied_files]) == 0
    assert capsys.readouterr().out == "map                   \tall\t0.8333\n"  # trec_eval's value, as before
    assert main(["trec", "--format", "table", "--gain", "exponential", "-m", "nDCG", *tied_files]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# --gain exponential (not trec_eval's): nDCG's gain is 2^grade - 1")
    assert "evalcore trec: note: --gain exponential" in captured.err


def test_the_repr_of_a_result_names_its_tie_rule():
    qrels = {"q": {"a": 1, "c": 1, "d": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5}}
    for module in (evalcore, evalcore.reference):
        for ties, shown in (("score", "0.8333"), ("average", "0.8056")):
            result = module.evaluate_run(qrels, run, ["AP"], ties=ties)
            assert repr(result) == f"RunEvaluation(1 queries, ties={ties!r}: AP={shown} (n=1))"
