"""Bearer-key authentication (compared in constant time) and a per-key rate limit."""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from typing import Deque, Dict, FrozenSet, Optional, Tuple

from .config import RateLimit


def check_bearer(header: Optional[bytes], keys: FrozenSet[str]) -> Tuple[int, Optional[str]]:
    """(0, key) when allowed; (403, None) without a header; (401, None) for an unknown key.

    Every configured key is compared, with hmac.compare_digest, so the time taken does not
    depend on which key (if any) matched or how much of it did.
    """
    if header is None:
        return 403, None
    scheme, _, token = header.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return 401, None
    presented = token.strip().encode("utf-8", "surrogateescape")
    found = None
    for key in keys:
        if hmac.compare_digest(presented, key.encode("utf-8")):
            found = key
    return (0, found) if found is not None else (401, None)


class RateLimiter:
    """Sliding window per key: at most `limit.requests` in any `limit.period` seconds."""

    def __init__(self, limit: RateLimit, clock=time.monotonic) -> None:
        self._limit = limit
        self._clock = clock
        self._seen: Dict[str, Deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, key: str) -> Optional[int]:
        """None when admitted; otherwise the seconds to wait (for Retry-After)."""
        now = self._clock()
        with self._lock:
            window = self._seen.setdefault(key, deque())
            while window and window[0] <= now - self._limit.period:
                window.popleft()
            if len(window) >= self._limit.requests:
                return max(1, int(window[0] + self._limit.period - now + 0.999))
            window.append(now)
            return None
