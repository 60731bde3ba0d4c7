"""evalcore over HTTP: an ASGI app (``evalcore.server.app``) and ``evalcore serve``.

Install with ``pip install 'evalcore-exact[server]'``. ``app`` reads its settings from the
environment (EVALCORE_API_KEYS, EVALCORE_API_KEYS_FILE, EVALCORE_RATE_LIMIT,
EVALCORE_AUTH_FAILURE_LIMIT, EVALCORE_BODY_TIMEOUT) at start-up, or when it serves its first
request; embed ``EvalcoreApp(ServerConfig(...))`` to configure it in code. The deadline on
request heads and the refusal of ambiguous body framing (docs/server.md) are the protocol's,
not the app's: under your own uvicorn, pass
``http=evalcore.server.protocol.H11ProtocolWithHeaderTimeout`` (EVALCORE_HEADER_TIMEOUT).
"""

from .app import EvalcoreApp
from .config import RateLimit, ServerConfig

app: EvalcoreApp = EvalcoreApp()

__all__ = ["EvalcoreApp", "RateLimit", "ServerConfig", "app"]
