"""The engine as of a pinned commit, imported beside the working one, to measure bots against it.

`frozen_bot(level)` is that engine's bot `level` as a callable `(view, rng, *, budget_ms=None)
-> action`: a bot reads only the view (a plain dict) and its rng, so it plays inside a match
run by today's engine. The `engine/` package of FROZEN_COMMIT is extracted with `git archive`
once into a cache directory under the package name PACKAGE (the engine imports itself only
relatively, which `load` checks), then imported from there. Any other commit's engine is
loaded the same way (`frozen_bot(level, commit)` with a full hash, which keys the cache: the
tools' `--frozen` option, `add_frozen_option`, is resolved to one by `frozen_commit`).
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import sys
import tempfile
from functools import partial
from types import ModuleType
from typing import Any, Callable

from bench.lib.git_archive import ArchiveUnavailable, commit_of, extract

FROZEN_COMMIT = "80316d3cc45c31a8ab81d3e16bd9b44130233102"
"""The engine whose hard level a change to `hard` is measured against (`hard_vs_frozen_hard`):
main's as of 2026-12-02; move it forward when a change to hard ships."""


def package_for(commit: str) -> str:
    """The name the engine of `commit` is imported under."""
    return f"engine_{commit[:12]}"


PACKAGE = package_for(FROZEN_COMMIT)
CACHE = os.path.join(tempfile.gettempdir(), "truco-frozen-engines")
_ABSOLUTE = re.compile(r"^\s*(from|import)\s+engine\b", re.MULTILINE)


class FrozenUnavailable(RuntimeError):
    """git, or the pinned commit, is not available here."""


def _extract(commit: str, package: str) -> str:
    """The cache directory holding `package`, the engine of `commit` (extracted once)."""
    home = os.path.join(CACHE, commit)
    if os.path.isdir(os.path.join(home, package)):
        return home
    os.makedirs(CACHE, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=f"{commit[:12]}-", dir=CACHE)
    try:
        try:
            extract(commit, staging, "engine/")
        except ArchiveUnavailable as exc:
            raise FrozenUnavailable(f"the frozen engine: {exc}") from exc
        for folder, _, files in os.walk(os.path.join(staging, "engine")):
            for name in files:
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        if _ABSOLUTE.search(f.read()):
                            raise FrozenUnavailable(
                                f"engine/{name} at {commit} imports `engine` by its absolute "
                                "name: a renamed copy would run today's engine")
        os.rename(os.path.join(staging, "engine"), os.path.join(staging, package))
        try:
            os.rename(staging, home)  # atomic: a concurrent extraction keeps the first one
        except OSError:
            if not os.path.isdir(os.path.join(home, package)):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return home


def load(commit: str = FROZEN_COMMIT) -> ModuleType:
    """The `bots` package of the engine of `commit` (a full hash), extracted and imported on
    first use under `package_for(commit)`."""
    package = package_for(commit)
    home = _extract(commit, package)
    if home not in sys.path:
        sys.path.append(home)
    return importlib.import_module(f"{package}.bots")


def frozen_bot(level: str, commit: str = FROZEN_COMMIT,
               **options: Any) -> Callable[..., dict[str, Any]]:
    """The bot `level` of the engine of `commit` (a full hash; default the pinned one);
    `options` go to the level's function (the hard level's `playouts`, say)."""
    bots = load(commit)
    if level not in bots.BOTS:
        raise ValueError(f"the frozen engine has no bot level {level!r}")
    return partial(bots.BOTS[level], **options) if options else bots.BOTS[level]


def add_frozen_option(ap: argparse.ArgumentParser) -> None:
    """A tool's `--frozen COMMIT` option: the commit whose engine plays as frozen_hard."""
    ap.add_argument("--frozen", default=FROZEN_COMMIT, metavar="COMMIT",
                    help="the commit whose hard level plays as frozen_hard (a hash, a tag, "
                         "HEAD...; default the one pinned in bench/lib/frozen.py)")


def frozen_commit(ap: argparse.ArgumentParser, ref: str) -> str:
    """The full hash of `ref` (a `--frozen` value), or the parser's usage error when git cannot
    name it: a ref such as HEAD must not key the cache, where it would keep an older engine."""
    try:
        return commit_of(ref)
    except ArchiveUnavailable as exc:
        ap.error(str(exc))
