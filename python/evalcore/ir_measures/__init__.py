"""evalcore inside ir_measures (issue 25 item 5): :class:`EvalcoreProvider`, an ir_measures
measure provider whose numbers are :func:`evalcore.evaluate_run`'s, and :func:`register`,
which puts it first in ir_measures' default pipeline, so that ``ir_measures.calc_aggregate``,
``iter_calc``, ``evaluator`` and ``calc`` (and PyTerrier's ``pt.Experiment``, which calls
them) score the measures it supports with evalcore, unchanged::

    import evalcore.ir_measures
    evalcore.ir_measures.register()

ir_measures is optional: ``import evalcore`` never imports it, and this package imports it
only when the provider is asked for (an ImportError saying ``pip install ir-measures`` if it
is absent). docs/ir-measures.md says which measures are served and how.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .translation import IPREC_POINTS, Translation, translate

if TYPE_CHECKING:
    from .provider import EvalcoreEvaluator, EvalcoreProvider

__all__ = ["EvalcoreEvaluator", "EvalcoreProvider", "IPREC_POINTS", "Translation", "register", "translate",
           "unregister"]


def __getattr__(name: str) -> Any:
    if name in ("EvalcoreProvider", "EvalcoreEvaluator"):
        from . import provider  # imports ir_measures

        return getattr(provider, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _pipeline(pipeline: Any) -> Any:
    if pipeline is not None:
        return pipeline
    try:
        import ir_measures
    except ImportError as error:
        raise ImportError("evalcore.ir_measures needs ir_measures: pip install ir-measures") from error
    return ir_measures.DefaultPipeline


def register(pipeline: Optional[Any] = None) -> "EvalcoreProvider":
    """Puts evalcore's provider first in ir_measures' default pipeline (or in `pipeline`, an
    ``ir_measures.providers.FallbackProvider``) and in ``ir_measures.providers.registry``
    (as ``"evalcore"``), so that the measures it supports are scored by evalcore and the
    others by ir_measures' providers, as before. Calling it again changes nothing.

    Returns:
        The provider registered (the one already there, if any).

    Raises:
        ImportError: ir_measures is not installed (``pip install ir-measures``).
    """
    pipeline = _pipeline(pipeline)
    from ir_measures import providers

    from .provider import EvalcoreProvider

    found = [p for p in pipeline.providers if isinstance(p, EvalcoreProvider)]
    known = providers.registry.get(EvalcoreProvider.NAME)
    provider = found[0] if found else known if isinstance(known, EvalcoreProvider) else EvalcoreProvider()
    pipeline.providers[:] = [provider] + [p for p in pipeline.providers if not isinstance(p, EvalcoreProvider)]
    providers.registry[EvalcoreProvider.NAME] = provider
    return provider


def unregister(pipeline: Optional[Any] = None) -> None:
    """Takes evalcore's provider out of ir_measures' default pipeline and registry again
    (or out of `pipeline` alone): ir_measures' own providers then score every measure.

    Raises:
        ImportError: ir_measures is not installed (``pip install ir-measures``).
    """
    default = pipeline is None
    pipeline = _pipeline(pipeline)
    from ir_measures import providers

    from .provider import EvalcoreProvider

    pipeline.providers[:] = [p for p in pipeline.providers if not isinstance(p, EvalcoreProvider)]
    if default and isinstance(providers.registry.get(EvalcoreProvider.NAME), EvalcoreProvider):
        del providers.registry[EvalcoreProvider.NAME]
