"""The shapes of what the operations return, as TypedDicts (docs/contract.md §1.3, §1.5,
§2, §3, §4): the ranking-evaluate and span-evaluate envelopes and their parts, the span
corpus totals, score's Mixpeek-compatible response and the error bodies.

They are types for checkers and readers only: every value is a plain ``dict`` (what the
native core and the reference return, key for key), so ``env["result"]["macro"]["ndcgAtK"]``
is typed ``Optional[float]``. Keys are written as the contract names them (camelCase,
score's snake_case). Nothing here runs at import beyond defining the classes.
"""

from typing import Dict, List, Literal, Optional, TypedDict, Union

__all__ = [
    "ErrorBody",
    "ErrorInfo",
    "MixpeekBody",
    "MixpeekErrorBody",
    "MixpeekErrorInfo",
    "MixpeekValidationErrorBody",
    "MixpeekValidationIssue",
    "Provenance",
    "RankedDocument",
    "RankingDefinedCounts",
    "RankingEnvelope",
    "RankingMacro",
    "RankingMetricName",
    "RankingQueryResult",
    "RankingResult",
    "ScoreMetrics",
    "ScoreResponse",
    "SchemaCounts",  # issue 24: evaluate_schemas
    "SchemaResults",
    "SchemasResult",
    "SpanCorpusAverages",
    "SpanCorpusLabelTotals",
    "SpanCorpusResult",
    "SpanCorpusTotals",
    "SpanEnvelope",
    "SpanLabelResult",
    "SpanMatch",
    "SpanResult",
    # issue 24 (tags)
    "TagScores",
    "TagSpan",
    "TagsReport",
    "ConllCorpus",
    "ConllTypeCounts",
    "ConllEvaluation",
]

# ---- envelope (§1.5) -------------------------------------------------------------------------


class Provenance(TypedDict):
    """``provenance`` of an envelope: SHA-256 (lowercase hex) of the request's canonical JSON
    and of the compact ``result``; always deterministic, never an external request."""

    inputSha256: str
    outputSha256: str
    deterministic: Literal[True]
    externalRequests: Literal[0]


# ---- ranking-evaluate (§2) -------------------------------------------------------------------


class RankedDocument(TypedDict):
    """One document of a query's top k, in rank order (``ranking`` of a query's result);
    ``grade`` is None for an unjudged document."""

    rank: int
    id: str
    grade: Optional[float]
    relevant: bool
    judged: bool


class RankingQueryResult(TypedDict):
    """One query's metrics and evidence (an entry of ``result["queries"]``), in request order.
    A metric is None where the contract leaves it undefined (no relevant judgment; an
    ideal DCG of 0 for ``ndcgAtK``)."""

    precisionAtK: float
    recallAtK: Optional[float]
    reciprocalRankAtK: Optional[float]
    averagePrecisionAtK: Optional[float]
    ndcgAtK: Optional[float]
    id: str
    relevantJudgmentCount: int
    retrievedAtKCount: int
    hitsAtK: int
    unjudgedAtKCount: int
    dcgAtK: float
    idealDcgAtK: float
    missedRelevantIds: List[str]
    ranking: List[RankedDocument]


#: The five per-query metrics of ranking-evaluate, the keys of ``macro`` and ``definedQueryCounts``.
RankingMetricName = Literal["precisionAtK", "recallAtK", "reciprocalRankAtK", "averagePrecisionAtK", "ndcgAtK"]


class RankingMacro(TypedDict):
    """``result["macro"]``: each metric averaged over the queries where it is defined
    (None when it is defined for none)."""

    precisionAtK: Optional[float]
    recallAtK: Optional[float]
    reciprocalRankAtK: Optional[float]
    averagePrecisionAtK: Optional[float]
    ndcgAtK: Optional[float]


class RankingDefinedCounts(TypedDict):
    """``result["definedQueryCounts"]``: how many queries each macro average is over."""

    precisionAtK: int
    recallAtK: int
    reciprocalRankAtK: int
    averagePrecisionAtK: int
    ndcgAtK: int


class RankingResult(TypedDict):
    """``result`` of the ranking-evaluate envelope."""

    profile: Literal["supplied-ranking-evaluation-v1"]
    k: int
    queryCount: int
    queries: List[RankingQueryResult]
    macro: RankingMacro
    definedQueryCounts: RankingDefinedCounts
    conventions: List[str]


class RankingEnvelope(TypedDict):
    """What :func:`evalcore.ranking_evaluate` returns: ``{operation, version, result, provenance}``."""

    operation: Literal["ranking-evaluate"]
    version: str
    result: RankingResult
    provenance: Provenance


# ---- span-evaluate (§3) ----------------------------------------------------------------------


