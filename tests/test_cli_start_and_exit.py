"""How the `evalcore` command starts and ends (cli.console): `import evalcore` leaves numpy
out until a whole-runs name is used, `evalcore trec` tells OpenBLAS to start no threads
before numpy loads (unless the user set a value), and `trec` and `compare` end without the
interpreter's teardown, their output complete."""

import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
QRELS = str(ROOT / "examples" / "trec" / "qrels.txt")
RUN = str(ROOT / "examples" / "trec" / "run.txt")


def _python(code, *, env=None):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, timeout=120, env=env,
                          text=True)


def test_import_evalcore_leaves_numpy_out_and_every_public_name_resolves():
    proc = _python("""
        import sys, evalcore
        assert "numpy" not in sys.modules, "import evalcore imported numpy"
        assert "evalcore.comparisons" not in sys.modules
        names = {name: getattr(evalcore, name) for name in evalcore.__all__}
        from evalcore import evaluate_run, RunEvaluation, ExactSum, PerQuery, EvaluationWarning, compare, Comparison
        assert evaluate_run is evalcore.evaluate_run and names["compare"] is compare
        assert evalcore.runs.evaluate.evaluate_run is evaluate_run   # the rooms import used to bring along
        try:
            evalcore.no_such_name
        except AttributeError as err:
            print(err)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "module 'evalcore' has no attribute 'no_such_name'" in proc.stdout


# What console() sees: main() replaced by one that reports the environment it runs in.
PROBE = """
    import atexit, os, sys
    import evalcore.cli as cli
    real_main = cli.main
    def main():
        print("threads", os.environ.get("OPENBLAS_NUM_THREADS"), "numpy", "numpy" in sys.modules, flush=True)
        return real_main()
    cli.main = main
    atexit.register(lambda: print("teardown ran"))
    sys.argv = ["evalcore", *{args!r}]
    cli.console()
"""


def test_trec_starts_openblas_without_threads_and_skips_the_teardown():
    proc = _python(PROBE.format(args=["trec", "-q", "-m", "map", QRELS, RUN]))
    assert proc.returncode == 4, proc.stderr  # topic 306 is judged and not in the run (trec_eval 10 stops)
    lines = proc.stdout.splitlines()
    assert lines[0] == "threads 1 numpy False"
    assert lines[1].startswith("map") and "teardown ran" not in proc.stdout
    # the output is complete: every per-topic line up to the missing topic, flushed before the end
    assert len([line for line in lines if line.startswith("map")]) == len(lines) - 1


def test_a_value_the_user_set_is_kept():
    env = dict(__import__("os").environ, OPENBLAS_NUM_THREADS="2")
    proc = _python(PROBE.format(args=["trec", "-c", "-m", "map", QRELS, RUN]), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "threads 2 numpy False"


@pytest.mark.parametrize("args, status", [(["--version"], 0), (["score", "/no/such/file"], 2)])
def test_other_subcommands_end_the_ordinary_way(args, status):
    proc = _python(PROBE.format(args=args))
    assert proc.returncode == status
    assert "threads None" in proc.stdout and "teardown ran" in proc.stdout


def test_compare_skips_the_teardown_with_its_output_complete():
    proc = _python(PROBE.format(args=["compare", QRELS, f"a={RUN}", f"b={RUN}", "-m", "AP", "--format", "json",
                                      "--missing", "zero"]))
    assert proc.returncode == 0, proc.stderr
    assert "teardown ran" not in proc.stdout and proc.stdout.rstrip().endswith("}")
