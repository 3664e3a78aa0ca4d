"""Errors the SDK raises. An API error carries the RFC 9457 problem body the server sent. Every error of a call
carries its `request_id`: the X-Request-Id the SDK sent (every POST: yours or the UUID it generated, the same on each
retry), else the one the API answered with — on an unknown outcome, send the call again with that id."""
from __future__ import annotations

import email.utils
import json
import math
import time
from typing import Any, Dict, List, Mapping, Optional


class CreditPlatformError(Exception):
    """Every error of the SDK. `request_id`: the call's X-Request-Id (the one the SDK sent, every POST), if any."""

    def __init__(self, *args: Any, request_id: Optional[str] = None) -> None:
        super().__init__(*args)
        self.request_id: Optional[str] = request_id


class ApiError(CreditPlatformError):
    """The API answered with an error status; its problem's fields (`retryable`: the problem said `retryable: true`),
    the whole problem and the answer's headers (`headers`, names in lower case)."""

    def __init__(self, problem: Dict[str, Any], headers: Mapping[str, str], request_id: Optional[str] = None) -> None:
        self.problem = problem
        self.headers: Dict[str, str] = {k.lower(): v for k, v in headers.items()}
        self.status: int = problem.get("status", 0)
        self.type: str = problem.get("type", "")
        self.code: str = problem.get("code", "")
        self.title: str = problem.get("title", "")
        self.detail: Optional[str] = problem.get("detail")
        self.errors: List[Dict[str, str]] = problem.get("errors") or []
        self.retry_after: Optional[float] = _retry_after(self.headers.get("retry-after"))
        # The problem's `retryable: true`: the same request, sent again with the same X-Request-Id, may succeed — e.g. a
        # 409 `conflict` from a race lost before anything changed (retried by the client after its Retry-After). False
        # when the problem does not say so (a 409 `conflict` without it stays).
        self.retryable: bool = problem.get("retryable") is True
        # The id sent first: it is the one to send the call again with (an intermediary may answer with its own).
        super().__init__(f"{self.status} {self.code}: {self.detail or self.title}", request_id=request_id or problem.get("request_id") or self.headers.get("x-request-id"))

    @classmethod
    def from_response(cls, status: int, raw: bytes, headers: Any, request_id: Optional[str] = None) -> "ApiError":
        text = raw.decode("utf-8", "replace")
        flat = {k.lower(): v for k, v in (headers.items() if headers is not None else [])}
        try:
            problem = json.loads(text)
            if isinstance(problem, dict) and isinstance(problem.get("code"), str):
                problem.setdefault("status", status)
                return cls(problem, flat, request_id)
        except ValueError:
            pass
        return cls({"type": "about:blank", "title": "Error", "status": status, "code": f"http_{status}", "detail": text[:500] or None}, flat, request_id)


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After (RFC 9110): a number of seconds, or an HTTP date (seconds from now, at least 0)."""
    if not value or not value.strip():
        return None
    try:
        seconds = float(value)
        return max(0.0, seconds) if math.isfinite(seconds) else None
    except ValueError:
        pass
    try:
        at = email.utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if at is None or at.tzinfo is None:
        return None
    return max(0.0, float(math.ceil(at.timestamp() - time.time())))


class ConnectionError(CreditPlatformError):  # noqa: A001 - the SDK's own, exported under this name
    """No answer, or not all of it: the connection failed or was cut (before or while the body arrived), or a success's
    body is not JSON (cut short on the way). The outcome is unknown: send the call again with its `request_id`."""


class TimeoutError(CreditPlatformError):  # noqa: A001
    """No answer, or not all of it, within the request's timeout (the whole exchange: headers and body)."""
