"""Reading the contract in tests: an OpenAPI document's operations, the event types the code
writes."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.actions import _FIELDS

ROOT = Path(__file__).resolve().parents[2]

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every operation of ``spec`` as ``(path, method, operation)``."""
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def event_types_written() -> set[str]:
    """Every event type the engine and the app write (`{"type": "..."` in their source)."""
    sources = [*(ROOT / "engine").glob("*.py"),
               *(ROOT / "app" / "play" / name for name in ("seats.py", "moves.py", "store.py",
                                                           "fairness.py"))]
    found = {m for path in sources
             for m in re.findall(r'\{"type": "(\w+)"', path.read_text())}
    return found - set(_FIELDS) - {"resign", "forfeit"}  # action bodies, not events
