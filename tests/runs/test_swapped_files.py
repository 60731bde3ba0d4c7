"""issue 23 item 6: a qrels file that looks like a run (the files given in the wrong order)
says so, as does a run file that looks like qrels: the same message from both cores of
evaluate_run (cpp/runs/records.cpp and its twin), by the vectorized reader of short lines
and the byte-by-byte one of long lines. tests/trec_eval/test_cli_guidance.py has the CLI's."""

import pytest

import evalcore
import evalcore.reference

_SWAPPED_QRELS = ("a qrels line has 4 fields: query iteration document grade, found more; it looks like a run line "
                  "(query Q0 document rank score tag): the qrels and run files look swapped (the qrels come first)")
_QRELS_AS_RUN = ("a run line has at least 6 fields: query Q0 document rank score tag, found 4; it looks like a qrels "
                 "line (query iteration document grade): the qrels and run files look swapped (the qrels come "
                 "first), or the qrels were given as the run")


@pytest.mark.parametrize("module", [evalcore, evalcore.reference], ids=["native", "reference"])
def test_both_cores_say_a_qrels_file_looks_like_a_run(module, tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("# a run\nq1 Q0 d1 1 2.5 tag\n", encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n", encoding="utf-8")
    with pytest.raises(evalcore.RunInputError) as swapped:
        module.evaluate_run(str(run), str(qrels), ["AP"])
    assert str(swapped.value) == f"{run}:2: {_SWAPPED_QRELS}"
    with pytest.raises(evalcore.RunInputError) as twice:
        module.evaluate_run(str(qrels), str(qrels), ["AP"])
    assert str(twice.value) == f"{qrels}:1: {_QRELS_AS_RUN}"


@pytest.mark.parametrize("line, hint", [
    ("q1 0 d1 1 extra words", False),  # 6 fields, the 5th no number: no run line
    ("q1 Q0 d1 1 2.5", False),  # 5 fields
    ("q1 Q0 d1 1 2.5 tag and more", True),  # a run line's fields after the 6th are ignored
    ("q1 Q0 d1 x 2.5 tag", False),  # rank not a number
    ("q1 Q0 d1 1 2.5 tag " + "x" * 70, True),  # past 64 bytes: the byte-by-byte reader
    ("q1 0 d1 1 extra words " + "x" * 70, False),
])
@pytest.mark.parametrize("module", [evalcore, evalcore.reference], ids=["native", "reference"])
def test_the_swap_hint_needs_a_line_shaped_like_a_run_s(module, tmp_path, line, hint):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(evalcore.RunInputError) as error:
        module.evaluate_run(str(qrels), {"q1": ["d1"]}, ["AP"])
    assert ("look swapped" in str(error.value)) == hint, str(error.value)
    assert str(error.value).startswith(f"{qrels}:1: a qrels line has 4 fields: query iteration document grade, found ")
