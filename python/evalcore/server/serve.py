"""`evalcore serve`: run the ASGI app under uvicorn."""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from typing import Callable, Optional, Sequence, Union

from .config import (DEFAULT_HEADER_TIMEOUT, ENV_AUTH_FAILURE_LIMIT, ENV_BACKEND, ENV_BODY_TIMEOUT, ENV_HEADER_TIMEOUT,
                     ENV_KEYS, ENV_KEYS_FILE, ENV_RATE_LIMIT, ServerConfig)

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# Connection limits, chosen for the service's own traffic (small JSON requests; headers are a
# Host, a Content-Type and a bearer key) rather than inherited from uvicorn, which has no header
# or body timeout at all.
HEADER_TIMEOUT = DEFAULT_HEADER_TIMEOUT  # seconds for a request line and headers (protocol.py)
BODY_TIMEOUT = ServerConfig.body_timeout  # seconds for a whole body (the app's)
KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open (uvicorn's, as before)
MAX_HEADER_BYTES = 8192  # of an incomplete request head buffered (h11's bound)
# Open connections and running requests, each; past it uvicorn answers 503. A request buffers
# its whole body (16 MiB at most, for score), so this also bounds that memory, to 4 GiB.
LIMIT_CONCURRENCY = 256


def _at_least(kind: Callable[[str], Union[int, float]], minimum: float, inclusive: bool = True) -> Callable[[str], Union[int, float]]:
    """An argparse type: a number of `kind`, >= `minimum` (or > it), refused otherwise."""
    def parse(text: str) -> Union[int, float]:
        value = kind(text)
        if not math.isfinite(value) or value < minimum or (value == minimum and not inclusive):
            bound = "at least" if inclusive else "more than"
            raise argparse.ArgumentTypeError(f"must be a finite number {bound} {minimum:g}, got {text}")
        return value
    parse.__name__ = kind.__name__  # argparse names the type in its "invalid ... value" message
    return parse


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Parse the flags, check the binding rule, and serve until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(prog="evalcore serve", description="Serve evalcore's operations over HTTP.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on; one off loopback needs API keys or --allow-unauthenticated "
                             "(default: %(default)s)")
    parser.add_argument("--port", type=int, default=8080, help="TCP port (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes, each with a thread pool (default: %(default)s)")
    parser.add_argument("--api-keys-file", help=f"bearer keys, one per line (default: none; the keys of {ENV_KEYS}, if set)")
    parser.add_argument("--rate-limit", help="per-key request limit such as 60/min (default: none)")
    parser.add_argument("--auth-failure-limit", metavar="N/PERIOD",
                        help="failed authentications allowed per client address before 429 with Retry-After, "
                             "in a sliding window (default 10/min; off to disable)")
    parser.add_argument("--allow-unauthenticated", action="store_true", help="serve without keys on a non-loopback address (default: refuse)")
    parser.add_argument("--log-level", default="info", help="uvicorn's and evalcore's log level (default: %(default)s)")
    parser.add_argument("--backend", choices=("native", "reference"), default="native",
                        help="reference: the pure-Python implementation, for comparisons (default: %(default)s)")
    limits = parser.add_argument_group("connection limits")
    limits.add_argument("--header-timeout", type=_at_least(float, 0, inclusive=False), default=HEADER_TIMEOUT,
                        metavar="S", help="close a connection whose request line and headers have not all arrived "
                                          "S seconds after it opened or after the previous response (default %(default)g)")
    limits.add_argument("--body-timeout", type=_at_least(float, 0, inclusive=False), default=BODY_TIMEOUT, metavar="S",
                        help="answer 408 and close unless the whole body arrives within S seconds of the headers "
                             "(default %(default)g)")
    limits.add_argument("--timeout-keep-alive", type=_at_least(int, 1), default=KEEP_ALIVE, metavar="S",
                        help="close a keep-alive connection idle for S seconds (default %(default)d)")
    limits.add_argument("--max-header-bytes", type=_at_least(int, 1024), default=MAX_HEADER_BYTES, metavar="N",
                        help="answer 400 and close once more than N bytes of an incomplete request head are "
                             "buffered (default %(default)d)")
    limits.add_argument("--limit-concurrency", type=_at_least(int, 1), default=LIMIT_CONCURRENCY, metavar="N",
                        help="answer 503 to a request while N connections (its own included) are open or N "
                             "requests are running (default %(default)d)")
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from .protocol import H11ProtocolWithHeaderTimeout
    except ImportError:
        parser.error("the server needs uvicorn: pip install 'evalcore-exact[server]'")
    if args.rate_limit:
        os.environ[ENV_RATE_LIMIT] = args.rate_limit
    if args.auth_failure_limit:
        os.environ[ENV_AUTH_FAILURE_LIMIT] = args.auth_failure_limit
    if args.api_keys_file:
        os.environ[ENV_KEYS_FILE] = args.api_keys_file
    os.environ[ENV_BACKEND] = args.backend
    os.environ[ENV_BODY_TIMEOUT] = repr(args.body_timeout)
    os.environ[ENV_HEADER_TIMEOUT] = repr(args.header_timeout)
    # Validate what the app will read, as the app reads it: the parsed settings, not raw strings.
    try:
        config = ServerConfig.from_environment()
    except OSError as exc:
        parser.error(f"cannot read {exc.filename}: {exc.strerror}")
    except ValueError as exc:
        parser.error(str(exc))
    if not config.api_keys and args.host not in LOOPBACK and not args.allow_unauthenticated:
        parser.error(f"no API keys are configured: bind to 127.0.0.1, set {ENV_KEYS}, or pass --allow-unauthenticated")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s", stream=sys.stderr)
    uvicorn.run(
        "evalcore.server:app", host=args.host, port=args.port, workers=args.workers, log_level=args.log_level,
        access_log=False, lifespan="on", timeout_graceful_shutdown=10,
        # h11 with the head deadline, chosen explicitly: "auto" would pick httptools when it is
        # installed, which has neither that deadline nor h11's head-size bound.
        http=H11ProtocolWithHeaderTimeout, timeout_keep_alive=args.timeout_keep_alive,
        h11_max_incomplete_event_size=args.max_header_bytes, limit_concurrency=args.limit_concurrency,
    )
    return 0
