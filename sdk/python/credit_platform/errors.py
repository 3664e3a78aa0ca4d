"""Errors the SDK raises. An API error carries the RFC 9457 problem body the server sent."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional


class CreditPlatformError(Exception):
    """Every error of the SDK."""


class ApiError(CreditPlatformError):
    """The API answered with an error status; its problem's fields, and the whole problem."""

    def __init__(self, problem: Dict[str, Any], headers: Mapping[str, str]) -> None:
        self.problem = problem
        self.status: int = problem.get("status", 0)
        self.type: str = problem.get("type", "")
        self.code: str = problem.get("code", "")
        self.title: str = problem.get("title", "")
        self.detail: Optional[str] = problem.get("detail")
        self.errors: List[Dict[str, str]] = problem.get("errors") or []
        self.request_id: Optional[str] = problem.get("request_id") or headers.get("x-request-id")
        retry_after = headers.get("retry-after")
        self.retry_after: Optional[float] = float(retry_after) if retry_after and retry_after.replace(".", "", 1).isdigit() else None
        super().__init__(f"{self.status} {self.code}: {self.detail or self.title}")

    @classmethod
    def from_response(cls, status: int, raw: bytes, headers: Any) -> "ApiError":
        text = raw.decode("utf-8", "replace")
        flat = {k.lower(): v for k, v in (headers.items() if headers is not None else [])}
        try:
            problem = json.loads(text)
            if isinstance(problem, dict) and isinstance(problem.get("code"), str):
                problem.setdefault("status", status)
                return cls(problem, flat)
        except ValueError:
            pass
        return cls({"type": "about:blank", "title": "Error", "status": status, "code": f"http_{status}", "detail": text[:500] or None}, flat)


class ConnectionError(CreditPlatformError):  # noqa: A001 - the SDK's own, exported under this name
    """No answer: the connection failed or was cut."""


class TimeoutError(CreditPlatformError):  # noqa: A001
    """No answer within the request's timeout."""
