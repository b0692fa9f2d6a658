"""Documentation fragments for ``@blp.doc`` and ``@blp.arguments``: auth, problems, header
parameters, links and examples."""
from __future__ import annotations

from copy import deepcopy
from typing import Any

from flask_smorest.utils import deepupdate

from app.http.schemas.actions import ACTION_EXAMPLES
from app.infra.problems import PROBLEM_MIMETYPE


def headers(*names: str) -> dict[str, str]:
    """Response headers for ``@blp.response(headers=...)``: references to HEADERS."""
    return {name: name for name in names}


# --- documentation fragments for @blp.doc -----------------------------------------------

def documented(wrapper: Any, view: Any, fragment: dict[str, Any]) -> None:
    """Give `wrapper` (a decorator's function around `view`) `view`'s OpenAPI documentation
    with `fragment` merged in, as ``@blp.doc`` would."""
    apidoc = deepcopy(getattr(view, "_apidoc", {}))
    apidoc["manual_doc"] = deepupdate(apidoc.get("manual_doc", {}), deepcopy(fragment))
    wrapper._apidoc = apidoc


def problems(described: dict[int, str]) -> dict[str, Any]:
    """``@blp.doc`` responses: each status an ``application/problem+json`` problem, described
    by the codes it carries."""
    return {"responses": {str(status): {
        "description": description,
        "content": {PROBLEM_MIMETYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        for status, description in described.items()}}


AUTH_REQUIRED: dict[str, Any] = {
    "security": [{"bearerAuth": []}],
    **problems({401: "no token, or an unknown or malformed one (code unauthorized)"})}
AUTH_OPTIONAL: dict[str, Any] = {
    "security": [{}, {"bearerAuth": []}],
    **problems({401: "a token that is unknown or malformed (code unauthorized); without "
                     "one, the answer is a spectator's"})}


def header_param(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}


IF_NONE_MATCH = header_param("If-None-Match", "an ETag from an earlier answer: 304 when "
                             "unchanged; with `wait`, hold the request until it changes")
IF_NONE_MATCH_NOW = header_param("If-None-Match", "an ETag from an earlier answer: 304 when "
                                 "the answer would be the same")
IF_MATCH = header_param("If-Match", "apply only if the match still has this ETag, "
                        "else 412 version_mismatch with the current view")
IDEMPOTENCY_KEY = header_param("Idempotency-Key", "1 to 255 characters; a repeat with the "
                               "same body returns the stored answer and acts once",
                               minLength=1, maxLength=255)


def not_modified_doc(description: str, tagged: bool = True) -> dict[str, Any]:
    """``@blp.alt_response(304, **not_modified_doc(...))`` of a conditional GET or a long
    poll: declared as an empty text body, so that generated clients type it (``str``) rather
    than ``Any``. `tagged`: whether it carries the ETag."""
    doc: dict[str, Any] = {"description": description, "content_type": "text/plain",
                           "schema": {"type": "string", "maxLength": 0, "description": "no body"}}
    if tagged:
        doc["headers"] = headers("ETag")
    return doc


def links(statuses: tuple[int, ...], parameter: str, operations: tuple[str, ...]
          ) -> dict[str, Any]:
    """``@blp.doc(**links(...))``: OpenAPI links from the answers `statuses` (as
    ``@blp.response`` names them: integers) to each of `operations` (operationIds), its path
    parameter `parameter` being the answer's `id`. Clients and testers (schemathesis) follow
    them from a created resource to what can be done with it."""
    found = {op[0].upper() + op[1:]: {
        "operationId": op, "parameters": {parameter: "$response.body#/id"},
        "description": f"`id` is the `{parameter}` of {op}"} for op in operations}
    return {"responses": {status: {"links": found} for status in statuses}}


MATCH_OPERATIONS = ("getMatch", "listEvents", "streamMatch", "sendAction", "joinMatch",
                    "leaveMatch", "resignMatch", "createRematch", "getReplay")
"""Where a match made (created, or a rematch) leads, by its `id`."""


def examples(bodies: dict[str, Any]) -> dict[str, Any]:
    """Named request examples for ``@blp.arguments(examples=...)``: every one is accepted."""
    return {name: {"value": body} for name, body in bodies.items()}


ACTION_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/Action"},
                         "examples": examples(ACTION_EXAMPLES)}}}}
"""The actions' request body as the ``Action`` oneOf (``ActionSchema`` loads it)."""

PLAYER_EXAMPLES = {"person": {"name": "ana", "bot": False}, "bot": {"name": "bip", "bot": True}}
MATCH_EXAMPLES: dict[str, Any] = {
    "four_players_two_bots": {
        "ruleset": "paulista", "players": 4, "seat": 0, "visibility": "public",
        "bots": [{"seat": 1, "level": "random"}, {"seat": 3, "level": "random"}],
        "options": {"response_mode": "any_accept_all_refuse"}},
    "private_two_players": {"players": 2, "visibility": "private"},
    "practice_mao_de_onze": {
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "start_score": [11, 5],
        "deals": [{"vira": "6d", "hands": [["7c", "3h", "4s"], ["Kd", "2s", "Ah"]]}]},
}
JOIN_EXAMPLES: dict[str, Any] = {"first_free_seat": {}, "seat": {"seat": 1}}