class SpanMatch(TypedDict):
    """One matched pair (an entry of ``result["matches"]``, in prediction ID order)."""

    predictionId: str
    referenceId: str
    label: str
    iou: float
    exactBoundaries: bool


class SpanLabelResult(TypedDict):
    """One label's counts and scores (an entry of ``result["perLabel"]``, in label order)."""

    label: str
    referenceCount: int
    predictionCount: int
    matchedCount: int
    precision: float
    recall: float
    f1: float


class SpanResult(TypedDict):
    """``result`` of the span-evaluate envelope (also each ``perDocument`` entry of a corpus).
    Precision, recall and F1 are 0 where undefined; ``precisionDefined`` and
    ``recallDefined`` say whether they were."""

    profile: Literal["annotation-span-evaluation-v1"]
    offsetUnit: Literal["utf16-code-unit"]
    referenceCount: int
    predictionCount: int
    matchedCount: int
    precision: float
    recall: float
    f1: float
    precisionDefined: bool
    recallDefined: bool
    meanMatchedIou: Optional[float]
    matches: List[SpanMatch]
    unmatchedPredictionIds: List[str]
    unmatchedReferenceIds: List[str]
    perLabel: List[SpanLabelResult]
    conventions: List[str]


class SpanEnvelope(TypedDict):
    """What :func:`evalcore.span_evaluate` returns: ``{operation, version, result, provenance}``."""

    operation: Literal["span-evaluate"]
    version: str
    result: SpanResult
    provenance: Provenance


class SpanCorpusTotals(TypedDict):
    """Micro-averaged totals over a corpus (``overall``); ``meanMatchedIou`` is None
    when nothing matched."""

    matched: int
    predictions: int
    references: int
    precision: float
    recall: float
    f1: float
    meanMatchedIou: Optional[float]


class SpanCorpusLabelTotals(SpanCorpusTotals):
    """One label's totals over a corpus (an entry of ``perLabel``, in label order; ``label``
    is the first key of the dict)."""

    label: str


# The span corpus for NER users (issue 24 item 5): averages over labels, documents without text.
class SpanCorpusAverages(TypedDict):
    """Macro (``macro``: the mean over labels) or weighted (``weighted``: weighted by each
    label's ``references``, its support) precision, recall and F1 of the labels' scores, as
    scikit-learn's and seqeval's ``average="macro"``/``"weighted"`` define them; 0 when
    there is no label (macro) or no reference (weighted)."""

    precision: float
    recall: float
    f1: float


class _SpanCorpusFields(TypedDict):
    documentCount: int
    documentsWithoutText: int
    match: str
    minimumIou: float
    overall: SpanCorpusTotals
    macro: SpanCorpusAverages
    weighted: SpanCorpusAverages
    perLabel: List[SpanCorpusLabelTotals]


class SpanCorpusResult(_SpanCorpusFields, total=False):
    """What :func:`evalcore.span_evaluate_corpus` returns (no envelope). ``documentsWithoutText``
    counts the documents scored by their offsets alone (no ``text``: nothing checked against
    one). Only with ``per_document=True``: ``perDocumentTextChecked`` (per document, False
    when it had no text) and ``perDocument``, each document's span-evaluate ``result``."""

    perDocumentTextChecked: List[bool]
    perDocument: List[SpanResult]


# ---- issue 24, nervaluate's schemas: evaluate_schemas ------------------------------------------


class SchemaCounts(TypedDict):
    """One schema's SemEval-2013 counts and scores (an entry of :class:`SchemaResults`).
    ``possible`` is the true entities, ``actual`` the predicted ones; ``partial`` is nonzero
    only in the ``partial`` schema, ``incorrect`` only in the three others."""

    correct: int
    incorrect: int
    partial: int
    missed: int
    spurious: int
    possible: int
    actual: int
    precision: float
    recall: float
    f1: float


class SchemaResults(TypedDict):
    """The four schemas, in this order."""

    strict: SchemaCounts
    exact: SchemaCounts
    partial: SchemaCounts
    ent_type: SchemaCounts


class SchemasResult(TypedDict):
    """What :func:`evalcore.evaluate_schemas` returns: ``perLabel`` maps each label that
    occurs in the corpus (and is among ``labels``) to its schemas, in label order."""

    documentCount: int
    input: str
    matching: str
    overall: SchemaResults
    perLabel: Dict[str, SchemaResults]


# ---- score (§4) ------------------------------------------------------------------------------


class ScoreMetrics(TypedDict, total=False):
    """An item's scores, or their means (``aggregate``): exactly the metrics the request
    asked for (all four by default), in its order, so every key may be absent."""

    precision: float
    recall: float
    f1: float
    f2: float


class ScoreResponse(TypedDict):
    """What :func:`evalcore.score` returns: Mixpeek's response (no envelope); ``k`` is None
    when every prediction counts."""

    metrics: List[str]
    k: Optional[int]
    count: int
    per_item: List[ScoreMetrics]
    aggregate: ScoreMetrics


