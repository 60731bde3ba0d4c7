"""evalcore's ASGI application: the three operations over HTTP, built on evaluate_json.

CPU work never runs on the event loop: evaluate_json releases the GIL, so a thread pool
runs requests truly in parallel while the loop keeps accepting connections.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from .._version import __version__
from ..errors import EvaluationError
from ..requests.operations import evaluate_json
from ..reference import evaluate_json as reference_evaluate_json
from . import logsafe
from .auth import Clock, FailureThrottle, KeySet, RateLimiter, Verdict, check_bearer
from .config import ServerConfig
from .schemas import operations

log: logging.Logger = logging.getLogger("evalcore.server")
access_log: logging.Logger = logging.getLogger("evalcore.access")
# Paths (and whatever else a client sends) are logged: escape their control characters. uvicorn's
# own logger is included because it reports about the same connections.
logsafe.install(("evalcore.server", "evalcore.access", "uvicorn.error"))

Scope = Dict[str, Any]
Receive = Callable[[], Awaitable[Dict[str, Any]]]
Send = Callable[[Dict[str, Any]], Awaitable[None]]
Headers = List[Tuple[bytes, bytes]]

# path -> (method, operation or None for the GET routes)
ROUTES: Dict[str, Tuple[str, Optional[str]]] = {
    "/v1/ranking-evaluate": ("POST", "ranking-evaluate"),
    "/v1/span-evaluate": ("POST", "span-evaluate"),
    "/v1/evaluations/score": ("POST", "score"),
    "/v1/operations": ("GET", None),
    "/healthz": ("GET", None),
}
SCORE_PATH = "/v1/evaluations/score"
# A score batch is bigger than the enveloped operations' 100 KB inputs.
SCORE_MAX_BODY_BYTES = 16 * 1024 * 1024

Response = Tuple[int, Headers, bytes]
# After answering before the body was read to its end (too large, too slow), close the
# connection: otherwise the server would go on receiving, and discarding, the rest of it.
CLOSE: Headers = [(b"connection", b"close")]


def _json(status: int, body: Any, headers: Optional[Headers] = None) -> Response:
    return status, list(headers or []), json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _error(path: str, status: int, code: str, message: str, headers: Optional[Headers] = None) -> Response:
    """A non-evaluation error in the route's own shape: Mixpeek's for score, docs/contract.md §1.3's otherwise."""
    if path == SCORE_PATH:
        if status == 422:
            body: Dict[str, Any] = {"detail": [{"loc": ["body"], "msg": message, "type": code.lower()}]}
        else:
            body = {"success": False, "status": status, "error": {"message": message, "type": code, "code": code}}
    else:
        body = {"error": {"code": code, "status": status, "message": message, "pointer": ""}}
    return _json(status, body, headers)


def _refusal(path: str, verdict: Verdict) -> Response:
    """The answer to a failed authentication; 401 and 400 carry RFC 6750's challenge."""
    if verdict.status == 403:
        return _error(path, 403, "FORBIDDEN", "send Authorization: Bearer <key>")
    challenge = b"Bearer" if verdict.error is None else b'Bearer error="' + verdict.error.encode() + b'"'
    headers = [(b"www-authenticate", challenge)]
    if verdict.status == 400:
        return _error(path, 400, "INVALID_REQUEST", "send exactly one Authorization header", headers)
    return _error(path, 401, "UNAUTHORIZED", "send Authorization: Bearer <key> with a known key", headers)


class _BodyTooLarge(Exception):
    pass


class _BodyTooSlow(Exception):
    pass


