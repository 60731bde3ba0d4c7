"""Whole runs: :func:`evaluate_run` over qrels and runs from dicts, TREC files, Arrow tables.

- :mod:`~evalcore.runs.evaluate`: ``evaluate_run``, which reads the inputs and calls the core;
- :mod:`~evalcore.runs.sources`, :mod:`~evalcore.runs.tables`: what the inputs can be (files,
  compressed files; pyarrow, pandas, polars tables and Arrow streams);
- :mod:`~evalcore.runs.measures`: the measure name table (evalcore's, trec_eval's, ir_measures');
- :mod:`~evalcore.runs.result`: ``RunEvaluation`` and ``EvaluationWarning``, the options' checks;
- :mod:`~evalcore.runs.per_query`: ``PerQuery``, the per-query table;
- :mod:`~evalcore.runs.exact_sums`: ``ExactSum``, the order-independent sums behind the means;
- :mod:`~evalcore.runs.partitioned`: runs evaluated in parts and merged (evalcore.spark's engine).
"""

from .evaluate import evaluate_run
from .exact_sums import ExactSum
from .per_query import PerQuery
from .result import EvaluationWarning, RunEvaluation

__all__ = ["EvaluationWarning", "ExactSum", "PerQuery", "RunEvaluation", "evaluate_run"]
