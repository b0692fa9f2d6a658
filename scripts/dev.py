#!/usr/bin/env python3
"""Developer entry point; standard library only until it re-executes inside ``.venv``.

Each command first makes sure ``.venv`` is complete with the requirements it needs installed:
``serve`` the runtime set (requirements.txt), ``test``, ``audit`` and ``bench`` the dev set
(requirements-dev.txt, which includes the runtime set). An install is skipped while the hash
stamp matches; a half-made ``.venv`` left by an interrupted first run is rebuilt. Then the
command runs itself again with the venv's Python. See ``USAGE`` (``--help``).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
REQUIREMENTS = ROOT / "requirements.txt"
"""The runtime set: what the app, the background worker and gunicorn import."""
DEV_REQUIREMENTS = ROOT / "requirements-dev.txt"
"""The dev set: the runtime set (``-r requirements.txt``) plus the test and CI tools."""
STAMP_NAME = ".requirements.sha256"
"""In .venv: a line ``DIGEST  NAME`` per requirements file installed (:func:`installed_digests`)."""
INSTALLING_NAME = ".requirements.installing"
"""Present in .venv while pip installs a requirements file: left behind, the install was cut."""
REEXEC_FLAG = "TRUCO_DEV_IN_VENV"

VARIABLES: tuple[tuple[str, str, str], ...] = (
    ("DATABASE_URL",
     "PostgreSQL URL (`postgres://`, `postgresql://` are normalised to psycopg2)",
     "unset: `serve` starts the embedded PostgreSQL"),
    ("TEST_DATABASE_URL",
     "a PostgreSQL server for the tests (role with CREATEDB)",
     "unset: a temporary embedded one"),
    ("TRUCO_ENV",
     "`development`, `testing` or `production`",
     "`development`"),
    ("TRUCO_FIXED_DEALS",
     "`1` allows `seed`, `deals` and `start_score` in create bodies, `0` forbids them (403 "
     "`fixed_deals_disabled`)",
     "allowed except in production"),
    ("TRUCO_RATE_REGISTER",
     "registrations per client address, `COUNT/SECONDS`, shared by all processes (empty: off)",
     "`20/60` (off under `testing`)"),
    ("TRUCO_RATE_ACTION",
     "actions per player, `COUNT/SECONDS`, shared by all processes (empty: off)",
     "`60/10` (off under `testing`)"),
    ("TRUCO_RATE_CREATE",
     "match creations per player, `COUNT/SECONDS`, shared by all processes (empty: off)",
     "`30/60` (off under `testing`)"),
    ("TRUCO_MAX_WAITING_MATCHES",
     "matches one player may have waiting for players at once",
     "`20`"),
    ("TRUCO_MAX_BOT_MATCHES",
     "unfinished matches with built-in bots one player may have "
     "(409 `too_many_bot_matches`; 0: no cap)",
     "`10` (off under `testing`)"),
    ("TRUCO_MAX_HARD_BOTS",
     "`hard` bot seats in those matches (0: no cap)",
     "`10` (off under `testing`)"),
    ("TRUCO_RATE_SEAT",
     "joins, leaves and resignations per player, `COUNT/SECONDS` (empty: off)",
     "`60/60` (off under `testing`)"),
    ("TRUCO_MAX_CONNECTIONS_PER_CLIENT",
     "connections one client address may hold at once per web worker "
     "(429 `too_many_connections` past it; 0: no cap; set 0 behind a reverse proxy and cap "
     "there)",
     "`256` in production, no cap otherwise"),
    ("TRUCO_MAX_INVITATIONS",
     "pending invitations one player may have at once (409 `too_many_invitations` past it; "
     "0: no cap)",
     "`20` (off under `testing`)"),
    ("TRUCO_MAX_INVITATIONS_PER_INVITER",
     "pending invitations one player may send to one other player (0: no cap)",
     "`3` (off under `testing`)"),
    ("TRUCO_INVITATION_TTL",
     "seconds an invitation holds before it expires (the worker declines it)",
     "`604800` (7 days)"),
    ("TRUCO_WORKER_PROCESSES",
     "worker loops `python -m app.worker` runs, one process each (the first also sends webhooks)",
     "the usable cores"),
    ("TRUCO_CORS_ORIGINS",
     "origins browsers may call from: `*`, or a comma-separated list such as "
     "`https://play.example,http://localhost:3000` (see [CORS](docs/api.md#cors-browser-clients))",
     "empty: CORS off"),
    ("TRUCO_MAX_POLLS_PER_CLIENT",
     "concurrent long polls per token (per address without one), per process; over it 429 "
     "`rate_limited` (0: no cap)",
     "`20` (off under `testing`)"),
    ("TRUCO_STREAM_HEARTBEAT",
     "idle seconds after which a Server-Sent Events stream sends a comment line (0.5 to 25)",
     "`20`"),
    ("TRUCO_STREAM_MAX_SECONDS",
     "seconds after which the server ends a stream (its client reconnects with "
     "`Last-Event-ID`, losing nothing)",
     "`3600`"),
    ("TRUCO_WEBHOOK_ALLOW_PRIVATE",
     "`1` lets webhooks call hosts with private, loopback, link-local or reserved addresses; `0` "
     "refuses them, at registration and at each delivery ([safety "
     "rules](docs/correspondence.md#what-the-server-will-call))",
     "allowed except in production"),
    ("TRUCO_WEBHOOK_ALLOW_HTTP",
     "`1` accepts plain `http` webhook URLs; `0`: `https` only",
     "allowed except in production"),
    ("TRUCO_BODY_TIMEOUT",
     "seconds a request body has to arrive in full (then 408 `request_timeout`; gevent worker "
     "only)",
     "`10`"),
    ("TRUCO_DB_CONNECT_TIMEOUT",
     "seconds to connect to the database",
     "`3`"),
    ("TRUCO_DB_STATEMENT_TIMEOUT",
     "`statement_timeout`; the client gives up on a silent database 1 s later",
     "`4`"),
    ("TRUCO_DB_LOCK_TIMEOUT",
     "`lock_timeout`",
     "`3`"),
    ("TRUCO_DB_IDLE_TX_TIMEOUT",
     "`idle_in_transaction_session_timeout`",
     "`10`"),
    ("TRUCO_DB_POOL_TIMEOUT",
     "seconds to wait for a free pooled connection",
     "`3`"),
    ("TRUCO_DB_TCP_USER_TIMEOUT",
     "`tcp_user_timeout` (keepalives probe at half of it)",
     "`10`"),
    ("TRUCO_DB_POOL_SIZE",
     "database connections each app process keeps open",
     "`10`"),
    ("TRUCO_DB_MAX_OVERFLOW",
     "connections a process may open beyond those, closed when given back",
     "`10`"),
    ("TRUCO_DB_PRE_PING",
     "`1`: test each pooled connection with a round trip before use (no 503 after a database "
     "restart, one round trip more per request)",
     "`0`"),
    ("PORT",
     "port gunicorn binds",
     "`8000`"),
    ("BIND_HOST",
     "address gunicorn binds (`0.0.0.0`: every interface)",
     "`127.0.0.1` under `scripts/dev.py serve`; `0.0.0.0` under plain gunicorn (docker)"),
    ("WEB_CONCURRENCY",
     "gunicorn worker processes (gevent: thousands of long polls each)",
     "`2`"),
    ("TRUCO_ACCESS_LOG",
     "`1`: one line per request (method, path, status, ms, request id) and per worker step "
     "(a bot's move, a deadline, a webhook delivery); `0`: off. JSON lines under `production`",
     "on (off under `testing`)"),
    ("TRUCO_METRICS_TOKEN",
     "a secret a scraper of `GET /metrics` sends as `Authorization: Bearer ...`; unset under "
     "`production`, `/metrics` is off (or keep it off the public port at the proxy)",
     "unset: `/metrics` open except in production"),
    ("PROMETHEUS_MULTIPROC_DIR",
     "the folder where the processes' metrics meet (`serve` shares one between the web and "
     "the background worker)",
     "a fresh temporary folder per gunicorn start"),
    ("GUNICORN_WORKER_CONNECTIONS",
     "connections (held long polls included) one gunicorn worker serves at once",
     "`2000`"),
    ("GUNICORN_ACCESS_LOG",
     "a file for gunicorn's own access log (`-`: standard output), beside the app's access lines",
     "unset: none"),
)
"""The environment variables: name, meaning and default, in Markdown. ``--help`` and the
README's table are made from it (``python3 scripts/dev.py variables``)."""


