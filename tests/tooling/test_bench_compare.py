"""bench/compare.py end to end, briefly: the commit in a worktree and the working tree served
beside the baseline, each driven by its action client; the JSON line, and nothing left
behind (servers, worktree)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_compare_serves_both_trees_and_the_baseline(capsys: Any) -> None:
    from bench import compare

    before = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    status = compare.main(["HEAD", "--rounds", "1", "--seconds", "1", "--clients", "2"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert status == 0
    for side in ("ref", "tree", "base"):
        assert out[side]["errors"] == 0 and out[side]["rps"] > 0, out
        assert out[side]["worker_cpu_ms"] > 0
    assert out["tree_vs_ref"] == round(out["tree"]["rps"] / out["ref"]["rps"], 3)
    assert 0 < out["ref_ratio"] and 0 < out["tree_ratio"]
    after = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout
    assert after == before  # (its worktree is removed)
