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

from typing import TYPE_CHECKING, Any, Dict, Tuple

if TYPE_CHECKING:
    from .requests.operations import evaluate_json, ranking_evaluate, score, span_evaluate
    from .spans.corpus import span_evaluate_corpus
    from .schemas.evaluate import evaluate_schemas  # issue 24: nervaluate's schemas
    from .tags import evaluate_conll, evaluate_tags, read_conll, tags_to_spans  # issue 24 (tags)
    from .comparisons.comparison import Comparison
    from .comparisons.compare_runs import compare
    from .comparisons.compare_runs import tukey_hsd, tukey_hsd_values  # issue 26 (h26-report2)
    from .comparisons.tukey_hsd import TukeyHsd  # issue 26 (h26-report2)
    from .runs.evaluate import evaluate_run
    from .runs.exact_sums import ExactSum
    from .runs.per_query import PerQuery
    from .runs.result import EvaluationWarning, RunEvaluation

# Whole runs and comparisons are imported when one of their names is first used (or
# `from evalcore import ...` names one): they bring numpy, and with it OpenBLAS, whose
# threads start on import. `import evalcore` for the requests, the spans or the command
# line does without them; `evalcore trec` imports them after telling OpenBLAS to start no
# threads (cli.py), which cost it 20 to 50 ms of a 0.75 s command on 2 cores.
#
# The requests, spans, schemas and tags are imported on first use too: `evalcore trec`
# needs none of them (about 3 ms of its imports, bench/bench_trec_cli.py).
_LAZY: Dict[str, Tuple[str, str]] = {
    "evaluate_json": ("requests.operations", "evaluate_json"),
    "ranking_evaluate": ("requests.operations", "ranking_evaluate"),
    "score": ("requests.operations", "score"),
    "span_evaluate": ("requests.operations", "span_evaluate"),
    "span_evaluate_corpus": ("spans.corpus", "span_evaluate_corpus"),
    "evaluate_schemas": ("schemas.evaluate", "evaluate_schemas"),
    "evaluate_conll": ("tags", "evaluate_conll"),
    "evaluate_tags": ("tags", "evaluate_tags"),
    "read_conll": ("tags", "read_conll"),
    "tags_to_spans": ("tags", "tags_to_spans"),
    "evaluate_run": ("runs.evaluate", "evaluate_run"),
    "ExactSum": ("runs.exact_sums", "ExactSum"),
    "PerQuery": ("runs.per_query", "PerQuery"),
    "EvaluationWarning": ("runs.result", "EvaluationWarning"),
    "RunEvaluation": ("runs.result", "RunEvaluation"),
    "Comparison": ("comparisons.comparison", "Comparison"),
    "compare": ("comparisons.compare_runs", "compare"),
    # issue 26 (h26-report2): the Tukey HSD as a call of its own
    "tukey_hsd": ("comparisons.compare_runs", "tukey_hsd"),
    "tukey_hsd_values": ("comparisons.compare_runs", "tukey_hsd_values"),
    "TukeyHsd": ("comparisons.tukey_hsd", "TukeyHsd"),
}
# The rooms `import evalcore` used to import along (so `evalcore.runs.x` worked without
# importing evalcore.runs): still there as attributes, imported on first use.
_LAZY_ROOMS = ("runs", "comparisons", "requests", "spans", "schemas", "tags")


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
        globals()[name] = value  # the next lookup is an ordinary one
        return value
    if name in _LAZY_ROOMS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'evalcore' has no attribute {name!r}")
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
    # issue 24: nervaluate's schemas
    SchemaCounts,
    SchemaResults,
    SchemasResult,
    TagScores,  # issue 24 (tags)
    TagSpan,
    TagsReport,
    ConllCorpus,  # issue 24: CoNLL files
    ConllEvaluation,
    ConllTypeCounts,
)
from .result_types import SpanCorpusAverages  # the span corpus for NER users (issue 24 item 5)

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
    "SpanCorpusAverages",  # the span corpus for NER users (issue 24 item 5)
    "TagScores",  # issue 24 (tags)
    "TagSpan",
    "TagsReport",
    "ConllCorpus",  # issue 24: CoNLL files
    "ConllEvaluation",
    "ConllTypeCounts",
    "compare",
    "evaluate_json",
    "evaluate_run",
    "evaluate_conll", "evaluate_tags", "read_conll",  # issue 24 (tags)
    "ranking_evaluate",
    "score",
    "span_evaluate",
    "span_evaluate_corpus",
    # issue 24: nervaluate's schemas
    "SchemaCounts",
    "SchemaResults",
    "SchemasResult",
    "evaluate_schemas",
    "tags_to_spans",  # issue 24 (tags)
    # issue 26 (h26-report2): the Tukey HSD as a call of its own
    "TukeyHsd",
    "tukey_hsd",
    "tukey_hsd_values",
]
