from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from .errors import EvaluationError as EvaluationError
from .result_types import RankingResult, SchemasResult, ScoreResponse, SpanCorpusResult, SpanResult

SHA256_CPU_EXTENSIONS: bool

def ranking_evaluate(
    request: Any, limits: Tuple[int, ...], conventions: Tuple[Tuple[str, ...], ...]
) -> Tuple[RankingResult, str, str]: ...
def format_number(value: float) -> str: ...
def compact_json(value: Any) -> bytes: ...
def sha256_hex(data: bytes) -> str: ...
def span_evaluate(
    request: Any, limits: Tuple[int, ...], conventions: Tuple[Tuple[str, ...], ...]
) -> Tuple[SpanResult, str, str]: ...
def span_evaluate_corpus(
    documents: Any,
    overlap: bool,
    minimum_iou: float,
    threads: int,
    per_document: bool,
    conventions: Tuple[Tuple[str, ...], ...],
    limits: Tuple[int, ...],
    progress: Optional[Callable[[int, int], Any]] = ...,
) -> SpanCorpusResult: ...
def score(request: Any, limits: Tuple[int, ...], threads: int) -> ScoreResponse: ...
def evaluate_json(
    operation: str,
    body: bytes,
    limits: Tuple[int, ...],
    conventions: Tuple[Tuple[str, ...], ...],
    version: str,
    threads: int,
) -> bytes: ...
def evaluate_run(
    qrels: Any,
    run: Any,
    measures: List[Tuple[int, int, float, List[Tuple[float, float]], float, List[float]]],
    relevant_at_least: float,
    exponential: bool,
    ties_by_score: bool,
    missing_zero: bool,
    threads: int,
    block_bytes: int = ...,
    max_line_bytes: int = ...,
    max_retrieved: int = ...,
    judged_only: bool = ...,
    qrels_name: bytes = ...,
    run_name: bytes = ...,
    progress: Optional[Callable[[int, int], Any]] = ...,
    progress_total: int = ...,
    max_qrels_rows: int = ...,
    tie_rule: int = ...,  # issue 25 item 3: 0 by ID, 1 average, 2 optimistic, 3 pessimistic
) -> Tuple[List[str], bytes, List[Optional[float]], List[int], List[str]]: ...
# issue 25 item 1: diversity measures (qrels_format="subtopics")
def evaluate_run_diversity(  # None: a qrels dict not in the exact form (h25-divspeed)
    qrels: Union[bytes, Tuple[List[str], List[str], List[str], List[float]], Dict[str, Dict[str, Dict[str, Union[int, float]]]]],
    run: Union[bytes, Dict[str, Dict[str, Union[int, float]]]],
    measures: List[Tuple[int, int, float, List[Tuple[float, float]], float, List[float]]],
    relevant_at_least: float,
    ties_by_score: bool,
    missing_zero: bool,
    max_line_bytes: int,
    max_retrieved: int,
    judged_only: bool,
    qrels_name: bytes,
    run_name: bytes,
    threads: int = ...,  # h25-divspeed2: queries scored on up to this many threads
) -> Optional[Tuple[List[str], bytes, List[Optional[float]], List[int], List[str]]]: ...
# The TREC parsers' code ("avx2", "sse2" or "portable"); baseline=True keeps them to the baseline's (tests)
def _trec_bytes(baseline: Optional[bool] = ...) -> str: ...
def evaluate_run_jg(
    qrels_path: bytes,
    run_path: bytes,
    measures: List[Tuple[int, int, float, List[Tuple[float, float]], float, List[float]]],
    relevant_at_least: float,
    ties_by_score: bool,
    missing_zero: bool,
    max_line_bytes: int,
    max_retrieved: int,
    judged_only: bool,
    qrels_name: bytes,
    run_name: bytes,
) -> Tuple[List[str], bytes, List[Optional[float]], List[int], List[str]]: ...
def evaluate_run_prefs(
    qrels_path: bytes,
    run_path: bytes,
    with_subgroups: bool,
    measures: List[Tuple[int, int, float, List[Tuple[float, float]], float, List[float]]],
    ties_by_score: bool,
    missing_zero: bool,
    max_line_bytes: int,
    max_retrieved: int,
    qrels_name: bytes,
    run_name: bytes,
) -> Tuple[List[str], bytes, List[Optional[float]], List[int], List[str]]: ...
def exact_sum(values: Any) -> float: ...
def exact_sum_state(values: Any, state: bytes = ...) -> bytes: ...
def exact_sum_merge(states: List[bytes]) -> bytes: ...
def exact_sum_value(state: bytes) -> float: ...
def paired_summaries(
    items: List[Tuple[Any, Optional[Any]]], ranks: bool, threads: int
) -> List[Tuple[int, float, float, int, int, int, bool, Tuple[int, ...]]]: ...
def resample(
    groups: List[Tuple[Any, List[Tuple[int, int]]]],
    seed: int,
    resamples: int,
    threads: int,
    sign_flip: bool,
    bootstrap: bool,
) -> List[Tuple[List[float], List[float], Optional[List[int]], Optional[List[int]], Optional[bytes], Optional[bytes]]]: ...
def trec_topic_lines(
    names: List[str], integer: List[bool], topics: List[bytes], values: Any, texts: List[Optional[List[bytes]]]
) -> bytes: ...

# issue 24, nervaluate's schemas

def evaluate_schemas(
    true: Any, pred: Any, labels: Optional[List[str]], input: str, threads: int, step_limit: int
) -> SchemasResult: ...
# issue 24 (tags): python/evalcore/tags/
def tags_to_spans(tags: Any, scheme: int, strict: bool, suffix: bool) -> Tuple[List[Dict[str, Any]], bool]: ...
def evaluate_tags(
    y_true: Any, y_pred: Any, scheme: int, strict: bool, suffix: bool, threads: int
) -> Tuple[Dict[str, Dict[str, Any]], float, List[str], List[int], List[int]]: ...

# issue 24: CoNLL files (cpp/bindings/register_conll.cpp)
def read_conll(
    reader: Any, name: str, columns: List[int], max_line_bytes: int
) -> Tuple[List[List[str]], List[List[List[str]]], List[int], List[int]]: ...
def evaluate_conll(
    gold: Any, gold_name: str, pred: Any, pred_name: str, columns: List[int], max_line_bytes: int,
    scheme: int, strict: bool, suffix: bool,
) -> Tuple[Dict[str, Dict[str, Any]], float, List[str], List[int], List[int], List[int], int, int, int, int, int]: ...

# issue 26: the randomized Tukey HSD
def randomized_tukey(values: Any, seed: int, resamples: int, threads: int) -> List[int]: ...
