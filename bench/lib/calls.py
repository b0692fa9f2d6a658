"""Single requests to a server on 127.0.0.1, each on a connection of its own, and the API
calls every benchmark's set-up makes with them."""
from __future__ import annotations

import http.client
import json
from typing import Any

from devtools.servers import HOST

REQUEST_TIMEOUT = 10.0
"""Seconds a client waits on one plain request (socket timeout)."""


def fresh_request(port: int, method: str, path: str, body: bytes | None = None,
                  headers: dict[str, str] | None = None,
                  timeout: float = REQUEST_TIMEOUT) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection, closed afterwards: (status, lower-cased headers,
    body)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def call_json(port: int, method: str, path: str, payload: Any = None,
              token: str | None = None, expect: int = 200,
              extra: dict[str, str] | None = None) -> tuple[Any, dict[str, str], bytes]:
    """A JSON request as `token`'s player that must answer `expect` (else RuntimeError):
    (the parsed body, the headers, the raw body)."""
    headers = dict(extra or {})
    body = None
    if payload is not None:
        body = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, hdrs, data = fresh_request(port, method, path, body, headers)
    if status != expect:
        raise RuntimeError(f"{method} {path}: {status} (wanted {expect}): {data[:500]!r}")
    return json.loads(data) if data else None, hdrs, data


def register(port: int, name: str, bot: bool = False) -> tuple[str, str]:
    """(id, token) of a new player (`bot`: registered as a bot author's program)."""
    payload: dict[str, Any] = {"name": name, "bot": True} if bot else {"name": name}
    body = call_json(port, "POST", "/v1/players", payload, expect=201)[0]
    return body["id"], body["token"]


def create_bot_match(port: int, token: str) -> tuple[dict[str, Any], str | None]:
    """A private 2-player match of `token` against a random bot: (its view, its ETag)."""
    data, hdrs, _ = call_json(port, "POST", "/v1/matches",
                              {"players": 2, "bots": [{"seat": 1, "level": "random"}],
                               "visibility": "private", "options": {"first_dealer": 1}},
                              token=token, expect=201)
    return data, hdrs.get("etag")
