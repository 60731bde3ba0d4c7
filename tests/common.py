"""The one differential harness: every call runs on every implementation, and the results
(or the errors) must be identical — same types, same key order, bit-identical floats, same
error code, status and pointer."""

from __future__ import annotations

import contextlib
import math
import os
import struct
import tempfile
from typing import Any, Callable, Dict, Iterator, Tuple

from hypothesis import settings

import evalcore
import evalcore.reference
from evalcore import Comparison, EvaluationError, RunEvaluation, RunInputError, TukeyHsd

IMPLEMENTATIONS = {"native": evalcore, "reference": evalcore.reference}

#: The examples of a core native-vs-reference differential property in CI's profile (the
#: others run 1,000, tests/conftest.py); None: the profile's own count (dev: 300).
DIFFERENTIAL_EXAMPLES = 2000 if os.environ.get("EVALCORE_HYPOTHESIS_PROFILE") == "ci" else None


def differential(test: Any) -> Any:
    """Marks a core native-vs-reference property: 2,000 examples in CI, the profile's count
    elsewhere. Put it above @given."""
    if DIFFERENTIAL_EXAMPLES is None:
        return test
    return settings(max_examples=DIFFERENTIAL_EXAMPLES)(test)


def slow_examples(count: int) -> Any:
    """For a property that is slow per example (tens of milliseconds): at most `count`
    examples, whatever the profile runs beyond that (CI's 1,000). Put it above @given."""
    def mark(test: Any) -> Any:
        if settings.default.max_examples <= count:
            return test
        return settings(max_examples=count)(test)
    return mark


def assert_identical(a: Any, b: Any, path: str = "$") -> None:
    """Strict structural equality: types, dict key order, float bits."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__} ({a!r} vs {b!r})"
    if isinstance(a, RunEvaluation):
        assert_identical(a.to_dict(), b.to_dict(), path)
        assert a == b, f"{path}: per-query values differ in their bits"
    elif isinstance(a, (Comparison, TukeyHsd)):  # every number of the result, bit for bit (undefined ones are None)
        assert_identical(a.to_dict(), b.to_dict(), path)
    elif isinstance(a, float):
        assert struct.pack("<d", a) == struct.pack("<d", b), f"{path}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{path}: keys {list(a)} != {list(b)}"
        for key in a:
            assert_identical(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_identical(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


Outcome = Tuple[str, Any]
# Functions whose argument (and file) errors are compared as Python exceptions.
_PYTHON_ERROR_FUNCTIONS = ("evaluate_run", "compare", "span_evaluate_corpus", "evaluate_tags", "tags_to_spans",
                           "read_conll", "evaluate_conll", "tukey_hsd", "tukey_hsd_values")


def _run(function: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Outcome:
    try:
        return ("ok", function(*args, **kwargs))
    except EvaluationError as err:
        assert err.status == evalcore.STATUS_BY_CODE[err.code]
        assert isinstance(err.message, str) and err.message
        return ("error", (err.code, err.status, err.pointer))
    except RunInputError as err:  # evaluate_run: the whole message, and where
        where = f"{err.source}:{err.line}: " if err.line else f"{err.source}: "
        assert err.message and str(err) == where + err.message
        return ("error", ("RunInputError", str(err), err.source, err.line))
    except OSError as err:  # evaluate_run's (and compare's) files: what open() would raise, field by field
        if not function.__name__.endswith(_PYTHON_ERROR_FUNCTIONS):
            raise
        return ("error", (type(err).__name__, err.errno, err.strerror, err.filename, err.filename2, str(err)))
    except (TypeError, ValueError) as err:  # evaluate_run's and compare's arguments
        if not function.__name__.endswith(_PYTHON_ERROR_FUNCTIONS):
            raise
        return ("error", (type(err).__name__, str(err)))


def run_all(operation: str, *args: Any, **kwargs: Any) -> Outcome:
    """Run `operation` on every implementation; assert they agree; return the outcome."""
    outcomes = {name: _run(getattr(module, operation), args, kwargs) for name, module in IMPLEMENTATIONS.items()}
    (first_name, first), *others = outcomes.items()
    for name, other in others:
        assert first[0] == other[0], f"{first_name} gave {first!r:.300} but {name} gave {other!r:.300}"
        if first[0] == "error":
            assert first[1] == other[1], f"{first_name} error {first[1]} != {name} error {other[1]}"
        else:
            assert_identical(first[1], other[1])
    return first


def expect_error(operation: str, request: Any, code: str, pointer: str, **kwargs: Any) -> None:
    """Both implementations reject `request` with this code and pointer."""
    outcome = run_all(operation, request, **kwargs)
    assert outcome[0] == "error", f"expected {code} at {pointer!r}, got a result"
    assert outcome[1][0] == code and outcome[1][2] == pointer, f"expected {code} at {pointer!r}, got {outcome[1]}"


def run_fresh(operation: str, make: Callable[[], Tuple[Tuple[Any, ...], Dict[str, Any]]]) -> Any:
    """`operation` on every implementation, each with inputs `make()` builds anew; they must agree."""
    outcomes = {}
    for name, module in IMPLEMENTATIONS.items():
        args, kwargs = make()
        outcomes[name] = _run(getattr(module, operation), args, kwargs)
    native, reference = outcomes["native"], outcomes["reference"]
    assert native[0] == reference[0], f"native gave {native!r:.300} but reference gave {reference!r:.300}"
    if native[0] == "error":
        assert native[1] == reference[1]
    else:
        assert_identical(native[1], reference[1])
    return native


def expect_result(operation: str, *args: Any, **kwargs: Any) -> Any:
    """Both implementations accept the arguments with identical results; returns it."""
    outcome = run_all(operation, *args, **kwargs)
    assert outcome[0] == "ok", f"expected a result, got {outcome[1]}"
    return outcome[1]


def is_unit_interval(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isfinite(x) and 0.0 <= x <= 1.0)


@contextlib.contextmanager
def trec_files(qrels_text: str, run_text: str) -> Iterator[Tuple[str, str]]:
    """The two texts as files ``qrels`` and ``run`` in a temporary folder: their paths."""
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = os.path.join(folder, "qrels"), os.path.join(folder, "run")
        with open(qrels_path, "w", encoding="utf-8") as handle:
            handle.write(qrels_text)
        with open(run_path, "w", encoding="utf-8") as handle:
            handle.write(run_text)
        yield qrels_path, run_path
