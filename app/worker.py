"""The background worker process, `python -m app.worker` (the loop itself:
app/play/background.py): TRUCO_WORKER_PROCESSES worker loops (default: the cores this process
may run on), each a process of its own, so that bots' decisions, which are CPU work, run side
by side. The first loop also sends the webhook outbox and does the housekeeping (each on a
thread of its own). A loop that dies is started again; a loop whose parent is gone stops, so
killing the parent's process group, or the parent alone, leaves nothing behind."""
from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from multiprocessing.process import BaseProcess

from app import create_app
from app.infra import logs
from app.play.background import Worker

log = logging.getLogger("app.worker")
PARENT_CHECK_SECONDS = 1.0


def processes(env: dict[str, str] | None = None) -> int:
    """How many loops to run: TRUCO_WORKER_PROCESSES, or the usable cores."""
    value = (env if env is not None else os.environ).get("TRUCO_WORKER_PROCESSES", "").strip()
    if value:
        count = int(value)
        if count < 1:
            raise ValueError(f"TRUCO_WORKER_PROCESSES must be 1 or more, not {value!r}")
        return count
    return len(os.sched_getaffinity(0))


def run_one(deliveries: bool, parent: int | None = None) -> None:
    """One worker loop in this process until SIGTERM / SIGINT, or until `parent` is gone."""
    app = create_app()
    logs.configure("worker", app.config["JSON_LOGS"])
    worker = Worker(app, deliveries=deliveries)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: worker.stop.set())
    if parent is not None:
        def orphaned() -> None:
            while not worker.stop.wait(PARENT_CHECK_SECONDS):
                if os.getppid() != parent:
                    worker.stop.set()
        threading.Thread(target=orphaned, name="parent-check", daemon=True).start()
    worker.run()


def run_pool(count: int | None = None) -> None:
    """`count` loops (default :func:`processes`): in this process when one, else as child
    processes kept running until SIGTERM / SIGINT, which they are passed on."""
    count = count or processes()
    if count == 1:
        run_one(deliveries=True)
        return
    context = multiprocessing.get_context("spawn")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    me = os.getpid()

    def start(index: int) -> BaseProcess:
        child = context.Process(target=run_one, args=(index == 0, me),
                                name=f"truco-worker-{index}")
        child.start()
        return child

    children = [start(i) for i in range(count)]
    log.info("worker pool of %d processes", count)
    while not stop.wait(0.5):
        for i, child in enumerate(children):
            if not child.is_alive():
                log.warning("worker process %d ended (%s); starting it again", i,
                            child.exitcode)
                time.sleep(0.5)
                children[i] = start(i)
    for child in children:
        if child.pid is not None and child.is_alive():
            os.kill(child.pid, signal.SIGTERM)
    for child in children:
        child.join()


def main() -> None:
    """`python -m app.worker`: run TRUCO_WORKER_PROCESSES worker loops until SIGTERM or
    SIGINT (the steps under way finish first)."""
    logs.configure("worker", os.environ.get("TRUCO_ENV") == "production")
    run_pool()


if __name__ == "__main__":
    main()
