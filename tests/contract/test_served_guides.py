"""On a running server, every guide of docs/ is an HTML page and every link between the
guides (and from them to the server's other pages) resolves, anchors included."""
from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from urllib.parse import unquote, urldefrag

import pytest
import requests

from tests.support.servers import Server, start_testing_servers
from tests.support.spec import ROOT


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    (started,) = start_testing_servers(["guides"], database_url)
    yield started
    started.stop()


def _links(page: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'href="([^"]*)"', page)]


def test_every_link_between_guides_resolves(server: Server) -> None:
    pages: dict[str, str] = {}

    def fetch(path: str) -> str:
        if path not in pages:
            r = requests.get(server.url + path, timeout=10, allow_redirects=False)
            assert r.status_code == 200, f"{path}: {r.status_code}"
            pages[path] = r.text
        return pages[path]

    guides = [link for link in _links(fetch("/docs/")) if link.startswith("/docs/")
              and link != "/docs/"]
    assert sorted(guides) == sorted(f"/docs/{p.stem}" for p in (ROOT / "docs").glob("*.md"))
    followed = 0
    for guide in guides:
        page = fetch(guide)
        assert requests.get(server.url + guide, timeout=10).headers[
            "Content-Type"].startswith("text/html")
        for link in _links(page):
            if link.startswith(("http://", "https://")):
                continue  # outside this server
            assert link.startswith(("/", "#")), f"{guide}: {link} was not rewritten"
            path, anchor = urldefrag(link)
            anchor = unquote(anchor)  # (a browser decodes it to find the id)
            followed += 1
            if path == "/openapi.yaml":  # YAML, not a page
                assert requests.get(server.url + path, timeout=10).status_code == 200
                continue
            target = fetch(path or guide)
            if anchor:
                assert f'id="{anchor}"' in target, f"{guide}: {link} has no such anchor"
    assert followed > 100  # the guides link each other a lot


def test_a_guide_file_path_redirects_to_its_page(server: Server) -> None:
    r = requests.get(f"{server.url}/docs/bots.md", timeout=10)
    assert r.url == f"{server.url}/docs/bots" and r.history[0].status_code == 301
    assert "Writing a bot over HTTP" in r.text
