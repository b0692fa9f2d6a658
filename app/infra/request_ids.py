"""Request ids: each request's own (``X-Request-Id``, when sane) or a fresh one, bound while
it runs so that the work it leaves to the worker can name it (app/http/request_log.py binds it)."""
from __future__ import annotations

import itertools
import os
import re
from contextvars import ContextVar

SANE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
_PREFIX = ""
_COUNTER = itertools.count(1)


def _fresh_prefix() -> None:
    """A random prefix and a new counter for this process (again in every forked child:
    gunicorn's workers are forks of one process, and must not share ids)."""
    global _PREFIX, _COUNTER
    _PREFIX, _COUNTER = os.urandom(5).hex(), itertools.count(1)


_fresh_prefix()
os.register_at_fork(after_in_child=_fresh_prefix)


def new_request_id() -> str:
    """A fresh id: this process's random prefix and a counter (unique, and cheap)."""
    return f"{_PREFIX}-{next(_COUNTER):x}"


def current_request_id() -> str | None:
    """The id of the request this code runs for, or None outside a request."""
    return REQUEST_ID.get()
