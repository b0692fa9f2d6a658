"""scripts/audit_deps.py: both requirements files are audited, a finding fails, an
unreachable vulnerability database warns."""
from __future__ import annotations

from pathlib import Path

from scripts.audit_deps import audit_command, verdict

ROOT = Path(__file__).resolve().parents[2]


def test_the_runtime_and_the_dev_set_are_audited_as_pinned(tmp_path: Path) -> None:
    command = audit_command(tmp_path / "audit.json")
    audited = [command[i + 1] for i, arg in enumerate(command) if arg == "-r"]
    assert audited == [str(ROOT / "requirements.txt"), str(ROOT / "requirements-dev.txt")]
    assert "--no-deps" in command and command[-2:] == ["--output", str(tmp_path / "audit.json")]


def test_a_known_vulnerability_fails() -> None:
    report = {"dependencies": [
        {"name": "flask", "version": "3.1.3", "vulns": []},
        {"name": "werkzeug", "version": "3.1.9", "vulns": [
            {"id": "GHSA-xxxx", "fix_versions": ["3.1.10"]}]}]}
    status, message = verdict(1, report, "")
    assert status == 1 and "werkzeug 3.1.9: GHSA-xxxx (fixed in 3.1.10)" in message
    assert "requirements.txt and requirements-dev.txt" in message


def test_a_clean_audit_passes() -> None:
    report = {"dependencies": [{"name": "flask", "version": "3.1.3", "vulns": []}]}
    assert verdict(0, report, "") == (0, "pip-audit: no known vulnerabilities in 1 pinned packages")


def test_no_network_warns_and_passes() -> None:
    status, message = verdict(1, None, "requests.exceptions.ConnectionError: Max retries exceeded")
    assert status == 0 and message.startswith("WARNING") and "NOT audited" in message
    skipped = {"dependencies": [{"name": "flask", "skip_reason": "Dependency not found on PyPI"}]}
    status, message = verdict(0, skipped, "")
    assert status == 0 and message.startswith("WARNING: pip-audit could not audit 1 of 1")


def test_another_failure_fails() -> None:
    status, message = verdict(2, None, "error: unrecognized arguments")
    assert status == 2 and "pip-audit failed" in message


def test_ci_runs_the_audit_then_the_tests() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert lines.index("python3 scripts/dev.py audit") < lines.index(
        "python3 scripts/dev.py test")
