"""The client: one request path (credentials, tenant, request ids, retries, timeouts, errors) under one method per
operation (generated in _methods.py from the OpenAPI document). Standard library only."""
from __future__ import annotations

import base64
import builtins
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


_opener = urllib.request.build_opener(_NoRedirect)


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
    def _call(self, name: str, *, path: Mapping[str, str], query: Optional[Mapping[str, Any]], body: Optional[Mapping[str, Any]], request_id: Optional[str], timeout: Optional[float]) -> Any:
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
        headers = {"accept": "application/json", "user-agent": self.user_agent}
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
        return self._send(op["method"], url, headers, data, auth=op["auth"] == "bearer", safe=op["retry_safe"], timeout=timeout)

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
    def _send(self, method: str, url: str, headers: Dict[str, str], data: Optional[bytes], *, auth: bool, safe: bool, timeout: Optional[float]) -> Any:
        renewed = False
        attempt = 0
        request_id = headers.get("x-request-id")  # on every error of the call: the id to send it again with
        seconds = timeout or self.timeout
        while True:
            if auth:
                headers["authorization"] = f"Bearer {self._credential()}"
                headers["x-tenant-id"] = self.tenant_id
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            # One attempt is the whole exchange, body included, within `seconds`: urllib's timeout bounds each read
            # of the socket only, so a body trickling in (or stalled between reads) is bounded by this deadline.
            deadline = time.monotonic() + seconds
            try:
                try:
                    response: Any = _opener.open(request, timeout=seconds)
                except urllib.error.HTTPError as answer:
                    response = answer
                with response:
                    status = response.status if not isinstance(response, urllib.error.HTTPError) else response.code
                    raw = _read_body(response, deadline)
                    answer_headers = response.headers
            except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                where = f"{method} {urllib.parse.urlsplit(url).path}"
                if isinstance(reason, (socket.timeout, builtins.TimeoutError)):
                    failure: CreditPlatformError = SdkTimeoutError(f"{where}: no answer (or not all of it) within {seconds} s", request_id=request_id)
                else:
                    failure = SdkConnectionError(f"{where}: {reason}", request_id=request_id)
                cause: BaseException = exc
            else:
                if 200 <= status < 300:
                    try:
                        text = raw.decode("utf-8")
                        return json.loads(text) if text else None
                    except ValueError as exc:
                        raise CreditPlatformError(f"{method} {urllib.parse.urlsplit(url).path}: the answer is not JSON", request_id=request_id) from exc
                error = ApiError.from_response(status, raw, answer_headers, request_id)
                if status == 401 and auth and not self._api_key and not renewed:
                    self._token = None  # revoked or expired early: a new token, once
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
            if safe and attempt < self.max_retries:
                time.sleep(self._backoff(attempt))
                attempt += 1
                continue
            raise failure from cause

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
