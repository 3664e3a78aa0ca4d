"""The Python SDK against the real /v1 handlers (started by tests/sdk/python-sdk.test.ts with a fresh database, a
tenant, keys and a webhook worker; their addresses and credentials come in the environment). No mocks: faults
(a 429, a 409 conflict with or without `retryable`, a dropped connection) are injected by a local proxy in front of the real server."""
import base64
import hashlib
import hmac
import http.server
import json
import os
import pathlib
import random
import threading
import time
import urllib.request

import pytest

from credit_platform import OPERATIONS, ApiError, CreditPlatform, WebhookVerificationError, verify_webhook
from credit_platform import ConnectionError as SdkConnectionError
from credit_platform import TimeoutError as SdkTimeoutError

BASE = os.environ["CREDIT_PLATFORM_TEST_URL"]
TENANT = os.environ["CREDIT_PLATFORM_TEST_TENANT"]
KEY = os.environ["CREDIT_PLATFORM_TEST_KEY"]
CLIENT_ID = os.environ["CREDIT_PLATFORM_TEST_CLIENT_ID"]
CLIENT_SECRET = os.environ["CREDIT_PLATFORM_TEST_CLIENT_SECRET"]
ROOT = pathlib.Path(__file__).resolve().parents[3]


def client(**extra):
    return CreditPlatform(**{"tenant_id": TENANT, "base_url": BASE, "api_key": KEY, "retry_base_delay": 0.05, **extra})


def cpf():
    base = [random.randint(0, 9) for _ in range(9)]
    for _ in range(2):
        total = sum(d * (len(base) + 1 - i) for i, d in enumerate(base))
        base.append((total * 10 % 11) % 10)
    return "".join(map(str, base))


class Proxy:
    """A proxy in front of the server; `fault(n)` says per request: "pass", "429" (or "429:<Retry-After>"), "409-retryable"
    (a 409 `conflict` with `retryable: true` and Retry-After 1: a race lost before anything changed), "409" (a conflict
    that stays) or "drop" (after the server acted)."""

    def __init__(self, fault):
        self.seen = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _relay(self):
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.seen.append({"path": self.path, "request_id": self.headers.get("x-request-id")})
                action = fault(len(proxy.seen))
                if action.startswith("429"):
                    payload = json.dumps({"type": "urn:credit-platform:problem:rate_limited", "title": "Too Many Requests", "status": 429, "code": "rate_limited"}).encode()
                    self.send_response(429)
                    self.send_header("content-type", "application/problem+json")
                    self.send_header("retry-after", action.partition(":")[2] or "1")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                if action in ("409", "409-retryable"):
                    problem = {"type": "urn:credit-platform:problem:conflict", "title": "Conflict", "status": 409, "code": "conflict", "detail": "Lost a race"}
                    if action == "409-retryable":
                        problem["retryable"] = True
                    payload = json.dumps(problem).encode()
                    self.send_response(409)
                    self.send_header("content-type", "application/problem+json")
                    if action == "409-retryable":
                        self.send_header("retry-after", "1")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                request = urllib.request.Request(BASE + self.path, data=body, headers=headers, method=self.command)
                try:
                    with urllib.request.urlopen(request) as answer:
                        status, answer_headers, payload = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as err:
                    status, answer_headers, payload = err.code, err.headers, err.read()
                if action == "drop":
                    self.close_connection = True
                    self.connection.close()  # the server did the work; the client never hears of it
                    return
                self.send_response(status)
                for k, v in answer_headers.items():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_every_documented_operation_has_a_method():
    document = json.loads((ROOT / "sdk" / "openapi.json").read_text(encoding="utf-8"))
    with urllib.request.urlopen(f"{BASE}/v1/openapi.json") as answer:
        live = json.loads(answer.read())
    ids = sorted(op["operationId"] for item in document["paths"].values() for op in item.values())
    assert ids == sorted(op["operationId"] for item in live["paths"].values() for op in item.values())
    sdk = client()
    assert sorted(o["operation_id"] for o in OPERATIONS.values()) == ids
    assert [name for name in OPERATIONS if not callable(getattr(sdk, name, None))] == []


