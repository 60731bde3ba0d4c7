"""Pure-Python reference implementation of evalcore's operations.

It follows docs/contract.md and docs/validation-order.md step by step and never imports the
compiled module; the native functions in :mod:`evalcore` must return exactly what these
return (``==`` on every float, same key order, same error code and pointer).
"""

from .runs.exact_sums import ExactSum
from .comparisons.compare_runs import compare
from .requests.front_door import evaluate_json
from .requests.ranking import ranking_evaluate
from .runs.evaluate import evaluate_run
from .requests.score import score
from .requests.spans import span_evaluate
from .spans.corpus import span_evaluate_corpus
from .schemas.evaluate_schemas import evaluate_schemas  # issue 24: nervaluate's schemas
from .tags import evaluate_conll, evaluate_tags, read_conll, tags_to_spans  # issue 24 (tags)
from .comparisons.compare_runs import tukey_hsd, tukey_hsd_values  # issue 26 (h26-report2)

__all__ = ["ExactSum", "compare", "evaluate_json", "evaluate_run", "ranking_evaluate", "score", "span_evaluate", "span_evaluate_corpus",
           "evaluate_schemas", "evaluate_conll", "evaluate_tags", "read_conll", "tags_to_spans",
           "tukey_hsd", "tukey_hsd_values"]
