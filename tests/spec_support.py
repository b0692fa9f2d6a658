"""Reading an OpenAPI document in tests: its operations."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every operation of ``spec`` as ``(path, method, operation)``."""
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]
