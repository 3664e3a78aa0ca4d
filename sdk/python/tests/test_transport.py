"""The Python SDK's request path against scripted local servers (no API, no database): what a real server cannot be made
to do on demand — a token request that fails on the renewal a retry needs, 401s arriving one after the other on
concurrent calls, a 201 cut mid-body on a connection that ends it, a DELETE whose answer is lost, header lines trickled
past the timeout — and the generated methods' signatures."""
import inspect
import json
import pathlib
import socketserver
import threading
import time

import socket

import pytest

from credit_platform import OPERATIONS, ApiError, CreditPlatform, CreditPlatformError
from credit_platform import ConnectionError as SdkConnectionError
from credit_platform import TimeoutError as SdkTimeoutError

ROOT = pathlib.Path(__file__).resolve().parents[3]
STOP = threading.Event()  # set at the end of each test: stalled answers end


class Scripted:
    """A raw HTTP/1.1 server: each connection carries one request, recorded in `seen`; `route(request, seen)` returns
    what to do with it — a function writing to the socket (see `answer`, `drop`, `stall`, `raw`, `trickled_headers`)."""

    def __init__(self, route):
        self.seen = []
        lock = threading.Lock()
        scripted = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                reader = self.request.makefile("rb")
                line = reader.readline()
                if not line:
                    return
                method, path, _ = line.decode("latin-1").split(" ", 2)
                headers = {}
                while True:
                    header = reader.readline()
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = reader.read(int(headers.get("content-length") or 0))
                with lock:
                    entry = {"n": len(scripted.seen) + 1, "method": method, "path": path, "headers": headers, "body": body}
                    scripted.seen.append(entry)
                try:
                    route(entry, scripted.seen)(self.request)
                except OSError:
                    pass  # the client went away

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def of(self, path):
        return [s for s in self.seen if s["path"].startswith(path)]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def scripted():
    made = []
    STOP.clear()

    def make(route):
        made.append(Scripted(route))
        return made[-1]

    yield make
    STOP.set()
    for s in made:
        s.close()


def answer(status, body=None, headers=None, delay=0.0):
    def write(sock):
        if delay:
            time.sleep(delay)
        payload = b"" if body is None else json.dumps(body).encode()
        head = {"content-type": "application/problem+json" if status >= 400 else "application/json", "content-length": str(len(payload)), "connection": "close", **(headers or {})}
        sock.sendall(f"HTTP/1.1 {status} X\r\n".encode() + "".join(f"{k}: {v}\r\n" for k, v in head.items()).encode() + b"\r\n" + payload)

    return write


def drop(sock):
    pass  # the connection closes without an answer (the server may have acted)


def stall(sock):
    STOP.wait(30)


def raw(data):
    return lambda sock: sock.sendall(data)


def trickled_headers(every):
    def write(sock):
        sock.sendall(b"HTTP/1.1 200 OK\r\n")
        while not STOP.wait(every):
            sock.sendall(b"x-trickle: 1\r\n")

    return write


def problem(status, code, **extra):
    return {"type": f"urn:credit-platform:problem:{code}", "title": code, "status": status, "code": code, **extra}


REFUSED_TOKEN = answer(401, problem(401, "invalid_client", request_id="token-request-id"), {"x-request-id": "token-request-id"})


def oauth(url, **extra):
    return CreditPlatform(**{"tenant_id": "ten_1", "base_url": url, "client_id": "cli_1", "client_secret": "secret-1", "retry_base_delay": 0.01, **extra})


def keyed(url, **extra):
    return CreditPlatform(**{"tenant_id": "ten_1", "base_url": url, "api_key": "sk_test_key", "retry_base_delay": 0.01, **extra})


def tokens(seen):
    return len([s for s in seen if s["path"] == "/v1/auth/token"])


@pytest.mark.parametrize("fault, kind", [(drop, SdkConnectionError), (stall, SdkTimeoutError)], ids=["dropped", "timed-out"])
def test_a_failed_token_renewal_after_an_unknown_outcome_is_that_outcome_with_the_calls_request_id(scripted, fault, kind):
    # Tokens that last a minute are renewed at once: the retry needs a new one, and the token request is refused.
    def route(req, seen):
        if req["path"] == "/v1/auth/token":
            return answer(200, {"access_token": "t1", "expires_in": 60}) if tokens(seen) == 1 else REFUSED_TOKEN
        return fault

    server = scripted(route)
    with pytest.raises(kind) as raised:
        oauth(server.url, timeout=0.5).create_customer(body={"document": "52998224725", "name": "Maria"}, request_id="call-id-1")
    assert raised.value.request_id == "call-id-1"
    assert isinstance(raised.value.__cause__, ApiError) and raised.value.__cause__.request_id == "token-request-id"
    assert [s["headers"]["x-request-id"] for s in server.of("/v1/customers")] == ["call-id-1"]


