"""The servers a benchmark measures: devtools' gunicorn (2 gevent workers) with or without
the background worker, whose processes' CPU time and memory are read from /proc."""
from __future__ import annotations

import resource
from collections.abc import Mapping
from pathlib import Path

from bench.lib import procfs
from bench.lib.report import log
from devtools.servers import ROOT, Server

HTTP_WORKERS = 2
GRACEFUL_TIMEOUT = 3.0
"""Seconds gunicorn lets held long polls run at a stop before it ends them."""


class MeasuredServer(Server):
    """A :class:`devtools.servers.Server` with two HTTP workers, logging to
    `logdir`/`name`.log (the background worker, with `worker=True`, to `logdir`/worker.log).
    `workers` are the HTTP workers' pids once :meth:`wait_healthy` has returned."""

    def __init__(self, name: str, env: Mapping[str, str], logdir: Path, *,
                 app_spec: str = "wsgi:app", worker: bool = False, root: Path = ROOT) -> None:
        super().__init__(name, env, app_spec=app_spec, workers=HTTP_WORKERS, worker=worker,
                         root=root, log_path=logdir / f"{name}.log",
                         graceful_timeout=GRACEFUL_TIMEOUT,
                         worker_log_path=logdir / "worker.log" if worker else None)
        self.workers: list[int] = []

    def wait_healthy(self, timeout: float = 30.0) -> None:
        super().wait_healthy(timeout)
        self.workers = self.http_workers()

    def cpu_seconds(self) -> float:
        """CPU seconds the HTTP workers have run so far."""
        return sum(procfs.cpu_seconds(p) for p in self.workers)

    def rss_kb(self) -> float:
        """The HTTP workers' resident memory, in KB."""
        return sum(procfs.rss_kb(p) for p in self.workers)

    def worker_pid(self) -> int:
        assert self.worker is not None, "started without the background worker"
        return self.worker.pid

    def worker_alive(self) -> bool:
        return self.worker is not None and self.worker.poll() is None

    def worker_cpu_seconds(self) -> float:
        return procfs.cpu_seconds(self.worker_pid())

    def worker_rss_kb(self) -> float:
        return procfs.rss_kb(self.worker_pid())

    def worker_log_text(self) -> str:
        try:
            return self.worker_log_path.read_text(errors="replace")
        except OSError:
            return ""


def raise_nofile(needed: int) -> tuple[int, int]:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit (the servers it starts
    inherit it); warn when even that is below `needed`. Returns (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError) as exc:
            log(f"warning: could not raise RLIMIT_NOFILE to {target}: {exc}")
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        log(f"warning: RLIMIT_NOFILE is {soft} (hard {hard}), below the {needed:,} file"
            f" descriptors the long polls need: some will fail to connect")
    return soft, hard
