"""What a user sees of the package itself: the build, the API surface, the reference's independence."""

import ast
import importlib
import os
import pathlib
import re
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
    import evalcore.testing

    for module in (evalcore, evalcore.reference, evalcore.testing):
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
    pure = ("errors.py", "limits.py", "requests/conventions.py", "requests/envelope.py", "result_types.py",
            "runs/result.py", "comparisons/procedure.py", "comparisons/comparison.py", "comparisons/corrections.py",
            "comparisons/distributions.py")
    for path in list((PACKAGE / "reference").rglob("*.py")) + [PACKAGE / n for n in pure]:
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
        compared = reference.compare({"q": {"a": 1}, "r": {"b": 1}}, {"x": {"q": ["a"], "r": []}, "y": {"q": [], "r": ["b"]}},
                                     ["AP"], tests=("t", "wilcoxon", "randomization", "bootstrap"),
                                     intervals=("t", "bootstrap"), resamples=9)
        assert compared.to_dict()["comparisons"][0]["delta"] == 0.0
        print(env["provenance"]["outputSha256"])
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip()) == 64


def test_import_evalcore_imports_neither_hypothesis_nor_the_testing_kit():
    proc = _run(
        """
        import sys, evalcore, evalcore.reference
        evalcore.evaluate_run({"q": {"a": 1}}, {"q": ["a"]}, ["AP"])
        loaded = sorted(m for m in sys.modules if m.split(".")[0] == "hypothesis" or m.startswith("evalcore.testing"))
        assert not loaded, loaded
        """
    )
    assert proc.returncode == 0, proc.stderr


def test_the_testing_kit_without_hypothesis_says_what_to_install():
    proc = _run(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "hypothesis" or name.startswith("hypothesis."):
                    raise ImportError("simulated: hypothesis not installed")
        sys.meta_path.insert(0, Block())
        import evalcore
        import evalcore.testing
        """
    )
    assert proc.returncode != 0
    assert "pip install 'evalcore-exact[testing]'" in proc.stderr and "hypothesis" in proc.stderr


def test_the_testing_kit_ships_in_the_wheel():
    # The wheel holds python/evalcore and every subpackage under it (scikit-build-core's
    # wheel.packages), the kit included; the testing extra installs what it needs.
    pyproject = pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert re.search(r'^wheel\.packages = \["python/evalcore"\]$', text, re.M)
    assert re.search(r'^testing = \["hypothesis>=6\.80"\]$', text, re.M)
    kit = pathlib.Path(__file__).resolve().parent.parent / "python" / "evalcore" / "testing"
    names = sorted(p.stem for p in kit.glob("*.py") if p.stem != "__init__")
    assert (kit / "__init__.py").exists() and len(names) >= 8
    for name in names:
        importlib.import_module(f"evalcore.testing.{name}")


def test_the_other_evalcore_project_is_detected(tmp_path):
    # PyPI's `evalcore` is another project with the same import package; its dist-info beside
    # ours is reported (DistributionConflictWarning at import), our own under any name is not.
    from evalcore import _installation

    site = tmp_path / "site-packages"
    (site / "evalcore").mkdir(parents=True)
    (site / "evalcore_exact-0.1.0.dist-info").mkdir()
    (site / "evalcore_exact-0.1.0.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.4\nName: evalcore-exact\nSummary: {_installation.OUR_SUMMARY}: ranking...\n\nbody\n")
    assert _installation.foreign_evalcore(str(site / "evalcore")) is None
    (site / "evalcore-0.1.0.dist-info").mkdir()  # this project installed under its first name
    (site / "evalcore-0.1.0.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: evalcore\nSummary: {_installation.OUR_SUMMARY}, with a C++ core\n")
    assert _installation.foreign_evalcore(str(site / "evalcore")) is None
    other = site / "evalcore-2.6.1.dist-info"
    other.mkdir()
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: evalcore\nSummary: A generic, consumer-agnostic "
                                    "evaluation engine for prompt, model, and API outputs.\n")
    assert _installation.foreign_evalcore(str(site / "evalcore")) == "evalcore-2.6.1.dist-info"
    message = _installation.conflict_message("evalcore-2.6.1.dist-info")
    assert "pip uninstall evalcore evalcore-exact" in message and "evalcore-2.6.1.dist-info" in message


def test_import_warns_when_the_other_evalcore_is_installed(tmp_path):
    # The whole path, in a subprocess: evalcore imported from a folder that also holds the other
    # project's dist-info (a copy of the package, the extension included).
    import shutil

    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "evalcore", ignore=shutil.ignore_patterns("__pycache__"))
    extension = pathlib.Path(evalcore._core.__file__)  # beside the sources, or elsewhere in an editable install
    if not (site / "evalcore" / extension.name).exists():
        shutil.copy2(extension, site / "evalcore" / extension.name)
    (site / "evalcore-2.6.1.dist-info").mkdir()
    (site / "evalcore-2.6.1.dist-info" / "METADATA").write_text("Name: evalcore\nSummary: another project\n")
    script = textwrap.dedent(f"""
        import sys, warnings
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                            and "skbuild" not in type(f).__module__.lower()]
        sys.path.insert(0, {str(site)!r})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import evalcore
        assert evalcore.__file__.startswith({str(site)!r}), evalcore.__file__
        print([str(w.message) for w in caught if w.category is evalcore.DistributionConflictWarning])
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "another project named 'evalcore' is installed" in proc.stdout and "evalcore-2.6.1.dist-info" in proc.stdout