def test_a_token_renewal_refused_after_a_401_carries_the_calls_request_id(scripted):
    def route(req, seen):
        if req["path"] == "/v1/auth/token":
            return answer(200, {"access_token": "t1", "expires_in": 3600}) if tokens(seen) == 1 else REFUSED_TOKEN
        return answer(401, problem(401, "unauthorized"))

    sdk = oauth(scripted(route).url)
    with pytest.raises(ApiError) as raised:
        sdk.create_customer(body={"document": "52998224725", "name": "Maria"}, request_id="call-id-2")
    assert (raised.value.status, raised.value.code, raised.value.request_id) == (401, "invalid_client", "call-id-2")
    assert raised.value.__cause__.request_id == "token-request-id"
    with pytest.raises(ApiError) as get:
        sdk.get_health()
    assert get.value.request_id is None  # a GET sends no id: none, not the token answer's


def test_concurrent_401s_one_after_the_other_renew_the_token_once(scripted):
    refusals = []
    # No 401 is answered before all five calls have sent the first token (a call started late on a busy machine would
    # otherwise send the renewed one and never see a 401); then they are answered 0.15 s apart.
    all_sent = threading.Barrier(5)

    def route(req, seen):
        if req["path"] == "/v1/auth/token":
            return answer(200, {"access_token": f"t{tokens(seen)}", "expires_in": 3600})
        if req["headers"].get("authorization") == "Bearer t1":
            refusals.append(1)
            refuse = answer(401, problem(401, "unauthorized"), delay=0.15 * (len(refusals) - 1))

            def held(sock):
                all_sent.wait(15)
                refuse(sock)

            return held
        return answer(200, {"status": "ok"})

    server = scripted(route)
    sdk = oauth(server.url)
    results = []
    threads = [threading.Thread(target=lambda: results.append(sdk.get_health()["status"])) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert results == ["ok"] * 5 and len(refusals) == 5
    assert tokens(server.seen) == 2


def test_a_401_token_renewal_is_not_a_retry(scripted):
    def route(req, seen):
        if req["path"] == "/v1/auth/token":
            return answer(200, {"access_token": f"t{tokens(seen)}", "expires_in": 3600})
        n = len([s for s in seen if s["path"] == "/v1/health"])
        return answer(401, problem(401, "unauthorized")) if n == 1 else answer(503, problem(503, "unavailable")) if n == 2 else answer(200, {"status": "ok"})

    server = scripted(route)
    assert oauth(server.url, max_retries=1).get_health()["status"] == "ok"
    assert len(server.of("/v1/health")) == 3


CUT = raw(b'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"id": "cus_01')


def test_a_2xx_whose_body_is_not_json_is_a_connection_error_retried_under_the_same_request_id(scripted):
    server = scripted(lambda req, seen: CUT if req["n"] == 1 else answer(201, {"id": "cus_1", "object": "customer"}))
    assert keyed(server.url).create_customer(body={"document": "52998224725", "name": "Maria"})["id"] == "cus_1"
    assert len(server.seen) == 2 and server.seen[0]["headers"]["x-request-id"] == server.seen[1]["headers"]["x-request-id"]
    always = scripted(lambda req, seen: CUT)
    with pytest.raises(SdkConnectionError) as raised:
        keyed(always.url, max_retries=0).create_customer(body={"document": "52998224725", "name": "Maria"}, request_id="cut-1")
    assert raised.value.request_id == "cut-1"


def test_a_delete_404_after_an_unknown_outcome_is_its_success(scripted):
    server = scripted(lambda req, seen: drop if req["path"].endswith("/whe_1") and req["n"] == 1 else answer(404, problem(404, "not_found")))
    sdk = keyed(server.url)
    assert sdk.delete_webhook_endpoint(id="whe_1") == {"id": "whe_1", "object": "webhook_endpoint", "deleted": True}
    assert [s["method"] for s in server.seen] == ["DELETE", "DELETE"]
    with pytest.raises(ApiError) as first:
        sdk.delete_webhook_endpoint(id="whe_2")
    assert first.value.status == 404 and len(server.seen) == 3


def _deleted_schema():
    """The documented 200 answer of deleteWebhookEndpoint (sdk/openapi.json), its $ref resolved."""
    document = json.loads((ROOT / "sdk" / "openapi.json").read_text(encoding="utf-8"))
    schema = document["paths"]["/v1/webhook-endpoints/{id}"]["delete"]["responses"]["200"]["content"]["application/json"]["schema"]
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def test_a_delete_404_after_an_attempt_that_timed_out_awaiting_its_answer_is_its_documented_success(scripted):
    server = scripted(lambda req, seen: stall if req["n"] == 1 else answer(404, problem(404, "not_found")))
    deleted = keyed(server.url, timeout=0.5).delete_webhook_endpoint(id="whe_3")
    assert deleted == {"id": "whe_3", "object": "webhook_endpoint", "deleted": True}
    assert len(server.seen) == 2
    schema = _deleted_schema()
    assert sorted(deleted) == sorted(schema["properties"]) == sorted(schema["required"])
    for name, prop in schema["properties"].items():
        assert "enum" not in prop or deleted[name] in prop["enum"], name


@pytest.fixture
def unreachable_first(monkeypatch):
    """Makes the next connection the SDK opens go elsewhere — a port held but not listening (refused), or a name that
    does not resolve — and the ones after it to the address asked for: a real failure to connect, then the server."""
    held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    held.bind(("127.0.0.1", 0))  # bound, never listening: connections to it are refused
    real = socket.create_connection
    attempts = []

    def use(kind):
        def create_connection(address, *args, **kwargs):
            attempts.append(address)
            if len(attempts) == 1:
                address = held.getsockname() if kind == "refused" else ("no-such-host.invalid", address[1])
            return real(address, *args, **kwargs)

        monkeypatch.setattr(socket, "create_connection", create_connection)
        return attempts

    yield use
    held.close()


@pytest.mark.parametrize("kind", ["refused", "unresolved"])
def test_a_delete_404_after_an_attempt_that_never_reached_the_server_raises_the_api_error(scripted, unreachable_first, kind):
    server = scripted(lambda req, seen: answer(404, problem(404, "not_found")))
    attempts = unreachable_first(kind)
    with pytest.raises(ApiError) as raised:
        keyed(server.url).delete_webhook_endpoint(id="whe_TYPO")
    assert (raised.value.status, raised.value.code) == (404, "not_found")
    assert len(attempts) == 2 and [s["path"] for s in server.seen] == ["/v1/webhook-endpoints/whe_TYPO"]
    # Alone (no retry left), such an attempt is a ConnectionError saying the request was not sent.
    attempts.clear()
    with pytest.raises(SdkConnectionError, match="not sent") as alone:
        keyed(server.url, max_retries=0).delete_webhook_endpoint(id="whe_TYPO")
    assert isinstance(alone.value.__cause__.reason, ConnectionRefusedError if kind == "refused" else socket.gaierror)


def test_the_timeout_bounds_the_whole_exchange_even_headers_trickled_in(scripted):
    server = scripted(lambda req, seen: trickled_headers(0.3))
    began = time.monotonic()
    with pytest.raises(SdkTimeoutError) as raised:
        keyed(server.url, timeout=1.0, max_retries=0).create_customer(body={"document": "52998224725", "name": "Maria"}, request_id="slow-1")
    assert time.monotonic() - began < 2.0
    assert raised.value.request_id == "slow-1"


def test_a_call_sends_its_extra_headers_and_refuses_those_the_sdk_sets(scripted):
    server = scripted(lambda req, seen: answer(202, {"received": True}))
    sdk = keyed(server.url)
    sdk.receive_provider_notification(provider="bank", body={"event": "x"}, headers={"X-Provider-Signature": "sig-1"})
    assert server.seen[0]["headers"]["x-provider-signature"] == "sig-1"
    for header in ("Authorization", "X-Request-Id", "x-tenant-id"):
        with pytest.raises(CreditPlatformError, match="set by the SDK"):
            sdk.get_health(headers={header: "mine"})
    assert len(server.seen) == 1


def test_a_method_requires_a_body_exactly_when_the_operation_does():
    document = json.loads((ROOT / "sdk" / "openapi.json").read_text(encoding="utf-8"))
    by_id = {op["operationId"]: op for item in document["paths"].values() for op in item.values()}
    for name, op in OPERATIONS.items():
        if not op["body"]:
            continue
        required = inspect.signature(getattr(CreditPlatform, name)).parameters["body"].default is inspect.Parameter.empty
        assert required == bool(by_id[op["operation_id"]]["requestBody"].get("required")), name
    assert inspect.signature(CreditPlatform.update_webhook_endpoint).parameters["body"].default is inspect.Parameter.empty
