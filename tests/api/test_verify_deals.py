"""scripts/verify_deals.py accepts every hand of real finished matches (2, 4 and 6 players,
both rulesets) and names the first wrong hand of a tampered log."""
from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.api import (act_ok, client_fetch, create, full_match, get_view, register,
                               run_worker, stored_secret)
from tests.support.servers import Server, start_testing_servers

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_deals.py"
sys.path.insert(0, str(SCRIPT.parent))
import verify_deals  # noqa: E402


def _play(client: Any, match_id: str, seated: list[Any], rng: random.Random,
          hands: int | None = None) -> None:
    """Random legal play by the people seated, who never raise nor accept a raise (so a match
    lasts several hands), until it is finished or hand `hands` is dealt; bots move through
    the worker."""
    while True:
        view = get_view(client, match_id)
        if view["status"] != "active" or (hands and view["hand"]["number"] >= hands):
            return
        people = [s for s in view["hand"]["to_act"] if seated[s] is not None]
        if not people:
            run_worker(client.application)
            continue
        seat = rng.choice(people)
        legal = get_view(client, match_id, seated[seat])["legal_actions"]
        act_ok(client, match_id, seated[seat],
               rng.choice([a for a in legal if a["type"] not in ("raise", "accept")] or legal))


def _finished(client: Any, players: int, ruleset: str, seed: int) -> tuple[str, list[Any]]:
    """A finished match: 2 players play to the end; 4 and 6 play three hands (a bot in seat
    1), then seat 0 resigns."""
    rng = random.Random(seed)
    if players == 2:
        match_id, seated = full_match(client, players=2, ruleset=ruleset, client_seed="s0")
        _play(client, match_id, seated, rng)
        return match_id, seated
    people = [register(client, f"p{s}") for s in range(players)]
    m = create(client, people[0], players=players, ruleset=ruleset, seat=0, client_seed="a.1",
               bots=[{"seat": 1, "level": "easy"}])
    seated: list[Any] = [people[0], None]
    for s in range(2, players):
        r = client.post(f"/v1/matches/{m['id']}/join", json={"seat": s, "client_seed": f"p-{s}"},
                        headers=people[s].headers)
        assert r.status_code == 200
        seated.append(people[s])
    _play(client, m["id"], seated, rng, hands=3)
    r = client.post(f"/v1/matches/{m['id']}/resign", headers=people[0].headers)
    assert r.status_code in (200, 409)  # (409: it ended already)
    return m["id"], seated


@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_verifier_accepts_every_hand_of_a_finished_match(
        client: Any, players: int, ruleset: str) -> None:
    match_id, seated = _finished(client, players, ruleset, players)
    for player in seated:
        if player is not None:
            view, events = verify_deals.download(client_fetch(client, player), match_id)
            assert view["status"] == "finished"
            assert verify_deals.check(view, events) == []
    dealt = [e for e in events if e["type"] == "hand_dealt"]
    assert len(dealt) >= 3
    assert view["fairness"]["client_seeds"][0] in ("s0", "a.1")


def test_a_fixed_first_dealer_is_not_checked_and_the_deals_are(client: Any) -> None:
    match_id, seated = full_match(client, players=2, options={"first_dealer": 1})
    _play(client, match_id, seated, random.Random(3), hands=2)
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[0].headers)
    view, events = verify_deals.download(client_fetch(client, seated[1]), match_id)
    assert view["rules"]["first_dealer"] == 1 and verify_deals.check(view, events) == []


def test_the_verifier_names_the_first_wrong_hand_of_a_tampered_log(client: Any) -> None:
    match_id, seated = _finished(client, 4, "paulista", 11)
    view, events = verify_deals.download(client_fetch(client, seated[0]), match_id)
    dealt = [i for i, e in enumerate(events) if e["type"] == "hand_dealt"]

    swapped = copy.deepcopy(events)  # hand 2: a card changes seats
    hands = swapped[dealt[1]]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    vira = copy.deepcopy(events)  # hand 3: another vira (and hand 2 untouched)
    vira[dealt[2]]["vira"] = next(c for c in ("4c", "5c") if c != vira[dealt[2]]["vira"])
    both = copy.deepcopy(swapped)
    both[dealt[2]] = vira[dealt[2]]
    assert verify_deals.check(view, swapped)[0].startswith("hand 2 differs")
    assert verify_deals.check(view, vira)[0].startswith("hand 3 differs")
    found = verify_deals.check(view, both)
    # (each hand that differs, first one first; a card that changed seats was played by a seat
    # that was then not dealt it, which is said after them)
    assert [p.split(" differs")[0] for p in found if " differs" in p] == ["hand 2", "hand 3"]
    assert found[:2] == [p for p in found if " differs" in p]

    dealer = copy.deepcopy(events)
    dealer[dealt[0]]["dealer"] = (dealer[dealt[0]]["dealer"] + 1) % 4
    assert verify_deals.check(view, dealer)[0].startswith("first dealer")
    other = {**view, "fairness": {**view["fairness"], "secret": "00" * 32}}
    found = verify_deals.check(other, events)
    assert "commitment" in found[0] and any(p.startswith("hand 1 differs") for p in found)
    seeds = {**view, "fairness": {**view["fairness"], "client_seeds": ["x", "", "", ""]}}
    assert any(p.startswith("hand 1 differs") for p in verify_deals.check(seeds, events))


