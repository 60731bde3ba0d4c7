"""numpy for the modules ``evalcore trec`` imports before it reads its files: imported when
first used, not when those modules are, so that the command can import it on a thread of
its own while the native core reads the files with the GIL released.

Why: on the issue's benchmark (bench/bench_trec_cli.py, ``-m map -m ndcg_cut.10`` on a 390 MB
run) ``import numpy`` took 70 to 80 ms of evalcore's 0.55 s, all of it before the reading
began, while the reading (0.42 s on two threads) left room on the cores beside it.

A module that needs numpy holds ``np = lazy_numpy(__name__)`` (under ``if TYPE_CHECKING:
import numpy as np``, so that checkers see numpy itself). The first attribute read through
it imports numpy with an ordinary import statement, which the import system's module lock
makes thread-safe: it waits for an import another thread has under way, and raises that
import's error if it failed. It then puts numpy in the module's globals, so that later
uses are plain global lookups.
"""

from __future__ import annotations

import sys
import threading
from typing import Any


class LazyNumpy:
    """Stands for numpy in the globals of the module named `owner` until first used."""

    __slots__ = ("_owner",)

    def __init__(self, owner: str) -> None:
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        import numpy

        module = sys.modules.get(self._owner)
        if module is not None and getattr(module, "np", None) is self:
            module.np = numpy  # type: ignore[attr-defined]  # the next use is numpy's own attribute
        return getattr(numpy, name)

    def __repr__(self) -> str:
        return f"<numpy, imported on first use by {self._owner}>"


def lazy_numpy(owner: str) -> Any:
    """What the module `owner` (its ``__name__``) holds as ``np`` until numpy is first used."""
    return LazyNumpy(owner)


def _import_numpy() -> None:
    try:
        import numpy  # noqa: F401
    except BaseException:  # the thread that uses numpy imports it again and raises this itself
        pass


def import_numpy_beside() -> None:
    """Start importing numpy on a thread of its own, unless it is imported already: called
    just before a native call that releases the GIL, so that the two run side by side.

    The thread is not a daemon: an interpreter that ends while it imports waits for it (an
    import cut off by the interpreter's teardown could crash it)."""
    if "numpy" not in sys.modules:
        threading.Thread(target=_import_numpy, name="evalcore-import-numpy").start()
