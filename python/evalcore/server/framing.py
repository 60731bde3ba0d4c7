"""Request framing the server refuses (RFC 9112 §6.1, §6.3): a body whose length two parsers
could read differently is a request-smuggling vector, so it gets 400 and the connection closes.

h11 (0.16) already refuses Content-Length values that differ, a Transfer-Encoding other than
exactly ``chunked`` and a second Transfer-Encoding header, but it accepts Content-Length and
Transfer-Encoding together (chunked wins) and keeps the connection open, so a request hidden
in the body as a proxy frames it is served as the next request. It also frames an HTTP/1.0
request by its Transfer-Encoding, which RFC 9112 §6.1 says to treat as faulty framing. Both
are refused here, in h11's own terms: ``next_event`` raises RemoteProtocolError, on which
uvicorn's h11 protocol answers 400 with ``Connection: close`` and closes the transport.

An ASGI app cannot do this: by the time it sees the headers the server has framed the body
and may have buffered the next request. See docs/server.md for what is still accepted.
"""

from __future__ import annotations

from typing import Dict, Optional, Type, Union

import h11

# Why each framing refusal, said to the client in the 400 body: which header, and what to send.
BOTH_LENGTHS: str = ("Content-Length and Transfer-Encoding in one request (RFC 9112 section 6.1); "
                     "send a body framed by one of them")
TRANSFER_ENCODING_IN_HTTP_1_0: str = ("Transfer-Encoding in an HTTP/1.0 request (RFC 9112 section 6.1); "
                                      "send HTTP/1.1, or a Content-Length")
# h11's own framing refusals (its messages, as of 0.16), explained the same way; any other
# malformed request keeps uvicorn's generic message, which echoes nothing the client sent.
H11_FRAMING_REFUSALS: Dict[str, str] = {
    "conflicting Content-Length headers": "Content-Length values that differ (RFC 9112 section 6.3); "
                                          "send one Content-Length",
    "bad Content-Length": "Content-Length that is not a decimal number of at most 20 digits; send one",
    "multiple Transfer-Encoding headers": "more than one Transfer-Encoding header; send one, Transfer-Encoding: chunked",
    "Only Transfer-Encoding: chunked is supported": "a Transfer-Encoding other than chunked (the only coding "
                                                    "served); send Transfer-Encoding: chunked or a Content-Length",
}


def framing_refusal(request: h11.Request) -> Optional[str]:
    """Why `request`'s body framing is refused, or None when it is unambiguous."""
    names = {name for name, _ in request.headers}  # h11 gives them lower-cased
    if b"transfer-encoding" in names:
        if b"content-length" in names:
            return BOTH_LENGTHS
        if request.http_version < b"1.1":
            return TRANSFER_ENCODING_IN_HTTP_1_0
    return None


class StrictFramingConnection(h11.Connection):
    """An h11 server connection that refuses ambiguous framing as h11 refuses malformed
    requests. `refusal` holds the explanation for the 400 once a request is refused."""

    refusal: Optional[str] = None

    def next_event(self) -> Union[h11.Event, Type[h11.NEED_DATA], Type[h11.PAUSED]]:
        if self.refusal is not None:
            # Nothing after a refused request is parsed, whatever is buffered. h11 does the same
            # after its own refusals (its peer is then in ERROR), but it accepted this request.
            raise h11.RemoteProtocolError("a request on this connection was refused", error_status_hint=400)
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as exc:
            self.refusal = H11_FRAMING_REFUSALS.get(str(exc))
            raise
        if isinstance(event, h11.Request):
            self.refusal = framing_refusal(event)
            if self.refusal is not None:
                raise h11.RemoteProtocolError(self.refusal, error_status_hint=400)
        return event
