"""examples/bot_client.py, the bot authors' worked example: its `easy` strategy on fixed
views, its error handling against a scripted server, and a whole match against a real server
(run as a subprocess from a copy outside the repository, as a bot author would run it)."""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import requests
from requests.adapters import BaseAdapter

from tests.support.servers import Server, start_testing_servers

ROOT = Path(__file__).resolve().parents[2]
BOT_FILE = ROOT / "examples" / "bot_client.py"


def load_bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_bot_client", BOT_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bot = load_bot()


# ---------------------------------------------------------------------------------------------
# Standalone: nothing from the repository
# ---------------------------------------------------------------------------------------------


def test_the_example_imports_only_the_standard_library_and_requests() -> None:
    tree = ast.parse(BOT_FILE.read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            roots.add(node.module.split(".")[0])
    assert roots - {"requests"} <= sys.stdlib_module_names, roots
    assert not roots & {"engine", "app", "tests"}


# ---------------------------------------------------------------------------------------------
# The easy strategy on fixed views
# ---------------------------------------------------------------------------------------------

MANILHAS = ["Qc", "Qh", "Qs", "Qd"]  # vira 7d


def view(cards: list[str | None], legal: list[dict[str, Any]], *,
         table: list[tuple[int, str | None]] = (), tricks: list[dict[str, Any]] = (),
         pending: dict[str, Any] | None = None, stake: int = 1, seat: int = 1,
         players: int = 2, partner_cards: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A player view as the server shapes it (only the fields a strategy reads, and some)."""
    done = list(tricks)
    if table:
        done.append({"plays": [{"seat": s, "card": c, "face_down": c is None} for s, c in table],
                     "winner_team": None, "tie": False})
    return {
        "id": "m_test", "status": "active", "players": players, "score": [0, 0],
        "you": {"seat": seat, "team": seat % 2},
        "hand": {"number": 1, "dealer": 0, "vira": "7d", "manilhas": MANILHAS,
                 "cards": cards, "partner_cards": partner_cards, "stake": stake,
                 "special": None, "pending": pending, "tricks": done, "to_act": [seat]},
        "legal_actions": legal,
    }


def plays(cards: list[str], raise_: bool = False) -> list[dict[str, Any]]:
    legal = [{"type": "play", "card": c} for c in cards]
    return legal + ([{"type": "raise"}] if raise_ else [])


def test_card_strength_orders_ranks_then_manilhas_by_suit() -> None:
    order = ["4c", "5h", "6s", "7d", "Jc", "Kh", "As", "2d", "3c", "Qd", "Qs", "Qh", "Qc"]
    strengths = [bot.card_strength(c, MANILHAS) for c in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    assert bot.card_strength("3c", MANILHAS) == bot.card_strength("3s", MANILHAS)
    assert bot.card_strength(None, MANILHAS) == -1


def test_wins_the_trick_with_the_cheapest_card_that_beats_the_table() -> None:
    cards = ["3h", "Kd", "Qs", "5c"]  # Qs is a manilha
    v = view(cards, plays(cards), table=[(0, "Jc")])
    assert bot.easy_strategy(v) == {"type": "play", "card": "Kd"}
    v = view(cards, plays(cards), table=[(0, "2c")])
    assert bot.easy_strategy(v) == {"type": "play", "card": "3h"}
    v = view(cards, plays(cards), table=[(0, "Qd")])  # only a stronger manilha beats it
    assert bot.easy_strategy(v) == {"type": "play", "card": "Qs"}


def test_dumps_the_weakest_card_when_it_cannot_win() -> None:
    cards = ["Kd", "6h", "Jc"]
    v = view(cards, plays(cards), table=[(0, "Qh")])  # a manilha on the table
    assert bot.easy_strategy(v) == {"type": "play", "card": "6h"}
    v = view(cards, plays(cards), table=[(0, "Kc")])  # a tie is not a win: dump
    assert bot.easy_strategy(v) == {"type": "play", "card": "6h"}


def test_does_not_overtake_a_partner_who_holds_the_trick() -> None:
    cards = ["3h", "4d"]
    v = view(cards, plays(cards), table=[(0, "Kc"), (1, "As"), (2, "5d")], seat=3, players=4)
    assert bot.easy_strategy(v) == {"type": "play", "card": "4d"}  # seat 1 (partner) holds it
    v = view(cards, plays(cards), table=[(1, "Kc"), (2, "As")], seat=3, players=4)
    assert bot.easy_strategy(v) == {"type": "play", "card": "3h"}


def test_face_down_cards_on_the_table_count_nothing() -> None:
    cards = ["4h", "5d"]
    done = [{"plays": [{"seat": 0, "card": "3c", "face_down": False},
                       {"seat": 1, "card": "2c", "face_down": False}],
             "winner_team": 0, "tie": False}]
    v = view(cards, plays(cards), table=[(0, None)], tricks=done)
    assert bot.easy_strategy(v) == {"type": "play", "card": "4h"}


def test_leads_with_a_sure_card_or_else_the_weakest() -> None:
    cards = ["5h", "Qh", "Kd"]
    assert bot.easy_strategy(view(cards, plays(cards))) == {"type": "play", "card": "Qh"}
    cards = ["5h", "Ad", "Kd"]
    assert bot.easy_strategy(view(cards, plays(cards))) == {"type": "play", "card": "5h"}


def test_plays_by_slot_when_the_cards_are_hidden() -> None:
    legal = [{"type": "play", "slot": 0}, {"type": "play", "slot": 1}]
    choice = bot.easy_strategy(view([None, None], legal, table=[(0, "3c")]))
    assert choice in legal


def test_calls_truco_with_a_strong_hand_only_and_only_once() -> None:
    strong = ["Qc", "3d", "4h"]
    assert bot.easy_strategy(view(strong, plays(strong, raise_=True))) == {"type": "raise"}
    two_manilhas = ["Qc", "Qd", "4h"]
    assert bot.easy_strategy(view(two_manilhas, plays(two_manilhas, True))) == {"type": "raise"}
    weak = ["Qc", "Kd", "4h"]
    assert bot.easy_strategy(view(weak, plays(weak, True)))["type"] == "play"
    assert bot.easy_strategy(view(strong, plays(strong, True), stake=3))["type"] == "play"


ANSWERS = [{"type": "accept"}, {"type": "refuse"}, {"type": "raise", "to": 6}]


def test_accepts_a_raise_with_a_decent_hand_and_refuses_with_a_weak_one() -> None:
    raise_ = {"kind": "raise", "by_seat": 0, "to": 3}
    assert bot.easy_strategy(view(["Qd", "5h", "4c"], ANSWERS, pending=raise_)) == {
        "type": "accept"}
    assert bot.easy_strategy(view(["3d", "2h", "4c"], ANSWERS, pending=raise_)) == {
        "type": "accept"}
    assert bot.easy_strategy(view(["3d", "6h", "4c"], ANSWERS, pending=raise_)) == {
        "type": "refuse"}


def test_a_card_already_on_the_table_counts_when_answering_a_raise() -> None:
    """Seat 1 led its last card, a manilha; seat 0 calls truco before playing."""
    raise_ = {"kind": "raise", "by_seat": 0, "to": 3}
    done = [{"plays": [{"seat": 0, "card": "3c", "face_down": False},
                       {"seat": 1, "card": "2c", "face_down": False}], "winner_team": 0,
             "tie": False},
            {"plays": [{"seat": 1, "card": "3d", "face_down": False},
                       {"seat": 0, "card": "5d", "face_down": False}], "winner_team": 1,
             "tie": False}]
    assert bot.easy_strategy(view([], ANSWERS, pending=raise_, tricks=done,
                                  table=[(1, "Qh")])) == {"type": "accept"}
    assert bot.easy_strategy(view([], ANSWERS, pending=raise_, tricks=done,
                                  table=[(1, "4h")])) == {"type": "refuse"}


def test_mao_de_onze_counts_partners_cards() -> None:
    eleven = {"kind": "mao_de_onze", "team": 1}
    legal = [{"type": "accept"}, {"type": "refuse"}]
    weak = ["4d", "6h", "Kc"]
    assert bot.easy_strategy(view(weak, legal, pending=eleven)) == {"type": "refuse"}
    assert bot.easy_strategy(view(weak, legal, pending=eleven, players=4,
                                  partner_cards={"3": ["Qc", "5d", "5s"]})) == {"type": "accept"}
    assert bot.easy_strategy(view(["Qs", "4c", "5c"], legal, pending=eleven)) == {
        "type": "accept"}


def test_the_choice_is_always_an_item_of_legal_actions() -> None:
    """Random positions, including forced-highest and face-down options the server lists."""
    rng = random.Random(7)
    deck = [r + s for r in "4567QJKA23" for s in "cdhs"]
    for _ in range(500):
        cards = rng.sample(deck, rng.randint(1, 3))
        allowed = rng.sample(cards, rng.randint(1, len(cards)))
        legal = [{"type": "play", "card": c} for c in allowed]
        legal += [{"type": "play", "card": c, "face_down": True} for c in allowed
                  if rng.random() < 0.3]
        if rng.random() < 0.5:
            legal.append({"type": "raise"})
        table = [(0, rng.choice([None, *[c for c in deck if c not in cards]]))] \
            if rng.random() < 0.6 else []
        assert bot.easy_strategy(view(cards, legal, table=table)) in legal


# ---------------------------------------------------------------------------------------------
# Error handling against a scripted server
# ---------------------------------------------------------------------------------------------


class Scripted(BaseAdapter):
    """A requests transport that answers from a script, and records every request."""

    def __init__(self, script: list[Any]) -> None:
        super().__init__()
        self.script = deque(script)
        self.sent: list[requests.PreparedRequest] = []

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        self.sent.append(request)
        step = self.script.popleft()
        if isinstance(step, Exception):
            raise step
        status, body, headers = step
        resp = requests.Response()
        resp.status_code = status
        resp._content = json.dumps(body).encode() if body is not None else b""
        resp.headers.update({"Content-Type": "application/json", **headers})
        resp.request = request
        resp.url = request.url
        return resp

    def close(self) -> None:
        pass


def scripted(script: list[Any]) -> tuple[Any, Scripted, list[float]]:
    adapter = Scripted(script)
    session = requests.Session()
    session.mount("http://fake", adapter)
    slept: list[float] = []
    client = bot.Client("http://fake", "tok", session=session, sleep=slept.append)
    return bot.Bot(client, wait=5), adapter, slept


def active(legal: list[dict[str, Any]], version: int = 3,
           cards: list[str] = ("Kd", "5c")) -> dict[str, Any]:
    v = view(list(cards), legal, table=[(0, "Jc")])
    v["version"] = version
    return v


def finished() -> dict[str, Any]:
    return {"status": "finished", "winner_team": 1, "score": [4, 12], "you": {"seat": 1,
            "team": 1}, "legal_actions": [], "hand": None}


def problem(status: int, code: str, etag: str | None = None,
            **extra: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
    headers = {"Content-Type": "application/problem+json", **({"ETag": etag} if etag else {})}
    if "retry_after" in extra:
        headers["Retry-After"] = str(extra["retry_after"])
    return status, {"status": status, "code": code, "detail": code, **extra}, headers


def test_an_action_carries_if_match_and_a_key_reused_across_network_errors_and_5xx() -> None:
    legal = plays(["Kd", "5c"])
    b, adapter, slept = scripted([
        (200, active(legal), {"ETag": '"m_test.v3.seat1"'}),
        requests.ConnectionError("reset"),
        problem(503, "service_unavailable", retry_after=2),
        problem(429, "rate_limited", retry_after=7),
        (200, finished(), {"ETag": '"m_test.v9.seat1"'}),
    ])
    assert b.play("m_test") == "finished"
    posts = [r for r in adapter.sent if r.method == "POST"]
    assert len(posts) == 4
    assert {r.headers["Idempotency-Key"] for r in posts} == {posts[0].headers["Idempotency-Key"]}
    assert {r.headers["If-Match"] for r in posts} == {'"m_test.v3.seat1"'}
    assert all(json.loads(r.body) == {"type": "play", "card": "Kd"} for r in posts)
    assert all("wait=5" in r.url for r in posts)
    assert slept[1] >= 2 and slept[2] == 7  # Retry-After is honoured
    assert b.finished == ["m_test"] and b.actions_accepted == 1


def test_version_mismatch_decides_again_on_the_current_view_with_a_new_key() -> None:
    old = active(plays(["Kd", "5c"]), version=3)
    current = active([{"type": "accept"}, {"type": "refuse"}], version=4, cards=["3d", "6h"])
    current["hand"]["pending"] = {"kind": "raise", "by_seat": 0, "to": 3}
    b, adapter, _ = scripted([
        (200, old, {"ETag": '"v3"'}),
        problem(412, "version_mismatch", etag='"v4"', current=current),
        (200, finished(), {}),
    ])
    assert b.play("m_test") == "finished"
    first, second = [r for r in adapter.sent if r.method == "POST"]
    assert second.headers["If-Match"] == '"v4"'
    assert json.loads(second.body) == {"type": "refuse"}  # decided on `current`
    assert first.headers["Idempotency-Key"] != second.headers["Idempotency-Key"]


def test_illegal_action_rereads_the_view_and_picks_again() -> None:
    b, adapter, _ = scripted([
        (200, active(plays(["Kd", "5c"])), {"ETag": '"v3"'}),
        problem(422, "illegal_action", reason="not_your_turn", legal_actions=[]),
        (200, active(plays(["5c"]), version=5, cards=["5c"]), {"ETag": '"v5"'}),
        (200, finished(), {}),
    ])
    assert b.play("m_test") == "finished"
    assert [r.method for r in adapter.sent] == ["GET", "POST", "GET", "POST"]
    assert json.loads(adapter.sent[3].body) == {"type": "play", "card": "5c"}
    assert adapter.sent[3].headers["If-Match"] == '"v5"'


def test_validation_error_skips_the_match_and_not_active_moves_on() -> None:
    b, adapter, _ = scripted([
        (200, active(plays(["Kd", "5c"])), {}),
        problem(422, "validation_error", errors={"card": ["bad"]}),
    ])
    assert b.play("m_test") == "skipped" and b.skipped == {"m_test"}
    b, adapter, _ = scripted([
        (200, active(plays(["Kd", "5c"])), {}),
        problem(409, "match_not_active"),
        (200, finished(), {}),
    ])
    assert b.play("m_test") == "finished" and b.finished == ["m_test"]


def test_a_strategy_that_answers_something_illegal_is_overridden() -> None:
    b, adapter, _ = scripted([(200, active(plays(["Kd", "5c"])), {}), (200, finished(), {})])
    b.strategy = lambda v: {"type": "play", "card": "3s"}
    b.play("m_test")
    assert json.loads(adapter.sent[1].body) == {"type": "play", "card": "Kd"}


def test_401_stops_the_bot_at_once_without_retrying() -> None:
    b, adapter, slept = scripted([problem(401, "unauthorized")])
    with pytest.raises(bot.Unauthorized):
        b.run()
    assert len(adapter.sent) == 1 and slept == []


def test_main_exits_1_with_a_clear_message_on_a_refused_token(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    adapter = Scripted([problem(401, "unauthorized")])
    real_session = requests.Session

    def session() -> requests.Session:
        made = real_session()
        made.mount("http://fake", adapter)
        return made

    monkeypatch.setattr(bot.requests, "Session", session)
    assert bot.main(["--base", "http://fake", "--token", "stale", "--once"]) == 1
    assert "the server refused the token" in caplog.text
    assert json.loads(capsys.readouterr().out)["statuses"] == {"401": 1}


def test_the_main_loop_accepts_an_invitation_by_joining_with_no_body() -> None:
    waiting = {"id": "m_inv", "status": "waiting", "invitation": True, "your_turn": True}
    joined = dict(active(plays(["Kd", "5c"])), id="m_inv")
    b, adapter, _ = scripted([
        (200, {"items": [waiting], "next_offset": None}, {}),
        (200, joined, {"ETag": '"v3"'}),       # the join
        (200, joined, {"ETag": '"v3"'}),       # the view
        (200, dict(finished(), id="m_inv"), {}),
    ])
    b.run(max_matches=1)
    get_work, join, _, act = adapter.sent
    assert "your_turn=true" in get_work.url and "wait=5" in get_work.url
    assert join.method == "POST" and join.url.endswith("/v1/matches/m_inv/join")
    assert not join.body
    assert act.url.split("?")[0].endswith("/v1/matches/m_inv/actions")
    assert b.finished == ["m_inv"]


def test_a_match_that_ends_on_the_opponents_move_is_counted_by_the_open_check() -> None:
    b, adapter, _ = scripted([
        (200, active(plays(["Kd"]), cards=["Kd"]), {}),
        (200, dict(active([]), legal_actions=[]), {}),   # acted; the wait ran out
        (200, {"items": [], "next_offset": None}, {}),   # nothing to do...
        (200, finished(), {}),                            # ...and the match has ended
    ])
    b.play("m_test")
    assert b.open == {"m_test"} and b.finished == []
    b.run(max_matches=1)
    assert b.finished == ["m_test"] and b.open == set()


# ---------------------------------------------------------------------------------------------
# A whole match on a real server
# ---------------------------------------------------------------------------------------------

ACTION_EVENTS = {"card_played", "raised", "raise_accepted", "raise_refused", "eleven_decided"}


def person_plays(base: str, token: str, match_id: str, seed: int,
                 bot: subprocess.Popen[str] | None = None) -> dict[str, Any]:
    """The test's own seat: random legal actions (raises included) until the match ends.
    When the `bot` process ends before the match does, fail at once with what it said."""
    rng = random.Random(seed)
    auth = {"Authorization": f"Bearer {token}"}
    resp = requests.get(f"{base}/v1/matches/{match_id}", headers=auth, timeout=10)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if bot is not None and bot.poll() is not None:
            final = requests.get(f"{base}/v1/matches/{match_id}", headers=auth, timeout=10)
            if final.json()["status"] == "finished":
                return final.json()
            out, err = bot.communicate()
            raise AssertionError(f"the bot exited ({bot.returncode}) before the match "
                                 f"ended:\n{err[-3000:]}\n{out[-500:]}")
        assert resp.status_code in (200, 304, 412), resp.text
        if resp.status_code == 200:
            current, etag = resp.json(), resp.headers["ETag"]
        elif resp.status_code == 412:  # a partner (a built-in bot) answered first
            current, etag = resp.json()["current"], resp.headers["ETag"]
        if current["status"] == "finished":
            return current
        if current["legal_actions"]:
            resp = requests.post(f"{base}/v1/matches/{match_id}/actions?wait=30",
                                 json=rng.choice(current["legal_actions"]),
                                 headers={**auth, "If-Match": etag}, timeout=45)
        else:
            resp = requests.get(f"{base}/v1/matches/{match_id}?wait=30",
                                headers={**auth, "If-None-Match": etag}, timeout=45)
    raise AssertionError(f"the match did not finish: {current}")


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    """One real server (gunicorn and the background worker that moves the built-in bots)."""
    [started] = start_testing_servers(["botclient"], database_url)
    try:
        yield started
    finally:
        log = started.log_text()
        started.stop()
    assert "Unhandled error" not in log


def run_bot(tmp_path: Path, args: list[str], token: str | None = None) -> subprocess.Popen[str]:
    """The example, copied outside the repository (nothing there to import), as a process."""
    standalone = tmp_path / "bot_client.py"
    shutil.copy(BOT_FILE, standalone)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRUCO_TOKEN")}
    if token:
        env["TRUCO_TOKEN"] = token
    return subprocess.Popen([sys.executable, str(standalone), *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def seated(process: subprocess.Popen[str], start: Callable[[], subprocess.Popen[str]],
           base: str, auth: dict[str, str], match_id: str, seat: int) -> subprocess.Popen[str]:
    """The bot process once it holds `seat` of `match_id`. A bot that ends before it took
    the seat is started once more (seen once in CI: the process ended before registering,
    with nothing in the server's log), what it printed kept in the test's output; a second
    such end fails the test."""
    for attempt in (1, 2):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            view = requests.get(f"{base}/v1/matches/{match_id}", headers=auth, timeout=10).json()
            player = view["seats"][seat]["player"]
            if player is not None and not view["seats"][seat]["invited"]:
                return process
            time.sleep(0.1)
        if process.poll() is None:
            process.kill()
        out, err = process.communicate()
        print(f"the example bot ended before taking seat {seat} (run {attempt}, status "
              f"{process.returncode}):\n{err[-3000:]}\n{out[-500:]}")
        if attempt == 2:
            raise AssertionError(f"the example bot never took seat {seat}:\n{err[-3000:]}")
        process = start()
    raise AssertionError("not reached")


def check_bot_run(base: str, auth: dict[str, str], match_id: str, bot_id: str,
                  end: dict[str, Any], process: subprocess.Popen[str],
                  races: bool = False) -> tuple[dict[str, Any], str]:
    """The bot stopped by itself after the match, every action it sent was accepted, the
    event log shows exactly those actions, and it never met a 4xx or 5xx. With `races`
    (a partner who may answer a raise first), a 412 `version_mismatch` may replace an
    action, and the bot must then have decided again."""
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert end["status"] == "finished" and max(end["score"]) >= 12
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["finished"] == [match_id] and summary["skipped"] == []
    statuses = dict(summary["statuses"])
    mismatches = statuses.pop("412", 0) if races else 0
    assert all(int(code) < 400 for code in statuses), summary
    assert summary["actions_sent"] == summary["actions_accepted"] + mismatches
    assert summary["actions_accepted"] > 0
    assert err.count("version mismatch, deciding again") == mismatches
    assert f"{match_id}: finished" in err

    [bot_seat] = [s["seat"] for s in end["seats"] if (s["player"] or {}).get("id") == bot_id]
    events, after = [], 0
    while True:
        page = requests.get(f"{base}/v1/matches/{match_id}/events",
                            params={"after": after, "limit": 500}, headers=auth,
                            timeout=10).json()
        if not page["items"]:
            break
        events += page["items"]
        after = page["next_after"]
    assert events[-1]["type"] == "match_won"
    # one accepted action is one version with events of the bot's seat
    acted = {e["version"] for e in events
             if e["type"] in ACTION_EVENTS and e.get("seat") == bot_seat}
    assert len(acted) == summary["actions_accepted"]
    decisions = [line for line in err.splitlines() if " -> {" in line]
    assert len(decisions) == summary["actions_sent"]
    return summary, err


def test_the_bot_joins_a_private_match_by_its_code_and_plays_it_to_the_end(
        server: Server, tmp_path: Path) -> None:
    base = server.url
    person = requests.post(f"{base}/v1/players", json={"name": "ana"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {person['token']}"}
    created = requests.post(f"{base}/v1/matches", headers=auth, timeout=10, json={
        "visibility": "private", "seed": 20260131}).json()
    match_id, code = created["id"], created["invite_code"]
    assert code and created["status"] == "waiting"

    def start() -> subprocess.Popen[str]:
        return run_bot(tmp_path, ["--base", base, "--name", "example-bot", "--join", match_id,
                                  f"--invite-code={code}", "--once", "--wait", "10"])

    process = start()
    try:
        process = seated(process, start, base, auth, match_id, 1)
        end = person_plays(base, person["token"], match_id, seed=5, bot=process)
        bot_id = next(s["player"]["id"] for s in end["seats"] if s["seat"] == 1)
        _, err = check_bot_run(base, auth, match_id, bot_id, end, process)
        assert "registered example-bot" in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_bot_accepts_an_invitation_to_a_four_player_match(
        server: Server, tmp_path: Path) -> None:
    """A person invites the running bot (token from TRUCO_TOKEN) to seat 1 of a 4-player
    match with two built-in random bots; the bot's long poll wakes for the invitation, it
    joins, and it plays beside a partner to the end. Under the default response_mode both
    partners may answer a raise, so the background worker's bot may answer between the bot's
    read and its action: a real 412 that the bot must handle."""
    base = server.url
    robot = requests.post(f"{base}/v1/players", json={"name": "robo", "bot": True},
                          timeout=10).json()
    person = requests.post(f"{base}/v1/players", json={"name": "bia"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {person['token']}"}
    def start() -> subprocess.Popen[str]:
        return run_bot(tmp_path, ["--base", base, "--once", "--wait", "10"],
                       token=robot["token"])

    process = start()
    try:
        time.sleep(0.5)  # the bot is (most likely) already in its long poll
        created = requests.post(f"{base}/v1/matches", headers=auth, timeout=10, json={
            "players": 4, "seed": 77, "invite": [{"seat": 1, "player_id": robot["id"]}],
            "bots": [{"seat": 2, "level": "random"}, {"seat": 3, "level": "random"}]})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        process = seated(process, start, base, auth, match_id, 1)
        end = person_plays(base, person["token"], match_id, seed=11, bot=process)
        summary, err = check_bot_run(base, auth, match_id, robot["id"], end, process,
                                     races=True)
        assert f"{match_id}: joined in seat 1" in err
        assert len(end["seats"]) == 4 and end["seats"][1]["invited"] is False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _finish(process: subprocess.Popen[str], seconds: float = 240) -> tuple[dict[str, Any], str]:
    """The bot's exit: its JSON summary and its log; it must stop by itself, with 0."""
    out, err = process.communicate(timeout=seconds)
    assert process.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1]), err


def _ran(tmp_path: Path, args: list[str]) -> tuple[dict[str, Any], str]:
    """The example run with `args` to its end (killed if it outlives the wait): its JSON
    summary and its log."""
    process = run_bot(tmp_path, args)
    try:
        return _finish(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_vs_level_starts_a_match_against_a_built_in_bot_and_plays_it(
        server: Server, tmp_path: Path) -> None:
    summary, err = _ran(tmp_path, ["--base", server.url, "--name", "vs-bot", "--vs", "random",
                                   "--once", "--wait", "10"])
    (match_id,) = summary["finished"]
    assert f"{match_id}: created (status active), against the built-in level random" in err
    assert summary["actions_accepted"] > 0
    assert "waiting for a match" not in err


def test_review_asks_for_the_finished_matchs_review_and_logs_the_bots_mistakes(
        server: Server, tmp_path: Path) -> None:
    summary, err = _ran(tmp_path, ["--base", server.url, "--name", "reviewed", "--vs", "random",
                                   "--once", "--wait", "10", "--review"])
    (match_id,) = summary["finished"]
    tally = summary["reviews"][match_id]
    assert tally["decisions"] >= 1 and 0 <= tally["mistakes"] <= tally["decisions"]
    assert f"{match_id}: reviewed, {tally['mistakes']} mistakes in {tally['decisions']} " \
           "decisions" in err
    token = re.search(r"token \(shown once\): (\S+)", err).group(1)  # type: ignore[union-attr]
    review = requests.get(f"{server.url}/v1/matches/{match_id}/review", timeout=10,
                          headers={"Authorization": f"Bearer {token}"}).json()
    assert review["status"] == "done" and tally in review["seats"]


def test_challenge_invites_a_player_who_accepts_and_they_play_it_out(
        server: Server, tmp_path: Path) -> None:
    """Two copies of the example: one challenges the other, which only waits for work."""
    base = server.url
    rival = requests.post(f"{base}/v1/players", json={"name": "rival", "bot": True},
                          timeout=10).json()
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    waiting = run_bot(tmp_path / "b", ["--base", base, "--once", "--wait", "10"],
                      token=rival["token"])
    challenger = run_bot(tmp_path / "a", ["--base", base, "--name", "challenger",
                                          "--challenge", rival["id"], "--once", "--wait", "10"])
    try:
        ours, err = _finish(challenger)
        theirs, rival_err = _finish(waiting)
    finally:
        for process in (challenger, waiting):
            if process.poll() is None:
                process.kill()
                process.wait()
    (match_id,) = ours["finished"]
    assert theirs["finished"] == [match_id]
    assert f"against player {rival['id']}, invited" in err
    assert "waiting for a match: invite me with" in rival_err and rival["id"] in rival_err
    assert f"{match_id}: joined in seat 1" in rival_err


def test_join_vs_and_challenge_exclude_each_other() -> None:
    for args in (["--vs", "easy", "--challenge", "p_1"], ["--join", "m_1", "--vs", "easy"],
                 ["--vs", "grandmaster"]):
        with pytest.raises(SystemExit):
            bot.parse_args(["--token", "t", *args])
    assert bot.parse_args(["--token", "t", "--vs", "hard"]).vs == "hard"
