"""The caller of a Flask request: their bearer token (app/infra/tokens.py) and player.

Timing: a token is found by an index lookup on its SHA-256, so the time the database takes
depends on the hash, which an attacker cannot steer bit by bit toward a stored hash without
inverting SHA-256 (learning a prefix of a stored hash does not help forge a token). The
found row's hash is still compared with the computed one by :func:`hmac.compare_digest`, so
no byte-by-byte comparison of secret material happens in Python either.
"""
from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from flask import current_app, g, request

from app.infra.problems import ApiError
from app.db.extensions import db
from app.db import ratelimit
from app.db.models import Player
from app.infra.tokens import hash_token, parse_bearer, token_hash_of
from app.live.hub import hub
from app.live.pollcap import token_key
from app.http.schemas.docs import AUTH_OPTIONAL, AUTH_REQUIRED, documented

View = TypeVar("View", bound=Callable[..., Any])


def requires_player(view: View) -> View:
    """Declare that `view` needs a player: 401 before its body or query is parsed (place it
    right under the route), and `bearerAuth` required in the OpenAPI document."""
    return _declared(view, AUTH_REQUIRED, caller_id)


def accepts_player(view: View) -> View:
    """Declare that `view` takes an optional player: a token that is sent must be valid
    (401 before the body or query is parsed), and `bearerAuth` optional in the document."""
    return _declared(view, AUTH_OPTIONAL, _caller_if_sent)


def _caller_if_sent() -> None:
    if token_sent():
        caller_id()


def _declared(view: View, security: dict[str, Any], check: Callable[[], object]) -> View:
    """`view` with its caller `check`, which the ``before_request`` hooks run before anything
    reads the body or query (:func:`check_caller_first`, :func:`check_options_caller`), and
    `security` in its OpenAPI documentation."""
    documented(view, view, security)
    view.caller_check = check  # type: ignore[attr-defined]
    return view


def check_options_caller() -> None:
    """``before_request``: an OPTIONS request, which Flask answers without calling the view,
    is checked as its route declares (a preflight CORS does not answer is 401 where the
    route needs a player)."""
    if request.method == "OPTIONS":
        _declared_check()


def check_caller_first() -> None:
    """``before_request``, right after the body is read: the caller check the route declares
    runs before the body's own checks (415, 422), so that a missing or unknown token is 401
    whatever the body (API.md). OPTIONS is :func:`check_options_caller`'s (after CORS)."""
    if request.method != "OPTIONS":
        _declared_check()


def _declared_check() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    check = getattr(view, "caller_check", None)
    if check is not None:
        check()


def bearer_token() -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    return parse_bearer(request.headers.get("Authorization", ""))


def optional_player() -> Player | None:
    """The caller, when a valid token is sent; a bad token is still a 401."""
    if "player" in g:
        known: Player | None = g.player
        return known
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


def token_hash() -> str | None | Literal[False]:
    """The hash of the request's bearer token: None without an Authorization header, False
    for a malformed one (app/infra/tokens.py: token_hash_of, as every front reads it)."""
    return token_hash_of(request.headers.get("Authorization"))


def token_sent() -> bool:
    """Whether the request has an Authorization header (well-formed or not)."""
    return bool(request.headers.get("Authorization"))


def require_player() -> Player:
    """The caller, or 401."""
    player = optional_player()
    if player is None:
        raise ApiError(401, "unauthorized", "this endpoint needs Authorization: Bearer <token>")
    return player


def seat_caller() -> Player:
    """The caller (401) within the rate limit of seat changes (429): who joins, leaves,
    resigns, declines or blocks."""
    player = require_player()
    ratelimit.check("seat", player.id)
    return player


def caller_id() -> str:
    """The caller's player id, or 401: from this process's known tokens (app/live/known.py)
    without a query when it can, else from the database (and then known); once a request."""
    if "caller_id" not in g:
        g.caller_id = _caller_id()
    caller: str = g.caller_id
    return caller


def _caller_id() -> str:
    if "player" in g and g.player is not None:
        player: Player = g.player
        return player.id
    digest = token_hash()
    if digest:  # (no header, or a malformed one: require_player answers 401)
        known = hub().known
        found = known.player(digest)
        if found is not None:
            return found
        generation = known.generation
        player = require_player()
        known.learn_token(generation, digest, player.id)
        return player.id
    return require_player().id


def client_address() -> str:
    """The caller's address (behind a proxy, configure ProxyFix so this is the client)."""
    return request.remote_addr or "unknown"


def poll_key() -> str:
    """Whose long-poll slots a request takes (app/live/pollcap.py): a digest of its bearer
    token, or its address when it sends none."""
    token = bearer_token()
    if token is not None:
        return token_key(hash_token(token))
    return "addr:" + client_address()
