"""Client-side helpers: players and matches over HTTP with `requests`, races of threads,
long polls in the background, and direct looks at the database."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg2
import requests
from sqlalchemy.engine import make_url

TIMEOUT = 15
"""Client timeout of a plain request (a long poll adds its wait)."""

FIRST_DEAL = {"vira": "6d", "hands": [["7c", "3h", "4s"], ["Kd", "2s", "Ah"]]}


class Player:
    """A registered player: its token and a few calls."""

    def __init__(self, base: str, name: str) -> None:
        r = requests.post(f"{base}/v1/players", json={"name": name}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        self.id = r.json()["id"]
        self.token = r.json()["token"]

    def headers(self, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **extra}

    def view(self, base: str, match_id: str) -> requests.Response:
        r = requests.get(f"{base}/v1/matches/{match_id}", headers=self.headers(),
                         timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        return r

    def act(self, base: str, match_id: str, body: dict[str, Any],
            **headers: str) -> requests.Response:
        return requests.post(f"{base}/v1/matches/{match_id}/actions", json=body,
                             headers=self.headers(**headers), timeout=TIMEOUT)


class Table:
    """A started two-player match between two human players (no bots: every action in the
    actions table was posted by a test)."""

    def __init__(self, base: str, seed: int = 7) -> None:
        self.base = base
        self.players = [Player(base, "ana"), Player(base, "bia")]
        r = requests.post(f"{base}/v1/matches", headers=self.players[0].headers(), json={
            "players": 2, "seat": 0, "seed": seed, "deals": [FIRST_DEAL],
            "visibility": "private"}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        self.id = r.json()["id"]
        r = requests.post(f"{base}/v1/matches/{self.id}/join", headers=self.players[1].headers(),
                          json={"seat": 1, "invite_code": r.json()["invite_code"]},
                          timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "active"

    def view(self, seat: int, base: str | None = None) -> requests.Response:
        return self.players[seat].view(base or self.base, self.id)

    def to_act(self) -> int:
        """The one seat that may act now (two players: never more than one)."""
        (seat,) = self.view(0).json()["hand"]["to_act"]
        return seat

    def act(self, seat: int, body: dict[str, Any], base: str | None = None,
            **headers: str) -> requests.Response:
        return self.players[seat].act(base or self.base, self.id, body, **headers)


def race(calls: list[Callable[[], requests.Response]]) -> list[requests.Response]:
    """Run every call in its own thread, released together by a barrier."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], requests.Response]) -> requests.Response:
        barrier.wait(timeout=TIMEOUT)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls, timeout=3 * TIMEOUT))


class Background:
    """A request run in a thread; `done` is set when its answer is in, at `finished_at`."""

    def __init__(self, call: Callable[[], requests.Response]) -> None:
        self.done = threading.Event()
        self.response: requests.Response | None = None
        self.error: BaseException | None = None
        self.started_at = time.monotonic()
        self.finished_at = 0.0

        def run() -> None:
            try:
                self.response = call()
            except BaseException as exc:  # noqa: BLE001 - re-raised by result()
                self.error = exc
            finally:
                self.finished_at = time.monotonic()
                self.done.set()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def result(self, timeout: float) -> requests.Response:
        assert self.done.wait(timeout), f"no answer within {timeout}s"
        self._thread.join()
        if self.error is not None:
            raise self.error
        assert self.response is not None
        return self.response


def long_poll(url: str, wait: int, headers: dict[str, str],
              params: dict[str, Any] | None = None) -> Background:
    """GET `url` with `wait` in the background."""
    query = {**(params or {}), "wait": wait}
    return Background(lambda: requests.get(url, params=query, headers=headers,
                                           timeout=wait + TIMEOUT))


def settle(poll: Background, seconds: float = 0.4) -> None:
    """Give a long poll time to reach the server and start waiting, and check that it is
    indeed held (not answered at once). The sleep orders events; it asserts nothing itself."""
    time.sleep(seconds)
    answer = poll.response.status_code if poll.response is not None else poll.error
    assert not poll.done.is_set(), f"the long poll answered at once: {answer}"


def libpq_url(database_url: str) -> str:
    return make_url(database_url).set(drivername="postgresql").render_as_string(
        hide_password=False)


class Pg:
    """An autocommit psycopg2 connection to the test database, for looks behind the API."""

    def __init__(self, database_url: str) -> None:
        self.conn = psycopg2.connect(libpq_url(database_url), application_name="truco-tests")
        self.conn.autocommit = True

    def one(self, sql: str, *args: Any) -> Any:
        with self.conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchone()

    def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with self.conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchall()

    def action_count(self, match_id: str) -> int:
        return self.one("SELECT count(*) FROM actions WHERE match_id = %s", match_id)[0]

    def listener_pids(self) -> list[int]:
        """Backends of the app listeners on this database (`LISTEN truco`)."""
        return [row[0] for row in self.all(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND query = 'LISTEN truco' AND pid <> pg_backend_pid()")]

    def wait_for_listeners(self, count: int, exclude: set[int] = frozenset(),
                           timeout: float = 10) -> list[int]:
        """Await `count` listener backends that are not in `exclude`."""
        deadline = time.monotonic() + timeout
        while True:
            pids = [p for p in self.listener_pids() if p not in exclude]
            if len(pids) >= count:
                return pids
            assert time.monotonic() < deadline, f"listeners: {pids}, wanted {count}"
            time.sleep(0.05)

    def close(self) -> None:
        self.conn.close()


def check_never_lost(app: Any, match_id: str, accepted: list[dict[str, Any]]) -> None:
    """Every accepted action is in the actions table, in order, and the stored state is
    what replaying the table from the creation config gives."""
    from sqlalchemy import select

    from app.play import store as service
    from app.db.extensions import db
    from app.db.models import ActionRecord

    with app.app_context():
        match = service.get_match(match_id)
        bodies = [r.body for r in db.session.execute(
            select(ActionRecord).where(ActionRecord.match_id == match_id)
            .order_by(ActionRecord.n)).scalars()]
        assert bodies == accepted
        replayed = service.replay(match)
        assert replayed is not None
        assert json.loads(json.dumps(replayed.to_json())) == match.state
        db.session.remove()
