from typing import Any, Dict, Tuple

from .errors import EvaluationError as EvaluationError

SHA256_CPU_EXTENSIONS: bool

def ranking_evaluate(
    request: Any, limits: Tuple[int, ...], conventions: Tuple[Tuple[str, ...], ...]
) -> Tuple[Dict[str, Any], str, str]: ...
def format_number(value: float) -> str: ...
def sha256_hex(data: bytes) -> str: ...
