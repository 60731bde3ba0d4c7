"""evalcore: deterministic, fast scoring of supplied evaluation data.

The functions here run the native C++ core; :mod:`evalcore.reference` holds a pure-Python
implementation of the same API that returns identical results (used for differential
testing). See docs/contract.md for the contract and docs/validation-order.md for error precedence.
The shapes of the results are TypedDicts (:mod:`evalcore.result_types`; its classes are exported here).
"""

from ._version import __version__
from .errors import STATUS_BY_CODE, DistributionConflictWarning, EvaluationError, RunInputError
from .limits import DEFAULT_LIMITS, SCORE_LIMITS, Limits
from . import _installation

# Before the extension: if the other `evalcore` project overwrote some of our files, its
# warning says so even when the import fails below.
_installation.warn_if_shared(__path__[0])

try:
    from . import _core  # noqa: F401  (the compiled extension)
except ImportError as _error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "evalcore's compiled extension (evalcore._core) is missing or cannot be loaded: "
        f"{_error}. Build and install the package with `pip install .` from a source checkout "
        "(needs a C++17 compiler; CMake and pybind11 are fetched by pip). evalcore never "
        "falls back to the slow pure-Python reference on its own; import evalcore.reference "
        "explicitly if that is what you want."
    ) from _error

from .runs.exact_sums import ExactSum
from .requests.operations import evaluate_json, ranking_evaluate, score, span_evaluate
from .spans.corpus import span_evaluate_corpus
from .runs.per_query import PerQuery
from .runs.result import EvaluationWarning, RunEvaluation
from .runs.evaluate import evaluate_run
from .comparisons.comparison import Comparison
from .comparisons.compare_runs import compare
from .result_types import (
    ErrorBody,
    ErrorInfo,
    MixpeekErrorBody,
    MixpeekErrorInfo,
    MixpeekValidationErrorBody,
    MixpeekValidationIssue,
    Provenance,
    RankedDocument,
    RankingDefinedCounts,
    RankingEnvelope,
    RankingMacro,
    RankingQueryResult,
    RankingResult,
    ScoreMetrics,
    ScoreResponse,
    SpanCorpusLabelTotals,
    SpanCorpusResult,
    SpanCorpusTotals,
    SpanEnvelope,
    SpanLabelResult,
    SpanMatch,
    SpanResult,
)

__all__ = [
    "__version__",
    "Comparison",
    "DEFAULT_LIMITS",
    "DistributionConflictWarning",
    "EvaluationError",
    "EvaluationWarning",
    "ExactSum",
    "Limits",
    "PerQuery",
    "RunEvaluation",
    "RunInputError",
    "SCORE_LIMITS",
    "STATUS_BY_CODE",
    # the shapes of the results and error bodies (evalcore.result_types, which also has the
    # aliases MixpeekBody and RankingMetricName)
    "ErrorBody",
    "ErrorInfo",
    "MixpeekErrorBody",
    "MixpeekErrorInfo",
    "MixpeekValidationErrorBody",
    "MixpeekValidationIssue",
    "Provenance",
    "RankedDocument",
    "RankingDefinedCounts",
    "RankingEnvelope",
    "RankingMacro",
    "RankingQueryResult",
    "RankingResult",
    "ScoreMetrics",
    "ScoreResponse",
    "SpanCorpusLabelTotals",
    "SpanCorpusResult",
    "SpanCorpusTotals",
    "SpanEnvelope",
    "SpanLabelResult",
    "SpanMatch",
    "SpanResult",
    "compare",
    "evaluate_json",
    "evaluate_run",
    "ranking_evaluate",
    "score",
    "span_evaluate",
    "span_evaluate_corpus",
]
