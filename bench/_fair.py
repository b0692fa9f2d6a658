"""Support of the fair-share benches (bench/fair_bots.py, bench/fair_webhooks.py): a commit's
tree exported beside this one, and a server with its worker from either tree on a database
of its own (migrated by this tree's code: its migrations are a superset)."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import api  # noqa: E402
from bench.bots_load import BotWorker  # noqa: E402


def export(ref: str, tmp: Path) -> tuple[Path, str]:
    """The files of commit `ref` in a directory under `tmp` (git archive: the repository is
    left as it is); the directory and the short commit."""
    short = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.strip()
    tree = tmp / f"tree-{short}"
    data = subprocess.run(["git", "archive", "--format=tar", short], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tree, filter="data")
    return tree, short


class Side:
    """gunicorn (2 gevent workers) and `python -m app.worker` of `tree` on a new database."""

    def __init__(self, name: str, tree: Path, pg: api.Postgres, tmp: Path,
                 env: dict[str, str]) -> None:
        database = f"bench_fair_{name}_{os.getpid()}"
        url = pg.create_database(database)
        api.migrate_to_head(url)
        self.env = {"DATABASE_URL": url, "TRUCO_ENV": "development", **env}
        self.server = api.Gunicorn(name, "wsgi:app", self.env, tmp, root=tree)
        self.worker = BotWorker(self.env, tmp, root=tree)
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
        self.worker.stop()


def register(port: int, name: str) -> tuple[str, str]:
    """(id, token) of a new player."""
    body = api.call_json(port, "POST", "/v1/players", {"name": name}, expect=201)[0]
    return body["id"], body["token"]


def pct(values: list[float], q: float) -> float | None:
    got = api.percentile(values, q)
    return None if got is None else round(got, 3)


@contextmanager
def bench_run(prefix: str, ref: str, title: str) -> Iterator[tuple[api.Postgres, Path, Path]]:
    """(PostgreSQL, a temporary directory, commit `ref`'s tree) for one run, announced with
    `title`; all removed at the end."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    pg = None
    try:
        pg = api.Postgres(tmp)
        before, commit = export(ref, tmp)
        api.log(f"{title}; before = {commit}, after = this tree; PostgreSQL {pg.version()}")
        yield pg, tmp, before
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def last_line(figures: dict) -> int:
    """Print the run's figures as the last line of JSON; the exit status."""
    print(json.dumps(figures))
    return 0
