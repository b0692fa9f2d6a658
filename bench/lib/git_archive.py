"""Files of a commit read with `git archive`: the repository and its work tree are left as
they are (bench/lib/trees.py exports a whole tree, bench/lib/frozen.py the engine alone)."""
from __future__ import annotations

import io
import os
import subprocess
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ArchiveUnavailable(RuntimeError):
    """git is not installed, or this repository does not hold the commit or its paths."""


def commit_of(ref: str, short: bool = False) -> str:
    """The hash of the commit `ref` names in this repository (a hash, a tag, `HEAD`...), its
    abbreviated form with `short`."""
    try:
        done = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--quiet",
                               *(["--short"] if short else []), f"{ref}^{{commit}}"],
                              capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise ArchiveUnavailable("git is not installed") from exc
    if done.returncode != 0:
        raise ArchiveUnavailable(f"no commit {ref!r} in the repository at {ROOT} (a shallow "
                                 "clone lacks older ones: fetch the full history)")
    return done.stdout.strip()


def extract(ref: str, dest: str | os.PathLike[str], *paths: str) -> None:
    """The files of commit `ref` (only `paths` of it, when given) extracted under `dest`."""
    try:
        done = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", ref, *paths],
                              capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise ArchiveUnavailable("git is not installed") from exc
    if done.returncode != 0:
        raise ArchiveUnavailable(f"cannot read {' '.join(paths) or 'the tree'} at commit {ref} "
                                 f"from the repository at {ROOT} (a shallow clone lacks it: "
                                 f"fetch the full history): "
                                 f"{done.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        tar.extractall(dest, filter="data")
