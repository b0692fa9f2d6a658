"""How a benchmark talks: log lines, its options, the final JSON line, and a run that
unwinds cleanly on Ctrl-C, SIGTERM or SIGHUP."""
from __future__ import annotations

import argparse
import json
import signal
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

TROUBLE_WORDS = ("error", "traceback", "exception", "critical", "warning", "timeout",
                 "exited", "killed")


def log(msg: str = "") -> None:
    """One line of the benchmark's output, flushed at once."""
    print(msg, flush=True)


def fmt(x: float | None, spec: str = "{:,.0f}") -> str:
    """`x` formatted with `spec`; '-' for None."""
    return "-" if x is None else spec.format(x)


def options(doc: str | None, quick_help: str) -> argparse.ArgumentParser:
    """A parser described by the first paragraph of `doc`, with the `--quick` every
    benchmark takes."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    return parser


def last_line(figures: dict[str, Any], **dumps: Any) -> None:
    """The run's figures as the last line of output: one JSON object."""
    print(json.dumps(figures, **dumps), flush=True)


def trouble_lines(text: str, words: tuple[str, ...] = TROUBLE_WORDS) -> list[str]:
    """Lines of a log that look like trouble (gunicorn's 'Booting worker' lines not)."""
    return [line for line in text.splitlines()
            if any(w in line.lower() for w in words) and "booting worker" not in line.lower()]


class Stop(Exception):
    """SIGTERM or SIGHUP: unwind like Ctrl-C."""


def _raise_stop(signum: int, frame: object) -> None:
    raise Stop(signum)


class Run:
    """Whether a run failed, with :meth:`guarded` around its work and :meth:`teardown`
    around its clean-up."""

    def __init__(self) -> None:
        self.failed = False
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _raise_stop)

    @contextmanager
    def guarded(self) -> Iterator[None]:
        """An interruption or an error inside is logged and fails the run; it goes no
        further."""
        try:
            yield
        except (KeyboardInterrupt, Stop):
            self.failed = True
            log("interrupted; stopping what was started")
        except Exception:
            self.failed = True
            log("failed:")
            log(traceback.format_exc())

    @contextmanager
    def teardown(self) -> Iterator[None]:
        """No signal interrupts what runs inside; Ctrl-C works again afterwards."""
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)
