"""The README's curl walkthrough, run as written against a real server, plays a match to
the end (a new user's first experience must keep working)."""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.servers import start_testing_servers

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough() -> str:
    section = README.read_text().split("## Play a match against the computer with curl")[1]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough uses curl")
def test_readme_walkthrough_plays_a_match_to_the_end(database_url: str) -> None:
    script = walkthrough()
    assert "BASE=http://127.0.0.1:8000" in script
    [server] = start_testing_servers(["readme"], database_url)
    try:
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c",
             script.replace("BASE=http://127.0.0.1:8000", f"BASE={server.url}")],
            capture_output=True, text=True, timeout=120)
    finally:
        server.stop()
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    winner_line = lines[-4]
    assert re.fullmatch(r"\((0|1), \[\d+, \d+\], 'score'\)", winner_line), lines[-5:]
    assert max(int(n) for n in re.findall(r"\d+", winner_line.split("[")[1])) >= 12
    assert "'type': 'hand_dealt'" in lines[-3] and "'hands'" in lines[-3]
    assert lines[-2] == "pending"  # (the review asked for)
    (tally,), [(loss, hand, played, best)] = ast.literal_eval(lines[-1])  # (the review, done)
    assert tally["seat"] == 0 and tally["decisions"] >= 1 and 0 <= tally["mistakes"]
    assert 0 <= loss <= tally["loss"] + 0.001 and hand >= 1
    assert {played["type"], best["type"]} <= {"play", "raise", "accept", "refuse"}
