"""Every answer's request id (``X-Request-Id``), its count in the metrics (app/infra/metrics.py)
and, when on, one access line per request.

A WSGI middleware outermost of the app: both fronts (Flask's routes and the fast paths of
app/http/front/view.py and app/http/front/action.py) answer through it, so their headers stay
the same. The id is the request's own ``X-Request-Id`` when it is sane (1 to 64 of
``A-Z a-z 0-9 . _ : -``), else a new one; while the request runs it is
:func:`app.infra.request_ids.current_request_id`, so that the work it leaves to the worker
can name it.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from time import perf_counter
from typing import Any

from app.infra.metrics import count_request, route_of
from app.infra.request_ids import REQUEST_ID, SANE, new_request_id

access_log = logging.getLogger("app.access")


class RequestLog:
    """WSGI middleware: the request id on the answer, the count of the answer by route (one
    of ``routes``), and the access line if ``access``."""

    def __init__(self, app: Callable[..., Iterable[bytes]], access: bool,
                 routes: frozenset[str]) -> None:
        self._app = app
        self._access = access
        self._routes = routes

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        given = environ.get("HTTP_X_REQUEST_ID")
        rid = given if given and SANE.fullmatch(given) else new_request_id()
        token = REQUEST_ID.set(rid)
        started = perf_counter()

        def respond(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            headers.append(("X-Request-Id", rid))
            seconds = perf_counter() - started
            method, path = environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", "")
            code = int(status[:3])
            count_request(method, route_of(path, self._routes), code, seconds)
            if self._access:
                ms = round(seconds * 1000, 1)
                access_log.info("%s %s %s %.1f ms", method, path, code, ms, extra={
                    "request_id": rid, "method": method, "path": path, "status": code,
                    "ms": ms})
            return start_response(status, headers, *exc_info)

        try:
            return self._app(environ, respond)
        finally:
            REQUEST_ID.reset(token)
