"""The engine is fully typed: mypy --strict finds nothing."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_passes_mypy_strict() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                             "engine"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
