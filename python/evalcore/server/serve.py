"""`evalcore serve`: run the ASGI app under uvicorn."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Optional, Sequence

from .config import ENV_AUTH_FAILURE_LIMIT, ENV_BACKEND, ENV_KEYS, ENV_KEYS_FILE, ENV_RATE_LIMIT, ServerConfig

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Parse the flags, check the binding rule, and serve until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(prog="evalcore serve", description="Serve evalcore's operations over HTTP.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (each also runs a thread pool)")
    parser.add_argument("--api-keys-file", help=f"bearer keys, one per line (or set {ENV_KEYS})")
    parser.add_argument("--rate-limit", help="per-key limit such as 60/min")
    parser.add_argument("--auth-failure-limit", metavar="N/PERIOD",
                        help="failed authentications allowed per client address before 429 with Retry-After, "
                             "in a sliding window (default 10/min; off to disable)")
    parser.add_argument("--allow-unauthenticated", action="store_true", help="serve without keys on a non-loopback address")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--backend", choices=("native", "reference"), default="native",
                        help="reference: the pure-Python implementation, for comparisons")
    args = parser.parse_args(argv)
    try:
        import uvicorn
    except ImportError:
        parser.error("the server needs uvicorn: pip install 'evalcore[server]'")
    if args.rate_limit:
        os.environ[ENV_RATE_LIMIT] = args.rate_limit
    if args.auth_failure_limit:
        os.environ[ENV_AUTH_FAILURE_LIMIT] = args.auth_failure_limit
    if args.api_keys_file:
        os.environ[ENV_KEYS_FILE] = args.api_keys_file
    os.environ[ENV_BACKEND] = args.backend
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
    )
    return 0
