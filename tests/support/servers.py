"""The tests' real servers: devtools.servers' gunicorn (gevent worker) and background worker,
on a test database, in testing mode (fixed deals, no rate limits) or in production mode."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from devtools.servers import Server, free_port, start_servers

__all__ = ["Server", "free_port", "production_env", "production_server", "running",
           "server_in_testing_mode", "start_servers", "start_testing_servers", "testing_env"]


def testing_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a testing-mode server on `database_url`, with `extra` laid over it:
    fixed deals allowed and no rate limit (races post many actions at once)."""
    return {"DATABASE_URL": database_url, "TRUCO_ENV": "testing", "TRUCO_FIXED_DEALS": "1",
            "TRUCO_RATE_REGISTER": "", "TRUCO_RATE_ACTION": "", "TRUCO_RATE_CREATE": "",
            **extra}


def production_env(database_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a production-mode server on `database_url`, `extra` laid over it."""
    return {"DATABASE_URL": database_url, "TRUCO_ENV": "production", **(extra or {})}


def server_in_testing_mode(name: str, database_url: str, *, worker: bool = True,
                   **extra: str) -> Server:
    """A testing-mode server (not yet awaited: call ``wait_healthy``), with the background
    worker beside it unless `worker` is False."""
    return Server(name, testing_env(database_url, **extra), worker=worker)


def production_server(name: str, database_url: str, env: Mapping[str, str] | None = None,
                      *, worker: bool = False) -> Server:
    """A production-mode server (not yet awaited), with `env` added; with `worker` a
    background worker beside it (bots, deadlines)."""
    return Server(name, production_env(database_url, env), worker=worker)


def start_testing_servers(names: list[str], database_url: str) -> list[Server]:
    """Testing-mode servers, each with its worker, started together and healthy."""
    return start_servers(names, testing_env(database_url))


@contextmanager
def running(name: str, database_url: str,
            env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A production-mode server, healthy, for the block; stopped at its end."""
    server = production_server(name, database_url, env)
    try:
        server.wait_healthy()
        yield server
    finally:
        server.stop()
