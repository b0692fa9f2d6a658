"""What /proc says about a process: its CPU time, memory, open files and limits."""
from __future__ import annotations

import glob
import os

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") / 1024


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """utime + stime of `pid`, and with `reaped` the cutime + cstime of its ended children;
    0 for a process that is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLK_TCK


def cpu_ns(pids: list[int]) -> int:
    """CPU nanoseconds run so far by every thread of `pids` (those still alive), from
    /proc/<pid>/task/*/schedstat."""
    total = 0
    for pid in pids:
        for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
            try:
                with open(path) as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    return total


def rss_kb(pid: int) -> float:
    """Resident memory of `pid` in KB; 0 for a process that is gone."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE_KB
    except OSError:
        return 0.0


def open_fds(pid: int) -> int:
    """How many file descriptors `pid` holds open."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def nofile_limit(pid: int) -> str:
    """The soft 'Max open files' of a process, '?' when unreadable."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    return line.split()[3]
    except OSError:
        pass
    return "?"
