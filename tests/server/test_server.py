"""The HTTP service, as a user runs it: a real `evalcore serve` subprocess on a free
127.0.0.1 port, talked to with an HTTP client."""

import http.client
import json
import logging
import os
import pathlib
import select
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import evalcore

pytest.importorskip("uvicorn")

ROOT = pathlib.Path(__file__).resolve().parents[2]
RANKING = (ROOT / "examples" / "ranking-request.json").read_bytes()
SPAN = (ROOT / "examples" / "span-request.json").read_bytes()
SCORE_PATH = "/v1/evaluations/score"
SCORE = json.dumps({"items": [{"predicted": ["a", "b"], "ground_truth": ["b"]}], "k": 1}).encode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *flags, env=None):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "evalcore.cli", "serve", "--port", str(self.port), "--log-level", "warning", *flags],
            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.process.kill()
        self.process.wait(timeout=30)
        log = self.process.stderr.read().decode()
        self.stop()
        raise RuntimeError("server did not start: " + log)

    def request(self, method, path, body=None, headers=None, chunked=False):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def post(self, path, body, content_type="application/json", **headers):
        return self.request("POST", path, body, {"Content-Type": content_type, **headers})

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.process.stdout.close()
        self.process.stderr.close()


def asgi_call(app, method, path, headers=(), body=b"", client=("127.0.0.1", 40000)):
    """One request through the ASGI app in-process (no server, no network): (status, headers, body)."""
    import asyncio

    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "client": client,
             "headers": [(name.lower().encode(), value.encode("latin-1")) for name, value in headers]}
    asyncio.run(app(scope, receive, send))
    response_headers = {}
    for name, value in sent[0]["headers"]:
        response_headers.setdefault(name.decode(), []).append(value.decode("latin-1"))
    return sent[0]["status"], {k: v[0] if len(v) == 1 else v for k, v in response_headers.items()}, sent[1]["body"]


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


def test_health_and_request_id(server):
    status, headers, body = server.request("GET", "/healthz")
    assert status == 200 and json.loads(body)["version"] == evalcore.__version__
    assert len(headers["x-request-id"]) == 32


@pytest.mark.parametrize("path,operation,body", [
    ("/v1/ranking-evaluate", "ranking-evaluate", RANKING),
    ("/v1/span-evaluate", "span-evaluate", SPAN),
    ("/v1/evaluations/score", "score", SCORE),
])
def test_operations_answer_as_evaluate_json(server, path, operation, body):
    status, headers, answer = server.post(path, body, "application/json; charset=utf-8")
    assert status == 200 and headers["content-type"] == "application/json"
    assert answer == evalcore.evaluate_json(operation, body)


def test_operations_listing(server):
    status, _, body = server.request("GET", "/v1/operations")
    listing = json.loads(body)["operations"]
    assert status == 200 and [o["path"] for o in listing] == ["/v1/ranking-evaluate", "/v1/span-evaluate", "/v1/evaluations/score"]
    assert all("input" in o and "output" in o and o["errors"] for o in listing)


def test_unknown_path_and_wrong_method(server):
    status, _, body = server.request("GET", "/nope")
    assert status == 404 and json.loads(body)["error"]["status"] == 404
    status, headers, body = server.request("GET", "/v1/ranking-evaluate")
    assert status == 405 and headers["allow"] == "POST" and json.loads(body)["error"]["code"] == "METHOD_NOT_ALLOWED"


def test_client_errors_have_their_statuses(server):
    status, _, body = server.post("/v1/ranking-evaluate", b"{")
    assert status == 400 and json.loads(body)["error"]["code"] == "INVALID_JSON"
    status, _, body = server.post("/v1/ranking-evaluate", b'{"queries":[]}')
    assert status == 422 and json.loads(body)["error"]["pointer"] == "/queries"
    status, _, body = server.post("/v1/ranking-evaluate", RANKING, "text/plain")
    assert status == 415
    status, _, _ = server.post("/v1/ranking-evaluate", RANKING, **{"Content-Encoding": "gzip"})
    assert status == 415
    status, _, body = server.post("/v1/evaluations/score", b'{"items":[]}')
    assert status == 422 and json.loads(body)["detail"][0]["loc"] == ["body", "items"]
    status, _, body = server.post("/v1/evaluations/score", b"[")
    assert status == 400 and json.loads(body) ["success"] is False


