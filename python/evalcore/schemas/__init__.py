"""nervaluate's SemEval-2013 schemas over a corpus: :func:`evaluate_schemas` (docs/schemas.md)."""

from .evaluate import evaluate_schemas

__all__ = ["evaluate_schemas"]
