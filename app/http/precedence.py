"""The order of a request's errors when several things are wrong (API.md): who the caller is
(401, declared on the route: app/http/auth.py), then the match in the path (404), the
caller's place in it (403) and its state (409) (app/play/seat_gate.py: refuse_before_body),
and only then the body or query (422 `validation_error`). A body or query refused as
malformed still counts toward the caller's rate limit, and over it is a 429 like any other."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from werkzeug.exceptions import HTTPException

from app.db import ratelimit
from app.http.auth import caller_id
from app.http.schemas.docs import documented, problems
from app.infra.problems import ApiError
from app.play.seat_gate import Scope, refuse_before_body

View = TypeVar("View", bound=Callable[..., Any])


NOT_FOUND = {404: "no such match (code match_not_found)"}
NOT_A_PLAYER = {403: "you have no seat in this match (code not_a_player)"}
DECLARED: dict[Scope, dict[int, str]] = {
    "read": NOT_FOUND,
    "replay": NOT_FOUND,  # (its 409 is the route's own)
    "act": {**NOT_FOUND, **NOT_A_PLAYER,
            409: "the match is waiting, finished or cancelled (code match_not_active)"},
    "join": {**NOT_FOUND, 403: "a private match, without its code (code invalid_invite_code)",
             409: "the match has started or ended (code match_not_waiting), or the seat is "
                  "taken or reserved (code seat_taken)"},
    "leave": {**NOT_FOUND, **NOT_A_PLAYER,
              409: "the match has started or ended (code match_not_waiting)"},
    "resign": {**NOT_FOUND, **NOT_A_PLAYER,
               409: "the match is waiting, finished or cancelled (code match_not_active)"},
    "rematch": {**NOT_FOUND, **NOT_A_PLAYER,
                409: "the match is not finished (code match_not_finished)"},
}
"""The failures each scope documents: those of the match in the path, as the verb gives them."""


def match_first(scope: Scope) -> Callable[[View], View]:
    """Place under the route's auth decorator, above its arguments: a malformed body or query
    is answered 404, 403 or 409 when the match in the path says so, else 422 as before. The
    operation documents those failures."""
    def refuse(path: dict[str, Any]) -> None:
        caller = None if scope in ("read", "replay") else caller_id()
        refuse_before_body(path["match_id"], caller, scope)

    def decorate(view: View) -> View:
        checked = found_first(refuse)(view)
        documented(checked, view, problems(DECLARED[scope]))
        return checked
    return decorate


def found_first(refuse: Callable[[dict[str, Any]], None]) -> Callable[[View], View]:
    """Place under the route's auth decorator, above its arguments: when the body or query is
    malformed, `refuse` (given the path's arguments) raises first what the resource in the
    path says (its 404...), else the 422 goes out as it was."""
    def decorate(view: View) -> View:
        @wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            try:
                return view(*args, **kwargs)
            except (ApiError, HTTPException) as exc:
                if not _validation_error(exc):
                    raise
                refuse(kwargs)
                raise
        return checked  # type: ignore[return-value]
    return decorate


def _validation_error(exc: ApiError | HTTPException) -> bool:
    """Whether `exc` is answered 422 `validation_error` (app/http/errors.py: webargs' 422, and
    its 400 for a body that is not JSON, carry the messages)."""
    if isinstance(exc, ApiError):
        return exc.code == "validation_error"
    return exc.code in (400, 422) and bool(getattr(exc, "data", None))


def malformed_counts(kind: str, key: Callable[[], str]) -> Callable[[View], View]:
    """Place right above the route's arguments: a body or query refused as malformed before
    the view runs (webargs' 422, or its 400 for a body that is not JSON) still counts one
    request of `kind` by `key()` (docs/api.md, "A refused or failed request still counts"),
    and over the limit is answered 429 like a well-formed one. What the view refuses is
    counted by the view's own check, once."""
    def decorate(view: View) -> View:
        @wraps(view)
        def counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return view(*args, **kwargs)
            except HTTPException as exc:
                if _validation_error(exc):
                    ratelimit.check(kind, key())
                raise
        return counted  # type: ignore[return-value]
    return decorate
