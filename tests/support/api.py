"""Calls of the API tests through the Flask test client: players, matches, actions, snapshots,
the leak check, the worker's steps, and looks at what the server stored.

Everything goes through the public HTTP API except where a test must look at what the server
stored (``db_rows`` / ``db_scalar``, ``knowable_cards``).
"""
from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support.player import Player

PROBLEM = "application/problem+json"

# RULES.md §14 deals (4 players; hands by seat, in slot order).
F1 = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
F2 = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
# a face-down card in trick 2.
R18 = {"vira": "Kd", "hands": [["Ac", "3c", "2d"], ["6d", "4h", "5c"], ["Qs", "Jh", "7d"],
                               ["6s", "5h", "4c"]]}
# A 2-player deal (seat 0, seat 1).
D2 = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"]]}


def deal(d: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(d)


def action_set(actions: list[dict[str, Any]]) -> set[str]:
    """Action bodies as an order-free set (each body as canonical JSON)."""
    return {json.dumps(a, sort_keys=True) for a in actions}


def auth(player: Player | None) -> dict[str, str]:
    return {} if player is None else player.headers


def register(client: Any, name: str = "ana", bot: bool = False) -> Player:
    r = client.post("/v1/players", json={"name": name, "bot": bot})
    assert r.status_code == 201, r.get_data(as_text=True)
    return Player(r.json["id"], r.json["name"], r.json["token"])


def assert_problem(r: Any, status: int, code: str) -> dict[str, Any]:
    """`r` is an RFC 9457 problem with this status and code; returns its body."""
    text = r.get_data(as_text=True)
    assert r.status_code == status, text
    assert r.headers["Content-Type"].startswith(PROBLEM), (r.headers["Content-Type"], text)
    body = r.json
    assert body["code"] == code, text
    assert body["status"] == status
    assert body["type"].endswith(code)
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert "Traceback" not in text
    return body


def assert_illegal(r: Any, reason: str) -> dict[str, Any]:
    body = assert_problem(r, 422, "illegal_action")
    assert body["reason"] == reason, body
    assert isinstance(body["legal_actions"], list)
    return body


def create(client: Any, creator: Player, **body: Any) -> dict[str, Any]:
    r = client.post("/v1/matches", json=body, headers=creator.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.json


def join(client: Any, match_id: str, player: Player, **body: Any) -> Any:
    return client.post(f"/v1/matches/{match_id}/join", json=body, headers=player.headers)


def full_match(client: Any, players: int = 2, **setup: Any) -> tuple[str, list[Player]]:
    """A started match with one registered player per seat (seat i = returned list[i])."""
    seated = [register(client, f"seat {i}") for i in range(players)]
    m = create(client, seated[0], players=players, seat=0, **setup)
    for i in range(1, players):
        r = join(client, m["id"], seated[i], seat=i)
        assert r.status_code == 200, r.get_data(as_text=True)
        assert r.json["you"] == {"seat": i, "team": i % 2}
    assert r.json["status"] == "active"
    return m["id"], seated


def act(client: Any, match_id: str, player: Player, action: Any,
        headers: dict[str, str] | None = None) -> Any:
    return client.post(f"/v1/matches/{match_id}/actions", json=action,
                       headers={**player.headers, **(headers or {})})


def act_ok(client: Any, match_id: str, player: Player, action: Any) -> dict[str, Any]:
    r = act(client, match_id, player, action)
    assert r.status_code == 200, (action, r.get_data(as_text=True))
    return r.json


def get_view(client: Any, match_id: str, player: Player | None = None) -> dict[str, Any]:
    r = client.get(f"/v1/matches/{match_id}", headers=auth(player))
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def my_matches(client: Any, player: Player, query: str = "") -> list[dict[str, Any]]:
    """The items of the player's GET /v1/me/matches (`query`: "?status=..." and so on)."""
    r = client.get(f"/v1/me/matches{query}", headers=player.headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json["items"]


def get_events(client: Any, match_id: str, player: Player | None = None,
               after: int = 0) -> list[dict[str, Any]]:
    """Every event after `after`, following `next_after` page by page."""
    items: list[dict[str, Any]] = []
    while True:
        r = client.get(f"/v1/matches/{match_id}/events?after={after}&limit=500",
                       headers=auth(player))
        assert r.status_code == 200, r.get_data(as_text=True)
        page = r.json
        items.extend(page["items"])
        if not page["items"]:
            return items
        after = page["next_after"]


# --- what the server stored -------------------------------------------------------------


def db_rows(app: Any, sql: str, **params: Any) -> list[Any]:
    from sqlalchemy import text

    from app.db.extensions import db

    with app.app_context():
        rows = db.session.execute(text(sql), params).all()
        db.session.remove()
    return rows


REGISTERED = "SELECT count(*) FROM players WHERE token_hash NOT LIKE 'level:%'"
"""How many players registered (not the built-in levels' players, which are always there)."""


def db_scalar(app: Any, sql: str, **params: Any) -> Any:
    rows = db_rows(app, sql, **params)
    assert len(rows) == 1, rows
    return rows[0][0]


def backend_gone(app: Any, pid: int, seconds: float = 10.0) -> bool:
    """Wait until the PostgreSQL backend `pid` has ended (a closed connection's backend ends,
    and lets its locks go, a moment after the close); False if it is still there."""
    import time

    deadline = time.monotonic() + seconds
    while db_scalar(app, "SELECT count(*) FROM pg_stat_activity WHERE pid = :pid", pid=pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def snapshot(client: Any, app: Any, match_id: str,
             viewers: list[Player | None]) -> dict[str, Any]:
    """Everything a rejected request must leave alone: every viewer's view and ETag, the
    event log, the recorded actions and the stored state."""
    views = {}
    for p in viewers:
        r = client.get(f"/v1/matches/{match_id}", headers=auth(p))
        assert r.status_code == 200
        views[None if p is None else p.id] = (r.headers["ETag"], r.json)
    return {
        "views": views,
        "events": get_events(client, match_id, viewers[0]),
        "actions": [tuple(row) for row in db_rows(
            app, "SELECT n, seat, body FROM actions WHERE match_id = :m ORDER BY n", m=match_id)],
        "state": db_rows(app, "SELECT version, status, state FROM matches WHERE id = :m",
                         m=match_id)[0]._asdict(),
    }


# --- random play ----------------------------------------------------------------------


def random_step(client: Any, match_id: str, by_seat: list[Player], rng: random.Random,
                view: dict[str, Any] | None = None) -> tuple[Player, dict[str, Any], Any]:
    """One random legal action by a random seat in `to_act`; returns (player, action, response)."""
    view = view or get_view(client, match_id)
    seat = rng.choice(view["hand"]["to_act"])
    mine = get_view(client, match_id, by_seat[seat])
    action = rng.choice(mine["legal_actions"])
    r = act(client, match_id, by_seat[seat], action)
    assert r.status_code == 200, (action, r.get_data(as_text=True))
    return by_seat[seat], action, r


def play_out(client: Any, match_id: str, by_seat: list[Player], rng: random.Random,
             max_steps: int = 3000) -> dict[str, Any]:
    """Random legal play until the match is finished; returns the final spectator view."""
    for _ in range(max_steps):
        view = get_view(client, match_id)
        if view["status"] != "active":
            return view
        random_step(client, match_id, by_seat, rng, view)
    raise AssertionError("the match did not end")


# --- hidden information -----------------------------------------------------------------

CARD = re.compile(r"^[A2-7QJK][cdhs]$")


def card_strings(value: Any, path: str = "$") -> Iterator[tuple[str, str]]:
    """(path, card code) for every JSON string (keys included) that is exactly a card code,
    except the public `manilhas` lists (ranks named by the vira, not cards anyone holds)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                yield f"{path}.<key>", str(key)
            if key == "manilhas":
                continue
            yield from card_strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from card_strings(item, f"{path}[{i}]")
    elif isinstance(value, str) and CARD.match(value):
        yield path, value


def knowable_cards(app: Any, match_id: str, seat: int | None) -> set[str]:
    """The cards `seat` (None: a spectator) may know now, from the unredacted stored log and
    the rules alone (API.md, RULES.md §7.2, §8.2, §9.3): every vira and face-up card on the
    table; a seat's own dealt cards unless the hand is blind; the whole team's cards for the
    team on 11 in a mão de onze; the seat's own face-down cards; once the match is finished,
    everything for its players."""
    status, config = db_rows(app, "SELECT status, config FROM matches WHERE id = :m",
                             m=match_id)[0]
    events = [row[0] for row in db_rows(
        app, "SELECT data FROM events WHERE match_id = :m ORDER BY seq", m=match_id)]
    blind_rule = (config.get("options") or {}).get("iron_hand_blind", True)
    everything = status == "finished" and seat is not None
    known: set[str] = set()
    for e in events:
        if e["type"] == "hand_dealt":
            if e.get("vira"):
                known.add(e["vira"])
            hands = e["hands"]
            if everything:
                known.update(c for hand in hands for c in hand)
            elif seat is not None:
                if not (e["special"] == "mao_de_ferro" and blind_rule):
                    known.update(hands[seat])
                if e["special"] == "mao_de_onze" and seat % 2 == e.get("eleven_team"):
                    known.update(c for s, hand in enumerate(hands) if s % 2 == seat % 2
                                 for c in hand)
        elif e["type"] == "card_played":
            if not e["face_down"] or e["seat"] == seat or everything:
                known.add(e["card"])
    return known


def assert_no_leak(app: Any, match_id: str, seat: int | None, payload: Any,
                   where: str = "") -> int:
    """Every card code in `payload` is one `seat` may know; returns how many were seen."""
    known = knowable_cards(app, match_id, seat)
    seen = list(card_strings(payload))
    leaks = [(path, card) for path, card in seen if card not in known]
    assert not leaks, f"{where}: seat {seat} was shown cards it may not know: {leaks}"
    return len(seen)


def run_worker(app: Any, now: Any = None) -> int:
    """Do the background work that is due (bots' moves, passed deadlines), as a worker
    process would, at the time `now` (default: the real time); the number of steps done."""
    from app.db.extensions import db
    from app.play.background import run_due

    with app.app_context():
        try:
            return run_due(now=now)
        finally:
            db.session.remove()


def deliver(app: Any, now: Any = None) -> int:
    """Attempt the webhook deliveries that are due, as the worker's delivery thread does."""
    from app.db.extensions import db
    from app.webhooks.delivery import deliver_due

    with app.app_context():
        try:
            return deliver_due(now=now)
        finally:
            db.session.remove()


NOTIFIED = "; BEGIN; SET; EXECUTE truco_notify; COMMIT"
"""How :func:`messages` shows what follows a write's `COMMIT` in its message: the
notifications, in a transaction of their own (app/db/hot_statements.py: `NOTIFY`)."""


@contextmanager
def messages(app: Any) -> Iterator[tuple[list[str], list[int]]]:
    """The messages `app` sends to PostgreSQL inside the block (each as its statements'
    first words, a connection's own PREPAREs and its list of them left out), and the transaction
    status of every connection given back to the pool."""
    import psycopg2
    from psycopg2.extensions import TRANSACTION_STATUS_IDLE
    from sqlalchemy import event

    from app.db.extensions import db

    sent: list[str] = []
    returned: list[int] = []

    class Spy(psycopg2.extensions.cursor):
        def execute(self, sql: str, params: Any = None) -> None:  # type: ignore[override]
            if sql.startswith("SELECT name FROM pg_prepared_statements"):
                super().execute(sql, params)  # (a connection's first use of app.db.prepared)
                return
            conn = self.connection
            implicit = not conn.autocommit and \
                conn.info.transaction_status == TRANSACTION_STATUS_IDLE
            words = [" ".join(part.split()[:2]).split("(")[0]
                     if part.startswith(("EXECUTE", "PREPARE")) else part.split()[0]
                     + (" FROM players" if "FROM players" in part else "")
                     for part in sql.split(";\n")]
            words = [w for w in words if not w.startswith("PREPARE ")]
            sent.append(("BEGIN (implicit); " if implicit else "") + "; ".join(words))
            super().execute(sql, params)

    def checkout(dbapi: Any, record: Any, proxy: Any) -> None:
        dbapi.cursor_factory = Spy

    def checkin(dbapi: Any, record: Any) -> None:
        if dbapi is not None:
            returned.append(dbapi.info.transaction_status)
            dbapi.cursor_factory = psycopg2.extensions.cursor

    with app.app_context():
        engine = db.engine
    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)
    try:
        yield sent, returned
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "checkin", checkin)


# --- settled matches: tallies and ratings ---------------------------------------------------


def settle_all(app: Any) -> int:
    """Settle every finished match not yet settled, as a worker process would; how many."""
    from app.db.extensions import db
    from app.play.settle import settle_due

    with app.app_context():
        try:
            return settle_due()
        finally:
            db.session.remove()


def profile(client: Any, player_id: str) -> dict[str, Any]:
    r = client.get(f"/v1/players/{player_id}")
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def resigned_match(client: Any, players: int, loser_seat: int,
                   **setup: Any) -> tuple[str, list[Player]]:
    """A match of registered players that `loser_seat`'s team lost by resigning at once."""
    match_id, seated = full_match(client, players, **setup)
    r = client.post(f"/v1/matches/{match_id}/resign", headers=seated[loser_seat].headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.json["winner_team"] == 1 - loser_seat % 2
    return match_id, seated


# --- auditable deals ----------------------------------------------------------------------


def client_fetch(client: Any, player: Player | None) -> Any:
    """scripts/verify_deals.py's `fetch` through the Flask test client, as `player`."""
    def fetch(path: str) -> Any:
        r = client.get(path, headers=auth(player))
        assert r.status_code == 200, r.get_data(as_text=True)
        return r.json
    return fetch


def db_execute(app: Any, sql: str, **params: Any) -> None:
    """Run one statement as a change of the test's own, committed (never a verb's way)."""
    from sqlalchemy import text

    from app.db.extensions import db

    with app.app_context():
        db.session.execute(text(sql), params)
        db.session.commit()
        db.session.remove()


def stored_secret(app: Any, match_id: str) -> str:
    """The hex secret the server keeps for `match_id`."""
    return db_scalar(app, "SELECT config->'fairness'->>'secret' FROM matches WHERE id = :m",
                     m=match_id)


# --- what a process sends and hears -------------------------------------------------------

D2_SETUP = {"options": {"first_dealer": 1}, "deals": [copy.deepcopy(D2)] * 4}
"""A 2-player match's creation fields: seat 1 deals first, every hand is D2."""


@contextmanager
def counted(app: Any) -> Iterator[list[str]]:
    """The SQL statements `app` sends inside the block: through SQLAlchemy, or prepared
    (app/db/prepared.py, by name)."""
    from sqlalchemy import event

    from app.db import prepared
    from app.db.extensions import db

    statements: list[str] = []

    def seen(conn, cursor, statement, *args) -> None:  # noqa: ANN001
        statements.append(statement)

    real_run = prepared.run

    def run(conn, batch, params, **options):  # noqa: ANN001, ANN003, ANN202
        statements.extend(f"EXECUTE {s.name}" for s in batch)
        return real_run(conn, batch, params, **options)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    prepared.run = run
    try:
        yield statements
    finally:
        prepared.run = real_run
        event.remove(engine, "before_cursor_execute", seen)


@contextmanager
def connections_held(app: Any) -> Iterator[list[int]]:
    """The most pooled connections `app` held at once inside the block (the list's one item,
    set when the block ends)."""
    from sqlalchemy import event

    from app.db.extensions import db

    with app.app_context():
        pool = db.engine.pool
    held, most = [0], [0]

    def out(*args: Any) -> None:
        held[0] += 1
        most[0] = max(most[0], held[0])

    def back(*args: Any) -> None:
        held[0] -= 1

    event.listen(pool, "checkout", out)
    event.listen(pool, "checkin", back)
    found: list[int] = []
    try:
        yield found
    finally:
        event.remove(pool, "checkout", out)
        event.remove(pool, "checkin", back)
        found.append(most[0])


def listening(app: Any) -> Any:
    """`app`'s LISTEN/NOTIFY hub, once its listener has connected."""
    hub = app.extensions["truco_hub"]
    assert hub.ready.wait(5), "the listener did not connect"
    return hub


def next_move(client: Any, match_id: str, seated: list[Any]) -> tuple[Any, dict[str, Any]]:
    """The player to act and a legal action of theirs (read now, sent later)."""
    legal = {p.id: get_view(client, match_id, p)["legal_actions"] for p in seated}
    mover = next(p for p in seated if legal[p.id])
    return mover, legal[mover.id][0]


def replayed_and_stored(app: Any, match_id: str) -> tuple[Any, Any]:
    """The state replayed from `match_id`'s recorded actions, and the stored one (as JSON)."""
    from app.play import store as service
    from app.db.extensions import db
    from app.db.models import Match

    with app.app_context():
        match = db.session.get(Match, match_id)
        state = service.replay(match)
        stored = match.state
        db.session.remove()
    assert state is not None
    return state.to_json(), stored
