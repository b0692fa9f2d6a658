"""Graceful stop of a web process: held long polls answer at once instead of being cut.

When gunicorn asks a worker to stop (SIGTERM), :func:`begin` (called by
``app.infra.gunicorn_worker.ProblemGeventWorker``) marks the process as closing and wakes every
registered waker (each process's LISTEN hub wakes all its waiters). A waiter that wakes, or a
long poll that begins, while the process is closing answers with what it has (the view or
304, the events so far, the current list) instead of sleeping; gunicorn then closes the
connections and the worker exits once they are answered.
"""
from __future__ import annotations

import logging
import weakref
from collections.abc import Callable

log = logging.getLogger(__name__)
_closing = False
_wakers: list[weakref.WeakMethod[Callable[[], None]]] = []


def closing() -> bool:
    """True once this process has begun to stop: long polls must not sleep any more."""
    return _closing


def on_close(wake: Callable[[], None]) -> None:
    """Call the bound method `wake` when the process begins to stop (held weakly)."""
    _wakers.append(weakref.WeakMethod(wake))


def begin() -> None:
    """Mark the process as closing and wake every waiter (idempotent)."""
    global _closing
    _closing = True
    alive = [ref() for ref in _wakers]
    _wakers[:] = [ref for ref, wake in zip(list(_wakers), alive) if wake is not None]
    for wake in alive:
        if wake is not None:
            wake()
    log.info("stopping: %d hub(s) woken, long polls answer now", sum(w is not None for w in alive))


def reset() -> None:
    """Back to serving (tests that call :func:`begin` in-process)."""
    global _closing
    _closing = False
