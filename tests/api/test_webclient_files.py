"""The reference client's files at /play/: the page with a policy that runs only its own
scripts, modules served as JavaScript, nothing outside its folder, and a link from `/`."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

CLIENT = Path(__file__).resolve().parents[2] / "app" / "http" / "webclient"


def test_the_page_runs_only_its_own_files(client: Any) -> None:
    r = client.get("/play/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    policy = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "connect-src 'self'" in policy
    assert client.get("/play").headers["Location"].endswith("/play/")


def test_every_module_is_served_as_javascript_and_loads_nothing_from_elsewhere(
        client: Any) -> None:
    files = sorted(p.relative_to(CLIENT).as_posix() for p in CLIENT.rglob("*") if p.is_file())
    assert "index.html" in files and "js/main.js" in files
    for name in files:
        r = client.get(f"/play/{name}")
        assert r.status_code == 200, name
        text = r.get_data(as_text=True)
        assert not re.search(r"https?://", text), name  # every asset is local
        if name.endswith(".js"):
            assert r.mimetype == "text/javascript"
            for imported in re.findall(r'from "\./([^"]+)"', text):
                assert f"js/{imported}" in files, (name, imported)


def test_nothing_outside_the_client_folder_is_served(client: Any) -> None:
    for path in ("/play/../__init__.py", "/play/%2e%2e/config.py", "/play/nope.js"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.headers["Content-Type"].startswith("application/problem+json")


def test_the_landing_page_links_to_the_client(client: Any) -> None:
    assert 'href="/play/"' in client.get("/").get_data(as_text=True)
