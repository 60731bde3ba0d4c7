"""``evalcore trec -Z Zmean_file``: what trec_eval's golden outputs do not show by themselves
(those, tests/data/trec_eval/cli/z_*, are compared byte for byte in test_trec_eval_golden.py):
the inputs evalcore refuses where trec_eval reads something else (each against trec_eval's
side), which fault comes first, the table conversion against trec_eval's rule value by value,
and -Z with means 0 and standard deviations 1 against the output without -Z."""

from __future__ import annotations

import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore.trec_eval import output_format as te
from evalcore.trec_eval.zscores import MISSING_ZSCORE_VALUE, ZScores, read_zscores

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "trec_eval" / "cli"
EXAMPLES = ["examples/trec/qrels.txt", "examples/trec/run.txt"]


def trec(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "trec", *arguments], cwd=ROOT,
                          capture_output=True, timeout=120)


def golden(name: str):
    return ((GOLDEN / f"{name}.stdout").read_bytes(), (GOLDEN / f"{name}.stderr").read_bytes(),
            int((GOLDEN / f"{name}.status").read_text(encoding="utf-8")))


def test_atof_numbers_are_refused_where_trec_eval_reads_what_atof_makes_of_them():
    # trec_eval's side: the file with "0.5x", "abc", "0x1p-2" and ".5e" prints what its twin
    # spelling out atof's reading (0.5, 0, 0.25, .5) prints
    assert golden("z_atof") == golden("z_atof_as_read")
    done = trec("-q", "-c", "-m", "map", "-m", "P.5,10", "-Z", "tests/data/trec_eval/cli/atof.zscores", *EXAMPLES)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == (b"evalcore trec: tests/data/trec_eval/cli/atof.zscores: line 1: the mean '0.5x' is not a "
                           b"decimal number (trec_eval would read what atof makes of it, 0 for text)\n")


@pytest.mark.parametrize("text, message", [
    (b"301 map 0.1 0.2\n301 map 0.1 0.3\n", "line 2: topic '301' measure 'map' is given twice"),
    (b"301 map nan 0.2\n", "line 1: the mean 'nan' is not a decimal number"),
    (b"301 map 0.1 inf\n", "line 1: the standard deviation 'inf' is not a decimal number"),
    (b"301 map 0.1 1e400\n", "line 1: the standard deviation '1e400' is out of range"),
    (b"301 map 0x10 1\n", "line 1: the mean '0x10' is not a decimal number"),
    (b"301 map 1_0 1\n", "line 1: the mean '1_0' is not a decimal number"),  # Python's float() takes it
    (b"301 map 0.1 1\n301 P_5\x000.1 1\n", "line 2: a NUL byte"),
])
def test_what_evalcore_refuses_names_the_line(tmp_path, text, message):
    path = tmp_path / "z"
    path.write_bytes(text)
    with pytest.raises(te.TrecEvalError) as caught:
        read_zscores(str(path))
    assert caught.value.status == 2 and caught.value.stderr_text().startswith(f"evalcore trec: {path}: {message}")


def test_the_file_is_read_after_the_qrels_and_run_and_before_the_measures_are_set_up():
    files_first = trec("-c", "-Z", "tests/data/trec_eval/cli/malformed.zscores", "nowhere.qrels", EXAMPLES[1])
    assert files_first.returncode == 2 and b"nowhere.qrels" in files_first.stderr
    assert b"zscores" not in files_first.stderr
    assert golden("z_before_setup")[1] == b"trec_eval.get_zscores: Malformed line 3\n"  # before P.0's fault


def test_other_formats_refuse_z():
    done = trec("-c", "-m", "nDCG@10", "-Z", "tests/data/trec_eval/cli/examples.zscores", *EXAMPLES)
    assert done.returncode == 2 and done.stdout == b""
    assert b"-Z: z-scores are printed in trec_eval format" in done.stderr


def test_means_0_and_deviations_1_print_the_values_as_they_are(tmp_path):
    arguments = ["-q", "-c", "-m", "all_trec", *EXAMPLES]
    plain = trec(*arguments)
    assert plain.returncode == 0
    lines = plain.stdout.decode().splitlines()
    names = sorted({line.split("\t")[0].rstrip(" ") for line in lines})  # gm_map, num_q: summary lines
    topics = sorted({line.split("\t")[1] for line in lines} - {"all"})
    path = tmp_path / "unit.zscores"
    path.write_text("".join(f"{q} {name} 0 1\n" for q in topics for name in names), encoding="ascii")
    z = trec("-Z", str(path), *arguments)
    assert (z.returncode, z.stderr) == (0, b"")
    expected = []
    for line in lines:
        name, query, text = line.split("\t")
        if name.startswith("runid") or name.startswith("relstring"):
            expected.append(line)
            continue
        if text.lstrip("-").isdigit():  # counts: 4 decimals under -Z
            text = f"{float(text):6.4f}"
        expected.append(f"Z{name}\t{query}\t{text}")
    assert z.stdout.decode().splitlines() == expected


def trec_eval_rule(value: float, entry) -> float:
    """convert_zscores.c, one value at a time."""
    if entry is None:
        return MISSING_ZSCORE_VALUE
    mean, stddev = entry
    if stddev:
        return (value - mean) / stddev
    return 0.0 if value == mean else MISSING_ZSCORE_VALUE


VALUES = st.one_of(st.floats(allow_nan=True, allow_infinity=False, width=64), st.sampled_from([0.0, 0.25, 1.0, 3.0]))
ENTRIES = st.one_of(st.none(), st.tuples(st.sampled_from([0.0, 0.25, 1.0, -2.5]), st.sampled_from([0.0, 1.0, 0.3, -2.0])),
                    st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)))


@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.tuples(st.lists(VALUES, min_size=n, max_size=n),
                                                             st.lists(ENTRIES, min_size=n, max_size=n)),
                                                   min_size=0, max_size=5)))
def test_the_table_conversion_is_trec_evals_rule_value_by_value(rows):
    width = len(rows[0][0]) if rows else 1
    columns = [te.Column(f"m{c}", lambda row: 0.0) for c in range(width)]
    queries = [f"q{t}" for t in range(len(rows))]
    entries = {(queries[t], f"m{c}"): entry for t, (_, found) in enumerate(rows) for c, entry in enumerate(found)
               if entry is not None}
    table = np.array([values for values, _ in rows], dtype=np.float64).reshape(len(rows), width)
    converted = ZScores(entries).convert(columns, queries, table)
    for t, (values, found) in enumerate(rows):
        want = [trec_eval_rule(v, e) for v, e in zip(values, found)]
        got = converted[t].tolist()
        assert [math.isnan(x) for x in got] == [math.isnan(x) for x in want]
        assert [x for x in got if not math.isnan(x)] == [x for x in want if not math.isnan(x)]
        assert np.array_equal(ZScores(entries).convert_row(columns, queries[t], values), got, equal_nan=True)