def plain(markdown: str) -> str:
    """A table cell as terminal text: links as their text, no backticks."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown).replace("`", "")


def variables_markdown() -> str:
    """The README's table of :data:`VARIABLES`."""
    rows = [f"| `{name}` | {meaning} | {default} |" for name, meaning, default in VARIABLES]
    return "\n".join(["| variable | meaning | default |", "|---|---|---|", *rows]) + "\n"


def variables_text() -> str:
    """:data:`VARIABLES` for ``--help``: each name, then its meaning and default, wrapped."""
    return "".join(
        f"  {name}\n" + textwrap.fill(f"{plain(meaning)}; default: {plain(default)}", 96,
                                       initial_indent=" " * 6, subsequent_indent=" " * 6) + "\n"
        for name, meaning, default in VARIABLES)


USAGE = """\
usage: python3 scripts/dev.py COMMAND [ARGS]

commands:
  serve            the API under gunicorn on $BIND_HOST:$PORT (default 127.0.0.1:8000) and
                   a background worker (bots, deadlines, webhooks);
                   with DATABASE_URL unset, an embedded PostgreSQL kept in instance/pgdata
  test [ARGS]      python -m pytest -q ARGS (the whole suite without ARGS)
  bench [ARGS]     every bench/*.py with ARGS (a NAME picks bench/NAME.py)
  audit            pip-audit of requirements.txt and requirements-dev.txt (CI runs it first)
  variables        the environment variables below as the README's Markdown table
  help             this text (also -h, --help)

Every command first creates .venv and installs what it needs: serve the runtime set
(requirements.txt), test, bench and audit the dev set (requirements-dev.txt: the runtime set
plus the test and CI tools). A .venv left half-made by an interrupted first run is detected
and rebuilt.

environment:
""" + variables_text()


