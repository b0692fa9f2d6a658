"""Server processes for `serve`, the tests and the benchmarks: gunicorn with the project's
gunicorn.conf.py (gevent worker) on a free loopback port, and the background worker beside it.

Each process runs in a session (process group) of its own, so that stopping it stops its
children too and nothing is left behind holding a port or a log open.
"""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def stop_process_group(process: subprocess.Popen[bytes], grace: float = 8.0) -> None:
    """SIGTERM, `grace` seconds, then SIGKILL to the process's whole group (its session)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # a child that outlived its parent
    except (ProcessLookupError, PermissionError):
        pass
    if process.poll() is None:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def children(pid: int) -> list[int]:
    """The pids of `pid`'s direct children (gunicorn's workers), from /proc."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def healthy(port: int, timeout: float = 1.0) -> bool:
    """Whether `GET /healthz` on `port` answers 200 right now."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


class Server:
    """One gunicorn master and its `workers` HTTP workers, and (with `worker=True`) one
    ``python -m app.worker`` beside it, on one database; stopped by :meth:`stop`.

    `env` is laid over this process's environment (its own ``GUNICORN_CMD_ARGS`` follow
    the graceful timeout); `app_spec` is the WSGI application
    (``wsgi:app``, or a baseline's); `root` the code tree served; `log_path` where both
    processes write (a temporary file, removed by :meth:`stop`, when None), unless
    `worker_log_path` gives the worker a log of its own.
    """

    def __init__(self, name: str, env: Mapping[str, str], *, app_spec: str = "wsgi:app",
                 workers: int = 1, worker: bool = True, root: Path = ROOT,
                 log_path: Path | None = None, graceful_timeout: float = 2.0,
                 worker_log_path: Path | None = None) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.app_spec = app_spec
        self.root = root
        self.workers_wanted = workers
        self._own_log = log_path is None
        if log_path is None:
            handle, path = tempfile.mkstemp(prefix=f"truco-{name}-", suffix=".log")
            os.close(handle)
            log_path = Path(path)
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.worker_log_path = worker_log_path or log_path
        self._worker_log = open(worker_log_path, "ab") if worker_log_path else self._log
        # held long polls must not delay the teardown; `env`'s arguments come after (and win)
        gunicorn_args = f"--graceful-timeout {graceful_timeout:g} " \
                        f"{env.get('GUNICORN_CMD_ARGS', '')}".strip()
        full = {**os.environ, **env, "BIND_HOST": HOST, "PORT": str(self.port),
                "WEB_CONCURRENCY": str(workers), "GUNICORN_CMD_ARGS": gunicorn_args}
        full.pop("GUNICORN_ACCESS_LOG", None)
        self.env = full
        self.process = self.start_gunicorn()
        self.worker: subprocess.Popen[bytes] | None = self.start_worker() if worker else None

    def start_gunicorn(self) -> subprocess.Popen[bytes]:
        """The gunicorn master (and its workers) on `self.port`, in a session of its own."""
        return subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", self.app_spec],
            cwd=self.root, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)

    def start_worker(self) -> subprocess.Popen[bytes]:
        """A ``python -m app.worker`` process on the same database, in a session of its own."""
        return subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=self.root,
                                env=self.env, stdout=self._worker_log,
                                stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)

    def http_workers(self) -> list[int]:
        """The pids of gunicorn's HTTP workers right now."""
        return children(self.process.pid)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def wait_healthy(self, timeout: float = 30.0) -> None:
        """Until `/healthz` answers 200 and every HTTP worker has started; raises with the
        log's tail when the master exits or the time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server {self.name} exited {self.process.returncode}:\n"
                                   f"{self.log_text()[-3000:]}")
            if healthy(self.port) and len(self.http_workers()) >= self.workers_wanted:
                return
            time.sleep(0.05)
        raise RuntimeError(f"server {self.name} not healthy after {timeout:g} s:\n"
                           f"{self.log_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL to both process groups: a crash, nothing gets to clean up."""
        for process in (self.process, self.worker):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)

    def restart(self) -> None:
        """After :meth:`kill`: gunicorn again on the same port, and a new worker if it had one."""
        self.process = self.start_gunicorn()
        if self.worker is not None:
            self.worker = self.start_worker()

    def stop(self) -> None:
        """Stop the worker and the master (SIGTERM, then SIGKILL to each group)."""
        if self.worker is not None:
            stop_process_group(self.worker)
        stop_process_group(self.process, grace=10.0)
        self._log.close()
        self._worker_log.close()
        if self._own_log:
            self.log_path.unlink(missing_ok=True)


def start_servers(names: list[str], env: Mapping[str, str], **options: object) -> list[Server]:
    """Start every server at once (they boot in parallel), then wait for each; on a failure
    every one is stopped before the error goes on."""
    servers = [Server(name, env, **options) for name in names]  # type: ignore[arg-type]
    try:
        for server in servers:
            server.wait_healthy()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers
