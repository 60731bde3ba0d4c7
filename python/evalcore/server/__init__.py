"""evalcore over HTTP: an ASGI app (``evalcore.server.app``) and ``evalcore serve``.

Install with ``pip install 'evalcore[server]'``. ``app`` reads its settings from the
environment (EVALCORE_API_KEYS, EVALCORE_API_KEYS_FILE, EVALCORE_RATE_LIMIT) when it
serves its first request; embed ``EvalcoreApp(ServerConfig(...))`` to configure it in code.
"""

from .app import EvalcoreApp
from .config import RateLimit, ServerConfig

app = EvalcoreApp()

__all__ = ["EvalcoreApp", "RateLimit", "ServerConfig", "app"]
