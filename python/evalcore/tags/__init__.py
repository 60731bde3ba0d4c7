"""Tags (issue 24): :func:`tags_to_spans` (the chunks of BIO/IOBES/... tags as spans) and
:func:`evaluate_tags` (seqeval's report and accuracy over a tagged corpus)."""

from .convert import tags_to_spans
from .evaluate import evaluate_tags
from .options import tokens_text

__all__ = ["evaluate_tags", "tags_to_spans", "tokens_text"]
