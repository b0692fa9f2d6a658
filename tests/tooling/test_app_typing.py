"""app/ type-checks: mypy, strict (its settings in mypy.ini: strict, with the exceptions that
libraries without types force), finds nothing; so do the scripts, the development tools, the
example bot (which bot authors copy), wsgi.py and the benchmarks. The engine is held to --strict by
tests/engine/test_typing.py."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_app_passes_mypy() -> None:
    result = mypy("app")
    assert result.returncode == 0, result.stdout + result.stderr


def test_scripts_tools_and_the_example_bot_pass_mypy() -> None:
    result = mypy("scripts", "devtools", "examples", "wsgi.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_benchmarks_pass_mypy() -> None:
    """bench/'s scripts import `bench.lib...` from the project's root: one module name each."""
    result = mypy("--explicit-package-bases", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_finds_a_wrong_argument(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def half(n: int) -> float:\n    return n / 2\n\n\nhalf('two')\n")
    result = mypy(str(bad))
    assert result.returncode == 1 and "arg-type" in result.stdout


def test_the_check_is_strict(tmp_path: Path) -> None:
    """A function without annotations, and a bare generic, are findings under mypy.ini."""
    loose = tmp_path / "loose.py"
    loose.write_text("def double(n):\n    return 2 * n\n\n\nSEEN: dict = {}\n")
    result = mypy(str(loose))
    assert result.returncode == 1
    assert "no-untyped-def" in result.stdout and "type-arg" in result.stdout
