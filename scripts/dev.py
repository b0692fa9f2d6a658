#!/usr/bin/env python3
"""Developer entry point; standard library only until it re-executes inside ``.venv``.

    python3 scripts/dev.py serve            the API under gunicorn on $PORT (default 8000)
    python3 scripts/dev.py test [ARGS]      python -m pytest -q ARGS
    python3 scripts/dev.py bench [ARGS]     every bench/*.py with ARGS (a NAME picks bench/NAME.py)

Each command first makes sure ``.venv`` exists with requirements.txt installed (skipped
while the hash stamp matches), then runs itself again with the venv's Python. ``serve``
starts an embedded PostgreSQL under ``instance/pgdata`` when DATABASE_URL is unset, applies
the migrations, runs gunicorn (gunicorn.conf.py) and stops the database when it ends.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
REQUIREMENTS = ROOT / "requirements.txt"
STAMP = VENV / ".requirements.sha256"
REEXEC_FLAG = "TRUCO_DEV_IN_VENV"


def log(message: str) -> None:
    """Print a progress line at once."""
    print(f"[dev] {message}", flush=True)


def requirements_digest() -> str:
    """Hash of requirements.txt and the Python version the venv is built with."""
    data = REQUIREMENTS.read_bytes() + f"\npython{sys.version_info[:2]}".encode()
    return hashlib.sha256(data).hexdigest()


def in_venv() -> bool:
    """True when this interpreter is the project's venv."""
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure_venv() -> None:
    """Create .venv and install requirements.txt into it unless the stamp is current."""
    if not in_venv() and not VENV_PYTHON.exists():
        log(f"creating {VENV.relative_to(ROOT)} with Python {sys.version.split()[0]}")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    digest = requirements_digest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        return
    log("installing requirements.txt into .venv")
    subprocess.run(
        [str(VENV_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q",
         "-r", str(REQUIREMENTS)],
        check=True,
    )
    STAMP.write_text(digest + "\n")


def reexec_in_venv() -> None:
    """Replace this process by the same command run with the venv's Python."""
    if os.environ.get(REEXEC_FLAG):
        sys.exit(f"[dev] {VENV_PYTHON} did not start inside {VENV}; delete .venv and retry")
    os.environ[REEXEC_FLAG] = "1"
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])


class _Stop(Exception):
    """Raised by the SIGINT / SIGTERM / SIGHUP handler to unwind ``serve``."""


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop(signum)


def serve(args: list[str]) -> int:
    """Migrate, then run gunicorn until interrupted; stop the embedded database after."""
    if args:
        sys.exit("[dev] serve takes no arguments (use PORT, DATABASE_URL, WEB_CONCURRENCY)")
    env = dict(os.environ)
    env.setdefault("PORT", "8000")
    env.setdefault("BIND_HOST", "127.0.0.1")
    # Stop within seconds on Ctrl-C even while clients hold long polls open.
    env.setdefault("GUNICORN_CMD_ARGS", "--graceful-timeout 5")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_stop)
    datadir = None
    gunicorn = None
    try:
        if not env.get("DATABASE_URL"):
            sys.path.insert(0, str(ROOT))
            from app.embedded_pg import start_embedded

            datadir = ROOT / "instance" / "pgdata"
            log(f"starting embedded PostgreSQL in {datadir.relative_to(ROOT)}")
            env["DATABASE_URL"] = start_embedded(datadir)
        log("applying migrations")
        subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"],
                       cwd=ROOT, env=env, check=True)
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
            cwd=ROOT, env=env,
            start_new_session=True,  # Ctrl-C reaches only us; we stop gunicorn gracefully
        )
        host = env["BIND_HOST"] if env["BIND_HOST"] not in ("", "0.0.0.0") else "127.0.0.1"
        log(f"serving on http://{host}:{env['PORT']}/ (docs at /docs); Ctrl-C stops")
        return gunicorn.wait()
    except _Stop:
        return 0
    except subprocess.CalledProcessError as exc:
        log(f"failed: {' '.join(map(str, exc.cmd))} exited {exc.returncode}")
        return exc.returncode or 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if gunicorn is not None and gunicorn.poll() is None:
            gunicorn.terminate()
            try:
                gunicorn.wait(timeout=75)
            except subprocess.TimeoutExpired:
                gunicorn.kill()
                gunicorn.wait()
        if datadir is not None:
            from app.embedded_pg import stop_embedded

            log("stopping embedded PostgreSQL")
            stop_embedded(datadir)


def test(args: list[str]) -> int:
    """Run pytest from the repository root (this process becomes pytest)."""
    os.chdir(ROOT)
    os.execv(sys.executable, [sys.executable, "-m", "pytest", "-q", *args])
    return 1  # not reached


def bench(args: list[str]) -> int:
    """Run bench/NAME.py for each NAME given, or every bench/*.py; other args are passed on."""
    available = {p.stem: p for p in sorted((ROOT / "bench").glob("*.py"))
                 if not p.stem.startswith("_")}
    chosen = [available[a] for a in args if a in available]
    passed = [a for a in args if a not in available]
    scripts = chosen or list(available.values())
    if not scripts:
        log("no benchmarks in bench/")
        return 0
    status = 0
    for script in scripts:
        log(f"bench/{script.name} {' '.join(passed)}")
        done = subprocess.run([sys.executable, str(script), *passed], cwd=ROOT)
        status = done.returncode or status
    return status


COMMANDS = {"serve": serve, "test": test, "bench": bench}


def main(argv: list[str]) -> int:
    """Dispatch ``argv[0]`` to a command."""
    if sys.version_info < (3, 11):
        sys.exit(f"[dev] Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    if not argv or argv[0] not in COMMANDS:
        sys.exit(__doc__)
    ensure_venv()
    if not in_venv():
        reexec_in_venv()
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
