"""``GET /``: a small HTML page that says where everything is; and the guides of ``docs/``.

``/docs/<name>`` is the guide ``docs/<name>.md`` as an HTML page (app/http/guides.py), ``/docs/``
lists them, and ``/docs/<name>.md`` redirects to the page, so that a client author who only has
the URL of a running server can read them. None of these routes is part of the OpenAPI spec.
"""

from __future__ import annotations


from flask import Blueprint, Response, redirect

from app.http import guides

NAMES = ",".join(repr(name) for name in guides.guide_names()) or "'-'"

bp = Blueprint("landing", __name__)

LANDING_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Truco server</title>
  <link rel="icon" href="data:,">
  <style>
    body { font-family: system-ui, sans-serif; max-width: 40em; margin: 2em auto;
           padding: 0 1em; line-height: 1.5; }
    code { background: #f3f3f3; padding: 0 .2em; }
  </style>
</head>
<body>
  <h1>Truco server</h1>
  <p>An HTTP game server for Truco Paulista and Truco Mineiro (2, 4 or 6 players).
     Every endpoint lives under <code>/v1</code>.</p>
  <p><strong><a href="/play/">Play in your browser</a></strong>: the reference client at
     <code>/play/</code>, against the computer or with friends.</p>
  <ul>
    <li><a href="/docs">/docs</a>: interactive API documentation</li>
    <li><a href="/openapi.yaml">/openapi.yaml</a>: the contract, machine-readable (OpenAPI 3)</li>
    <li><a href="/docs/api">/docs/api</a>: the HTTP guide for client and bot authors
        (<code>docs/api.md</code> in the repository)</li>
    <li><a href="/docs/rules">/docs/rules</a>: the rules as the server plays them
        (<code>docs/rules.md</code> in the repository)</li>
    <li lang="pt-BR"><a href="/docs/regras" hreflang="pt-BR">/docs/regras</a>: as regras em
        português (<code>docs/regras.md</code> no repositório)</li>
    <li><a href="/docs/">/docs/</a>: every guide (bots, correspondence play, architecture...)</li>
    <li><a href="/v1/rulesets">/v1/rulesets</a>: rulesets, options and bot levels</li>
    <li><a href="/v1/matches">/v1/matches</a>: the lobby of public matches waiting for players</li>
    <li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>: health checks</li>
  </ul>
  <p>Start by registering: <code>POST /v1/players</code> with
     <code>{"name": "ana"}</code> gives you a bearer token.</p>
</body>
</html>
"""


@bp.get("/")
def landing() -> Response:
    """A page of links for a person who opens the server's address in a browser."""
    return Response(LANDING_PAGE, mimetype="text/html")


@bp.get("/docs/")
def guide_index() -> Response:
    """Every guide, by title."""
    return _html(guides.index())


@bp.get(f"/docs/<any({NAMES}):name>")
def guide(name: str) -> Response:
    """The guide ``docs/<name>.md`` as an HTML page."""
    return _html(guides.page(name))


@bp.get(f"/docs/<any({NAMES}):name>.md")
def guide_file(name: str) -> Response:
    """The repository's path of a guide: redirected to its page."""
    return redirect(f"/docs/{name}", 301)  # type: ignore[return-value]


def _html(page: str) -> Response:
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = guides.GUIDE_POLICY
    return response
