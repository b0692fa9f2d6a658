"""Where the app's and the worker's log lines go, and in what form.

Lines of the ``app`` loggers (``app.access``, ``app.worker``, ``app.http.errors``...) go to
standard error at INFO: ``time [process] message request_id=...`` for people (warnings and
errors as ``WARNING in module: message``), or under
``TRUCO_ENV=production`` one JSON object per line (``time``, ``level``, ``logger``,
``process``, ``message`` and the line's own fields: ``request_id``, ``method``, ``path``,
``status``, ``ms``, ``match_id``...), for a log collector.
"""
from __future__ import annotations

import json
import logging
import re
import sys
from datetime import datetime, timezone

_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message", "asctime", "taskName"}
"""The attributes every LogRecord has: the others are a line's own fields (``extra``)."""


def fields(record: logging.LogRecord) -> dict[str, object]:
    """The fields a line was given (``extra=``)."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class JsonLines(logging.Formatter):
    """One JSON object per line."""

    def __init__(self, process: str) -> None:
        super().__init__()
        self.process = process

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(),
                "level": record.levelname.lower(), "logger": record.name,
                "process": self.process, "message": record.getMessage(), **fields(record)}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Characters that would end a line or steer a terminal: a text line shows them escaped."""


def printable(message: str) -> str:
    """`message` on one line: a newline in a request's path (``%0A``) cannot forge a line."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", message)


class Text(logging.Formatter):
    """``time [process] message`` (``WARNING in module: message`` from warnings up), then the
    request id when the line has one. The message is one line, its control characters
    escaped (a traceback after it keeps its lines)."""

    def __init__(self, process: str) -> None:
        super().__init__(f"%(asctime)s [{process}] %(message)s")
        self.leveled = logging.Formatter(
            f"%(asctime)s [{process}] %(levelname)s in %(module)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if _CONTROL.search(message):  # (a copy: other handlers see the record as it was)
            record = logging.makeLogRecord({**vars(record), "msg": printable(message),
                                            "args": None})
        text = (self.leveled.format(record) if record.levelno >= logging.WARNING
                else super().format(record))
        rid = getattr(record, "request_id", None)
        return f"{text} request_id={rid}" if rid else text


def configure(process: str, json_lines: bool) -> None:
    """Send the ``app`` loggers' lines (INFO and up) to stderr (one handler: a second call
    replaces the first's)."""
    logger = logging.getLogger("app")
    for old in [h for h in logger.handlers if getattr(h, "truco", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines(process) if json_lines else Text(process))
    handler.truco = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