# ---- errors (§1.3) ---------------------------------------------------------------------------


class ErrorInfo(TypedDict):
    """The fields of an error body (``body["error"]``); ``pointer`` is an RFC 6901 JSON
    Pointer, ``""`` for the whole request."""

    code: str
    status: int
    message: str
    pointer: str


class ErrorBody(TypedDict):
    """:attr:`evalcore.EvaluationError.body`, the raw-JSON and HTTP error body ``{"error": {...}}``."""

    error: ErrorInfo


class MixpeekValidationIssue(TypedDict):
    """One entry of a 422 body's ``detail`` (FastAPI's shape): ``loc`` starts with
    ``"body"`` followed by the pointer's tokens (array indexes as ints)."""

    loc: List[Union[str, int]]
    msg: str
    type: str


class MixpeekValidationErrorBody(TypedDict):
    """:attr:`evalcore.EvaluationError.mixpeek_body` for a 422 error."""

    detail: List[MixpeekValidationIssue]


class MixpeekErrorInfo(TypedDict):
    """``error`` of a 400 or 413 Mixpeek body; ``type`` is ``"BadRequestError"`` or
    ``"PayloadTooLargeError"``, ``code`` evalcore's error code."""

    message: str
    type: str
    code: str


class MixpeekErrorBody(TypedDict):
    """:attr:`evalcore.EvaluationError.mixpeek_body` for a 400 or 413 error."""

    success: Literal[False]
    status: int
    error: MixpeekErrorInfo


#: :attr:`evalcore.EvaluationError.mixpeek_body`: one of the two Mixpeek error shapes.
MixpeekBody = Union[MixpeekValidationErrorBody, MixpeekErrorBody]


# ---- tags (issue 24: tags_to_spans, evaluate_tags) -------------------------------------------


class TagSpan(TypedDict):
    """A chunk :func:`evalcore.tags_to_spans` found: its type and where it is (end exclusive)."""

    label: str
    start: int
    end: int


#: One row of evaluate_tags' report, as seqeval's classification_report(output_dict=True) has it.
TagScores = TypedDict("TagScores", {"precision": float, "recall": float, "f1-score": float, "support": int})


class TagsReport(TypedDict):
    """What :func:`evalcore.evaluate_tags` returns with ``output="report"``: seqeval's report
    dict (types in sorted order, then ``"micro avg"``, ``"macro avg"``, ``"weighted avg"``)
    and its token accuracy."""

    report: Dict[str, TagScores]
    accuracy: float


# ---- CoNLL files (issue 24, item 4) -------------------------------------------------------------


class ConllCorpus(TypedDict):
    """What :func:`evalcore.read_conll` returns: the sentences of a CoNLL file."""

    tokens: List[List[str]]
    """Column 0 of each token line, sentence by sentence."""
    tags: List[List[List[str]]]
    """One corpus per chosen column: ``tags[k][i][j]`` is column ``columns[k]`` of sentence
    ``i``'s token ``j`` (by default ``gold, pred = corpus["tags"]``)."""
    lines: List[int]
    """The line number (from 1) of each sentence's first token; its tokens follow line by line."""
    documents: List[int]
    """For each ``-DOCSTART-`` line, the index of the first sentence after it."""


class ConllTypeCounts(TypedDict):
    """One chunk type's counts in :class:`ConllEvaluation`, conlleval's columns."""

    phrases: int
    """The true chunks of the type (seqeval's support)."""
    found: int
    """The predicted chunks of the type."""
    correct: int
    """The predicted chunks that match a true chunk exactly."""


class ConllEvaluation(TypedDict):
    """What :func:`evalcore.evaluate_conll` returns (and ``evalcore conll --format json`` prints)."""

    tokens: int
    """Token lines evaluated (``-DOCSTART-`` lines and blank lines are not tokens)."""
    correctTokens: int
    """Tokens whose predicted tag equals the true tag."""
    sentences: int
    documents: int
    """``-DOCSTART-`` lines (of the gold file)."""
    phrases: int
    found: int
    correct: int
    types: Dict[str, ConllTypeCounts]
    """Per chunk type, in seqeval's (sorted) order."""
    report: Dict[str, Dict[str, Union[float, int]]]
    """seqeval's ``classification_report(output_dict=True)``, as :func:`evalcore.evaluate_tags` gives it."""
    accuracy: float
    otherPrefixTags: int
    """Distinct tags (true or predicted) whose prefix (first character; last with ``suffix``) is
    not B, I or O: where conlleval.pl's chunk rules can differ from seqeval's default mode
    (``S-``, ``E-``, a tag without a dash; docs/conll.md)."""
