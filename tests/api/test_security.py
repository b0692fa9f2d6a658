"""Security headers on every answer; bearer tokens and invite codes checked in constant
time."""
from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

import pytest

from app.http import auth
from app.http.security_headers import API_POLICY

pytestmark = pytest.mark.usefixtures("clean_db")

FIXED = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
         "X-Frame-Options": "DENY"}


def _register(client: Any) -> dict[str, Any]:
    r = client.post("/v1/players", json={"name": "sec"})
    assert r.status_code == 201
    return r.get_json()


def _assert_fixed(r: Any) -> None:
    for name, value in FIXED.items():
        assert r.headers.get(name) == value, (r.request.path, name)


def test_json_answers_errors_and_304s_carry_the_headers(client: Any) -> None:
    player = _register(client)
    auth_header = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/matches", json={}, headers=auth_header)
    unchanged = client.get(f"/v1/matches/{created.get_json()['id']}",
                           headers={**auth_header, "If-None-Match": created.headers["ETag"]})
    answers = [client.get("/healthz"), client.get("/v1/rulesets"), created, unchanged,
               client.get("/v1/matches/m_nope"), client.get("/v1/players/me"),
               client.post("/v1/players", data="{", content_type="application/json"),
               client.get("/openapi.yaml")]
    assert [r.status_code for r in answers] == [200, 200, 201, 304, 404, 401, 422, 200]
    for r in answers:
        _assert_fixed(r)
        assert r.headers["Content-Security-Policy"] == API_POLICY


def test_answers_without_a_body_carry_no_type(client: Any) -> None:
    """A 204 or 304 is not labelled text/html (Flask's default for an empty answer)."""
    player, other = _register(client), _register(client)
    auth_header = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/matches", json={}, headers=auth_header)
    unchanged = client.get(f"/v1/matches/{created.get_json()['id']}",
                           headers={**auth_header, "If-None-Match": created.headers["ETag"]})
    hook = client.post("/v1/me/webhooks", json={"url": "https://push.example/truco"},
                       headers=auth_header).get_json()
    assert client.put(f"/v1/me/blocks/{other['id']}", headers=auth_header).status_code == 200
    answers = [unchanged, client.delete(f"/v1/me/webhooks/{hook['id']}", headers=auth_header),
               client.delete(f"/v1/me/blocks/{other['id']}", headers=auth_header)]
    assert [r.status_code for r in answers] == [304, 204, 204]
    for r in answers:
        assert "Content-Type" not in r.headers and r.get_data() == b""
        _assert_fixed(r)


def test_handlers_keep_their_cache_control(client: Any) -> None:
    player = _register(client)
    headers = {"Authorization": f"Bearer {player['token']}"}
    match_id = client.post("/v1/matches", json={}, headers=headers).get_json()["id"]
    r = client.get(f"/v1/matches/{match_id}/events", headers=headers)
    assert r.headers["Cache-Control"] == "private, no-cache"
    r = client.get("/docs/swagger-ui.css")
    assert r.headers["Cache-Control"] == "public, max-age=86400"


def _csp(r: Any) -> dict[str, list[str]]:
    policy = r.headers["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in policy.split("; ")}


def test_docs_page_may_run_its_inline_script_and_nothing_foreign(client: Any) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    _assert_fixed(r)
    csp = _csp(r)
    (script,) = re.findall(r"<script>(.*?)</script>", r.get_data(as_text=True), flags=re.S)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp["script-src"]
    assert "'unsafe-inline'" not in csp["script-src"]
    for src in re.findall(r'(?:src|href)="([^"]+)"', r.get_data(as_text=True)):
        assert src.startswith("/"), src  # everything the page loads is 'self'
    assert csp["connect-src"] == ["'self'"] and csp["frame-ancestors"] == ["'none'"]


def test_landing_page_may_use_its_inline_style(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<style>" in r.get_data(as_text=True)
    _assert_fixed(r)
    csp = _csp(r)
    assert "'unsafe-inline'" in csp["style-src"] and csp["default-src"] == ["'none'"]


def test_tokens_are_compared_in_constant_time(client: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    player = _register(client)
    calls: list[tuple[str, str]] = []

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return a == b

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    headers = {"Authorization": f"Bearer {player['token']}"}
    assert client.get("/v1/players/me", headers=headers).status_code == 200
    assert calls == [(auth.hash_token(player["token"]),) * 2]

    monkeypatch.setattr(auth.hmac, "compare_digest", lambda a, b: False)
    r = client.get("/v1/players/me", headers=headers)
    assert r.status_code == 401 and r.get_json()["code"] == "unauthorized"


def test_invite_codes_are_compared_in_constant_time(client: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import hmac

    ana = _register(client)
    bob = _register(client)
    created = client.post("/v1/matches", json={"players": 2, "visibility": "private"},
                          headers={"Authorization": f"Bearer {ana['token']}"})
    assert created.status_code == 201
    match_id, code = created.get_json()["id"], created.get_json()["invite_code"]
    calls: list[tuple[bytes, bytes]] = []

    def spy(a: Any, b: Any) -> bool:
        if isinstance(a, bytes):  # (the tokens are compared as text)
            calls.append((a, b))
        return bool(a == b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    bob_auth = {"Authorization": f"Bearer {bob['token']}"}
    for wrong in ("wrong", "çódigo", ""):  # (a non-ASCII code is refused, not a 500)
        r = client.post(f"/v1/matches/{match_id}/join", json={"invite_code": wrong},
                        headers=bob_auth)
        assert r.status_code == 403 and r.get_json()["code"] == "invalid_invite_code"
    r = client.post(f"/v1/matches/{match_id}/join", json={"invite_code": code},
                    headers=bob_auth)
    assert r.status_code == 200
    assert calls[-1] == (code.encode(), code.encode()) and len(calls) == 4
