"""Server settings: from `evalcore serve` flags, or from the environment when the app is
imported by an ASGI server (uvicorn workers import ``evalcore.server:app`` by name)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import FrozenSet, Optional, Set

from ..limits import Limits

ENV_KEYS = "EVALCORE_API_KEYS"  # comma-separated bearer keys
ENV_KEYS_FILE = "EVALCORE_API_KEYS_FILE"  # one key per line
ENV_RATE_LIMIT = "EVALCORE_RATE_LIMIT"  # e.g. 60/min
ENV_THREADS = "EVALCORE_SERVER_THREADS"
ENV_BACKEND = "EVALCORE_BACKEND"  # "native" (default) or "reference", for comparisons
ENV_AUTH_FAILURE_LIMIT = "EVALCORE_AUTH_FAILURE_LIMIT"  # e.g. 10/min per client address, or "off"
ENV_BODY_TIMEOUT = "EVALCORE_BODY_TIMEOUT"  # seconds for the whole request body
# Seconds for a request line and headers; read by the uvicorn protocol (protocol.py), not the app.
ENV_HEADER_TIMEOUT = "EVALCORE_HEADER_TIMEOUT"
DEFAULT_HEADER_TIMEOUT = 10.0

# RFC 6750's b64token: what a bearer key may be. ASCII only, so that the bytes a client sends
# and the key configured are the same thing whatever encoding either side assumed.
KEY_SYNTAX = re.compile(r"[A-Za-z0-9._~+/-]+=*")
KEY_RULE = "a key must be an RFC 6750 b64token: 1 or more of A-Z a-z 0-9 - . _ ~ + /, then optional = padding"

_PERIODS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}


@dataclass(frozen=True)
class RateLimit:
    """At most `requests` per `period` seconds: per API key for --rate-limit, per client
    address for failed authentications."""

    requests: int
    period: float

    @classmethod
    def parse(cls, text: str) -> "RateLimit":
        match = re.fullmatch(r"\s*(\d+)\s*/\s*([a-z]+)\s*", text)
        if not match or match.group(2) not in _PERIODS or int(match.group(1)) < 1:
            raise ValueError(f"rate limit must look like 60/min (periods: s, min, h), got {text!r}")
        return cls(int(match.group(1)), _PERIODS[match.group(2)])


@dataclass(frozen=True)
class ServerConfig:
    """What the app enforces. With no keys, requests need no Authorization header."""

    api_keys: FrozenSet[str] = frozenset()
    rate_limit: Optional[RateLimit] = None
    # The largest body read from a client, whatever the operation: the contract's HTTP limit.
    max_body_bytes: int = 131072
    limits: Limits = field(default_factory=Limits)
    threads: int = max(4, os.cpu_count() or 1)
    backend: str = "native"
    # Failed authentications allowed per client address before 429 (None: unthrottled). Keys
    # cannot be guessed at this pace anyway; the limit keeps a guesser from costing CPU and logs.
    auth_failure_limit: Optional[RateLimit] = RateLimit(10, 60.0)
    # Seconds for a whole request body to arrive once its head has (408 after that): 16 MiB of
    # score body in 30 s needs about 4.5 Mbit/s. Headers have their own deadline (protocol.py).
    body_timeout: float = 30.0

    def __post_init__(self) -> None:
        # Keys given in code are held to the same syntax as those from the environment.
        if not all(isinstance(key, str) and KEY_SYNTAX.fullmatch(key) for key in self.api_keys):
            raise ValueError(f"an API key given to ServerConfig is malformed: {KEY_RULE}")
        if not (math.isfinite(self.body_timeout) and self.body_timeout > 0):
            raise ValueError(f"body_timeout must be a finite positive number of seconds, got {self.body_timeout!r}")

    @classmethod
    def from_environment(cls) -> "ServerConfig":
        """The settings `evalcore serve` put in the environment; ValueError (or OSError for an
        unreadable keys file) when they are malformed, so that a bad setting stops start-up
        rather than weakening the server."""
        keys = keys_from_environment()
        rate = os.environ.get(ENV_RATE_LIMIT)
        threads = int(os.environ.get(ENV_THREADS, "0")) or max(4, os.cpu_count() or 1)
        backend = os.environ.get(ENV_BACKEND, "native")
        if backend not in ("native", "reference"):
            raise ValueError(f"{ENV_BACKEND} must be native or reference, got {backend!r}")
        return cls(api_keys=frozenset(keys), rate_limit=RateLimit.parse(rate) if rate else None, threads=threads,
                   backend=backend, auth_failure_limit=auth_failure_limit_from_environment(),
                   body_timeout=float(os.environ.get(ENV_BODY_TIMEOUT, cls.body_timeout)))


def auth_failure_limit_from_environment() -> Optional[RateLimit]:
    text = os.environ.get(ENV_AUTH_FAILURE_LIMIT)
    if text is None:
        return ServerConfig.auth_failure_limit
    return None if text.strip() == "off" else RateLimit.parse(text)


def keys_from_environment() -> Set[str]:
    """The keys of EVALCORE_API_KEYS and EVALCORE_API_KEYS_FILE, validated as parsed.

    An unset or blank EVALCORE_API_KEYS means "no keys from there"; any other value must parse
    to keys, or start-up fails. The raw string is never what decides that keys are configured:
    "," is not blank, yet holds none.
    """
    keys: Set[str] = set()
    text = os.environ.get(ENV_KEYS, "")
    if text.strip():
        keys |= parse_keys_list(text)
    path = os.environ.get(ENV_KEYS_FILE)
    if path:
        keys |= read_keys_file(path)
    return keys


def parse_keys_list(text: str) -> Set[str]:
    """The comma-separated keys of EVALCORE_API_KEYS, spaces or tabs around each allowed. An
    empty entry (a stray comma usually means a key went missing) or a malformed one is an
    error, named by its position: a message never shows a key, even a malformed one."""
    keys = set()
    for position, entry in enumerate(text.split(","), start=1):
        key = entry.strip(" \t")
        if not key:
            raise ValueError(f"{ENV_KEYS} entry {position} is empty: give comma-separated keys, without empty entries")
        if not KEY_SYNTAX.fullmatch(key):
            raise ValueError(f"{ENV_KEYS} entry {position} is malformed: {KEY_RULE}")
        keys.add(key)
    return keys


def read_keys_file(path: str) -> Set[str]:
    """API keys, one per line (LF or CRLF, spaces or tabs around a key allowed); blank lines
    and lines starting with # are skipped. Read as bytes, so that a non-ASCII key is reported
    by its line number like any other malformed one, not by a decoding error; a file that
    holds no key is an error, so that a keys file never silently means "no authentication"."""
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    keys = set()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(b"\r").strip(b" \t")
        if not line or line.startswith(b"#"):
            continue
        key = line.decode("latin-1")  # any byte decodes; the syntax check below admits ASCII only
        if not KEY_SYNTAX.fullmatch(key):
            raise ValueError(f"{ENV_KEYS_FILE} {path} line {number} is malformed: {KEY_RULE}")
        keys.add(key)
    if not keys:
        raise ValueError(f"{ENV_KEYS_FILE} {path} holds no keys")
    return keys
