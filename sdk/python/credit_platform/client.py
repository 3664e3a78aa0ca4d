"""The client: one request path (credentials, tenant, request ids, retries, timeouts, errors) under one method per
operation (generated in _methods.py from the OpenAPI document). Standard library only."""
from __future__ import annotations

import base64
import builtins
import functools
import http.client
import json
import os
import platform
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterator, Mapping, Optional

from ._methods import OperationMethods
from .errors import ApiError, CreditPlatformError
from .errors import ConnectionError as SdkConnectionError
from .errors import TimeoutError as SdkTimeoutError
from .operations import OPERATIONS

__version__ = "1.4.0"

_KEY_PREFIX = {"sandbox": "sk_test_", "production": "sk_live_"}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # a redirect is answered as is, never followed
        return None


class _Exchange:
    """One attempt's deadline over the whole exchange — connecting, sending, the status line and headers, the body: a
    socket timeout bounds each read only, so a server trickling header lines (or body bytes) would hold the call for
    ever. At the deadline a timer shuts the connection's socket down, which ends any read in progress."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.expired = False
        # Whether the connection was made (TCP, and TLS for https): until then no byte of the request was sent, so a
        # failure then (refused, a name that does not resolve, a handshake refused, the deadline) cannot have been applied.
        self.connected = False
        self._done = False
        self._sock: Optional[socket.socket] = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> "_Exchange":
        self._timer.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.finish()

    def finish(self) -> None:
        """The exchange is over (answered or failed): the deadline no longer applies."""
        with self._lock:
            self._done = True
        self._timer.cancel()

    def attach(self, sock: Any) -> Any:
        with self._lock:
            self._sock = sock
            if self.expired:
                _shutdown(sock)
        return sock

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            if self._sock is not None:
                _shutdown(self._sock)


def _shutdown(sock: Any) -> None:
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's: ends a read blocked in another thread
    except (OSError, TypeError, ValueError):
        pass


class _Request(urllib.request.Request):
    exchange: Optional[_Exchange] = None


def _connection(base: Any) -> Any:
    class Connection(base):  # type: ignore[misc, valid-type]
        """An http.client connection whose socket the attempt's _Exchange can shut down at its deadline."""

        def __init__(self, *args: Any, exchange: Optional[_Exchange] = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._exchange = exchange
            if exchange is not None:
                create = self._create_connection
                self._create_connection = lambda *a, **k: exchange.attach(create(*a, **k))

        def connect(self) -> None:
            super().connect()
            if self._exchange is not None:
                self._exchange.attach(self.sock)  # the TLS socket, once it wraps the plain one
                self._exchange.connected = True

    return Connection


_HTTPConnection = _connection(http.client.HTTPConnection)
_HTTPSConnection = _connection(http.client.HTTPSConnection)


class _HTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req: Any) -> Any:
        return self.do_open(functools.partial(_HTTPConnection, exchange=getattr(req, "exchange", None)), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req: Any) -> Any:
        extra: Dict[str, Any] = {"context": getattr(self, "_context", None)}
        if hasattr(self, "_check_hostname"):  # Python < 3.12
            extra["check_hostname"] = self._check_hostname
        return self.do_open(functools.partial(_HTTPSConnection, exchange=getattr(req, "exchange", None)), req, **extra)


_opener = urllib.request.build_opener(_NoRedirect, _HTTPHandler, _HTTPSHandler)

# The headers the SDK sets itself: not to be given in a call's `headers`.
_SDK_HEADERS = {"accept", "authorization", "content-type", "content-length", "host", "user-agent", "x-request-id", "x-tenant-id"}


