"""Running a benchmark's jobs on a pool of processes, with a line of progress."""
from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from bench.lib.report import log

J = TypeVar("J")
R = TypeVar("R")


def run_all(work: Callable[[J], R], jobs: list[J], workers: int, what: str) -> Iterator[R]:
    """`work(job)` of every job, as each finishes (in this process when `workers` is 1), with
    a log line at every tenth: "  done/total `what` (seconds)"."""
    start = time.perf_counter()

    def logged(results: Iterable[R]) -> Iterator[R]:
        for done, result in enumerate(results, 1):
            if done % max(1, len(jobs) // 10) == 0:
                log(f"  {done}/{len(jobs)} {what} ({time.perf_counter() - start:.0f} s)")
            yield result

    if workers == 1:
        yield from logged(map(work, jobs))
        return
    with multiprocessing.Pool(workers) as pool:
        yield from logged(pool.imap_unordered(work, jobs))