class EvalcoreApp:
    """An ASGI 3 application; ``evalcore.server.app`` is one built from the environment."""

    def __init__(self, config: Optional[ServerConfig] = None, clock: Clock = time.monotonic) -> None:
        self._config = config
        self._clock = clock  # for the rate limit and the failure throttle; tests pass their own
        self._executor: Optional[ThreadPoolExecutor] = None
        self._limiter: Optional[RateLimiter] = None
        self._keys: Optional[KeySet] = None
        self._failures: Optional[FailureThrottle] = None

    @property
    def config(self) -> ServerConfig:
        if self._config is None:  # read lazily, so that importing the module reads nothing
            self._config = ServerConfig.from_environment()
        return self._config

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            config = self.config
            self._executor = ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="evalcore")
            self._keys = KeySet(config.api_keys)
            if config.rate_limit is not None:
                self._limiter = RateLimiter(config.rate_limit, self._clock)
            if config.auth_failure_limit is not None:
                self._failures = FailureThrottle(config.auth_failure_limit, self._clock)
        return self._executor

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        request_id = uuid.uuid4().hex
        started = time.perf_counter()
        try:
            status, headers, body = await self._handle(scope, receive)
        except Exception:  # a bug, never a client's fault: logged with the request ID, body not logged
            log.exception("internal error on %s %s (request %s)", scope.get("method"), scope.get("path"), request_id)
            status, headers, body = _error(scope.get("path", ""), 500, "INTERNAL", f"internal error; request ID {request_id}")
        headers = headers + [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),  # for HEAD too: the length GET would send
            (b"x-request-id", request_id.encode()),
        ]
        if scope.get("method") == "HEAD":  # a HEAD response never has a body (RFC 9110 §9.3.2)
            body = b""
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        access_log.info(
            "%s %s %d %d %.1fms %s", scope.get("method"), scope.get("path"), status, len(body),
            (time.perf_counter() - started) * 1000, request_id,
        )

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._pool()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._executor is not None:
                    self._executor.shutdown(wait=True)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _handle(self, scope: Scope, receive: Receive) -> Response:
        path, method = scope["path"], scope["method"]
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        route = ROUTES.get(path)
        if route is None:
            return _error(path, 404, "NOT_FOUND", f"no route {path}; see GET /v1/operations")
        allowed, operation = route
        methods = ("GET", "HEAD") if allowed == "GET" else (allowed,)  # HEAD: GET's answer, without the body
        if method not in methods:
            return _error(path, 405, "METHOD_NOT_ALLOWED", f"{path} takes {' or '.join(methods)}",
                          [(b"allow", ", ".join(methods).encode())])
        if path == "/healthz":
            return _json(200, {"status": "ok", "version": __version__})
        self._pool()
        key = None
        if self._keys:
            denied, key = self._authenticate(scope, self._keys)
            if denied is not None:
                return denied
        if self._limiter is not None:
            wait = self._limiter.admit(key or "")
            if wait is not None:
                return _error(path, 429, "RATE_LIMITED", f"too many requests; retry in {wait} s", [(b"retry-after", str(wait).encode())])
        if operation is None:
            return _json(200, operations(self.config.limits))
        if b"content-encoding" in headers and headers[b"content-encoding"].strip().lower() not in (b"", b"identity"):
            return _error(path, 415, "UNSUPPORTED_MEDIA_TYPE", "send the body uncompressed (no Content-Encoding)")
        media = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if media != b"application/json":
            return _error(path, 415, "UNSUPPORTED_MEDIA_TYPE", "send Content-Type: application/json")
        limit = SCORE_MAX_BODY_BYTES if operation == "score" else self.config.max_body_bytes
        try:
            body = await self._read_body(headers, receive, limit, self.config.body_timeout)
        except _BodyTooLarge:
            return _error(path, 413, "INPUT_LIMIT", f"the body is over {limit} bytes", CLOSE)
        except _BodyTooSlow:
            timeout = self.config.body_timeout
            return _error(path, 408, "REQUEST_TIMEOUT", f"the body did not arrive within {timeout:g} s", CLOSE)
        try:
            loop = asyncio.get_running_loop()
            front_door = evaluate_json if self.config.backend == "native" else reference_evaluate_json
            response = await loop.run_in_executor(self._pool(), front_door, operation, body)
        except EvaluationError as err:
            return _json(err.status, err.mixpeek_body if operation == "score" else err.body)
        return 200, [], response

    def _authenticate(self, scope: Scope, keys: KeySet) -> Tuple[Optional[Response], Optional[str]]:
        """(None, key) when the request may go on; (the refusal, None) otherwise. An address
        with too many recent failures is refused before its credentials are even looked at,
        so that while throttled it learns nothing, not even whether a key was right."""
        path = scope["path"]
        client = scope.get("client")
        address = client[0] if client else ""
        if self._failures is not None:
            wait = self._failures.retry_after(address)
            if wait is not None:
                return _error(path, 429, "RATE_LIMITED", f"too many failed authentications; retry in {wait} s",
                              [(b"retry-after", str(wait).encode())]), None
        presented = [value for name, value in scope.get("headers", []) if name == b"authorization"]
        verdict = check_bearer(presented, keys)
        if verdict.status == 0:
            return None, verdict.key
        if verdict.is_failure and self._failures is not None:
            self._failures.record(address)
        return _refusal(path, verdict), None

    @staticmethod
    async def _read_body(headers: Dict[bytes, bytes], receive: Receive, limit: int, timeout: float) -> bytes:
        """The body, refused as soon as it is known to exceed `limit` (never read unbounded),
        and unless all of it arrives within `timeout` seconds: a deadline for the whole body,
        not per chunk, so that trickling a byte at a time does not keep it open."""
        declared = headers.get(b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            raise _BodyTooLarge
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        chunks = []
        size = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise _BodyTooSlow from None
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)
