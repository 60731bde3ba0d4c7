"""Request framing over raw sockets (issue 21 item 12, docs/server.md): a body whose length two
parsers could read differently is refused with one 400 and the connection closed, so that a
request smuggled inside it is never served; what is still accepted is pinned here too.

Each case sends its bytes at once and reads until the server closes (bounded: 10 s). A case
the server should keep open ends with CLOSER, a request asking to close, so that its answer
shows that the bytes before it were framed as intended and the read ends without a timeout.
"""

import http.client
import io
import re

import pytest

pytest.importorskip("uvicorn")

import h11  # noqa: E402  (uvicorn's dependency: only once uvicorn is known to be installed)
from test_server import Server, connect, until_closed  # noqa: E402

from evalcore.server.framing import BOTH_LENGTHS, StrictFramingConnection  # noqa: E402

SCORE = b"POST /v1/evaluations/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
BODY = b'{"items":[{"predicted":["a"],"ground_truth":["a"]}],"k":1}'
# The request a smuggler hides in a body; its answer (the operations listing) must never come.
SMUGGLED = b"GET /v1/operations HTTP/1.1\r\nHost: x\r\n\r\n"
SMUGGLED_ANSWER = b'"operations"'
CLOSER = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def chunked(body):
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


class _Unclosable(io.BytesIO):
    def close(self):  # http.client closes its file after each response; the next one is in it
        pass


class _Received:
    """What http.client reads responses from: the bytes a connection received, in order."""

    def __init__(self, data):
        self.stream = _Unclosable(data)

    def makefile(self, mode):
        return self.stream


def statuses(data):
    """The status of each response in `data`, read one after the other as a client does (by
    Content-Length, chunks, or to the end when a response has neither)."""
    received, found = _Received(data), []
    while received.stream.tell() < len(data):
        response = http.client.HTTPResponse(received)
        response.begin()
        response.read()
        found.append(response.status)
    return found


def exchange(server, raw):
    """(status of every response, all bytes received) for `raw`, sent at once; asserts that the
    server closed the connection within 10 s."""
    with connect(server) as sock:
        sock.sendall(raw)
        elapsed, data = until_closed(sock, limit=10.0)
    assert elapsed is not None, f"the connection was still open after 10 s; received {data[:300]!r}"
    return statuses(data), data


def assert_refused(server, raw, says=None):
    statuses, data = exchange(server, raw + SMUGGLED)
    assert statuses == [400], data[:500]
    assert SMUGGLED_ANSWER not in data
    if says is not None:
        assert says.encode() in data, data[:500]


# --- Content-Length with Transfer-Encoding (RFC 9112 §6.1): refused, whatever their order ---

@pytest.mark.parametrize("length", ["4", "0", "coverall"])
@pytest.mark.parametrize("te_first", [False, True])
def test_content_length_with_transfer_encoding_is_refused_and_closed(server, length, te_first):
    body = chunked(b"")
    # "coverall": a Content-Length spanning the smuggled request too, as a front end framing by
    # it would forward the whole as one body.
    value = b"%d" % (len(body) + len(SMUGGLED)) if length == "coverall" else length.encode()
    framing = [b"Content-Length: " + value + b"\r\n", b"Transfer-Encoding: chunked\r\n"]
    head = SCORE + b"".join(framing[::-1] if te_first else framing) + b"\r\n"
    assert_refused(server, head + body, says="Content-Length and Transfer-Encoding")


def test_a_get_with_both_framing_headers_is_refused_too(server):
    assert_refused(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                           b"Transfer-Encoding: chunked\r\n\r\n" + chunked(b""))


def test_a_pipelined_request_with_both_is_refused_after_the_one_before_is_answered(server):
    first = SCORE + b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
    second = SCORE + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(b"")
    statuses, data = exchange(server, first + second + SMUGGLED)
    assert statuses == [200, 400] and SMUGGLED_ANSWER not in data


