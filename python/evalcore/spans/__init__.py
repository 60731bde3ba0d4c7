"""Spans: :func:`span_evaluate_corpus` (one document at a time is the span-evaluate request,
:func:`evalcore.span_evaluate`)."""

from .corpus import span_evaluate_corpus

__all__ = ["span_evaluate_corpus"]
