"""Audit the pinned requirements (requirements.txt and requirements-dev.txt) for known
vulnerabilities with pip-audit (CI runs it before the tests).

Exit 1 on a real finding (a pinned package with a known vulnerability); when the
vulnerability database cannot be reached (a network error, or packages pip-audit skips as
"could not be audited"), print a clear warning and exit 0: no network is not a finding.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
AUDITED = ("requirements.txt", "requirements-dev.txt")
"""The requirements files audited: the runtime set and the dev set."""
NAMES = " and ".join(AUDITED)
NETWORK_ERRORS = ("ConnectionError", "ConnectTimeout", "ReadTimeout", "Max retries exceeded",
                  "Name or service not known", "Temporary failure in name resolution",
                  "Network is unreachable", "Connection refused", "SSLError")


def verdict(returncode: int, report: dict[str, Any] | None, stderr: str) -> tuple[int, str]:
    """The exit status and the message for one pip-audit run."""
    deps = (report or {}).get("dependencies", [])
    found = [f"{d['name']} {d['version']}: {v['id']} "
             f"(fixed in {', '.join(v['fix_versions']) or 'no release yet'})"
             for d in deps for v in d.get("vulns", [])]
    if found:
        return 1, f"pip-audit: known vulnerabilities in {NAMES}:\n  " + "\n  ".join(found)
    skipped = [d["name"] for d in deps if "skip_reason" in d]
    if report is None and any(e in stderr for e in NETWORK_ERRORS):
        return 0, ("WARNING: pip-audit could not reach the vulnerability database; "
                   f"{NAMES} were NOT audited.\n" + stderr.strip()[-500:])
    if report is None or returncode != 0:
        return returncode or 1, "pip-audit failed:\n" + stderr.strip()[-2000:]
    if skipped:
        return 0, (f"WARNING: pip-audit could not audit {len(skipped)} of {len(deps)} packages "
                   f"(vulnerability database unreachable?): {', '.join(skipped)}")
    return 0, f"pip-audit: no known vulnerabilities in {len(deps)} pinned packages"


def audit_command(out: Path) -> list[str]:
    """The pip-audit run over every file of :data:`AUDITED`, its JSON report written to ``out``."""
    files = [arg for name in AUDITED for arg in ("-r", str(ROOT / name))]
    # every requirement is pinned: audit exactly those pins, without resolving
    return [sys.executable, "-m", "pip_audit", *files, "--no-deps", "--disable-pip",
            "--progress-spinner", "off", "--format", "json", "--output", str(out)]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "audit.json"
        try:
            proc = subprocess.run(audit_command(out), capture_output=True, text=True,
                                  timeout=600, check=False)
            code, stderr = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired:
            code, stderr = 1, "ReadTimeout: pip-audit took longer than 600 s"
        report = json.loads(out.read_text()) if out.is_file() and out.stat().st_size else None
    status, message = verdict(code, report, stderr)
    print(message, file=sys.stderr if status or message.startswith("WARNING") else sys.stdout)
    return status


if __name__ == "__main__":
    sys.exit(main())
