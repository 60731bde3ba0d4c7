"""The package's rooms (CONTRIBUTING.md, "Where things go"): each module imports only from its
own room and the rooms below it, the reference never imports the compiled core, and no
module grows past the size a reader takes in at once."""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "python" / "evalcore"
if not PACKAGE.is_dir():  # the suite run against an installed wheel, outside the checkout
    import evalcore

    PACKAGE = pathlib.Path(evalcore.__file__).parent

# Lowest first: a room may import from the rooms before it. "" is the shared modules at the
# package's top (errors, limits, progress, result_types, _version, _core).
# "ir_measures" (issue 25 item 5): evalcore as an ir_measures provider, over the runs room.
ROOMS = ["", "report", "requests", "spans", "schemas", "runs", "ir_measures", "tags", "trec_eval", "comparisons", "spark", "server", "testing", "cli"]
# Rooms that do not build on each other although one comes later in the list.
INDEPENDENT = {("comparisons", "trec_eval")}
MAX_LINES = 520


def _room(module: str) -> str:
    """evalcore.runs.tables -> "runs"; evalcore.reference.runs.tables -> "runs"; evalcore.errors -> ""."""
    parts = module.split(".")[1:]
    if parts and parts[0] == "reference":
        parts = parts[1:]
    if not parts:
        return ""
    head = parts[0]
    return head if head in ROOMS else ""


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        yield path, ".".join(parts), is_package


def _imports(path: pathlib.Path, module: str, is_package: bool):
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "evalcore":
                continue
            # `from evalcore.x import y`: y may be a module of x
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                yield node.lineno, candidate if (PACKAGE.parent / candidate.replace(".", "/")).exists() or \
                    (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists() else target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "evalcore":
                    yield node.lineno, alias.name


MODULES = list(_modules())


@pytest.mark.parametrize("path, module, is_package", MODULES, ids=[m for _, m, _ in MODULES])
def test_imports_go_down_the_rooms(path, module, is_package):
    if module in ("evalcore", "evalcore.reference"):
        return  # the public API: it re-exports every room
    here = _room(module)
    for line, target in _imports(path, module, is_package):
        there = _room(target)
        if there == here:
            continue
        assert (here, there) not in INDEPENDENT and (there, here) not in INDEPENDENT, \
            f"{module} imports {target} on line {line}: rooms {here!r} and {there!r} do not build on each other"
        assert ROOMS.index(there) < ROOMS.index(here), \
            f"{module} (room {here or 'shared'!r}) imports {target} (room {there!r}, above it) on line {line}"


@pytest.mark.parametrize("path, module, is_package", MODULES, ids=[m for _, m, _ in MODULES])
def test_the_reference_never_imports_the_core(path, module, is_package):
    if not module.startswith("evalcore.reference"):
        return
    for line, target in _imports(path, module, is_package):
        assert target != "evalcore._core", f"{module} imports the compiled core on line {line}"
        # the reference builds on evalcore's pure-Python helpers, which never call the core either
        assert not target.endswith((".operations", ".evaluate", ".compare_runs", ".corpus")) or \
            target.startswith("evalcore.reference"), f"{module} imports {target}, which calls the core, on line {line}"


@pytest.mark.parametrize("path, module, is_package", MODULES, ids=[m for _, m, _ in MODULES])
def test_modules_stay_small(path, module, is_package):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it by what its parts hold"
