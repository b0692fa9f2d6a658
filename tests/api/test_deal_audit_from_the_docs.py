"""A third party checks a finished match's deals with nothing but API.md's recipe
("Auditable deals", scheme truco-commit-v1): SHA-256, HMAC-SHA256 and what the API shows a
player. The verifier below is written from the contract alone (not from the engine or
scripts/verify_deals.py), so a change of the server that a client following the docs would
notice fails here."""
from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

import pytest

from tests.support.api import create, get_events, get_view, join, register, run_worker

SUITS = "cdhs"
RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]


def _hmac_int(key: bytes, message: str) -> int:
    return int.from_bytes(hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest(),
                          "big")


def _documented_deal(key: bytes, n: int, players: int) -> tuple[list[list[str]], str]:
    """Hand `n`'s hands by seat and its vira, word for word from API.md."""
    e = _hmac_int(key, "hand|" + str(n))
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    draws = []
    for left in range(40, 40 - 3 * players - 1, -1):
        e, i = divmod(e, left)
        draws.append(deck[i])
        deck[i] = deck[left - 1]
    return [draws[3 * s:3 * s + 3] for s in range(players)], draws[3 * players]


def verify(view: dict[str, Any], log: list[dict[str, Any]], seen_commitment: str) -> int:
    """Check every shuffled hand of the finished match `view` (as a player sees it, with its
    log) against the commitment the player saw before the deals; how many hands matched."""
    fairness = view["fairness"]
    assert fairness["scheme"] == "truco-commit-v1"
    assert fairness["commitment"] == seen_commitment
    secret = bytes.fromhex(fairness["secret"])
    assert len(secret) == 32
    assert hashlib.sha256(secret).hexdigest() == seen_commitment
    players = view["players"]
    seeds = fairness["client_seeds"]
    assert len(seeds) == players and all(isinstance(s, str) for s in seeds)
    message = "truco-commit-v1|" + view["id"] + "|" + "|".join(seeds)
    key = hmac.new(secret, message.encode("utf-8"), hashlib.sha256).digest()
    dealt = [e for e in log if e["type"] == "hand_dealt"]
    assert dealt and [e["hand"] for e in dealt] == list(range(1, len(dealt) + 1))
    if view["rules"]["first_dealer"] == "random":
        assert dealt[0]["dealer"] == _hmac_int(key, "first-dealer") % players
    for event in dealt:
        hands, vira = _documented_deal(key, event["hand"], players)
        assert event["hands"] == hands, event["hand"]
        assert event["vira"] == (None if view["ruleset"] == "mineiro" else vira)
    revealed = [e for e in log if e["type"] == "deals_revealed"]
    assert revealed == [log[-1]] and revealed[0]["secret"] == fairness["secret"]
    return len(dealt)


def _calm_play(client: Any, app: Any, match_id: str, seated: list[Any],
               rng: random.Random) -> dict[str, Any]:
    """Random legal play without raises (so the match lasts many hands), bots moving in
    between; the final spectator view."""
    while True:
        view = get_view(client, match_id)
        if view["status"] != "active":
            return view
        if run_worker(app):
            continue
        seat = rng.choice([s for s in view["hand"]["to_act"] if seated[s] is not None])
        legal = get_view(client, match_id, seated[seat])["legal_actions"]
        calm = [a for a in legal if a["type"] != "raise"] or legal
        r = client.post(f"/v1/matches/{match_id}/actions", json=rng.choice(calm),
                        headers=seated[seat].headers)
        assert r.status_code == 200, r.get_data(as_text=True)