def test_body_limit_without_reading_an_unbounded_body(server):
    big = b'{"queries":"' + b"x" * 200_000 + b'"}'
    status, _, body = server.post("/v1/ranking-evaluate", big)  # Content-Length says 200 KB: refused from the header
    assert status == 413
    status, _, _ = server.request("POST", "/v1/ranking-evaluate", iter([big[:100_000], big[100_000:]]),
                                  {"Content-Type": "application/json"}, chunked=True)  # no Content-Length: counted while streaming
    assert status == 413
    status, _, body = server.post("/v1/ranking-evaluate", b'{"queries":"' + b"x" * 100_000 + b'"}')  # under the HTTP cap, over inputBytes
    assert status == 413 and json.loads(body)["error"]["code"] == "INPUT_LIMIT"


def test_lying_content_length_is_not_trusted(server):
    # The header says 10 bytes; only those 10 are the body (malformed JSON), whatever follows.
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"POST /v1/ranking-evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10\r\nConnection: close\r\n\r\n" + RANKING)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 400")


def test_hostile_bodies_never_give_500(server):
    for body in [b"", b"\xff", b"[" * 5000, b'{"queries":[{"id":"\\ud800"}]}', b"1e999", b'{"__proto__":1}', b"null", b'"x"']:
        for path in ("/v1/ranking-evaluate", "/v1/span-evaluate", "/v1/evaluations/score"):
            status, _, _ = server.post(path, body)
            assert status in (400, 413, 422), (path, body[:20], status)


def test_concurrent_clients_get_correct_answers(server):
    expected = {p: evalcore.evaluate_json(o, b) for p, o, b in [("/v1/ranking-evaluate", "ranking-evaluate", RANKING),
                                                               ("/v1/span-evaluate", "span-evaluate", SPAN),
                                                               ("/v1/evaluations/score", "score", SCORE)]}
    bodies = {"/v1/ranking-evaluate": RANKING, "/v1/span-evaluate": SPAN, "/v1/evaluations/score": SCORE}
    paths = list(bodies) * 20
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda p: (p, server.post(p, bodies[p])), paths))
    assert all(status == 200 and body == expected[p] for p, (status, _, body) in answers)


