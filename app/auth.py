"""Bearer tokens: issued once at registration, stored only as a SHA-256 hash.

Timing: a token is found by an index lookup on its SHA-256, so the time the database takes
depends on the hash, which an attacker cannot steer bit by bit toward a stored hash without
inverting SHA-256 (learning a prefix of a stored hash does not help forge a token). The
found row's hash is still compared with the computed one by :func:`hmac.compare_digest`, so
no byte-by-byte comparison of secret material happens in Python either.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import g, request

from app.errors import ApiError
from app.extensions import db
from app.models import Player


def new_token() -> str:
    """A long random token (256 bits), shown to its player once."""
    return "tk_" + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 of ``token``, hex: what is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token() -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    return parse_bearer(request.headers.get("Authorization", ""))


def parse_bearer(header: str) -> str | None:
    """The token of an Authorization header's value `Bearer <token>`, or None."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def optional_player() -> Player | None:
    """The caller, when a valid token is sent; a bad token is still a 401."""
    if "player" in g:
        return g.player
    token = bearer_token()
    player = None
    if token is not None:
        digest = hash_token(token)
        player = db.session.execute(
            db.select(Player).where(Player.token_hash == digest)
        ).scalar_one_or_none()
        if player is None or not hmac.compare_digest(player.token_hash, digest):
            raise ApiError(401, "unauthorized", "the bearer token is unknown")
    elif token_sent():
        raise ApiError(401, "unauthorized", "use Authorization: Bearer <token>")
    g.player = player
    return player


def token_sent() -> bool:
    """Whether the request has an Authorization header (well-formed or not)."""
    return bool(request.headers.get("Authorization"))


def require_player() -> Player:
    """The caller, or 401."""
    player = optional_player()
    if player is None:
        raise ApiError(401, "unauthorized", "this endpoint needs Authorization: Bearer <token>")
    return player


def caller_id() -> str:
    """The caller's player id, or 401: from this process's known tokens (app/known.py)
    without a query when it can, else from the database (and then known); once a request."""
    if "caller_id" not in g:
        g.caller_id = _caller_id()
    return g.caller_id


def _caller_id() -> str:
    if "player" in g and g.player is not None:
        return g.player.id
    token = bearer_token()
    if token is not None:
        from app.waiting import hub

        known = hub().known
        digest = hash_token(token)
        found = known.player(digest)
        if found is not None:
            return found
        generation = known.generation
        player = require_player()
        known.learn_token(generation, digest, player.id)
        return player.id
    return require_player().id
