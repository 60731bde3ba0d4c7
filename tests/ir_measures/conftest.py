"""What the ir_measures tests share (issue 25 item 5)."""

from __future__ import annotations

from typing import Iterator

import pytest


@pytest.fixture(scope="module")
def evalcore_registered() -> Iterator[None]:
    """evalcore's provider first in ir_measures' default pipeline for a module's tests, out
    again after them (the other modules compare against ir_measures' own providers)."""
    import evalcore.ir_measures

    evalcore.ir_measures.register()
    try:
        yield
    finally:
        evalcore.ir_measures.unregister()
