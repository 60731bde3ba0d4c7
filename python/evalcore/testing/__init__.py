"""evalcore as an oracle: a differential-testing kit for your own metric code.

Hypothesis strategies for every operation and for whole runs, requests with known
errors, and :func:`assert_matches`, which runs your function and evalcore on generated
inputs and, on a difference, shows the shrunk minimal input, the field that differs,
both values, and evalcore's evidence. See docs/oracle.md.

Needs hypothesis: ``pip install 'evalcore-exact[testing]'``. ``import evalcore`` never imports
this package.
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401
except ImportError as _error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        f"evalcore.testing needs hypothesis, which cannot be imported ({_error}); "
        "install it with: pip install 'evalcore-exact[testing]'"
    ) from _error

from . import adapters
from .adapters import Adapter, qrels_run, set_scores, span_prf, whole_request
from .faults import OPERATIONS, arbitrary_requests, mutated, request_limits, shifted_offsets
from .invalid import error_codes, invalid_requests
from .judgment_groups import JUDGMENT_GROUP_MEASURES, judgment_groups
from .preferences import PREFERENCE_MEASURE_NAMES, preferences
from .oracle import DEFAULT_EXAMPLES, Mismatch, assert_matches, check_against_evalcore
from .runs import MEASURES, float32_scores, run_options, runs
from .strategies import ids, ranking_requests, score_requests, shuffled_dict, span_documents, span_requests, span_texts
from .trec import trec_lines, trec_text
# issue 24: nervaluate's schemas (evaluate_schemas)
from .schemas import (bio_tag_corpus, conll_texts, is_unambiguous, schema_spans, tags_as_conll,
                      unambiguous_schema_spans)
from .systems import per_query_values  # issue 26 (h26-report2): many systems' values, Tukey's HSD input

__all__ = [
    "Adapter",
    "DEFAULT_EXAMPLES",
    "JUDGMENT_GROUP_MEASURES",
    "MEASURES",
    "Mismatch",
    "OPERATIONS",
    "PREFERENCE_MEASURE_NAMES",
    "adapters",
    "arbitrary_requests",
    "assert_matches",
    "check_against_evalcore",
    "error_codes",
    "float32_scores",
    "ids",
    "invalid_requests",
    "judgment_groups",
    "mutated",
    "preferences",
    "qrels_run",
    "ranking_requests",
    "request_limits",
    "run_options",
    "runs",
    "score_requests",
    "set_scores",
    "shifted_offsets",
    "shuffled_dict",
    "span_documents",
    "span_prf",
    "span_requests",
    "span_texts",
    "trec_lines",
    "trec_text",
    "whole_request",
    # issue 24: nervaluate's schemas
    "bio_tag_corpus",
    "conll_texts",
    "is_unambiguous",
    "schema_spans",
    "tags_as_conll",
    "unambiguous_schema_spans",
    # issue 26 (h26-report2): many systems' per-query values
    "per_query_values",
]