def test_transfer_encoding_in_http_1_0_is_faulty_framing(server):
    # RFC 9112 §6.1: treat it as faulty framing, even without a Content-Length.
    head = SCORE.replace(b"HTTP/1.1", b"HTTP/1.0") + b"Transfer-Encoding: chunked\r\n\r\n"
    assert_refused(server, head + chunked(BODY), says="Transfer-Encoding in an HTTP/1.0 request")


# --- Content-Length values that differ, and Transfer-Encodings other than chunked alone ---

@pytest.mark.parametrize("headers", [
    b"Content-Length: 0\r\nContent-Length: %d\r\n" % len(SMUGGLED),
    b"Content-Length: %d\r\nContent-Length: 0\r\n" % len(SMUGGLED),
    b"Content-Length: 0, %d\r\n" % len(SMUGGLED),
    b"Content-Length: 2\r\nContent-Length: 02\r\n",
])
def test_content_lengths_that_differ_are_refused(server, headers):
    assert_refused(server, SCORE + headers + b"\r\n", says="Content-Length values that differ")


@pytest.mark.parametrize("value", [b"+0", b"-0", b"0x0", b"0 0", b"1" * 21])
def test_a_content_length_that_is_not_digits_is_refused(server, value):
    assert_refused(server, SCORE + b"Content-Length: " + value + b"\r\n\r\n", says="Content-Length that is not a decimal")


@pytest.mark.parametrize("value", [b"gzip, chunked", b"chunked, gzip", b"chunked, chunked", b"identity", b"gzip", b"xchunked"])
def test_a_transfer_encoding_other_than_chunked_alone_is_refused(server, value):
    head = SCORE + b"Transfer-Encoding: " + value + b"\r\n\r\n"
    assert_refused(server, head + chunked(b""), says="a Transfer-Encoding other than chunked")


def test_two_transfer_encoding_headers_are_refused(server):
    head = SCORE + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
    assert_refused(server, head + chunked(b""), says="more than one Transfer-Encoding header")


# --- malformed chunks (the smuggling fixed in h11 0.16, CVE-2025-43859) and other malformed heads ---

@pytest.mark.parametrize("body", [
    b"2\r\n{}XX0\r\n\r\n",      # chunk data not followed by CRLF
    b"2\r\n{}\n0\r\n\r\n",      # ... followed by a bare LF
    b"2\n{}\r\n0\r\n\r\n",      # a chunk-size line ended by a bare LF
    b"f" * 21 + b"\r\n",        # a chunk size of more than 20 hex digits
    b"0x2\r\n{}\r\n0\r\n\r\n",  # not hex digits
])
def test_malformed_chunks_are_refused(server, body):
    assert_refused(server, SCORE + b"Transfer-Encoding: chunked\r\n\r\n" + body)


@pytest.mark.parametrize("raw", [
    b"\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",                        # an empty line before the request line
    b"GET  /healthz HTTP/1.1\r\nHost: x\r\n\r\n",                           # two spaces in the request line
    b"GET /healthz\r\nHost: x\r\n\r\n",                                     # no HTTP version (HTTP/0.9)
    b"GET /healthz HTTP/1.1\r\n\r\n",                                       # no Host
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",                 # two Hosts
    SCORE + b"Transfer-Encoding : chunked\r\n\r\n",                         # space before the colon
    b"GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n",                           # a fold with nothing to continue
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",             # a NUL in a value
    SCORE + b"Transfer-Encoding: \x0bchunked\r\n\r\n",                      # a control byte in a value
])
def test_malformed_heads_are_refused(server, raw):
    assert_refused(server, raw)


def test_nothing_after_a_refused_request_is_parsed():
    # The protocol stops reading once it answers 400; the connection refuses any further event
    # too, should anything ask it for one.
    conn = StrictFramingConnection(h11.SERVER)
    conn.receive_data(SCORE + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(b"") + SMUGGLED)
    with pytest.raises(h11.RemoteProtocolError, match=re.escape(BOTH_LENGTHS)):
        conn.next_event()
    for _ in range(3):
        with pytest.raises(h11.RemoteProtocolError):
            conn.next_event()


