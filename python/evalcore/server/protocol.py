"""uvicorn's h11 protocol, plus a deadline on each request head (request line and headers) and
a refusal of ambiguous body framing (framing.py: Content-Length with Transfer-Encoding, ...).

uvicorn (0.30 to at least 0.54) has no header-read timeout: its keep-alive timer starts only
after a response, and any byte received cancels it. So a client that opens a connection and
sends its headers slowly, or not at all, holds the connection for ever (slowloris). Here every
wait for a request head, from the connection's opening or from the end of the previous
response, must end with a complete head within `header_timeout` seconds, or the connection
is closed. The body is the application's to time (see EvalcoreApp's body timeout).

Both live here, in the protocol, because uvicorn's httptools protocol would bypass them: serve
with this class (``http=H11ProtocolWithHeaderTimeout``), never ``http="auto"``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from functools import lru_cache
from typing import Any, Optional

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.protocols.http.h11_impl import H11Protocol

from .config import DEFAULT_HEADER_TIMEOUT, ENV_HEADER_TIMEOUT
from .framing import StrictFramingConnection

log: logging.Logger = logging.getLogger("evalcore.server")


@lru_cache(maxsize=1)
def header_timeout_from_environment() -> float:
    """Read once per process: `evalcore serve` sets it before uvicorn starts any worker."""
    value = float(os.environ.get(ENV_HEADER_TIMEOUT, DEFAULT_HEADER_TIMEOUT))
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{ENV_HEADER_TIMEOUT} must be a finite positive number of seconds, got {value!r}")
    return value


class H11ProtocolWithHeaderTimeout(H11Protocol):
    """Closes a connection whose next request head has not fully arrived in time, and answers
    400 and closes one whose request's body framing is ambiguous."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's connection, with the same head-size bound, replaced before any byte arrives.
        size = self.config.h11_max_incomplete_event_size
        self.conn = StrictFramingConnection(h11.SERVER, DEFAULT_MAX_INCOMPLETE_EVENT_SIZE if size is None else size)
        self._header_timeout = header_timeout_from_environment()
        self._head_deadline: Optional[asyncio.TimerHandle] = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # a new request cycle: its head is complete
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        cycle = self.cycle
        super().on_response_complete()  # may start a pipelined request that was already buffered
        if self.cycle is cycle:
            # Waiting again: for the next head, or for the rest of a body the app did not read.
            self._await_head()
        else:
            self._cancel_deadline()

    def send_400_response(self, msg: str) -> None:
        # uvicorn says "Invalid HTTP request received." to every malformed request; a framing
        # refusal says which headers and what to send instead.
        refusal = self.conn.refusal if isinstance(self.conn, StrictFramingConnection) else None
        super().send_400_response(msg if refusal is None else f"Invalid HTTP request: {refusal}.")

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._cancel_deadline()
        if not self.transport.is_closing():
            self._head_deadline = self.loop.call_later(self._header_timeout, self._head_too_slow)

    def _cancel_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            # No response: h11 cannot answer a request it has not parsed, and a slow client is
            # owed nothing. Debug level, so that a flood of slow clients cannot flood the log.
            log.debug("closing a connection from %s: no complete request head within %s s", self.client, self._header_timeout)
            self.transport.close()
