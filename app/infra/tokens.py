"""Bearer tokens: issued once at registration, stored only as a SHA-256 hash; the caller's
identity as every front reads it from an ``Authorization`` header.

Timing: a token is found by an index lookup on its SHA-256, so the time the database takes
depends on the hash, which an attacker cannot steer bit by bit toward a stored hash without
inverting SHA-256 (learning a prefix of a stored hash does not help forge a token).
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Literal


def new_token() -> str:
    """A long random token (256 bits), shown to its player once."""
    return "tk_" + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 of ``token``, hex: what is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


def parse_bearer(header: str) -> str | None:
    """The token of an Authorization header's value `Bearer <token>`, or None."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def token_hash_of(authorization: str | None) -> str | None | Literal[False]:
    """The token hash of a raw Authorization header: None without a header, False for a
    malformed one (Flask's path answers it 401)."""
    if not authorization:
        return None
    token = parse_bearer(authorization)
    return False if token is None else hash_token(token)