def _seated(client: Any, players: int, seeds: list[str | None], commitment: bool,
            **setup: Any) -> tuple[dict[str, Any], list[Any], str]:
    """A started match of `players` people (seat i sends seeds[i]) and the commitment its
    creator saw before sending a seed."""
    people = [register(client, f"p{s}") for s in range(players)]
    body: dict[str, Any] = {"players": players, "seat": 0, **setup}
    seen = None
    if commitment:
        r = client.post("/v1/commitments", headers=people[0].headers)
        assert r.status_code == 201
        body["commitment"], seen = r.json["commitment"], r.json["commitment"]
        fetched_id = r.json["match_id"]
    if seeds[0] is not None:
        body["client_seed"] = seeds[0]
    m = create(client, people[0], **body)
    if commitment:
        assert m["id"] == fetched_id
    seen = seen or m["fairness"]["commitment"]
    assert m["fairness"]["secret"] is None
    for s in range(1, players):
        before = get_view(client, m["id"], people[s])
        assert before["fairness"]["commitment"] == seen  # seen before sending a seed
        # while waiting each seat sees its own seed only
        assert all(x is None for x in before["fairness"]["client_seeds"])
        extra = {} if seeds[s] is None else {"client_seed": seeds[s]}
        r = join(client, m["id"], people[s], seat=s, **extra)
        assert r.status_code == 200, r.get_data(as_text=True)
        if r.json["status"] == "waiting":
            mine = r.json["fairness"]["client_seeds"]
            assert mine == [(seeds[s] or "") if n == s else None for n in range(players)]
    started = get_view(client, m["id"])
    assert started["fairness"]["client_seeds"] == [x or "" for x in seeds]
    return started, people, seen


@pytest.mark.parametrize("players,ruleset,seeds,commitment", [
    (2, "paulista", ["ana-77", "b0b.1"], True),
    (4, "mineiro", ["x", None, "Z_9-.", "a" * 64], False),
    (6, "paulista", [None, "s1", None, "s3", None, None], True),
])
def test_a_player_recomputes_every_deal_from_the_documented_recipe(
        client: Any, app: Any, players: int, ruleset: str, seeds: list[str | None],
        commitment: bool) -> None:
    started, people, seen = _seated(client, players, seeds, commitment, ruleset=ruleset)
    end = _calm_play(client, app, started["id"], people, random.Random(players))
    assert end["status"] == "finished" and end["end_reason"] == "score"
    for viewer in (people[0], people[-1]):
        view = get_view(client, started["id"], viewer)
        assert verify(view, get_events(client, started["id"], viewer), seen) >= 3


def test_a_resigned_match_and_one_with_bots_are_checked_the_same_way(client: Any,
                                                                      app: Any) -> None:
    started, people, seen = _seated(client, 2, ["ana", None], True)
    for _ in range(6):
        view = get_view(client, started["id"])
        seat = view["hand"]["to_act"][0]
        act = get_view(client, started["id"], people[seat])["legal_actions"][0]
        client.post(f"/v1/matches/{started['id']}/actions", json=act,
                    headers=people[seat].headers)
    assert client.post(f"/v1/matches/{started['id']}/resign",
                       headers=people[1].headers).status_code == 200
    view = get_view(client, started["id"], people[0])
    assert verify(view, get_events(client, started["id"], people[0]), seen) >= 1

    ana = register(client, "solo")
    m = create(client, ana, players=4, seat=0, client_seed="solo-1",
               bots=[{"seat": s, "level": "random"} for s in (1, 2, 3)])
    assert m["fairness"]["client_seeds"] == ["solo-1", "", "", ""]
    _calm_play(client, app, m["id"], [ana, None, None, None], random.Random(3))
    view = get_view(client, m["id"], ana)
    assert verify(view, get_events(client, m["id"], ana), m["fairness"]["commitment"]) >= 1


def test_nothing_to_verify_is_shown_before_the_end(client: Any) -> None:
    started, people, _ = _seated(client, 2, ["a", "b"], False)
    for viewer in (*people, None):
        view = get_view(client, started["id"], viewer)
        assert view["fairness"]["secret"] is None
        log = get_events(client, started["id"], viewer)
        assert not [e for e in log if e["type"] == "deals_revealed"]
        assert not [e for e in log if "hands" in e]