def log(message: str) -> None:
    """Print a progress line at once."""
    print(f"[dev] {message}", flush=True)


def included_files(requirements: Path) -> list[Path]:
    """``requirements`` and every file it includes (``-r FILE``, ``--requirement FILE``),
    recursively, each once, ``requirements`` first."""
    files = [requirements]
    for path in files:
        for line in path.read_text().splitlines():
            match = re.match(r"\s*(?:-r|--requirement)(?:\s+|=)(\S+)", line)
            included = path.parent / match.group(1) if match else None
            if included is not None and included not in files:
                files.append(included)
    return files


def requirements_digest(requirements: Path = REQUIREMENTS) -> str:
    """Hash of ``requirements``, the files it includes and the Python version of the venv."""
    data = b"".join(path.name.encode() + b"\0" + path.read_bytes() + b"\0"
                    for path in included_files(requirements))
    return hashlib.sha256(data + f"python{sys.version_info[:2]}".encode()).hexdigest()


def installed_digests(venv: Path = VENV) -> dict[str, str]:
    """What the stamp says is installed: requirements file name -> its digest then."""
    stamp = venv / STAMP_NAME
    lines = stamp.read_text().splitlines() if stamp.is_file() else []
    return {words[1]: words[0] for words in map(str.split, lines) if len(words) == 2}