class CreditPlatform(OperationMethods):
    """A client of the Credit Platform API.

    CreditPlatform(tenant_id="ten_…", base_url="http://localhost:3000", api_key="sk_test_…")
    CreditPlatform(tenant_id=…, environment="sandbox", base_urls={"sandbox": …}, client_id=…, client_secret=…)
    """

    def __init__(
        self,
        *,
        tenant_id: str,
        base_url: Optional[str] = None,
        environment: Optional[str] = None,
        base_urls: Optional[Mapping[str, str]] = None,
        api_key: Optional[str] = None,
        client_id: Optional[str] = None,
        client_secret: Optional[str] = None,
        scope: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        retry_base_delay: float = 0.5,
        max_retry_after: float = 60.0,
    ) -> None:
        if not tenant_id:
            raise CreditPlatformError("tenant_id is required")
        if not api_key and not (client_id and client_secret):
            raise CreditPlatformError("Give api_key, or client_id and client_secret")
        if environment is not None and environment not in _KEY_PREFIX:
            raise CreditPlatformError('environment is "sandbox" or "production"')
        base = base_url
        if base is None and environment:
            base = (base_urls or {}).get(environment) or os.environ.get(f"CREDIT_PLATFORM_{environment.upper()}_URL")
        if not base:
            raise CreditPlatformError("Give base_url, or environment with base_urls (or CREDIT_PLATFORM_<ENVIRONMENT>_URL)")
        if api_key and environment and not api_key.startswith(_KEY_PREFIX[environment]):
            raise CreditPlatformError(f"A {environment} key starts with {_KEY_PREFIX[environment]}")
        self.base_url = base.rstrip("/")
        self.tenant_id = tenant_id
        self._api_key = api_key
        self._client_id = client_id
        self._client_secret = client_secret
        self._scope = scope
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        # The longest Retry-After waited for before a retry (s): an answer asking for more is raised at once.
        self.max_retry_after = max_retry_after
        self._token: Optional[Dict[str, Any]] = None
        self._token_lock = threading.Lock()
        self.user_agent = f"credit-platform-python/{__version__} python/{platform.python_version()}"

    # ── the generated methods end here ──────────────────────────────────────────────────────────────────────
    def _call(self, name: str, *, path: Mapping[str, str], query: Optional[Mapping[str, Any]], body: Optional[Mapping[str, Any]], request_id: Optional[str], timeout: Optional[float], headers: Optional[Mapping[str, str]] = None) -> Any:
        op = OPERATIONS[name]
        url_path = op["path"]
        for param in op["path_params"]:
            value = path.get(param)
            if value in (None, ""):
                raise CreditPlatformError(f"{name}: {param} is required")
            url_path = url_path.replace("{" + param + "}", urllib.parse.quote(str(value), safe=""))
        url = self.base_url + url_path
        if query:
            pairs = [(k, _text(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        extra = dict(headers or {})
        headers = {}
        for header, value in extra.items():
            if header.lower() in _SDK_HEADERS:
                raise CreditPlatformError(f"{name}: the {header} header is set by the SDK")
            headers[header.lower()] = value
        headers.update({"accept": "application/json", "user-agent": self.user_agent})
        data: Optional[bytes] = None
        if body is not None and op["body"] == "application/json":
            headers["content-type"] = "application/json"
            data = json.dumps(body).encode("utf-8")
        elif body is not None and op["body"] == "application/x-www-form-urlencoded":
            headers["content-type"] = "application/x-www-form-urlencoded"
            data = urllib.parse.urlencode(body).encode("ascii")
        elif op["method"] in ("POST", "PUT", "PATCH") and op["body"] == "application/json":
            headers["content-type"] = "application/json"
            data = b"{}"
        if op["method"] == "POST":
            headers["x-request-id"] = request_id or str(uuid.uuid4())
        deleted = _deleted_answer(op["path"], path) if op["method"] == "DELETE" else None
        return self._send(op["method"], url, headers, data, auth=op["auth"] == "bearer", safe=op["retry_safe"], timeout=timeout, deleted=deleted)

    def paginate(self, name: str, *, query: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> Iterator[Dict[str, Any]]:
        """Every item of a paginated list operation (e.g. "list_customers"), page after page."""
        if not OPERATIONS.get(name, {}).get("paginated"):
            raise CreditPlatformError(f"{name} is not a paginated list operation")
        cursor: Optional[str] = None
        while True:
            page_query = dict(query or {})
            if cursor:
                page_query["cursor"] = cursor
            page = getattr(self, name)(query=page_query, **kwargs)
            yield from page["data"]
            if not page.get("has_more") or not page.get("next_cursor"):
                return
            cursor = page["next_cursor"]

    # ── transport ───────────────────────────────────────────────────────────────────────────────────────────
    def _send(self, method: str, url: str, headers: Dict[str, str], data: Optional[bytes], *, auth: bool, safe: bool, timeout: Optional[float], deleted: Optional[Dict[str, Any]] = None) -> Any:
        """`deleted`: a DELETE's documented answer, what the call returns when a retry of it finds nothing (see below)."""
        renewed = False
        attempt = 0
        request_id = headers.get("x-request-id")  # on every error of the call: the id to send it again with
        seconds = timeout or self.timeout
        where = f"{method} {urllib.parse.urlsplit(url).path}"
        # The last attempt whose outcome is unknown (it may have reached the server and been applied, but no whole answer
        # came back). An attempt that never reached the server — refused, a name that did not resolve, a TLS handshake
        # refused, the deadline passing before the connection was made — is no such attempt: nothing was applied.
        unknown: Optional[CreditPlatformError] = None
        while True:
            token: Optional[str] = None
            if auth:
                try:
                    token = self._credential()
                except Exception as exc:  # noqa: BLE001 - re-raised as the call's own error
                    failed = _credential_failure(where, exc, request_id, unknown)
                    if failed is exc:
                        raise
                    raise failed from exc
                headers["authorization"] = f"Bearer {token}"
                headers["x-tenant-id"] = self.tenant_id
            request = _Request(url, data=data, headers=headers, method=method)
            # One attempt is the whole exchange — connecting, the headers, the body and its JSON — within `seconds`: a
            # failure anywhere in it is a ConnectionError or TimeoutError, retried under the same X-Request-Id where allowed.
            failure: Optional[CreditPlatformError] = None
            cause: Optional[BaseException] = None
            never_sent = False
            with _Exchange(seconds) as exchange:
                request.exchange = exchange
                try:
                    try:
                        response: Any = _opener.open(request, timeout=seconds)
                    except urllib.error.HTTPError as answer:
                        response = answer
                    with response:
                        status = response.status if not isinstance(response, urllib.error.HTTPError) else response.code
                        raw = _read_body(response, exchange.deadline)
                        answer_headers = response.headers
                    exchange.finish()
                except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
                    exchange.finish()
                    reason = getattr(exc, "reason", exc)
                    never_sent = not exchange.connected or isinstance(reason, (ConnectionRefusedError, socket.gaierror))
                    if exchange.expired or isinstance(reason, (socket.timeout, builtins.TimeoutError)):
                        waited = "no connection (the request was not sent)" if never_sent else "no answer (or not all of it)"
                        failure = SdkTimeoutError(f"{where}: {waited} within {seconds} s", request_id=request_id)
                    elif never_sent:
                        failure = SdkConnectionError(f"{where}: no connection, the request was not sent: {reason}", request_id=request_id)
                    else:
                        failure = SdkConnectionError(f"{where}: {reason}", request_id=request_id)
                    cause = exc
                else:
                    if exchange.expired:  # the socket was shut down mid-answer: what was read may look whole, but is not
                        failure = SdkTimeoutError(f"{where}: no answer (or not all of it) within {seconds} s", request_id=request_id)
            if failure is None and 200 <= status < 300:
                try:
                    text = raw.decode("utf-8")
                    return json.loads(text) if text else None
                except ValueError as exc:
                    # A success whose body is not JSON: cut short on the way (a close-delimited answer), or not the API.
                    failure = SdkConnectionError(f"{where}: the {status} answer's body is not JSON ({exc})", request_id=request_id)
                    cause = exc
            if failure is not None:
                if not never_sent:
                    unknown = failure
                if safe and attempt < self.max_retries:
                    time.sleep(self._backoff(attempt))
                    attempt += 1
                    continue
                raise failure from cause
            # A DELETE sent again after an attempt that may have reached the server (its outcome unknown) finds nothing when
            # that attempt did delete it (the API answers 404 for what it deleted): that is the call's success, answered as
            # the API documents it. After attempts that never reached the server, a 404 is the API's answer: an ApiError.
            if status == 404 and method == "DELETE" and unknown is not None and deleted is not None:
                return dict(deleted)
            error = ApiError.from_response(status, raw, answer_headers, request_id)
            if status == 401 and auth and not self._api_key and not renewed:
                # The token was revoked or expired early: a new one, once per call (not an attempt). Only the token this
                # attempt was refused is dropped — another call may have renewed it already — and renewals are shared.
                with self._token_lock:
                    if self._token is not None and self._token["value"] == token:
                        self._token = None
                renewed = True
                continue
            # A 409 is retried when the request was not applied: its key still in flight (`idempotency_in_progress`), or a
            # race lost before anything changed (`retryable: true`, the key released): the same X-Request-Id is judged again.
            retryable = status == 429 or (status == 503 and safe) or (status == 409 and (error.code == "idempotency_in_progress" or error.retryable))
            # A Retry-After beyond the bound (a proxy's "come back tomorrow") is the caller's: raised at once.
            if retryable and attempt < self.max_retries and (error.retry_after or 0) <= self.max_retry_after:
                time.sleep(max(self._backoff(attempt), error.retry_after or 0))
                attempt += 1
                continue
            raise error

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: between half and all of base × 2^attempt, at most 20 s."""
        ceiling = min(20.0, self.retry_base_delay * (2**attempt))
        return ceiling / 2 + random.random() * ceiling / 2

    def _credential(self) -> str:
        if self._api_key:
            return self._api_key
        with self._token_lock:
            if self._token and time.monotonic() < self._token["renew_at"]:
                return self._token["value"]
            form = {"grant_type": "client_credentials", **({"scope": self._scope} if self._scope else {})}
            basic = base64.b64encode(f"{urllib.parse.quote(self._client_id or '', safe='')}:{urllib.parse.quote(self._client_secret or '', safe='')}".encode()).decode()
            answer = self._send(
                "POST",
                f"{self.base_url}/v1/auth/token",
                {"accept": "application/json", "user-agent": self.user_agent, "content-type": "application/x-www-form-urlencoded", "authorization": f"Basic {basic}"},
                urllib.parse.urlencode(form).encode("ascii"),
                auth=False,
                safe=True,
                timeout=None,
            )
            # Renewed a minute before it expires, so that no request carries a token that lapses in flight.
            self._token = {"value": answer["access_token"], "renew_at": time.monotonic() + max(0, answer["expires_in"] - 60)}
            return self._token["value"]


def _credential_failure(where: str, exc: Exception, request_id: Optional[str], unknown: Optional[CreditPlatformError]) -> Exception:
    """A failure of the credential step (the token request) inside a call, as an error of the call: it carries the
    call's own X-Request-Id (never the token request's) and has the token's error as its cause. When an earlier attempt
    of the call had an unknown outcome (it may have been applied), it is that attempt's TimeoutError or ConnectionError:
    the call is to be sent again with its `request_id`. Anything else the SDK did not raise is returned as is."""
    if unknown is not None:
        message = f"{where}: an earlier attempt's outcome is unknown ({unknown}), and the token could not be renewed: {exc}"
        return SdkTimeoutError(message, request_id=request_id) if isinstance(unknown, SdkTimeoutError) else SdkConnectionError(message, request_id=request_id)
    if isinstance(exc, ApiError):
        error = ApiError(exc.problem, exc.headers, request_id)
        error.request_id = request_id  # the call's, or none: never the token answer's
        return error
    if not isinstance(exc, CreditPlatformError):
        return exc
    message = f"{where}: the token request failed: {exc}"
    kind = SdkTimeoutError if isinstance(exc, SdkTimeoutError) else SdkConnectionError if isinstance(exc, SdkConnectionError) else CreditPlatformError
    return kind(message, request_id=request_id)


def _deleted_answer(template: str, path: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """What a DELETE whose earlier attempt deleted the resource answers, as the API documents it: {"id", "object",
    "deleted": True}, the id being the path's last parameter and "object" its resource, singular, in snake case
    (/v1/webhook-endpoints/{id}: "webhook_endpoint"). None for a DELETE without a path parameter."""
    segments = [s for s in template.split("/") if s]
    params = [i for i, s in enumerate(segments) if s.startswith("{") and s.endswith("}")]
    if not params or params[-1] < 1:
        return None
    at = params[-1]
    resource = segments[at - 1].replace("-", "_")
    if resource.endswith("ies"):
        resource = resource[:-3] + "y"
    elif resource.endswith("s") and not resource.endswith("ss"):
        resource = resource[:-1]
    return {"id": str(path.get(segments[at][1:-1])), "object": resource, "deleted": True}


def _read_body(response: Any, deadline: float) -> bytes:
    """The whole body of an answer (an http.client.HTTPResponse, or the HTTPError wrapping one) by `deadline`
    (time.monotonic()): each read waits at most the time left, so the body cannot take longer in all."""
    target = response
    while not isinstance(target, http.client.HTTPResponse) and getattr(target, "fp", None) is not None:
        target = target.fp
    if not isinstance(target, http.client.HTTPResponse):
        return response.read()
    sock = getattr(getattr(target.fp, "raw", None), "_sock", None)
    chunks = []
    while not target.isclosed():  # closed once the whole body is read
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("the answer's body did not arrive in time")
        if sock is not None:
            sock.settimeout(left)
        chunk = target.read1(65536)
        if not chunk:
            break
        chunks.append(chunk)
    if target.length:  # the connection ended before the Content-Length it announced
        raise http.client.IncompleteRead(b"".join(chunks), target.length)
    return b"".join(chunks)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
