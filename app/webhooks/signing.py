"""Signing secrets and signatures in the style of the Standard Webhooks specification:
`webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the
bytes the secret's base64 part encodes; one signature per live secret, space-separated."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from app.db.webhook_models import WebhookEndpoint

SECRET_PREFIX = "whsec_"
ROTATION_OVERLAP = timedelta(hours=24)
"""How long the secret a rotation replaced still signs, beside the new one."""


def new_secret() -> str:
    """A fresh secret: `whsec_` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def live_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets that sign an attempt made at `now`, the newest first: the endpoint's, and
    the one its last rotation replaced until ROTATION_OVERLAP after it (so that a receiver
    that still checks with the old one loses nothing while it switches)."""
    rotated_at, previous = endpoint.secret_rotated_at, endpoint.previous_secret
    if previous is None or rotated_at is None or now >= rotated_at + ROTATION_OVERLAP:
        return [endpoint.secret]
    return [endpoint.secret, previous]


def signature(live: Sequence[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header value of one attempt: a `v1,...` per secret in `live`,
    in its order, space-separated."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return " ".join(_signed_with(secret, signed) for secret in live)


def _signed_with(secret: str, signed: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def headers(live: Sequence[str], message_id: str, timestamp: int,
            body: bytes) -> dict[str, str]:
    """The three signature headers of one attempt, signed with each secret in `live`."""
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(live, message_id, timestamp, body)}
