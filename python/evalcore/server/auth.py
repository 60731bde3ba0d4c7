"""Bearer-key authentication (RFC 6750, compared in constant time), a per-key rate limit and
a per-address throttle on failed authentications."""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Deque, Dict, FrozenSet, List, Optional

from .config import RateLimit

# The whole header value: the scheme (case-insensitive, RFC 7235), exactly one space, exactly one
# b64token. No other whitespace anywhere: HTTP has already removed the field's outer blanks, so
# anything left (a tab, NBSP, \x1c, a second space) is not part of a well-formed credential.
_CREDENTIALS = re.compile(rb"(?i:bearer) ([A-Za-z0-9._~+/-]+=*)")
# Another scheme's credentials ("Basic ...") begin with its name (an RFC 9110 token) and a space.
_SCHEME = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+) ")

Clock = Callable[[], float]


@dataclass(frozen=True)
class Verdict:
    """What authentication decided: `status` 0 (allowed, `key` set), 400, 401 or 403, and the
    RFC 6750 `error` code for the WWW-Authenticate challenge (None: a bare challenge)."""

    status: int
    key: Optional[str] = None
    error: Optional[str] = None

    @property
    def is_failure(self) -> bool:
        """A presented credential that was refused: what the failure throttle counts. A request
        without any Authorization header guesses nothing, so it is not counted."""
        return self.status in (400, 401)


class KeySet:
    """The configured keys, held as SHA-256 digests so that every comparison is of equal-length
    values: hmac.compare_digest then takes the same time whatever the presented token's length,
    and every key is compared, so the time does not tell which key (if any) matched."""

    def __init__(self, keys: FrozenSet[str]) -> None:
        self._digests = [(hashlib.sha256(key.encode("ascii")).digest(), key) for key in sorted(keys)]

    def __bool__(self) -> bool:
        return bool(self._digests)

    def match(self, token: bytes) -> Optional[str]:
        presented = hashlib.sha256(token).digest()
        found = None
        for digest, key in self._digests:
            if hmac.compare_digest(presented, digest):
                found = key
        return found


def check_bearer(values: List[bytes], keys: KeySet) -> Verdict:
    """The verdict on a request's Authorization header values (all of them, in order)."""
    if not values:
        return Verdict(403)
    if len(values) > 1:  # which one counts is ambiguous (a proxy may have added one): refuse both
        return Verdict(400, error="invalid_request")
    match = _CREDENTIALS.fullmatch(values[0])
    if match is None:
        # Another scheme presents no bearer token, so its challenge carries no error code (RFC
        # 6750 §3.1); anything else is a malformed bearer credential: an invalid token.
        scheme = _SCHEME.match(values[0])
        other_scheme = scheme is not None and scheme.group(1).lower() != b"bearer"
        return Verdict(401, error=None if other_scheme else "invalid_token")
    key = keys.match(match.group(1))
    return Verdict(0, key=key) if key is not None else Verdict(401, error="invalid_token")


def _retry_after(window: Deque[float], limit: RateLimit, now: float) -> Optional[int]:
    """Drops the times that left the window; the whole seconds until the oldest one leaves it
    when the window is full (for Retry-After), else None."""
    while window and window[0] <= now - limit.period:
        window.popleft()
    if len(window) >= limit.requests:
        return max(1, int(window[0] + limit.period - now + 0.999))
    return None


class RateLimiter:
    """Sliding window per key: at most `limit.requests` in any `limit.period` seconds."""

    def __init__(self, limit: RateLimit, clock: Clock = time.monotonic) -> None:
        self._limit = limit
        self._clock = clock
        self._seen: Dict[str, Deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, key: str) -> Optional[int]:
        """None when admitted; otherwise the seconds to wait (for Retry-After)."""
        now = self._clock()
        with self._lock:
            window = self._seen.setdefault(key, deque())
            wait = _retry_after(window, self._limit, now)
            if wait is None:
                window.append(now)
            return wait


class FailureThrottle:
    """Failed authentications per client address, in a sliding window: once an address has
    `limit.requests` failures in `limit.period` seconds, its requests are refused until the
    oldest leaves the window. Addresses are not bounded by the configuration (unlike keys), so
    at most `max_addresses` are tracked: expired ones are swept, then the oldest dropped."""

    def __init__(self, limit: RateLimit, clock: Clock = time.monotonic, max_addresses: int = 10_000) -> None:
        self._limit = limit
        self._clock = clock
        self._max_addresses = max_addresses
        self._failures: Dict[str, Deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, address: str) -> Optional[int]:
        """The seconds before `address` may try again, or None when it may now."""
        with self._lock:
            window = self._failures.get(address)
            return None if window is None else _retry_after(window, self._limit, self._clock())

    def record(self, address: str) -> None:
        now = self._clock()
        with self._lock:
            window = self._failures.pop(address, None) or deque(maxlen=self._limit.requests)
            self._failures[address] = window  # re-inserted: the dict's order is by latest failure
            window.append(now)
            if len(self._failures) > self._max_addresses:
                self._evict(now)

    def _evict(self, now: float) -> None:
        for address in [a for a, w in self._failures.items() if w[-1] <= now - self._limit.period]:
            del self._failures[address]
        while len(self._failures) > self._max_addresses:
            del self._failures[next(iter(self._failures))]
