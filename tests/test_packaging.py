"""What a user sees of the package itself: the build, the API surface, the reference's independence."""

import ast
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import evalcore

PACKAGE = pathlib.Path(evalcore.__file__).parent
CHECKOUT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not os.environ.get("EVALCORE_TEST_INSTALLED"),
                    reason="set EVALCORE_TEST_INSTALLED=1 to test an installed wheel (.ci/run, cibuildwheel)")
def test_the_installed_package_is_the_one_tested():
    # From an environment's site-packages, not the checkout's python/evalcore (an editable
    # install, or python/ on sys.path).
    for module in (evalcore, evalcore._core):
        location = pathlib.Path(module.__file__).resolve()
        assert "site-packages" in location.parts, location
        assert CHECKOUT / "python" not in location.parents, location


def test_public_api():
    for name in ("ranking_evaluate", "EvaluationError", "Limits", "__version__", "evaluate_run", "RunEvaluation",
                 "RunInputError"):
        assert hasattr(evalcore, name)
    assert issubclass(evalcore.EvaluationError, ValueError)
    assert issubclass(evalcore.RunInputError, ValueError)
    assert evalcore.__version__.count(".") == 2
    assert (PACKAGE / "py.typed").exists() and (PACKAGE / "_core.pyi").exists()


def test_every_public_function_is_documented():
    import evalcore.reference

    for module in (evalcore, evalcore.reference):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type):
                assert obj.__doc__ and len(obj.__doc__) > 40, f"{module.__name__}.{name} lacks a docstring"


def _run(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def test_import_without_the_extension_says_how_to_build():
    proc = _run(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "evalcore._core":
                    raise ImportError("simulated: extension not built")
        sys.meta_path.insert(0, Block())
        import evalcore
        """
    )
    assert proc.returncode != 0
    assert "pip install ." in proc.stderr and "evalcore._core" in proc.stderr


def test_reference_never_touches_the_compiled_module():
    # Statically: no module of the reference (nor the pure modules it uses) imports _core.
    for path in list((PACKAGE / "reference").glob("*.py")) + [PACKAGE / n for n in ("errors.py", "limits.py", "conventions.py", "envelope.py", "run_evaluation.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            assert not any("_core" in n for n in names), f"{path.name} imports the compiled module"
    # At run time: with _core replaced by a module that fails on any use, the reference still works.
    proc = _run(
        """
        import sys, evalcore, evalcore.reference as reference
        class Poison:
            def __getattr__(self, name):
                raise AssertionError("reference used _core." + name)
        sys.modules["evalcore._core"] = Poison()
        evalcore._core = Poison()
        env = reference.ranking_evaluate({"queries": [{"id": "q", "retrieved": ["a"], "judgments": [{"id": "a", "grade": 1}]}]})
        assert reference.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, ["AP"]).mean == {"AP": 1.0}
        print(env["provenance"]["outputSha256"])
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip()) == 64
