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


# Which thread imports numpy first: a finder ahead of the others notes the thread that first
# looks numpy up (and finds nothing, so the ordinary finders import it).
FIRST_IMPORT_PROBE = """
    import sys, threading
    class Note:
        first = None
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if name == "numpy" and cls.first is None:
                cls.first = threading.current_thread().name
            return None
    sys.meta_path.insert(0, Note)
    import evalcore.cli as cli
    sys.argv = ["evalcore", *{args!r}]
    status = cli.main()
    print("numpy first imported by", Note.first, flush=True)
    sys.exit(status)
"""


@pytest.mark.parametrize("args", [["trec", "-c", "-m", "map", QRELS, RUN],
                                  ["trec", "-c", "-m", "nDCG@10", QRELS, RUN],
                                  ["trec", "-c", "-R", "qrels_jg", "-m", "map_avgjg", QRELS, RUN]])
def test_trec_imports_numpy_beside_the_reading_not_before_it(args):
    # _lazy_numpy.py: the modules `evalcore trec` imports leave numpy out, and the command
    # starts its import on a thread of its own just before the core reads the files, with
    # the GIL released (the golden tests check that the output is what it was).
    proc = _python(FIRST_IMPORT_PROBE.format(args=args))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "numpy first imported by evalcore-import-numpy" and len(lines) > 1, proc.stdout


def test_lazy_numpy_is_numpy_on_every_thread_once_used():
    proc = _python("""
        import sys, threading
        assert "numpy" not in sys.modules
        import evalcore.trec_eval.topic_table as table
        assert "numpy" not in sys.modules and type(table.np).__name__ == "LazyNumpy", repr(table.np)
        from evalcore._lazy_numpy import import_numpy_beside
        import_numpy_beside()
        seen = []
        def use():  # several threads reading np while the import is under way
            seen.append(table.np.float64(2.5) * 2)
        threads = [threading.Thread(target=use) for _ in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        import numpy
        assert seen == [5.0] * 8 and table.np is numpy, (seen, table.np)
    """)
    assert proc.returncode == 0, proc.stderr
