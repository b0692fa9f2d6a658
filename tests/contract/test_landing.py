"""``GET /`` is a self-contained page of links; the guides are served from docs/."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from app import create_app
from app.http import guides

ROOT = Path(__file__).resolve().parents[2]
UNUSED_DB = "postgresql+psycopg2://nobody@127.0.0.1:1/none"


@pytest.fixture()
def web() -> Any:
    """A client of an app that never needs its database for these pages."""
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": UNUSED_DB}).test_client()


def test_landing_page_links_to_the_docs(web: Any) -> None:
    r = web.get("/")
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    links = set(re.findall(r'href="([^"]+)"', page))
    assert {"/docs", "/openapi.yaml", "/docs/api", "/docs/rules", "/docs/regras",
            "/docs/"} <= links
    # no external resource: nothing loaded from another host, no script at all
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "<script" not in page
    assert "docs/api.md" in page and "docs/rules.md" in page and "docs/regras.md" in page


def test_every_landing_link_answers(web: Any) -> None:
    page = web.get("/").get_data(as_text=True)
    for link in re.findall(r'href="(/[^"]*)"', page):
        if link in ("/v1/matches", "/readyz"):
            continue  # these need the database
        assert web.get(link).status_code == 200, link


@pytest.mark.parametrize("name", ["api", "rules", "regras", "bots", "correspondence"])
def test_guides_are_html_pages_and_their_files_redirect_to_them(web: Any, name: str) -> None:
    r = web.get(f"/docs/{name}")
    assert (r.status_code, r.mimetype) == (200, "text/html")
    assert "<h1" in r.get_data(as_text=True) and "<script" not in r.get_data(as_text=True)
    assert "default-src 'none'" in r.headers["Content-Security-Policy"]
    moved = web.get(f"/docs/{name}.md")
    assert (moved.status_code, moved.headers["Location"]) == (301, f"/docs/{name}")


def test_a_guide_says_its_language_and_regras_is_in_portuguese(web: Any) -> None:
    assert guides.PORTUGUESE <= set(guides.guide_names())
    regras = web.get("/docs/regras")
    assert (regras.status_code, regras.mimetype) == (200, "text/html")
    page = regras.get_data(as_text=True)
    assert '<html lang="pt-BR">' in page and '<nav lang="en">' in page  # (the bar is English)
    assert "<title>As regras como o servidor joga - Truco server</title>" in page
    assert 'href="/docs/rules"' in page  # its first line: rules.md is the reference
    assert web.get("/docs/regras.md").headers["Location"] == "/docs/regras"
    for name in ("rules", "api"):
        assert '<html lang="en">' in web.get(f"/docs/{name}").get_data(as_text=True)
    index = web.get("/docs/").get_data(as_text=True)
    assert '<html lang="en">' in index
    assert '<a href="/docs/regras" hreflang="pt-BR" lang="pt-BR">As regras' in index
    assert '<a href="/docs/rules">The rules' in index


def test_every_markdown_file_under_docs_is_a_guide_and_swagger_files_stay(web: Any) -> None:
    index = web.get("/docs/").get_data(as_text=True)
    for path in (ROOT / "docs").glob("*.md"):
        assert f'href="/docs/{path.stem}"' in index, path.name
    assert web.get("/docs/swagger-ui.css").status_code == 200
    assert web.get("/docs/nothing-here").status_code == 404


def test_landing_is_not_in_the_spec() -> None:
    paths = yaml.safe_load((ROOT / "openapi.yaml").read_text())["paths"]
    assert "/" not in paths and not any(p.startswith("/docs") for p in paths)
    assert not [p for p in paths if p.endswith(".md")]
