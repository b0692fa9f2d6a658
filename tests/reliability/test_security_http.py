"""Against the production server: the security headers on gunicorn-served answers, and a
declared body over the limit answered 413 problem+json."""
from __future__ import annotations

import requests

from tests.support.servers import Server


def test_a_declared_body_over_64_kib_is_413_problem_json(prod_server: Server) -> None:
    r = requests.post(f"{prod_server.url}/v1/players", data=b"{" + b" " * (64 * 1024) + b"}",
                      headers={"Content-Type": "application/json"}, timeout=10)
    assert r.status_code == 413
    assert r.headers["Content-Type"] == "application/problem+json"
    assert r.json()["code"] == "payload_too_large" and r.json()["status"] == 413
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_production_answers_carry_the_security_headers(prod_server: Server) -> None:
    for path, policy_start in [("/healthz", "default-src 'none'; frame-ancestors"),
                               ("/v1/matches/m_nope", "default-src 'none'; frame-ancestors"),
                               ("/docs", "default-src 'none'; script-src 'self' 'sha256-")]:
        r = requests.get(f"{prod_server.url}{path}", timeout=10)
        assert r.headers["X-Frame-Options"] == "DENY", path
        assert r.headers["Referrer-Policy"] == "no-referrer", path
        assert r.headers["X-Content-Type-Options"] == "nosniff", path
        assert r.headers["Content-Security-Policy"].startswith(policy_start), path