def record_installed(venv: Path, requirements: Path) -> None:
    """Stamp ``requirements`` and each file it includes as installed, keeping the others."""
    digests = installed_digests(venv)
    digests.update({path.name: requirements_digest(path)
                    for path in included_files(requirements)})
    (venv / STAMP_NAME).write_text("".join(f"{digest}  {name}\n"
                                           for name, digest in sorted(digests.items())))


def in_venv(venv: Path = VENV) -> bool:
    """True when this interpreter is the project's venv."""
    return Path(sys.prefix).resolve() == venv.resolve()


def venv_problem(venv: Path = VENV) -> str | None:
    """Why ``venv`` cannot be used as it is (it must be rebuilt), or None when it is whole.

    A first run interrupted while ``python -m venv`` ran leaves no ``pyvenv.cfg``, no
    ``bin/python`` or no pip; one interrupted while pip installed a requirements file leaves
    the ``INSTALLING_NAME`` marker. A missing ``venv`` is not a problem: it is simply created.
    """
    if not venv.exists():
        return None
    python = venv / "bin" / "python"
    if not (venv / "pyvenv.cfg").is_file():
        return "it has no pyvenv.cfg"
    if not python.exists():  # also a dangling link to a Python that was removed
        return "it has no bin/python"
    if not os.access(python, os.X_OK):
        return "its bin/python is not executable"
    if not any(venv.glob("lib/python3*/site-packages/pip/__init__.py")):
        return "it has no pip"
    if (venv / INSTALLING_NAME).exists():
        return "installing requirements into it did not finish"
    return None


def ensure_venv(venv: Path = VENV, requirements: Path = REQUIREMENTS,
                run: Callable[..., object] = subprocess.run) -> None:
    """Create (or rebuild, when half-made) ``venv`` and install ``requirements`` into it
    unless the stamp says that file, as it is now, is installed (alone or included by another).
    pip shows each package as it goes. ``run`` is how commands are run (tests pass a recorder).
    """
    python = venv / "bin" / "python"
    stamp = venv / STAMP_NAME
    if not in_venv(venv):
        problem = venv_problem(venv)
        if problem is not None:
            log(f"{venv.name} is incomplete ({problem}; an earlier first run was probably "
                f"interrupted): deleting and rebuilding it")
        if problem is not None or not python.exists():
            if problem is None:
                log(f"creating {venv.name} with Python {sys.version.split()[0]}")
            run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
            stamp.unlink(missing_ok=True)
    if installed_digests(venv).get(requirements.name) == requirements_digest(requirements):
        return
    log(f"installing {requirements.name} into {venv.name}")
    started = time.monotonic()
    marker = venv / INSTALLING_NAME
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"pip install -r {requirements.name} started; removed when it finishes\n")
    run([str(python), "-m", "pip", "install", "--disable-pip-version-check",
         "-r", str(requirements)], check=True)
    record_installed(venv, requirements)
    marker.unlink(missing_ok=True)
    log(f"installed {requirements.name} in {time.monotonic() - started:.0f} s")


def reexec_in_venv() -> None:
    """Replace this process by the same command run with the venv's Python."""
    if os.environ.get(REEXEC_FLAG):
        sys.exit(f"[dev] {VENV_PYTHON} did not start inside {VENV}; delete .venv and retry")
    os.environ[REEXEC_FLAG] = "1"
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])


class _Stop(Exception):
    """Raised by the SIGINT / SIGTERM / SIGHUP handler to unwind ``serve``."""


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _ignore_stop_signals() -> None:
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def _raise_stop(signum: int, frame: object) -> None:
    """Unwind ``serve`` on the first stop signal, ignoring the next ones: a second signal (Ctrl-C
    pressed twice, `timeout` and `kill` together) would otherwise raise inside the cleanup and
    leave gunicorn, the worker and the embedded database running."""
    _ignore_stop_signals()
    raise _Stop(signum)


