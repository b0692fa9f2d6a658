"""One table of environment variables (VARIABLES in scripts/dev.py): `--help` prints all of it,
the README's table is made from it, and every variable the code reads is in it."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT / "scripts" / "dev.py"
INTERNAL = {"TRUCO_DEV_IN_VENV", "GUNICORN_CMD_ARGS"}
"""Read by the code but set by it (dev.py's re-exec) or gunicorn's own, not configuration."""


@pytest.fixture(scope="module")
def dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_variables", DEV)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_help_lists_every_variable_of_the_table(dev: ModuleType) -> None:
    done = subprocess.run([sys.executable, str(DEV), "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    listed = re.findall(r"^  ([A-Z][A-Z0-9_]+)$", done.stdout, flags=re.M)
    assert listed == [name for name, _, _ in dev.VARIABLES]
    assert len(listed) >= 25


def test_the_readme_table_is_the_generated_one(dev: ModuleType) -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("| variable | meaning | default |")
    assert readme[start:readme.index("\n\n", start) + 1] == dev.variables_markdown(), \
        "run: python3 scripts/dev.py variables, and paste it into README.md"
    done = subprocess.run([sys.executable, str(DEV), "variables"], capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout == dev.variables_markdown()


def test_every_variable_the_code_reads_is_in_the_table(dev: ModuleType) -> None:
    sources = [*ROOT.glob("app/**/*.py"), *ROOT.glob("scripts/*.py"), ROOT / "gunicorn.conf.py",
               ROOT / "wsgi.py"]
    names = ("TRUCO_[A-Z0-9_]+", "GUNICORN_[A-Z0-9_]+", "PROMETHEUS_[A-Z_]+", "DATABASE_URL",
             "TEST_DATABASE_URL", "PORT", "BIND_HOST", "WEB_CONCURRENCY")
    pattern = "[\"'](" + "|".join(names) + ")[\"']"
    read = {name for path in sources for name in re.findall(pattern, path.read_text())}
    assert {"TRUCO_ENV", "DATABASE_URL", "TRUCO_DB_POOL_SIZE"} <= read
    assert read - INTERNAL - {name for name, _, _ in dev.VARIABLES} == set()