def test_auth_and_rate_limit(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("# comment\nsecret-one\nsecret-two\n")
    s = Server("--api-keys-file", str(keys), "--rate-limit", "3/min")
    try:
        assert s.request("GET", "/healthz")[0] == 200  # health needs no key
        assert s.post("/v1/evaluations/score", SCORE)[0] == 403
        status, _, body = s.post("/v1/evaluations/score", SCORE, Authorization="Bearer wrong")
        assert status == 401 and json.loads(body)["success"] is False
        for _ in range(3):
            assert s.post("/v1/evaluations/score", SCORE, Authorization="Bearer secret-two")[0] == 200
        status, headers, _ = s.post("/v1/evaluations/score", SCORE, Authorization="Bearer secret-two")
        assert status == 429 and int(headers["retry-after"]) >= 1
        assert s.post("/v1/evaluations/score", SCORE, Authorization="Bearer secret-one")[0] == 200  # per key
    finally:
        s.stop()


def test_keys_from_the_environment():
    s = Server(env={"EVALCORE_API_KEYS": "k1,k2"})
    try:
        assert s.post("/v1/span-evaluate", SPAN)[0] == 403
        assert s.post("/v1/span-evaluate", SPAN, Authorization="Bearer k2")[0] == 200
    finally:
        s.stop()


def test_unauthenticated_server_refuses_a_public_address():
    proc = subprocess.run([sys.executable, "-m", "evalcore.cli", "serve", "--host", "0.0.0.0", "--port", str(free_port())],
                          capture_output=True, timeout=60, env={k: v for k, v in os.environ.items() if k != "EVALCORE_API_KEYS"})
    assert proc.returncode == 2 and b"--allow-unauthenticated" in proc.stderr


def test_clean_shutdown_on_sigterm():
    s = Server("--log-level", "info")
    assert s.request("GET", "/healthz")[0] == 200
    s.process.send_signal(signal.SIGTERM)
    # uvicorn finishes the lifespan shutdown, then re-raises SIGTERM: exit by that signal.
    assert s.process.wait(timeout=30) in (0, -signal.SIGTERM)
    log = s.process.stderr.read()
    assert b"Application shutdown complete" in log and b"Traceback" not in log
    s.stop()


def run_serve(*flags, env=None, timeout=20):
    """`evalcore serve` expected to refuse to start; bounded, so a server that starts fails the test."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("EVALCORE_")}
    return subprocess.run([sys.executable, "-m", "evalcore.cli", "serve", "--port", str(free_port()), *flags],
                          capture_output=True, timeout=timeout, env={**base, **(env or {})})


@pytest.mark.parametrize("keys", [",", " , ", "k1,,k2", "k1,"])
def test_key_list_without_keys_or_with_empty_entries_refuses_to_start(keys):
    # "," once passed the raw-string check and served unauthenticated on a non-loopback address.
    proc = run_serve("--host", "127.0.0.2", env={"EVALCORE_API_KEYS": keys})
    assert proc.returncode == 2 and b"EVALCORE_API_KEYS" in proc.stderr, proc.stderr


def test_empty_keys_file_refuses_to_start_even_when_the_app_is_imported_directly(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("# only a comment\n\n")
    proc = run_serve("--api-keys-file", str(keys))
    assert proc.returncode == 2 and b"no keys" in proc.stderr
    # A uvicorn worker importing evalcore.server:app reads the environment itself: it must fail closed too.
    from evalcore.server import ServerConfig
    with pytest.raises(ValueError, match="no keys"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("EVALCORE_API_KEYS_FILE", str(keys))
            ServerConfig.from_environment()
    with pytest.raises(ValueError, match="EVALCORE_API_KEYS"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("EVALCORE_API_KEYS", ",")
            ServerConfig.from_environment()


FORGED = "1999-12-31 00:00:00,000 evalcore.access INFO POST /v1/evaluations/score 200 10 1.0ms " + "0" * 32


def test_control_characters_in_the_path_cannot_forge_log_lines():
    s = Server("--log-level", "info")
    try:
        path = "/x%0d%0a" + FORGED.replace(" ", "%20") + "%0b%1b[31m%c2%85%e2%80%a8"
        assert s.request("GET", path)[0] == 404
    finally:
        s.process.send_signal(signal.SIGTERM)
        s.process.wait(timeout=30)
        log = s.process.stderr.read().decode("utf-8")
        s.stop()
    lines = [line for line in log.splitlines() if "evalcore.access" in line]
    assert len(lines) == 2 and not any(line.startswith("1999-12-31") for line in lines)  # /healthz, then /x...
    assert "GET /x\\r\\n1999-12-31" in lines[1] and "\\x0b\\x1b[31m\\x85\\u2028 404" in lines[1]
    assert not any(c in log for c in "\x0b\x1b\x85\u2028")


def test_escaping_covers_messages_arguments_and_tracebacks(caplog):
    from evalcore.server.logsafe import escape_controls
    assert escape_controls("plain /v1/é") == "plain /v1/é"
    assert escape_controls("a\\r\r\n\x00\x7f\xa0\u202e\U000e0001") == "a\\\\r\\r\\n\\x00\\x7f\\xa0\\u202e\\U000e0001"
    logger = logging.getLogger("evalcore.server")  # the app module installs the filter on import
    import evalcore.server.app  # noqa: F401
    with caplog.at_level(logging.INFO, logger="evalcore.server"):
        try:
            raise ValueError("client text\n" + FORGED)
        except ValueError:
            logger.exception("failed on %s", "/x\r\n" + FORGED)
    record = caplog.records[-1]
    assert "\n" not in record.getMessage() and "/x\\r\\n1999-12-31" in record.getMessage()
    # A traceback keeps its lines, each indented: none can pass for the start of a record.
    assert all(line.startswith("    ") for line in record.exc_text.split("\n"))
    assert "ValueError: client text\n    1999-12-31" in record.exc_text


@pytest.fixture(scope="module")
def reference_server():
    s = Server("--backend", "reference")
    yield s
    s.stop()


# The reference JSON parser finds nesting past jsonDepth before json.loads recurses (it used to
# raise RecursionError, which the service answered as a JSON 500).
@pytest.mark.parametrize("path", ["/v1/ranking-evaluate", "/v1/span-evaluate", "/v1/evaluations/score"])
def test_deep_nesting_gets_the_same_status_from_both_backends(server, reference_server, path):
    body = b"[" * 50_000  # under the 128 KiB body cap, far over jsonDepth
    native, reference = server.post(path, body), reference_server.post(path, body)
    assert native[0] == 413 and b"INPUT_LIMIT" in native[2]
    assert (reference[0], json.loads(reference[2])) == (native[0], json.loads(native[2]))


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), MemoryError(),
                                   KeyError("secret-from-the-body"), TypeError("secret-from-the-body")])
@pytest.mark.parametrize("path", ["/v1/ranking-evaluate", "/v1/evaluations/score"])
def test_an_unexpected_backend_exception_is_a_json_500_that_tells_nothing(monkeypatch, caplog, error, path):
    from evalcore.server import EvalcoreApp, ServerConfig

    def failing_backend(operation, body):
        raise error

    # sys.modules: the package's `app` attribute is the application, which shadows the module.
    monkeypatch.setattr(sys.modules["evalcore.server.app"], "reference_evaluate_json", failing_backend)
    app = EvalcoreApp(ServerConfig(backend="reference", threads=1))
    with caplog.at_level(logging.ERROR, logger="evalcore.server"):
        status, headers, body = asgi_call(app, "POST", path, [("Content-Type", "application/json")], RANKING)
    assert status == 500 and headers["content-type"] == "application/json"
    parsed = json.loads(body)
    message = parsed["error"]["message"]
    assert ("success" in parsed) == (path == SCORE_PATH) and headers["x-request-id"] in message
    assert b"secret" not in body and b"recursion" not in body.lower() and b"Traceback" not in body
    assert any(headers["x-request-id"] in r.getMessage() and r.exc_info for r in caplog.records)


class FakeClock:
    """A monotonic clock the test moves by hand, so that windows are exact."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def keyed_app(clock=None, **settings):
    from evalcore.server import EvalcoreApp, RateLimit, ServerConfig
    settings.setdefault("auth_failure_limit", RateLimit(3, 60.0))
    config = ServerConfig(api_keys=frozenset({"k1", "tok.en_~+/=="}), threads=1, **settings)
    return EvalcoreApp(config, clock=clock or FakeClock())


def authorization(app, *values, client="127.0.0.1"):
    return asgi_call(app, "GET", "/v1/operations", [("Authorization", v) for v in values], client=(client, 40000))


@pytest.mark.parametrize("value", ["Bearer k1", "bearer k1", "BEARER k1", "bEaReR tok.en_~+/=="])
def test_the_bearer_scheme_is_case_insensitive(value):
    assert authorization(keyed_app(), value)[0] == 200


@pytest.mark.parametrize("value", [
    "Bearer  k1", "Bearer k1 ", " Bearer k1", "Bearer\tk1", "Bearer k1\t", "Bearer \tk1",
    "Bearer k1\xa0", "Bearer \xa0k1", "Bearer k1\x1c", "\x1cBearer k1", "Bearer k1 k1", "Bearer k1,", "Bearer =k1",
    "Bearer k1\r", "Bearer", "Bearer ",
])
def test_the_header_is_parsed_exactly(value):
    # str.strip() once accepted the key with tabs, NBSP, \x1c or extra spaces around it.
    status, headers, _ = authorization(keyed_app(), value)
    assert status == 401 and headers["www-authenticate"] == 'Bearer error="invalid_token"', value


@pytest.mark.parametrize("value", ["Basic azE6", "Token k1", "Digest x=1"])
def test_another_scheme_gets_a_bare_challenge(value):
    status, headers, _ = authorization(keyed_app(), value)
    assert status == 401 and headers["www-authenticate"] == "Bearer"


def test_two_authorization_headers_are_a_bad_request():
    # The last one used to win, so a proxy that appended its own header could be overridden.
    for values in [("Bearer wrong", "Bearer k1"), ("Bearer k1", "Bearer k1")]:
        status, headers, body = authorization(keyed_app(), *values)
        assert status == 400 and json.loads(body)["error"]["code"] == "INVALID_REQUEST"
        assert headers["www-authenticate"] == 'Bearer error="invalid_request"'


def test_failed_authentication_is_throttled_per_address():
    clock = FakeClock()
    app = keyed_app(clock)
    for _ in range(3):
        assert authorization(app, "Bearer guess")[0] == 401
        clock.now += 10
    status, headers, body = authorization(app, "Bearer k1")  # even the right key: no oracle while throttled
    assert status == 429 and headers["retry-after"] == "30" and json.loads(body)["error"]["code"] == "RATE_LIMITED"
    assert authorization(app, "Bearer k1", client="127.0.0.9")[0] == 200  # another address is not affected
    assert authorization(app)[0] == 429  # no header at all: still refused from this address
    clock.now += 30  # the first failure leaves the 60 s window
    assert authorization(app, "Bearer k1")[0] == 200
    assert authorization(app, "Bearer guess")[0] == 401
    assert authorization(app, "Bearer k1")[0] == 429


def test_missing_header_and_success_are_not_failures():
    app = keyed_app()
    for _ in range(5):
        assert authorization(app)[0] == 403
        assert authorization(app, "Bearer k1")[0] == 200


def test_failure_throttle_can_be_turned_off():
    app = keyed_app(auth_failure_limit=None)
    assert all(authorization(app, "Bearer guess")[0] == 401 for _ in range(20))


def test_keys_must_be_b64tokens():
    from evalcore.server import ServerConfig
    with pytest.raises(ValueError, match="b64token") as raised:
        ServerConfig(api_keys=frozenset({"clé"}))
    assert "clé" not in str(raised.value)


@pytest.mark.parametrize("keys,entry", [("k1,clé", b"entry 2"), ("k 1", b"entry 1"), ("k1,k2,a=b", b"entry 3")])
def test_malformed_keys_in_the_environment_are_named_by_position(keys, entry):
    proc = run_serve(env={"EVALCORE_API_KEYS": keys})
    assert proc.returncode == 2 and entry in proc.stderr and keys.split(",")[-1].encode() not in proc.stderr


def test_a_non_ascii_key_in_the_file_is_refused_by_line_number(tmp_path):
    # It used to be read as UTF-8 but compared with the header read as latin-1: always 401.
    keys = tmp_path / "keys"
    keys.write_bytes("# keys\nsecret-one\n  sécret-two\n".encode("utf-8"))
    proc = run_serve("--api-keys-file", str(keys))
    assert proc.returncode == 2 and b"line 3" in proc.stderr and "sécret".encode() not in proc.stderr


def test_auth_over_http(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("secret-one\r\n\tsecret-two \n")  # CRLF, and blanks around a key, are the file's framing
    s = Server("--api-keys-file", str(keys), "--auth-failure-limit", "2/min")
    try:
        assert s.request("GET", "/v1/operations", headers={"Authorization": "Bearer secret-two"})[0] == 200
        conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
        try:
            conn.putrequest("GET", "/v1/operations")
            conn.putheader("Authorization", "Bearer wrong")
            conn.putheader("Authorization", "Bearer secret-one")
            conn.endheaders()
            assert conn.getresponse().status == 400
        finally:
            conn.close()
        status, headers, _ = s.request("GET", "/v1/operations", headers={"Authorization": "Bearer wrong"})
        assert status == 401 and headers["www-authenticate"] == 'Bearer error="invalid_token"'
        status, headers, _ = s.request("GET", "/v1/operations", headers={"Authorization": "Bearer secret-one"})
        assert status == 429 and 1 <= int(headers["retry-after"]) <= 60
    finally:
        s.stop()


def test_failure_throttle_tracks_a_bounded_number_of_addresses():
    from evalcore.server.auth import FailureThrottle
    from evalcore.server import RateLimit
    clock = FakeClock()
    throttle = FailureThrottle(RateLimit(1, 60.0), clock, max_addresses=3)
    for n in range(5):
        throttle.record(f"client-{n}")
        clock.now += 1
    # The two oldest were dropped to stay within 3; the latest three are still refused.
    assert [throttle.retry_after(f"client-{n}") is not None for n in range(5)] == [False, False, True, True, True]
    clock.now += 60
    throttle.record("client-9")  # over the bound again: the expired ones are swept first
    assert [throttle.retry_after(f"client-{n}") for n in (2, 3, 4)] == [None, None, None]
    assert throttle.retry_after("client-9") == 60


# Slow clients. Each test bounds its loops by count and by time, and talks to 127.0.0.1 only.
HEAD_TIMEOUT = BODY_TIMEOUT = 1.0
SLACK = 2.0  # scheduling on a busy 2-core machine; the timeouts themselves are 1 s


@pytest.fixture(scope="module")
def strict_server():
    s = Server("--header-timeout", str(HEAD_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT), "--timeout-keep-alive", "3",
               "--max-header-bytes", "2048")
    yield s
    s.stop()


def connect(server):
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


def until_closed(sock, limit=10.0):
    """(seconds until the server closed the connection, what it sent first); (None, ...) when it
    was still open after `limit` seconds."""
    start, data = time.monotonic(), b""
    sock.settimeout(limit)
    try:
        while time.monotonic() - start < limit:
            chunk = sock.recv(65536)
            if not chunk:
                return time.monotonic() - start, data
            data += chunk
    except socket.timeout:
        return None, data
    except ConnectionResetError:
        return time.monotonic() - start, data
    return None, data


def trickle(sock, data, interval=0.2, limit=10.0):
    """Sends `data` one byte per `interval` until the server closes the connection; (seconds
    until then, what the server sent) or (None, ...) when all was sent or `limit` passed."""
    start = time.monotonic()
    for byte in data[: int(limit / interval)]:
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - start, b""
        readable, _, _ = select.select([sock], [], [], interval)
        if readable:
            elapsed, reply = until_closed(sock, limit)
            return (None if elapsed is None else time.monotonic() - start), reply
    return None, b""


HEAD_OF_POST = (b"POST /v1/ranking-evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(RANKING))


def test_a_client_that_stalls_mid_headers_is_disconnected(strict_server):
    with connect(strict_server) as sock:
        sock.sendall(HEAD_OF_POST[:40])
        elapsed, _ = until_closed(sock)
    assert elapsed is not None and HEAD_TIMEOUT - 0.2 <= elapsed <= HEAD_TIMEOUT + SLACK


def test_a_client_that_trickles_its_headers_is_disconnected(strict_server):
    with connect(strict_server) as sock:
        elapsed, _ = trickle(sock, HEAD_OF_POST * 4)  # every byte arrives well within any idle timeout
    assert elapsed is not None and elapsed <= HEAD_TIMEOUT + SLACK


def test_a_connection_that_sends_nothing_is_disconnected(strict_server):
    with connect(strict_server) as sock:
        elapsed, _ = until_closed(sock)
    assert elapsed is not None and elapsed <= HEAD_TIMEOUT + SLACK


def test_many_slow_clients_are_all_disconnected(strict_server):
    sockets = [connect(strict_server) for _ in range(50)]
    try:
        for sock in sockets:
            sock.sendall(HEAD_OF_POST[:30])
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=50) as pool:
            results = list(pool.map(until_closed, sockets))
        assert all(elapsed is not None for elapsed, _ in results)
        assert time.monotonic() - start <= HEAD_TIMEOUT + SLACK
        assert strict_server.request("GET", "/healthz")[0] == 200
    finally:
        for sock in sockets:
            sock.close()


def test_a_client_that_stalls_the_body_gets_408_and_is_disconnected(strict_server):
    with connect(strict_server) as sock:
        sock.sendall(HEAD_OF_POST + RANKING[:10])
        elapsed, reply = until_closed(sock)
    assert elapsed is not None and BODY_TIMEOUT - 0.2 <= elapsed <= BODY_TIMEOUT + SLACK
    assert reply.startswith(b"HTTP/1.1 408 ") and b"REQUEST_TIMEOUT" in reply and b"connection: close" in reply.lower()


def test_a_client_that_trickles_the_body_gets_408(strict_server):
    with connect(strict_server) as sock:
        sock.sendall(HEAD_OF_POST)
        elapsed, reply = trickle(sock, RANKING)
    assert elapsed is not None and elapsed <= BODY_TIMEOUT + SLACK and reply.startswith(b"HTTP/1.1 408 ")


def test_the_next_request_head_is_timed_too(strict_server):
    # After a response uvicorn's keep-alive timer runs, but any byte cancels it: a trickled second
    # request head must still be cut off.
    with connect(strict_server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        elapsed, _ = trickle(sock, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 4)
    assert elapsed is not None and elapsed <= HEAD_TIMEOUT + SLACK


def test_an_idle_keep_alive_connection_is_closed(strict_server):
    with connect(strict_server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        elapsed, _ = until_closed(sock)
    assert elapsed is not None and elapsed <= 3 + SLACK


def test_a_complete_request_is_unaffected_by_the_timeouts(strict_server):
    with connect(strict_server) as sock:
        sock.sendall(HEAD_OF_POST)
        time.sleep(BODY_TIMEOUT / 2)
        sock.sendall(RANKING)
        reply = sock.recv(1 << 20)
    assert reply.startswith(b"HTTP/1.1 200 ")


def test_an_oversized_incomplete_head_is_refused(strict_server):
    # h11 bounds what it buffers of an incomplete head (a head that arrives whole in one read is
    # parsed however long: the README says so).
    with connect(strict_server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"x" * 3000)
        elapsed, reply = until_closed(sock)
    assert elapsed is not None and elapsed < HEAD_TIMEOUT and reply.startswith(b"HTTP/1.1 400 ")
    assert strict_server.request("GET", "/healthz", headers={"X-Padding": "x" * 1024})[0] == 200


def test_concurrency_limit():
    # uvicorn refuses while open connections (the asking one included) or running requests reach N.
    s = Server("--limit-concurrency", "3")
    try:
        held = [connect(s) for _ in range(2)]
        try:
            for sock in held:  # answered, and kept open: both connections now count
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
            assert s.request("GET", "/healthz")[0] == 503
        finally:
            for sock in held:
                sock.close()
    finally:
        s.stop()


@pytest.mark.parametrize("flag,value", [("--header-timeout", "0"), ("--body-timeout", "-1"), ("--timeout-keep-alive", "0"),
                                        ("--max-header-bytes", "10"), ("--limit-concurrency", "0")])
def test_unsafe_limits_are_refused(flag, value):
    proc = run_serve(flag, value)
    assert proc.returncode == 2 and flag.encode() in proc.stderr


@pytest.mark.parametrize("path", ["/healthz", "/v1/operations"])
def test_head_answers_like_get_without_a_body(server, path):
    get_status, get_headers, get_body = server.request("GET", path)
    status, headers, body = server.request("HEAD", path)
    assert (status, body) == (get_status, b"") and headers["content-length"] == str(len(get_body))
    assert headers["content-type"] == get_headers["content-type"]


def test_allow_lists_head_for_get_routes(server):
    status, headers, _ = server.post("/healthz", b"{}")
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, headers, _ = server.request("HEAD", "/v1/ranking-evaluate")
    assert status == 405 and headers["allow"] == "POST"
