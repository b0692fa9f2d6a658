"""scripts/dev.py: its usage, the one table of environment variables (VARIABLES: `--help`
prints all of it, the README's table is made from it, every variable the code reads is in
it), which requirements each command installs (the stamp), and a half-made .venv (an
interrupted first run) is rebuilt."""
from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "scripts" / "dev.py"
ENV_VARS = ("PORT", "BIND_HOST", "DATABASE_URL", "TEST_DATABASE_URL", "WEB_CONCURRENCY",
            "TRUCO_ENV", "TRUCO_FIXED_DEALS", "TRUCO_RATE_REGISTER", "TRUCO_RATE_ACTION",
            "TRUCO_CORS_ORIGINS")


INTERNAL = {"TRUCO_DEV_IN_VENV", "GUNICORN_CMD_ARGS"}
"""Read by the code but set by it (dev.py's re-exec) or gunicorn's own, not configuration."""


@pytest.fixture(scope="module")
def dev() -> ModuleType:
    """scripts/dev.py imported as a module (nothing runs at import)."""
    spec = importlib.util.spec_from_file_location("dev_script", DEV)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_dev(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(DEV), *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_exits_0_with_commands_and_environment(flag: str) -> None:
    done = _run_dev(flag)
    assert done.returncode == 0, done.stderr
    for word in ("serve", "test", "bench", *ENV_VARS):
        assert word in done.stdout, word


@pytest.mark.parametrize("args", [("nonsense",), ()])
def test_unknown_or_missing_command_fails_with_the_usage(args: tuple[str, ...]) -> None:
    done = _run_dev(*args)
    assert done.returncode != 0
    assert "usage:" in done.stderr and "TRUCO_CORS_ORIGINS" in done.stderr
    if args:
        assert "unknown command 'nonsense'" in done.stderr


def _venv_without_pip(path: Path) -> Path:
    """What an interrupted ``python -m venv`` leaves: a venv whose pip never got installed."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return path


def test_venv_problem_names_each_half_made_state(dev: ModuleType, tmp_path: Path) -> None:
    assert dev.venv_problem(tmp_path / "absent") is None  # simply created later
    venv = _venv_without_pip(tmp_path / "venv")
    assert dev.venv_problem(venv) == "it has no pip"
    # pip in place: whole, unless the requirements install was cut short
    pip = next(venv.glob("lib/python3*/site-packages")) / "pip"
    pip.mkdir()
    (pip / "__init__.py").write_text("")
    assert dev.venv_problem(venv) is None
    (venv / dev.INSTALLING_NAME).write_text("")
    assert "did not finish" in dev.venv_problem(venv)
    (venv / "bin" / "python").unlink()
    assert dev.venv_problem(venv) == "it has no bin/python"
    (venv / "pyvenv.cfg").unlink()
    assert dev.venv_problem(venv) == "it has no pyvenv.cfg"


def test_half_made_venv_is_rebuilt_before_installing(
        dev: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    venv = _venv_without_pip(tmp_path / "venv")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("")
    commands: list[list[str]] = []

    def record(cmd: list[str], **kwargs: Any) -> None:
        commands.append(cmd)

    dev.ensure_venv(venv, requirements, run=record)
    assert commands[0] == [sys.executable, "-m", "venv", "--clear", str(venv)]
    assert commands[1][:4] == [str(venv / "bin" / "python"), "-m", "pip", "install"]
    assert commands[1][-2:] == ["-r", str(requirements)]
    out = capsys.readouterr().out
    assert "[dev] venv is incomplete (it has no pip" in out
    assert "rebuilding" in out


def _whole_venv(path: Path) -> Path:
    """A venv that :func:`venv_problem` finds whole (an empty pip package stands for pip)."""
    venv = _venv_without_pip(path)
    pip = next(venv.glob("lib/python3*/site-packages")) / "pip"
    pip.mkdir()
    (pip / "__init__.py").write_text("")
    return venv


def test_whole_venv_with_current_stamp_runs_nothing(dev: ModuleType, tmp_path: Path) -> None:
    venv = _whole_venv(tmp_path / "venv")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("")
    dev.record_installed(venv, requirements)
    commands: list[list[str]] = []
    dev.ensure_venv(venv, requirements, run=lambda cmd, **kw: commands.append(cmd))
    assert commands == []


class PipRecorder:
    """Stands for ``subprocess.run``: records which requirements file each pip run installs."""

    def __init__(self) -> None:
        self.installed: list[str] = []

    def __call__(self, cmd: list[str], **kwargs: Any) -> None:
        assert cmd[1:4] == ["-m", "pip", "install"], cmd
        self.installed.append(Path(cmd[-1]).name)


@pytest.fixture
def two_sets(tmp_path: Path) -> tuple[Path, Path]:
    """A runtime set and a dev set that includes it, as requirements.txt and
    requirements-dev.txt are."""
    runtime = tmp_path / "requirements.txt"
    runtime.write_text("flask==3.1.3\n")
    dev_set = tmp_path / "requirements-dev.txt"
    dev_set.write_text("-r requirements.txt\npytest==9.2.0\n")
    return runtime, dev_set


def test_test_after_serve_installs_the_rest_and_serve_after_test_nothing(
        dev: ModuleType, tmp_path: Path, two_sets: tuple[Path, Path]) -> None:
    runtime, dev_set = two_sets
    pip = PipRecorder()
    venv = _whole_venv(tmp_path / "venv")
    dev.ensure_venv(venv, runtime, run=pip)  # serve
    dev.ensure_venv(venv, runtime, run=pip)  # serve again
    dev.ensure_venv(venv, dev_set, run=pip)  # test
    dev.ensure_venv(venv, dev_set, run=pip)  # test again
    dev.ensure_venv(venv, runtime, run=pip)  # serve after test
    assert pip.installed == ["requirements.txt", "requirements-dev.txt"]

    pip = PipRecorder()
    fresh = _whole_venv(tmp_path / "fresh")
    dev.ensure_venv(fresh, dev_set, run=pip)  # test first: the runtime set came with it
    dev.ensure_venv(fresh, runtime, run=pip)
    assert pip.installed == ["requirements-dev.txt"]


def test_a_changed_runtime_set_is_installed_again_by_either_command(
        dev: ModuleType, tmp_path: Path, two_sets: tuple[Path, Path]) -> None:
    runtime, dev_set = two_sets
    pip = PipRecorder()
    venv = _whole_venv(tmp_path / "venv")
    dev.ensure_venv(venv, dev_set, run=pip)
    runtime.write_text("flask==3.1.4\n")
    dev.ensure_venv(venv, runtime, run=pip)  # serve: the new pin
    dev.ensure_venv(venv, dev_set, run=pip)  # test: the dev set includes the changed file
    dev.ensure_venv(venv, runtime, run=pip)
    assert pip.installed == ["requirements-dev.txt", "requirements.txt", "requirements-dev.txt"]


def test_a_stamp_of_one_bare_digest_installs_again(dev: ModuleType, tmp_path: Path,
                                                   two_sets: tuple[Path, Path]) -> None:
    """The stamp a venv made before the split holds a digest and no file name."""
    runtime, _ = two_sets
    venv = _whole_venv(tmp_path / "venv")
    (venv / dev.STAMP_NAME).write_text(dev.requirements_digest(runtime) + "\n")
    pip = PipRecorder()
    dev.ensure_venv(venv, runtime, run=pip)
    assert pip.installed == ["requirements.txt"]


def test_the_digest_covers_the_included_files(dev: ModuleType,
                                              two_sets: tuple[Path, Path]) -> None:
    runtime, dev_set = two_sets
    assert dev.included_files(dev_set) == [dev_set, runtime]
    assert dev.included_files(runtime) == [runtime]
    before = dev.requirements_digest(dev_set)
    runtime.write_text("flask==3.1.4\n")
    assert dev.requirements_digest(dev_set) != before


def test_pip_shows_each_package_and_the_time_is_told(
        dev: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        two_sets: tuple[Path, Path]) -> None:
    commands: list[list[str]] = []
    dev.ensure_venv(_whole_venv(tmp_path / "venv"), two_sets[0],
                    run=lambda cmd, **kw: commands.append(cmd))
    assert not {"-q", "--quiet"} & set(commands[0])  # pip's "Collecting ..." lines show
    out = capsys.readouterr().out
    assert "[dev] installing requirements.txt into venv" in out
    assert re.search(r"\[dev\] installed requirements.txt in \d+ s", out)


def test_serve_installs_the_runtime_set_and_the_others_the_dev_set(dev: ModuleType) -> None:
    needs = {name: requirements.name for name, (_, requirements) in dev.COMMANDS.items()}
    assert needs == {"serve": "requirements.txt", "test": "requirements-dev.txt",
                     "bench": "requirements-dev.txt", "audit": "requirements-dev.txt"}
    assert dev.included_files(dev.DEV_REQUIREMENTS) == [dev.DEV_REQUIREMENTS, dev.REQUIREMENTS]


def test_interrupted_first_run_is_really_repaired(dev: ModuleType, tmp_path: Path) -> None:
    """The real commands: a venv without pip becomes a working venv with pip and a stamp."""
    venv = _venv_without_pip(tmp_path / "venv")
    (venv / dev.INSTALLING_NAME).write_text("")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# nothing to install: no network needed\n")
    dev.ensure_venv(venv, requirements)
    assert dev.venv_problem(venv) is None
    assert not (venv / dev.INSTALLING_NAME).exists()
    assert dev.installed_digests(venv) == {"requirements.txt":
                                           dev.requirements_digest(requirements)}
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"],
                          capture_output=True, text=True, check=True)
    assert "pip" in done.stdout


def test_serve_refuses_a_port_in_use_before_starting_anything(tmp_path: Path) -> None:
    """A second `serve` must not start (and on its way out stop) the first one's embedded
    database: it checks the port first and says what to do."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run([sys.executable, str(DEV), "serve"], capture_output=True,
                              text=True, timeout=60,
                              env={**os.environ, "PORT": str(port), "BIND_HOST": "127.0.0.1",
                                   "DATABASE_URL": ""})
    assert done.returncode != 0
    assert f"127.0.0.1:{port} is in use" in done.stderr and "PORT" in done.stderr
    assert "starting embedded PostgreSQL" not in done.stdout + done.stderr


