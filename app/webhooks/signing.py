"""Signing secrets and signatures in the style of the Standard Webhooks specification:
`webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the
bytes the secret's base64 part encodes."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh secret: `whsec_` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header value of one attempt."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The three signature headers of one attempt."""
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(secret, message_id, timestamp, body)}
