"""trec_eval, in Python and on the command line.

- this package is the pytrec_eval drop-in (``from evalcore import trec_eval as pytrec_eval``),
  pytrec_eval's whole module: :class:`RelevanceEvaluator` (:mod:`evalcore.trec_eval.dropin`),
  :func:`parse_qrel`, :func:`parse_run` and :func:`compute_aggregated_measure`
  (:mod:`evalcore.trec_eval.pytrec_functions`), ``supported_measures``,
  ``supported_nicknames`` and ``unsupported_measures`` (:mod:`evalcore.trec_eval.pytrec_names`);
- :mod:`evalcore.trec_eval.output_format`: trec_eval's measure names and its output lines;
- :mod:`evalcore.trec_eval.command`: the ``evalcore trec`` command.
"""

from .dropin import RelevanceEvaluator
from .pytrec_functions import DuplicateDocumentError, compute_aggregated_measure, parse_qrel, parse_run
from .pytrec_names import supported_measures, supported_nicknames, unsupported_measures

__all__ = [
    "DuplicateDocumentError",
    "RelevanceEvaluator",
    "compute_aggregated_measure",
    "parse_qrel",
    "parse_run",
    "supported_measures",
    "supported_nicknames",
    "unsupported_measures",
]
