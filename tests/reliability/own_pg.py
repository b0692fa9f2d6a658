"""A private PostgreSQL that a test may stop, pause (SIGSTOP) and restart.

Never the machine's server: an embedded one (devtools.embedded_pg) in a temporary directory,
migrated to head, listening on a Unix socket in its data directory.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

from devtools.embedded_pg import start_embedded, stop_embedded


def _children(pid: int) -> list[int]:
    """The direct children of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


class OwnPostgres:
    """Start with :meth:`start`; :meth:`stop`, :meth:`pause`, :meth:`resume`; :meth:`close`."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="truco-own-pg-"))
        self.datadir = self.tmp / "pgdata"
        self.url = ""
        self._paused: list[int] = []

    def start(self) -> str:
        """Start (or restart) the server; returns its URL."""
        self.url = start_embedded(self.datadir)
        return self.url

    def stop(self) -> None:
        """``pg_ctl stop`` (fast): connections are refused until :meth:`start`."""
        stop_embedded(self.datadir)

    def postmaster_pid(self) -> int:
        return int((self.datadir / "postmaster.pid").read_text().split()[0])

    def pause(self) -> None:
        """SIGSTOP the postmaster and every backend: connections hang, nothing is refused."""
        master = self.postmaster_pid()
        self._paused = [master, *_children(master)]
        for pid in self._paused:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT whatever :meth:`pause` stopped."""
        for pid in self._paused:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._paused = []

    def close(self) -> None:
        """Resume, stop and delete the server."""
        self.resume()
        stop_embedded(self.datadir)
        shutil.rmtree(self.tmp, ignore_errors=True)