# --- framing the server accepts, and what it does then (docs/server.md lists these) ---

def test_well_framed_requests_keep_the_connection_open(server):
    by_length = SCORE + b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
    by_chunks = SCORE + b"Transfer-Encoding: Chunked\r\n\r\n" + chunked(BODY)  # coding names are case-insensitive
    extended = SCORE + b"Transfer-Encoding: chunked\r\n\r\n%x;name=value\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
    assert exchange(server, by_length + by_chunks + extended + CLOSER)[0] == [200, 200, 200, 200]


@pytest.mark.parametrize("headers", [
    b"Content-Length: %d\r\nContent-Length: %d\r\n" % (len(BODY), len(BODY)),  # repeated, equal
    b"Content-Length: %d, %d\r\n" % (len(BODY), len(BODY)),                    # a list of equal values
    b"Content-Length: 000%d\r\n" % len(BODY),                                  # leading zeros
])
def test_equal_content_lengths_count_as_one(server, headers):
    assert exchange(server, SCORE + headers + b"\r\n" + BODY + CLOSER)[0] == [200, 200]


def test_bare_lf_ends_head_lines(server):
    raw = b"POST /v1/evaluations/score HTTP/1.1\nHost: x\nContent-Type: application/json\n" \
          b"Content-Length: %d\r\n\n" % len(BODY) + BODY
    assert exchange(server, raw + CLOSER)[0] == [200, 200]


def test_an_obs_fold_continues_the_value_before_it(server):
    # The folded line is part of Content-Type's value (joined with a space), not a header of its own.
    raw = b"POST /v1/evaluations/score HTTP/1.1\r\nHost: x\r\nContent-Type:\r\n application/json\r\n" \
          b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
    assert exchange(server, raw + CLOSER)[0] == [200, 200]


def test_transfer_encoding_text_in_a_fold_does_not_frame_the_body(server):
    # "X-A: a Transfer-Encoding: chunked" is one header: the body is Content-Length's 0 bytes, so
    # the bytes after it are the next request (a front end that split the fold would have
    # refused, or framed them as chunked).
    raw = SCORE + b"Content-Length: 0\r\nX-A: a\r\n Transfer-Encoding: chunked\r\n\r\n"
    assert exchange(server, raw + CLOSER)[0] == [400, 200]  # 400: the app's, an empty body is not JSON


@pytest.mark.parametrize("target", [b"http://x/healthz", b"http://evil.example/v1/operations", b"*"])
def test_absolute_and_asterisk_form_targets_are_not_routed(server, target):
    statuses, data = exchange(server, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n" + CLOSER)
    assert statuses == [404, 200] and b'"NOT_FOUND"' in data and SMUGGLED_ANSWER not in data


def test_trailer_fields_are_ignored(server):
    # Framing headers in a trailer frame nothing: the request after it is read where the chunks end.
    raw = SCORE + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nContent-Length: 50\r\n" \
                  b"Transfer-Encoding: chunked\r\n\r\n" % (len(BODY), BODY)
    assert exchange(server, raw + CLOSER)[0] == [200, 200]


def test_obs_text_in_a_value_is_accepted(server):
    assert exchange(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: \x80\xff\r\n\r\n" + CLOSER)[0] == [200, 200]


def test_a_later_http_version_is_served_as_1_1(server):
    assert exchange(server, b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n" + CLOSER)[0] == [200, 200]


def test_a_chunked_body_without_any_crlf_never_ends_and_times_out():
    # Bare LFs in chunked framing are not line ends: h11 waits for a CRLF, and the body deadline
    # answers (once a CRLF comes, the line is malformed: test_malformed_chunks_are_refused).
    s = Server("--body-timeout", "1")
    try:
        assert exchange(s, SCORE + b"Transfer-Encoding: chunked\r\n\r\n2\n{}\n0\n\n")[0] == [408]
    finally:
        s.stop()