def test_credit_flow():
    sdk = client()
    assert sdk.get_health()["tenant"] == TENANT
    customer = sdk.create_customer(body={"document": cpf(), "name": "Maria Python", "birth_date": "1960-05-10", "payroll": {"type": "inss", "benefit_number": "1234567890"}})
    simulation = sdk.create_simulation(body={"product": "inss_payroll", "requested_amount": 1_000_000, "term": 12, "monthly_rate": "0.0180", "disbursement_date": "2026-03-02", "first_due_date": "2026-04-02", "customer_id": customer["id"]})
    assert len(simulation["schedule"]) == 12
    query = sdk.create_margin_query(body={"customer_id": customer["id"]})
    proposal = sdk.create_proposal(body={"customer_id": customer["id"], "simulation_id": simulation["id"], "margin_query_id": query["id"]})
    assert sdk.submit_proposal(id=proposal["id"])["status"] == "pending_review"
    assert sdk.approve_proposal(id=proposal["id"])["status"] == "approved"
    assert sdk.sign_proposal(id=proposal["id"])["status"] == "signed"
    assert sdk.create_endorsement(body={"proposal_id": proposal["id"]})["status"] == "endorsed"
    contract = sdk.issue_contract(body={"proposal_id": proposal["id"]})
    assert contract["status"] == "active" and contract["proposal_id"] == proposal["id"]
    installments = sdk.list_contract_installments(id=contract["id"], query={"limit": 100})
    assert len(installments["data"]) == 12
    charge = sdk.create_charge(body={"contract_id": contract["id"], "method": "boleto"})
    assert charge["status"] == "pending" and len(charge["boleto"]["barcode"]) == 44
    paid = sdk.sandbox_pay_charge(id=charge["id"], body={})
    assert paid["charge"]["status"] == "paid"
    quote = sdk.get_payoff_quote(id=contract["id"])
    settlement = sdk.create_settlement(body={"contract_id": contract["id"], "type": "full", "payment_method": "received"})
    assert settlement["status"] == "completed" and settlement["amount"] == quote["amount"]


