"""Two code trees side by side (bench/fair_bots.py, bench/fair_webhooks.py): a commit's
files exported beside this tree, and a server with its worker from either tree on a
database of its own (migrated by this tree's code: its migrations are a superset)."""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.lib.database import Postgres, migrate_to_head
from bench.lib.git_archive import commit_of, extract
from bench.lib.processes import MeasuredServer
from bench.lib.report import last_line, log


def export(ref: str, tmp: Path) -> tuple[Path, str]:
    """The files of commit `ref` in a directory under `tmp` (git archive: the repository is
    left as it is); the directory and the short commit."""
    short = commit_of(ref, short=True)
    tree = tmp / f"tree-{short}"
    extract(short, tree)
    return tree, short


class Side:
    """gunicorn (2 gevent workers) and `python -m app.worker` of `tree` on a new database,
    once the worker listens."""

    def __init__(self, name: str, tree: Path, pg: Postgres, tmp: Path,
                 env: dict[str, str]) -> None:
        database = f"bench_fair_{name}_{os.getpid()}"
        url = pg.create_database(database)
        migrate_to_head(url)
        self.env = {"DATABASE_URL": url, "TRUCO_ENV": "development", **env}
        self.server = MeasuredServer(name, self.env, tmp, worker=True, root=tree)
        self.server.wait_healthy()
        self.port = self.server.port
        self.url = url
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                app == "truco-worker" for _, app, _ in pg.backends(database)):
            time.sleep(0.2)  # until the worker listens
        time.sleep(1.0)  # (and its delivery thread has started)

    def stop(self) -> None:
        self.server.stop()


@contextmanager
def bench_run(prefix: str, ref: str, title: str) -> Iterator[tuple[Postgres, Path, Path]]:
    """(PostgreSQL, a temporary directory, commit `ref`'s tree) for one run, announced with
    `title`; all removed at the end."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    pg = None
    try:
        pg = Postgres(tmp)
        before, commit = export(ref, tmp)
        log(f"{title}; before = {commit}, after = this tree; PostgreSQL {pg.version()}")
        yield pg, tmp, before
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def report_sides(ref: str, quick: bool, results: dict[str, Any]) -> int:
    """Print a before/after run's last line (the compared commit, `quick`, each side's
    figures) and return the exit status."""
    last_line({"ref": ref, "quick": quick, **results})
    return 0
