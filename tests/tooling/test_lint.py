"""The project's code (the service, its scripts, tests and benchmarks) stays free of pyflakes'
findings (unused or undefined names, imports) and of pycodestyle's errors and warnings, at the
project's 100 columns."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("app", "engine", "scripts", "devtools", "wsgi.py", "gunicorn.conf.py", "tests", "bench",
           "examples")
"""Not migrations/: a migration is history, kept as it ran."""
RULES = ("--select", "E,F,W", "--line-length", "100")


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *RULES, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_service_code_is_lint_clean() -> None:
    result = ruff(*CHECKED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_finds_an_unused_import_and_a_long_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n" + "x = '" + "a" * 100 + "'\n")
    result = ruff(str(bad))
    assert result.returncode == 1
    assert "F401" in result.stdout and "E501" in result.stdout