def test_oauth_client_credentials():
    sdk = CreditPlatform(tenant_id=TENANT, base_url=BASE, client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
    for _ in range(3):
        assert sdk.get_health()["status"] == "ok"
    with pytest.raises(ApiError) as raised:
        sdk.create_customer(body={"document": cpf(), "name": "No write scope"})
    assert (raised.value.status, raised.value.code) == (403, "insufficient_permissions")


def test_429_is_retried_after_retry_after():
    proxy = Proxy(lambda n: "429" if n == 1 else "pass")
    try:
        began = time.monotonic()
        assert client(base_url=proxy.url).get_health()["status"] == "ok"
        assert time.monotonic() - began >= 1.0
        assert [s["path"] for s in proxy.seen] == ["/v1/health", "/v1/health"]
    finally:
        proxy.close()


def test_retryable_409_conflict_is_retried_after_retry_after_under_the_same_request_id():
    proxy = Proxy(lambda n: "409-retryable" if n == 1 else "pass")
    try:
        document = cpf()
        began = time.monotonic()
        made = client(base_url=proxy.url).create_customer(body={"document": document, "name": "Lost A Race"})
        assert time.monotonic() - began >= 1.0
        assert len(proxy.seen) == 2 and proxy.seen[0]["request_id"] and proxy.seen[0]["request_id"] == proxy.seen[1]["request_id"]
        found = client().list_customers(query={"document": document})["data"]
        assert [c["id"] for c in found] == [made["id"]]
    finally:
        proxy.close()
    proxy = Proxy(lambda n: "409")
    try:
        with pytest.raises(ApiError) as stays:
            client(base_url=proxy.url).create_customer(body={"document": cpf(), "name": "Conflict Stays"})
        assert (stays.value.status, stays.value.code, stays.value.retryable) == (409, "conflict", False)
        assert len(proxy.seen) == 1 and stays.value.request_id == proxy.seen[0]["request_id"]
    finally:
        proxy.close()
    # Once the retries are spent, the error says the same request may be sent again (with its request_id).
    proxy = Proxy(lambda n: "409-retryable")
    try:
        with pytest.raises(ApiError) as spent:
            client(base_url=proxy.url, max_retries=0).create_customer(body={"document": cpf(), "name": "Still Racing"})
        assert (spent.value.status, spent.value.code, spent.value.retryable, spent.value.retry_after) == (409, "conflict", True, 1.0)
        assert len(proxy.seen) == 1 and spent.value.request_id == proxy.seen[0]["request_id"]
    finally:
        proxy.close()


def test_post_retried_after_a_dropped_connection_creates_one_object():
    proxy = Proxy(lambda n: "drop" if n == 1 else "pass")
    try:
        document = cpf()
        made = client(base_url=proxy.url).create_customer(body={"document": document, "name": "Dropped Once"})
        assert len(proxy.seen) == 2 and proxy.seen[0]["request_id"] == proxy.seen[1]["request_id"]
        found = client().list_customers(query={"document": document})["data"]
        assert [c["id"] for c in found] == [made["id"]]
    finally:
        proxy.close()


def test_unknown_outcome_resent_with_the_errors_request_id_creates_one_object():
    proxy = Proxy(lambda n: "drop")
    try:
        document = cpf()
        with pytest.raises(SdkConnectionError) as lost:
            client(base_url=proxy.url, max_retries=1).create_customer(body={"document": document, "name": "Unknown Outcome"})
        assert len(proxy.seen) == 2 and lost.value.request_id == proxy.seen[0]["request_id"] == proxy.seen[1]["request_id"]
    finally:
        proxy.close()
    # The server created it; sent again under the error's id, the call answers that customer instead of a second one.
    made = client().create_customer(body={"document": document, "name": "Unknown Outcome"}, request_id=lost.value.request_id)
    assert [c["id"] for c in client().list_customers(query={"document": document})["data"]] == [made["id"]]


def test_retry_after_above_the_cap_is_raised_at_once():
    proxy = Proxy(lambda n: "429:120")
    try:
        began = time.monotonic()
        with pytest.raises(ApiError) as raised:
            client(base_url=proxy.url).create_customer(body={"document": cpf(), "name": "Come Back Tomorrow"}, request_id="py-cap-" + cpf())
        assert time.monotonic() - began < 5
        assert (raised.value.status, raised.value.retry_after, raised.value.headers["retry-after"]) == (429, 120.0, "120")
        assert len(proxy.seen) == 1 and raised.value.request_id == proxy.seen[0]["request_id"]
        assert raised.value.request_id.startswith("py-cap-")
    finally:
        proxy.close()
    proxy = Proxy(lambda n: "429:1")
    try:
        with pytest.raises(ApiError) as capped:
            client(base_url=proxy.url, max_retry_after=0.5).get_health()
        assert capped.value.retry_after == 1.0 and len(proxy.seen) == 1
    finally:
        proxy.close()


class StalledBody:
    """A server that answers 200 with a Content-Length and then trickles its body a byte every 0.1 s: every read of the
    socket gets something, so only a deadline over the whole body ends the wait."""

    def __init__(self):
        self.seen = []
        self.stop = threading.Event()
        stalled = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                stalled.seen.append(self.headers.get("x-request-id"))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", "1000")
                self.end_headers()
                try:
                    self.wfile.write(b'{"id": "')
                    while not stalled.stop.wait(0.1):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                except OSError:
                    pass

            do_GET = do_POST

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_stalled_body_times_out_and_the_error_carries_the_request_id():
    stalled = StalledBody()
    try:
        began = time.monotonic()
        with pytest.raises(SdkTimeoutError) as raised:
            client(base_url=stalled.url, timeout=0.5, max_retries=1).create_customer(body={"document": cpf(), "name": "Stalled"})
        assert time.monotonic() - began < 4  # two attempts of 0.5 s each, not a body that never ends
        assert len(stalled.seen) == 2 and raised.value.request_id == stalled.seen[0] == stalled.seen[1]
        with pytest.raises(SdkTimeoutError) as mine:
            client(base_url=stalled.url, timeout=0.3, max_retries=0).create_customer(body={"document": cpf(), "name": "Stalled"}, request_id="py-mine-1")
        assert mine.value.request_id == "py-mine-1" == stalled.seen[2]
    finally:
        stalled.close()


def _health_with(access_token):
    request = urllib.request.Request(f"{BASE}/v1/health", headers={"authorization": f"Bearer {access_token}", "x-tenant-id": TENANT})
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def test_token_request_not_resent_after_a_dropped_connection():
    credentials = {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}
    first = client().create_token(body={"grant_type": "client_credentials", **credentials})
    proxy = Proxy(lambda n: "drop" if n == 1 else "pass")
    try:
        with pytest.raises(SdkConnectionError) as lost:
            client(base_url=proxy.url).create_token(body={"grant_type": "refresh_token", "refresh_token": first["refresh_token"], **credentials})
        assert len(proxy.seen) == 1 and lost.value.request_id == proxy.seen[0]["request_id"]
    finally:
        proxy.close()
    # The server refreshed once; a resend would have been a reuse, revoking the grant and its access tokens.
    assert _health_with(first["access_token"]) == 200
    with pytest.raises(ApiError) as reused:
        client().create_token(body={"grant_type": "refresh_token", "refresh_token": first["refresh_token"], **credentials})
    assert (reused.value.status, reused.value.code) == (400, "invalid_grant")
    assert _health_with(first["access_token"]) == 401


def test_pagination():
    sdk = client()
    for i in range(3):
        sdk.create_customer(body={"document": cpf(), "name": f"Page {i}"})
    direct = [c["id"] for c in sdk.list_customers(query={"limit": 100})["data"]]
    assert len(direct) >= 3
    assert [c["id"] for c in sdk.paginate("list_customers", query={"limit": 2})] == direct


def test_problem_errors():
    sdk = client()
    with pytest.raises(ApiError) as missing:
        sdk.get_customer(id="cus_01JD0000000000000000000000")
    assert (missing.value.status, missing.value.code, missing.value.type) == (404, "not_found", "urn:credit-platform:problem:not_found")
    assert missing.value.headers["content-type"].startswith("application/problem+json")
    assert missing.value.request_id and missing.value.request_id == missing.value.headers["x-request-id"]
    with pytest.raises(ApiError) as invalid:
        sdk.create_customer(body={"document": "123", "name": ""}, request_id="py-invalid-" + cpf())
    assert invalid.value.status == 400 and invalid.value.code == "validation_error"
    assert invalid.value.request_id.startswith("py-invalid-") and invalid.value.request_id == invalid.value.headers["x-request-id"]
    assert "name" in [e["param"] for e in invalid.value.errors]
    with pytest.raises(ApiError) as unauthorized:
        CreditPlatform(tenant_id=TENANT, base_url=BASE, api_key="sk_test_wrong").get_health()
    assert unauthorized.value.status == 401


def test_webhook_signed_by_the_platform():
    received = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers["content-length"]))
            received.append((body, dict(self.headers.items())))
            self.send_response(200)
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        sdk = client()
        endpoint = sdk.create_webhook_endpoint(body={"url": f"http://127.0.0.1:{server.server_address[1]}/hook", "event_types": ["customer.created"]})
        sdk.test_webhook_endpoint(id=endpoint["id"])
        deadline = time.monotonic() + 30
        while not received and time.monotonic() < deadline:
            time.sleep(0.1)  # the worker the harness runs delivers it
        body, headers = received[0]
        event = verify_webhook(body, headers, endpoint["secret"])
        assert event["type"] == "webhook_endpoint.test" and event["data"]["webhook_endpoint_id"] == endpoint["id"]
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body.replace(b"test", b"tesT"), headers, endpoint["secret"])
        other = "whsec_" + "A" * 43 + "="
        assert verify_webhook(body, headers, [other, endpoint["secret"]])["id"] == event["id"]
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, headers, endpoint["secret"], now=time.time() + 3600)
    finally:
        server.shutdown()
        server.server_close()


