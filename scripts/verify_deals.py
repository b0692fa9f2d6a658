#!/usr/bin/env python3
"""Check the deals of a finished match against its revealed secret (scheme truco-commit-v1,
docs/fairness.md), with the Python standard library only.

    python3 scripts/verify_deals.py BASE_URL MATCH_ID TOKEN [--commitment HEX] [--seed SEED]

Downloads the match as the player whose TOKEN is given sees it, and its whole event log;
checks the commitment (and, with --commitment, that it is the one you were shown before you
sent your seed), your own seed in the key (--seed), every hand's cards and vira, that the
hands are numbered 1, 2, ... with none missing, that every card played was in its player's
hand, and the first dealer; prints what it found, naming each hand that differs. Exit status
0 when everything agrees, 1 otherwise.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import sys
import urllib.request
from collections.abc import Callable
from typing import Any

SCHEME = "truco-commit-v1"
SUITS = "cdhs"
RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]

Fetch = Callable[[str], Any]
"""A GET of a path such as "/v1/matches/m_1" answering the decoded JSON body."""


def http_fetch(base_url: str, token: str) -> Fetch:
    """GETs against `base_url` with the player's bearer `token`."""
    def fetch(path: str) -> Any:
        request = urllib.request.Request(base_url.rstrip("/") + path, headers={
            "Authorization": f"Bearer {token}", "Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    return fetch


def download(fetch: Fetch, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The match view and every event of its log, page after page."""
    view = fetch(f"/v1/matches/{match_id}")
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = fetch(f"/v1/matches/{match_id}/events?after={after}&limit=500")
        if not page["items"]:
            return view, events
        events.extend(page["items"])
        after = page["next_after"]


def _hmac_int(key: bytes, message: str) -> int:
    return int.from_bytes(hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest(),
                          "big")


def key_for(secret: bytes, match_id: str, client_seeds: list[str]) -> bytes:
    """HMAC-SHA256(secret, "truco-commit-v1|" + match id + "|" + the seeds joined by "|")."""
    text = SCHEME + "|" + match_id + "|" + "|".join(client_seeds)
    return hmac.new(secret, text.encode("utf-8"), hashlib.sha256).digest()


def expected_deal(key: bytes, number: int, players: int) -> tuple[list[list[str]], str]:
    """The hands (by seat) and the vira that hand `number` must have had."""
    e = _hmac_int(key, "hand|" + str(number))
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    draws = []
    for left in range(40, 40 - 3 * players - 1, -1):
        e, i = divmod(e, left)
        draws.append(cards[i])
        cards[i] = cards[left - 1]
    return [draws[3 * s:3 * s + 3] for s in range(players)], draws[3 * players]


def expected_first_dealer(key: bytes, players: int) -> int:
    return _hmac_int(key, "first-dealer") % players


def check(view: dict[str, Any], events: list[dict[str, Any]], commitment: str | None = None,
          seed: str | None = None) -> list[str]:
    """What is wrong with the match's deals, first wrong hand first; empty when all agree.
    `commitment`: the one you were shown before you sent your seed (from
    POST /v1/commitments, or the view you joined from); `seed`: the seed you sent."""
    fairness = view.get("fairness")
    if view.get("status") != "finished":
        return ["the match is not finished: its secret is not revealed yet"]
    if fairness is None or fairness.get("scheme") != SCHEME:
        return [f"the match does not use {SCHEME} (fixed deals?): nothing to check"]
    secret_hex = fairness.get("secret") or ""
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return ["the revealed secret is not hex"]
    problems = []
    if commitment is not None and commitment.lower() != fairness["commitment"]:
        problems.append(f"the commitment is {fairness['commitment']}, not the {commitment} "
                        "you were shown first")
    you = view.get("you")
    if seed is not None and (you is None or fairness["client_seeds"][you["seat"]] != seed):
        problems.append(f"your seed {seed!r} is not your seat's in the key: "
                        f"{fairness['client_seeds']}")
    if hashlib.sha256(secret).hexdigest() != fairness["commitment"]:
        problems.append("the commitment is not the SHA-256 of the revealed secret")
    revealed = [e for e in events if e["type"] == "deals_revealed"]
    if not revealed or revealed[-1].get("secret") != secret_hex or events[-1] != revealed[-1]:
        problems.append("the log does not end with a deals_revealed event of this secret")
    players = view["players"]
    key = key_for(secret, view["id"], fairness["client_seeds"])
    dealt = [e for e in events if e["type"] == "hand_dealt"]
    if not dealt:
        problems.append("the log holds no hand_dealt event")
    elif view["rules"].get("first_dealer") == "random" \
            and dealt[0]["dealer"] != expected_first_dealer(key, players):
        problems.append(f"first dealer: seat {dealt[0]['dealer']}, expected seat "
                        f"{expected_first_dealer(key, players)}")
    numbers = [e["hand"] for e in dealt]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"the hands dealt are numbered {numbers}, not 1, 2, ... in order")
    for event in dealt:
        number = event["hand"]
        hands, drawn = expected_deal(key, number, players)
        vira = None if view["ruleset"] == "mineiro" else drawn
        if event.get("hands") is None:
            problems.append(f"hand {number}: the log does not show every seat's cards "
                            "(use a player's token)")
        elif event["hands"] != hands or event.get("vira") != vira:
            problems.append(f"hand {number} differs: dealt {event['hands']} vira "
                            f"{event.get('vira')}, expected {hands} vira {vira}")
    return problems + _played_from_hand(events)


def _played_from_hand(events: list[dict[str, Any]]) -> list[str]:
    """Each card played that its player was not dealt in that hand (or played twice)."""
    problems = []
    number = 0
    held: list[list[str]] = []
    for event in events:
        if event["type"] == "hand_dealt":
            number, held = event["hand"], [list(h) for h in event.get("hands") or []]
        elif event["type"] == "card_played" and event.get("card") and held:
            seat, card = event["seat"], event["card"]
            if card in held[seat]:
                held[seat].remove(card)
            else:
                problems.append(f"hand {number}: seat {seat} played {card}, which it did not "
                                "hold")
    return problems


USAGE = "usage: verify_deals.py BASE_URL MATCH_ID TOKEN [--commitment HEX] [--seed SEED]"


def main(argv: list[str]) -> int:
    args = argv[1:]
    flags: dict[str, str | None] = {"--commitment": None, "--seed": None}
    while len(args) > 3 and args[-2] in flags:
        flags[args[-2]] = args[-1]
        args = args[:-2]
    if len(args) != 3:
        print(USAGE, file=sys.stderr)
        return 1
    base_url, match_id, token = args
    try:
        view, events = download(http_fetch(base_url, token), match_id)
    except (OSError, ValueError) as exc:  # (urllib's HTTPError and URLError are OSErrors)
        print(f"cannot download the match: {exc}", file=sys.stderr)
        return 1
    problems = check(view, events, flags["--commitment"], flags["--seed"])
    hands = sum(1 for e in events if e["type"] == "hand_dealt")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    shown = " (the one shown first)" if flags["--commitment"] else ""
    print(f"{match_id}: commitment{shown}, first dealer, all {hands} hands and every card "
          "played agree with the revealed secret")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
