"""Security headers on every answer the app makes (errors and 304s included).

JSON needs no content policy but ``default-src 'none'``; the two HTML pages (the landing page
``/`` with its inline ``<style>``, and ``/docs``, Swagger UI served from this server, with its
one inline start-up script, allowed by its hash) get a policy that lets them run and nothing
else. A header a handler has set is kept; ``Cache-Control`` is never touched here.
"""
from __future__ import annotations

import base64
import hashlib
import re

from flask import Flask, Response, request

from app.http.routes.health import DOCS_PAGE

API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
"""For JSON, problems, YAML and static files: nothing may load, nothing may frame them."""


def inline_script_hashes(page: str) -> list[str]:
    """CSP source expressions (``'sha256-...'``) for each inline ``<script>`` of ``page``."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    return [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
            for s in scripts]


HTML_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self' " + " ".join(inline_script_hashes(DOCS_PAGE)),
    # Swagger UI and the landing page style elements inline
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",  # Swagger UI's icons are data: URLs
    "font-src 'self'",
    "connect-src 'self'",  # /openapi.yaml and "Try it out"
    "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'",
])
"""For the HTML pages (``/``, ``/docs``)."""

HTML_PAGES = frozenset({"/", "/docs"})
"""The pages that get :data:`HTML_POLICY` (a 304 or an empty answer elsewhere is text/html by
Flask's default, and gets the strict policy)."""

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def security_headers(path: str, mimetype: str | None) -> list[tuple[str, str]]:
    """The headers above and the Content-Security-Policy of an answer to `path` of type
    `mimetype` (the fast paths add these too: app/http/front/)."""
    html = path in HTML_PAGES and mimetype == "text/html"
    return [*HEADERS.items(), ("Content-Security-Policy", HTML_POLICY if html else API_POLICY)]


def add_security_headers(response: Response) -> Response:
    """``after_request``: :func:`security_headers`, where a handler has not set them."""
    for name, value in security_headers(request.path, response.mimetype):
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