def test_the_first_stop_signal_unwinds_serve_and_the_next_ones_are_ignored(
        dev: ModuleType) -> None:
    """A second signal while `serve` cleans up (Ctrl-C twice; `timeout` and `kill` together)
    must not raise inside the cleanup: that left gunicorn and the worker running."""
    import signal

    saved = {sig: signal.getsignal(sig) for sig in dev.STOP_SIGNALS}
    try:
        for sig in dev.STOP_SIGNALS:
            signal.signal(sig, dev._raise_stop)
        with pytest.raises(dev._Stop):
            os.kill(os.getpid(), signal.SIGTERM)
            signal.pthread_sigmask(signal.SIG_BLOCK, [])  # let the handler run here
        assert {sig: signal.getsignal(sig) for sig in dev.STOP_SIGNALS} == {
            sig: signal.SIG_IGN for sig in dev.STOP_SIGNALS}
        os.kill(os.getpid(), signal.SIGTERM)  # ignored: nothing raises, the test goes on
        os.kill(os.getpid(), signal.SIGHUP)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def test_help_lists_every_variable_of_the_table(dev: ModuleType) -> None:
    done = subprocess.run([sys.executable, str(DEV), "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    listed = re.findall(r"^  ([A-Z][A-Z0-9_]+)$", done.stdout, flags=re.M)
    assert listed == [name for name, _, _ in dev.VARIABLES]
    assert len(listed) >= 25


def test_the_readme_table_is_the_generated_one(dev: ModuleType) -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("| variable | meaning | default |")
    assert readme[start:readme.index("\n\n", start) + 1] == dev.variables_markdown(), \
        "run: python3 scripts/dev.py variables, and paste it into README.md"
    done = subprocess.run([sys.executable, str(DEV), "variables"], capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout == dev.variables_markdown()


def test_every_variable_the_code_reads_is_in_the_table(dev: ModuleType) -> None:
    sources = [*ROOT.glob("app/**/*.py"), *ROOT.glob("scripts/*.py"), ROOT / "gunicorn.conf.py",
               ROOT / "wsgi.py"]
    names = ("TRUCO_[A-Z0-9_]+", "GUNICORN_[A-Z0-9_]+", "PROMETHEUS_[A-Z_]+", "DATABASE_URL",
             "TEST_DATABASE_URL", "PORT", "BIND_HOST", "WEB_CONCURRENCY")
    pattern = "[\"'](" + "|".join(names) + ")[\"']"
    read = {name for path in sources for name in re.findall(pattern, path.read_text())}
    assert {"TRUCO_ENV", "DATABASE_URL", "TRUCO_DB_POOL_SIZE"} <= read
    assert read - INTERNAL - {name for name, _, _ in dev.VARIABLES} == set()
