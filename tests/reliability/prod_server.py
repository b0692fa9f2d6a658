"""A production-configured gunicorn (TRUCO_ENV=production, the project's gunicorn.conf.py,
gevent workers) with extra environment, for the reliability tests."""
from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import requests

from tests.concurrency.servers import Server, free_port


class ProdServer(Server):
    """Like the concurrency tests' server, but in production mode and with ``env`` added;
    with ``worker`` a background `python -m app.worker` beside it (bots, deadlines)."""

    def __init__(self, name: str, database_url: str,
                 env: Mapping[str, str] | None = None, worker: bool = False) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed by stop()
            prefix=f"truco-{name}-", suffix=".log", delete=False)
        full = {
            **os.environ,
            "DATABASE_URL": database_url,
            "TRUCO_ENV": "production",
            "WEB_CONCURRENCY": "1",
            "BIND_HOST": "127.0.0.1",
            "PORT": str(self.port),
            "GUNICORN_CMD_ARGS": "--graceful-timeout 2",
            **(env or {}),
        }
        full.pop("GUNICORN_ACCESS_LOG", None)
        self.env = full
        self.process = self.start_gunicorn()
        self.worker: subprocess.Popen[bytes] | None = self.start_worker() if worker else None


def new_token(base: str, name: str = "p") -> str:
    """A new player's token on the server at `base`."""
    r = requests.post(f"{base}/v1/players", json={"name": name}, timeout=15)
    assert r.status_code == 201, r.text
    return r.json()["token"]


@contextmanager
def running(name: str, database_url: str,
            env: Mapping[str, str] | None = None) -> Iterator[ProdServer]:
    """A :class:`ProdServer`, healthy, for the block; stopped at its end."""
    server = ProdServer(name, database_url, env)
    try:
        server.wait_healthy()
        yield server
    finally:
        server.stop()
