"""Verifying what the platform POSTs to your endpoint (Standard Webhooks): the HMAC-SHA256 signature over
`{webhook-id}.{webhook-timestamp}.{raw body}` with your endpoint's `whsec_…` secret, and a timestamp within
5 minutes of your clock. During a secret rotation pass both secrets: either one verifies."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Sequence, Union

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The payload is not signed by one of the secrets, or its timestamp is too far from now."""


def verify_webhook(body: Union[str, bytes], headers: Mapping[str, str], secret: Union[str, Sequence[str]], *, now: Optional[float] = None) -> Dict[str, Any]:
    """The verified event {id, type, created_at, tenant_id, environment, data}. `body` is the raw request body.
    Every failure — a missing or hostile header, a malformed secret, a body that is not JSON — raises
    WebhookVerificationError (and nothing else)."""
    try:
        return _verify(body, headers, secret, now)
    except WebhookVerificationError:
        raise
    except Exception as exc:  # hostile input must not escape as TypeError, ValueError, binascii.Error…
        raise WebhookVerificationError(f"Cannot verify the payload: {type(exc).__name__}") from exc


def _verify(body: Union[str, bytes], headers: Mapping[str, str], secret: Union[str, Sequence[str]], now: Optional[float]) -> Dict[str, Any]:
    flat = {k.lower(): v for k, v in headers.items()}
    msg_id, timestamp, signatures = flat.get("webhook-id"), flat.get("webhook-timestamp"), flat.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("Invalid webhook-timestamp") from None
    if abs((now if now is not None else time.time()) - sent_at) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("The timestamp is too far from now")
    payload = body.encode("utf-8") if isinstance(body, str) else body
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + payload
    offered = []
    for s in signatures.split(" "):
        if not s.startswith("v1,"):
            continue
        try:  # compared as bytes: a header that is not base64 (or not ASCII) matches nothing
            offered.append(base64.b64decode(s[3:], validate=True))
        except (ValueError, binascii.Error):
            continue
    for candidate in [secret] if isinstance(secret, str) else list(secret):
        try:
            key = base64.b64decode(candidate[len("whsec_"):] if candidate.startswith("whsec_") else candidate)
        except (ValueError, binascii.Error):
            raise WebhookVerificationError("A secret is not a whsec_… base64 key") from None
        expected = hmac.new(key, signed, hashlib.sha256).digest()
        if any(hmac.compare_digest(expected, o) for o in offered):
            try:
                return json.loads(payload)
            except ValueError:
                raise WebhookVerificationError("The body is not JSON") from None
    raise WebhookVerificationError("No matching signature found")
