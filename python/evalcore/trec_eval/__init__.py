"""trec_eval, in Python and on the command line.

- this package is the pytrec_eval drop-in (``from evalcore import trec_eval as pytrec_eval``):
  :class:`RelevanceEvaluator`, ``supported_measures`` and ``supported_nicknames``, from
  :mod:`evalcore.trec_eval.dropin`;
- :mod:`evalcore.trec_eval.output_format`: trec_eval's measure names and its output lines;
- :mod:`evalcore.trec_eval.command`: the ``evalcore trec`` command.
"""

from .dropin import RelevanceEvaluator, supported_measures, supported_nicknames

__all__ = ["RelevanceEvaluator", "supported_measures", "supported_nicknames"]
