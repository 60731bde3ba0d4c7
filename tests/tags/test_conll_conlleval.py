"""`evalcore conll` against conlleval: the original perl script's output on files made here
(tests/data/conll/*.conll, seeded draws; *.conlleval.txt is what conlleval.pl, version
2004-01-26, printed for each), the PyPI `conlleval` package (0.2, its Python port) on
generated files, and seqeval on the lists read_conll gives. Where conlleval's rules and
evalcore's differ (-DOCSTART- lines, IOBES tags), the tests pin the documented difference."""

from __future__ import annotations

import pathlib
import warnings

import pytest
from conlleval import evaluate as conlleval_evaluate
from hypothesis import assume, given
from hypothesis import strategies as st

import evalcore
from common import slow_examples
from evalcore import cli
from evalcore.tags.conll_command import conlleval_report, rules_note
from evalcore.testing.conll import BIO_TAGS, conll_files
from seqeval_peer import assert_same_numbers, seqeval_report

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "conll"


def ours(path, capsys, *args):
    assert cli.main(["conll", str(path), *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", ["bio", "bio_ill_formed"])
def test_the_report_is_conllevals_byte_for_byte(name, capsys):
    # IOB2 tags, well-formed and not (I- after O, type changes): conlleval's chunk rules and
    # seqeval's default mode agree on B-, I- and O, so the whole report is the same
    assert ours(DATA / f"{name}.conll", capsys) == (DATA / f"{name}.conlleval.txt").read_text()


def test_docstart_lines_are_not_tokens_where_conlleval_counts_them(capsys):
    # conlleval counts "-DOCSTART- O O" as a token (tagged O, correctly); evalcore does not:
    # the token count and accuracy differ by the document lines, and nothing else does
    result = evalcore.evaluate_conll(DATA / "docstart.conll")
    assert result["documents"] == 6
    as_conlleval = dict(result, tokens=result["tokens"] + 6, correctTokens=result["correctTokens"] + 6)
    assert conlleval_report(as_conlleval) == (DATA / "docstart.conlleval.txt").read_text()
    assert cli.main(["conll", str(DATA / "docstart.conll")]) == 0
    printed = capsys.readouterr()
    assert printed.out == conlleval_report(result)
    # ... and says so on stderr, with conlleval's token count and accuracy (no silent difference)
    perl = (DATA / "docstart.conlleval.txt").read_text().splitlines()
    tokens, accuracy = perl[0].split()[1], perl[1].split(";")[0].split(":")[1].strip()
    assert printed.err == (f"evalcore conll: note: 6 -DOCSTART- lines are not counted as tokens; conlleval.pl counts "
                           f"each as a correctly tagged token: processed {tokens} tokens, accuracy: {accuracy:>7} "
                           "(docs/conll.md)\n")
    assert cli.main(["conll", str(DATA / "bio.conll")]) == 0 and capsys.readouterr().err == ""


def test_where_the_chunk_rules_differ(capsys):
    # "S-PER S-PER": seqeval's default mode reads two chunks (S ends and starts one), conlleval.pl
    # one (it has no S rule; the type does not change). "B-LOC E-LOC B-LOC": seqeval two (E
    # ends one), conlleval.pl one (E then B is no boundary in its rules). docs/conll.md.
    perl = (DATA / "rules_differ.conlleval.txt").read_text().splitlines()
    assert perl[0] == "processed 9 tokens with 3 phrases; found: 3 phrases; correct: 3."
    result = evalcore.evaluate_conll(DATA / "rules_differ.conll")
    assert {t: c["phrases"] for t, c in result["types"].items()} == {"LOC": 2, "ORG": 1, "PER": 2}
    assert cli.main(["conll", str(DATA / "rules_differ.conll")]) == 0
    printed = capsys.readouterr()
    assert printed.out.splitlines()[0] == "processed 9 tokens with 5 phrases; found: 5 phrases; correct: 5."
    # ... and says so on stderr (no silent difference): the distinct tags with S- or E- prefixes
    other = sorted({tag for side in evalcore.read_conll(DATA / "rules_differ.conll")["tags"] for sentence in side
                    for tag in sentence if tag[0] not in "BIO"})
    assert other and result["otherPrefixTags"] == len(other)
    assert printed.err.startswith(f"evalcore conll: note: {len(other)} distinct tags have a prefix other than B-, I- "
                                  "and O (such as S-, E- or none); their chunks follow seqeval's default mode"), printed.err
    assert rules_note(result, "strict") is None  # a scheme's own rules, asked for: nothing to say


def test_json_holds_the_counts_and_seqevals_report(capsys):
    import json

    printed = json.loads(ours(DATA / "bio.conll", capsys, "--format", "json"))
    result = evalcore.evaluate_conll(DATA / "bio.conll")
    assert printed == json.loads(json.dumps(result))


@slow_examples(300)  # conlleval's Python port and two readings of the file per example
@given(conll_files(tags=BIO_TAGS, docstart=False), st.booleans())
def test_counts_equal_the_conlleval_package(data, tabs):
    # the port splits at any whitespace and takes "-X-" as its boundary word: not drawn here
    data = data.replace(b"-X-", b"X")
    if tabs:
        data = data.replace(b" ", b"\t")
    text = data.decode("utf-8")
    assume(any(line.split() for line in text.splitlines()))
    lines = text.splitlines()
    while not lines[0].split():  # the port takes its column count from the first line, blank or not
        lines.pop(0)
    theirs = conlleval_evaluate(lines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = evalcore.evaluate_conll(data)
    chunks, tags = theirs["overall"]["chunks"]["stats"], theirs["overall"]["tags"]["stats"]
    assert (mine["phrases"], mine["found"], mine["correct"]) == (chunks["gold"], chunks["pred"], chunks["correct"])
    assert (mine["tokens"], mine["correctTokens"]) == (tags["gold"], tags["correct"])
    per_type = {t: (c["stats"]["gold"], c["stats"]["pred"], c["stats"]["correct"])
                for t, c in theirs["slots"]["chunks"].items()}
    assert {t: (c["phrases"], c["found"], c["correct"]) for t, c in mine["types"].items()} == per_type


@slow_examples(300)  # seqeval's numpy report per example
@given(conll_files(), st.sampled_from([("IOB2", "default"), ("IOB2", "strict"), ("IOBES", "strict")]))
def test_evaluate_tags_on_a_file_equals_seqeval_on_its_lists(data, option):
    scheme, mode = option
    corpus = evalcore.read_conll(data)
    gold, pred = corpus["tags"]
    status, report, accuracy, _ = seqeval_report(gold, pred, scheme, mode, False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mine = evalcore.evaluate_tags(data, scheme=scheme, mode=mode)
    except ValueError:
        return  # no token, or a tag strict mode refuses (tests/tags/ pins where seqeval fails too)
    assert status == "ok"
    assert_same_numbers(mine["report"], report)
    assert mine["accuracy"] == accuracy