def _signed(body, secret, *, msg_id="msg_local", timestamp=None):
    timestamp = str(int(time.time())) if timestamp is None else timestamp
    key = base64.b64decode(secret[len("whsec_"):])
    signature = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return {"webhook-id": msg_id, "webhook-timestamp": timestamp, "webhook-signature": f"v1,{signature}"}


def test_webhook_verifier_raises_its_own_error_on_hostile_input():
    secret = "whsec_" + base64.b64encode(bytes(range(32))).decode()
    body = json.dumps({"id": "evt_local", "type": "customer.created", "created_at": "2026-03-02T10:00:00.000Z", "data": {}}).encode()
    headers = _signed(body, secret)
    assert verify_webhook(body, headers, secret)["created_at"] == "2026-03-02T10:00:00.000Z"
    for signature in ("v1,çà-not-ascii", headers["webhook-signature"] + "é", "v1,ñ " + headers["webhook-signature"][:-2] + "ü="):
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, {**headers, "webhook-signature": signature}, secret)
    # A non-ASCII signature next to the right one does not hide it.
    assert verify_webhook(body, {**headers, "webhook-signature": "v1,ñ " + headers["webhook-signature"]}, secret)["id"] == "evt_local"
    for malformed in ("whsec_a", "whsec_ñ***", "whsec_abc", None):
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, headers, malformed)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, headers, [malformed, secret])
    with pytest.raises(WebhookVerificationError):
        verify_webhook(b"\xff not json", _signed(b"\xff not json", secret), secret)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, {**headers, "webhook-timestamp": "soon"}, secret)
