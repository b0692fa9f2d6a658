"""``/play/``: the reference web client, static files from ``app/http/webclient/`` (HTML, CSS,
JavaScript modules; nothing loaded from elsewhere). It plays through the public API only.
Not part of the OpenAPI spec."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, redirect, send_from_directory

CLIENT_DIR = Path(__file__).resolve().parent.parent / "webclient"
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
               "base-uri 'none'; form-action 'none'")
"""The client's page: its own scripts, styles and API calls, nothing inline, nothing else."""

bp = Blueprint("webclient", __name__)


def _file(path: str) -> Response:
    response = send_from_directory(CLIENT_DIR, path, max_age=0)
    if path.endswith(".js"):
        response.mimetype = "text/javascript"
    if path.endswith(".html"):
        response.headers["Content-Security-Policy"] = PAGE_POLICY
    return response


@bp.get("/play")
def play_redirect() -> Response:
    return redirect("/play/", 308)  # type: ignore[return-value]


@bp.get("/play/")
def page() -> Response:
    """The client's single page (its screens are chosen by the URL's fragment)."""
    return _file("index.html")


@bp.get("/play/<path:path>")
def asset(path: str) -> Response:
    """A file of the client (404 problem for anything else)."""
    return _file(path)
