"""Verifying what the platform POSTs to your endpoint (Standard Webhooks): the HMAC-SHA256 signature over
`{webhook-id}.{webhook-timestamp}.{raw body}` with your endpoint's `whsec_…` secret, and a timestamp within
5 minutes of your clock. During a secret rotation pass both secrets: either one verifies."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Sequence, Union

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The payload is not signed by one of the secrets, or its timestamp is too far from now."""


def verify_webhook(body: Union[str, bytes], headers: Mapping[str, str], secret: Union[str, Sequence[str]], *, now: Optional[float] = None) -> Dict[str, Any]:
    """The verified event {id, type, created_at, tenant_id, environment, data}. `body` is the raw request body."""
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
    offered = [s.split(",", 1)[1] for s in signatures.split(" ") if s.startswith("v1,")]
    for candidate in [secret] if isinstance(secret, str) else list(secret):
        key = base64.b64decode(candidate[len("whsec_"):] if candidate.startswith("whsec_") else candidate)
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        if any(hmac.compare_digest(expected, o) for o in offered):
            return json.loads(payload)
    raise WebhookVerificationError("No matching signature found")
