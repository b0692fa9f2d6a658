"""Real server processes for the concurrency tests: gunicorn with the project's
gunicorn.conf.py (gevent worker), one worker, bound to 127.0.0.1 on a free port."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn master (and its worker) in a session of its own, stopped by `stop`."""

    def __init__(self, name: str, database_url: str, worker: bool = True) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = tempfile.NamedTemporaryFile(prefix=f"truco-{name}-", suffix=".log",
                                                delete=False)
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "TRUCO_ENV": "testing",
            "TRUCO_FIXED_DEALS": "1",
            "WEB_CONCURRENCY": "1",
            # races post many actions at once: no rate limit (also the testing default)
            "TRUCO_RATE_REGISTER": "",
            "TRUCO_RATE_ACTION": "",
            "TRUCO_RATE_CREATE": "",
            "BIND_HOST": "127.0.0.1",
            "PORT": str(self.port),
            # Held long polls must not delay the teardown.
            "GUNICORN_CMD_ARGS": "--graceful-timeout 2",
        }
        env.pop("GUNICORN_ACCESS_LOG", None)
        self.env = env
        self.process = self.start_gunicorn()
        # the background worker beside it, as `scripts/dev.py serve` runs one (bots' moves)
        self.worker: subprocess.Popen[bytes] | None = self.start_worker() if worker else None

    def start_gunicorn(self) -> subprocess.Popen[bytes]:
        """The gunicorn master (and its workers) on `self.port`, in a process group of its
        own: the workers are stopped (or killed) with it."""
        return subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
            cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def kill(self) -> None:
        """SIGKILL to gunicorn's whole process group and to the background worker's: a crash,
        nothing gets to clean up."""
        for process in (self.process, self.worker):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)

    def restart(self) -> None:
        """After `kill`: gunicorn again on the same port, and a new worker if it had one."""
        self.process = self.start_gunicorn()
        if self.worker is not None:
            self.worker = self.start_worker()

    def start_worker(self) -> subprocess.Popen[bytes]:
        """A `python -m app.worker` process on the same database (its own process group)."""
        return subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=self.env,
                                stdout=self._log, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def log_text(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def wait_healthy(self, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server {self.name} exited {self.process.returncode}:\n"
                                   f"{self.log_text()}")
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server {self.name} not healthy after {timeout}s:\n{self.log_text()}")

    def stop(self) -> None:
        """SIGTERM to the master, SIGKILL to its whole process group if it lingers, so that
        no gunicorn process is left behind; the same for the background worker."""
        if self.worker is not None:
            stop_process_group(self.worker)
        pgid = self.process.pid  # start_new_session: the group id is the master's pid
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=8)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(pgid, signal.SIGKILL)  # a worker that outlived its master
        except ProcessLookupError:
            pass
        if self.process.poll() is None:
            self.process.wait(timeout=5)
        self._log.close()
        os.unlink(self._log.name)


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, a few seconds' grace, then SIGKILL to the process's whole group."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if process.poll() is None:
        process.wait(timeout=5)


def start_servers(names: list[str], database_url: str) -> list[Server]:
    """Start every server at once (they boot in parallel), then wait for each."""
    servers = [Server(name, database_url) for name in names]
    try:
        for server in servers:
            server.wait_healthy()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers
