"""Tags, pure Python: the twins of :func:`evalcore.tags_to_spans` and :func:`evalcore.evaluate_tags`."""

from .conll_evaluate import evaluate_conll
from .conll_reader import read_conll
from .evaluate import evaluate_tags, tags_to_spans

__all__ = ["evaluate_conll", "evaluate_tags", "read_conll", "tags_to_spans"]
