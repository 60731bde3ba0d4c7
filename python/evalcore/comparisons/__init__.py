"""Comparing runs: :func:`compare` and :class:`Comparison` (docs/compare.md).

- :mod:`~evalcore.comparisons.compare_runs`: ``compare`` on the native kernels;
- :mod:`~evalcore.comparisons.procedure`: the body both cores share (pairing, dropping,
  tests, intervals, corrections), taking the kernels as a backend;
- :mod:`~evalcore.comparisons.comparison`: the ``Comparison`` result and its renderings;
- :mod:`~evalcore.comparisons.distributions`, :mod:`~evalcore.comparisons.corrections`: the
  distribution functions and the multiple-comparison corrections, shared by both cores;
- :mod:`~evalcore.comparisons.command`: the ``evalcore compare`` command.
"""

from .compare_runs import compare
from .comparison import Comparison

__all__ = ["Comparison", "compare"]
