"""Tags (issue 24): :func:`tags_to_spans` (the chunks of BIO/IOBES/... tags as spans) and
:func:`evaluate_tags` (seqeval's report and accuracy over a tagged corpus)."""

from .conll import evaluate_conll, read_conll
from .convert import tags_to_spans
from .evaluate import evaluate_tags
from .options import tokens_text

__all__ = ["evaluate_conll", "evaluate_tags", "read_conll", "tags_to_spans", "tokens_text"]
