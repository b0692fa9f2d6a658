"""Play on a real server over HTTP with `requests`: a started match of two players, races of
threads, long polls in the background, and the check that no accepted action was lost."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import requests

from tests.support.player import TIMEOUT, Player

FIRST_DEAL = {"vira": "6d", "hands": [["7c", "3h", "4s"], ["Kd", "2s", "Ah"]]}


class Table:
    """A started two-player match between two human players (no bots: every action in the
    actions table was posted by a test)."""

    def __init__(self, base: str, seed: int = 7) -> None:
        self.base = base
        self.players = [Player.register_at(base, "ana"), Player.register_at(base, "bia")]
        r = requests.post(f"{base}/v1/matches", headers=self.players[0].headers, json={
            "players": 2, "seat": 0, "seed": seed, "deals": [FIRST_DEAL],
            "visibility": "private"}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        self.id = r.json()["id"]
        r = requests.post(f"{base}/v1/matches/{self.id}/join", headers=self.players[1].headers,
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


def new_token(base: str, name: str = "p") -> str:
    """A new player's token on the server at `base`."""
    return Player.register_at(base, name).token