def test_the_verifier_checks_what_the_player_saw_and_every_card_played(client: Any) -> None:
    match_id, seated = _finished(client, 4, "paulista", 12)
    view, events = verify_deals.download(client_fetch(client, seated[0]), match_id)
    shown = view["fairness"]["commitment"]
    assert verify_deals.check(view, events, commitment=shown.upper(), seed="a.1") == []
    assert "you were shown first" in verify_deals.check(view, events, commitment="ab" * 32)[0]
    assert "your seed 'a.2'" in verify_deals.check(view, events, seed="a.2")[0]

    played = [i for i, e in enumerate(events) if e["type"] == "card_played"]
    dealt = [i for i, e in enumerate(events) if e["type"] == "hand_dealt"]
    forged = copy.deepcopy(events)  # a card the seat was not dealt
    first = forged[played[0]]
    hand = sum(1 for i in dealt if i < played[0])  # (a hand may end before any card)
    held = forged[dealt[hand - 1]]["hands"][first["seat"]]
    first["card"] = next(c for c in ("4c", "5c", "6c", "7c") if c not in held)
    assert verify_deals.check(view, forged) == [
        f"hand {hand}: seat {first['seat']} played {first['card']}, which it did not hold"]
    missing = [e for i, e in enumerate(events) if i != dealt[1]]  # a hand left out of the log
    assert any(p.startswith("the hands dealt are numbered [1, 3")
               for p in verify_deals.check(view, missing))


def test_a_spectators_log_cannot_be_checked(client: Any) -> None:
    match_id, seated = _finished(client, 2, "paulista", 5)
    view, events = verify_deals.download(client_fetch(client, None), match_id)
    assert "use a player's token" in verify_deals.check(view, events)[0]


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    (started,) = start_testing_servers(["verify"], database_url)
    yield started
    started.stop()


def _run(server: Server, match_id: str, token: str,
         *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), server.url, match_id, token, *flags],
                          capture_output=True, text=True, timeout=60, cwd="/")


def test_the_script_checks_a_match_on_a_real_server(server: Server, app: Any) -> None:
    base = server.url
    ana, bob = (requests.post(f"{base}/v1/players", json={"name": n}, timeout=10).json()
                for n in ("ana", "bob"))
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in (ana, bob)]
    m = requests.post(f"{base}/v1/matches", json={"client_seed": "ana-77"}, headers=auth[0],
                      timeout=10).json()
    requests.post(f"{base}/v1/matches/{m['id']}/join", json={"client_seed": "b0b.1"},
                  headers=auth[1], timeout=10).raise_for_status()
    early = _run(server, m["id"], ana["token"])
    assert early.returncode == 1 and "not finished" in early.stdout
    rng = random.Random(1)
    for _ in range(12):
        view = requests.get(f"{base}/v1/matches/{m['id']}", timeout=10).json()
        seat = view["hand"]["to_act"][0]
        mine = requests.get(f"{base}/v1/matches/{m['id']}", headers=auth[seat],
                            timeout=10).json()
        requests.post(f"{base}/v1/matches/{m['id']}/actions", headers=auth[seat], timeout=10,
                      json=rng.choice(mine["legal_actions"])).raise_for_status()
        if requests.get(f"{base}/v1/matches/{m['id']}", timeout=10).json()["status"] != "active":
            break
    secret = stored_secret(app, m["id"])
    requests.post(f"{base}/v1/matches/{m['id']}/resign", headers=auth[1], timeout=10)
    done = _run(server, m["id"], bob["token"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agree" in done.stdout and m["id"] in done.stdout
    # ana checks against the commitment she was shown at creation and her own seed
    seen = ["--commitment", m["fairness"]["commitment"], "--seed", "ana-77"]
    mine = _run(server, m["id"], ana["token"], *seen)
    assert mine.returncode == 0, mine.stdout + mine.stderr
    assert "(the one shown first)" in mine.stdout
    wrong = _run(server, m["id"], ana["token"], "--commitment", "0" * 64)
    assert wrong.returncode == 1 and "you were shown first" in wrong.stdout
    assert _run(server, m["id"], ana["token"], "--seed").returncode == 1  # (usage)
    assert secret not in server.log_text()
    fixed = requests.post(f"{base}/v1/matches", json={"seed": 4}, headers=auth[0],
                          timeout=10).json()
    assert _run(server, fixed["id"], ana["token"]).returncode == 1
    assert _run(server, "m_nope", ana["token"]).returncode == 1
