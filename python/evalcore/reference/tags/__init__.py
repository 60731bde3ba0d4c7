"""Tags, pure Python: the twins of :func:`evalcore.tags_to_spans` and :func:`evalcore.evaluate_tags`."""

from .evaluate import evaluate_tags, tags_to_spans

__all__ = ["evaluate_tags", "tags_to_spans"]
