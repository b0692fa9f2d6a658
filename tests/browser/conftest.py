"""Fixtures of the browser tests: one gunicorn server (with its background worker, for the
bots) on the session's database, and browsers that are closed after each test."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support.browser import Browser, binaries
from tests.support.servers import Server, server_in_testing_mode


@pytest.fixture(scope="package")
def server(database_url: str) -> Iterator[Server]:
    started = server_in_testing_mode("browser", database_url)
    try:
        started.wait_healthy()
        yield started
    finally:
        text = started.log_text()
        started.stop()
        if "Unhandled error" in text:
            print(f"\n--- server log ---\n{text}")


@pytest.fixture()
def browsers(server: Server) -> Iterator[Callable[..., Browser]]:
    """`browsers(size=..., profile=...)` opens a browser on the server; every one is closed
    after the test, and none may have logged a console error."""
    binaries()
    opened: list[Browser] = []

    def open_browser(**kwargs: object) -> Browser:
        browser = Browser(server.url, **kwargs)  # type: ignore[arg-type]
        opened.append(browser)
        return browser

    yield open_browser
    errors = []
    for browser in opened:
        try:
            errors += browser.errors()
        finally:
            browser.close()
    assert errors == [], errors