def port_in_use(host: str, port: int) -> str | None:
    """Why `host:port` cannot be bound now (another server holds it), or None when free."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host or "0.0.0.0", port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def serve(args: list[str]) -> int:
    """Migrate, then run gunicorn and a background worker until interrupted; stop the
    embedded database after."""
    if args:
        sys.exit("[dev] serve takes no arguments (use PORT, DATABASE_URL, WEB_CONCURRENCY)")
    env = dict(os.environ)
    env.setdefault("PORT", "8000")
    env.setdefault("BIND_HOST", "127.0.0.1")
    # Stop within seconds on Ctrl-C even while clients hold long polls open.
    env.setdefault("GUNICORN_CMD_ARGS", "--graceful-timeout 5")
    busy = port_in_use(env["BIND_HOST"], int(env["PORT"]))
    if busy:
        # (before the embedded database starts: a second serve must not stop the first's)
        sys.exit(f"[dev] {env['BIND_HOST']}:{env['PORT']} is in use ({busy}): is another "
                 "serve running? Stop it, or choose another PORT")
    for sig in STOP_SIGNALS:
        signal.signal(sig, _raise_stop)
    datadir = None
    gunicorn = worker = None
    # One metrics folder for the web workers and the background worker: /metrics shows both.
    metrics_dir = None
    if not env.get("PROMETHEUS_MULTIPROC_DIR"):
        metrics_dir = env["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="truco-metrics-")
    try:
        if not env.get("DATABASE_URL"):
            sys.path.insert(0, str(ROOT))
            from devtools.embedded_pg import default_datadir, start_embedded

            datadir = default_datadir(ROOT)
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
        worker = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env,
                                  start_new_session=True)
        host = env["BIND_HOST"] if env["BIND_HOST"] not in ("", "0.0.0.0") else "127.0.0.1"
        log(f"serving on http://{host}:{env['PORT']}/ (docs at /docs), with a background "
            "worker for the bots; Ctrl-C stops")
        log(f"play in a browser: http://{host}:{env['PORT']}/play/")
        return gunicorn.wait()
    except _Stop:
        return 0
    except subprocess.CalledProcessError as exc:
        log(f"failed: {' '.join(map(str, exc.cmd))} exited {exc.returncode}")
        return exc.returncode or 1
    finally:
        _ignore_stop_signals()
        for process, grace in ((worker, 30), (gunicorn, 75)):
            if process is not None and process.poll() is None:
                process.terminate()  # the worker finishes the step under way
                try:
                    process.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
        if datadir is not None:
            from devtools.embedded_pg import stop_embedded

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


def audit(args: list[str]) -> int:
    """Audit the pinned requirements for known vulnerabilities (scripts/audit_deps.py)."""
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "audit_deps.py"), *args],
                          cwd=ROOT).returncode


COMMANDS: dict[str, tuple[Callable[[list[str]], int], Path]] = {
    "serve": (serve, REQUIREMENTS),
    "test": (test, DEV_REQUIREMENTS),
    "bench": (bench, DEV_REQUIREMENTS),
    "audit": (audit, DEV_REQUIREMENTS),
}
"""Each command, and the requirements file it needs installed in .venv."""


HELP = ("help", "-h", "--help")


def main(argv: list[str]) -> int:
    """Dispatch ``argv[0]`` to a command; ``help`` prints the usage."""
    if argv and argv[0] in HELP:
        print(USAGE, end="")
        return 0
    if argv == ["variables"]:
        print(variables_markdown(), end="")
        return 0
    if not argv or argv[0] not in COMMANDS:
        if argv:
            print(f"[dev] unknown command {argv[0]!r}\n", file=sys.stderr)
        print(USAGE, end="", file=sys.stderr)
        return 2
    if sys.version_info < (3, 11):
        sys.exit(f"[dev] Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    command, requirements = COMMANDS[argv[0]]
    ensure_venv(requirements=requirements)
    if not in_venv():
        reexec_in_venv()
    return command(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
