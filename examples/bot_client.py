#!/usr/bin/env python3
"""A complete Truco bot over HTTP: a worked example for bot authors.

It needs Python 3.10+ and `requests`, nothing from the server's repository: copy this file
anywhere and run it.

    python bot_client.py --base http://127.0.0.1:8000 --name mybot          # register, play on
    python bot_client.py --base ... --name mybot --vs easy --once  # a match against `easy`
    python bot_client.py --base ... --name mybot --vs hard --once --review  # and its review
    python bot_client.py --base ... --token "$TRUCO_TOKEN" --challenge p_123  # invite a player
    python bot_client.py --base ... --token "$TRUCO_TOKEN" --once           # one match, then stop
    python bot_client.py --base ... --token ... --join m_abc --invite-code XYZ --once

What it does (docs/api.md is the contract; docs/bots.md walks through it):

1. registers as a bot (`{"name": ..., "bot": true}`), or uses the token from `--token` or the
   environment variable `TRUCO_TOKEN`; with `--vs LEVEL` it creates a 2-player match against
   a built-in bot of that level, with `--challenge PLAYER_ID` one whose seat 1 is reserved
   for that player (`POST /v1/matches`);
2. waits for work with the long poll `GET /v1/me/matches?your_turn=true&wait=30`, and accepts
   invitations (an item with `"invitation": true`: a seat reserved for it) with
   `POST /v1/matches/{id}/join`;
3. for each match that needs it: reads the view (`GET /v1/matches/{id}`, keeping its `ETag`),
   asks a strategy `(view) -> action` for one item of `legal_actions`, and sends it with
   `If-Match` (the view's ETag), an `Idempotency-Key` (one per decision, reused on retries) and
   `?wait=` so that the answer comes back when it must act again;
4. handles every documented error: 401 stops, 409 `match_not_active` moves on, 412
   `version_mismatch` decides again on the problem's `current` view, 422 `illegal_action`
   re-reads and decides again, 422 `validation_error` skips the match, 429 sleeps
   `Retry-After`, 5xx and network errors back off and retry with the same key.

Replace `easy_strategy` with your own function to make a better player: it receives the view
(a dict, exactly the JSON the server sent) and returns one item of `view["legal_actions"]`.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import requests

log = logging.getLogger("truco.bot")

View = dict[str, Any]
Action = dict[str, Any]
Strategy = Callable[[View], Action]

# ---------------------------------------------------------------------------------------------
# The strategy: engine-free, written over the view JSON only
# ---------------------------------------------------------------------------------------------

RANKS = "4567QJKA23"
"""Ordinary cards' ranks, weakest to strongest (docs/rules.md, Cards)."""


def card_strength(card: str | None, manilhas: list[str]) -> int:
    """How strong a card is in this hand: 0..9 for ordinary cards by rank, 10..13 for the
    manilhas (`manilhas` is strongest first), -1 for a card that is hidden or face down."""
    if card is None:
        return -1
    if card in manilhas:
        return 13 - manilhas.index(card)
    return RANKS.index(card[0])


def _strong_hand(cards: list[str], manilhas: list[str]) -> bool:
    """Two manilhas, or a manilha and a 3: worth calling truco."""
    strengths = [card_strength(c, manilhas) for c in cards]
    top = sum(1 for s in strengths if s >= 10)
    threes = sum(1 for s in strengths if s == RANKS.index("3"))
    return top >= 2 or (top >= 1 and threes >= 1)


def _decent_hand(cards: list[str], manilhas: list[str]) -> bool:
    """A manilha, or two cards of rank 2 or 3: worth accepting a raise or a mão de onze."""
    strengths = [card_strength(c, manilhas) for c in cards]
    return any(s >= 10 for s in strengths) or sum(1 for s in strengths if s >= 8) >= 2


def _current_plays(view: View) -> list[dict[str, Any]]:
    """The plays of the trick being played now (empty when a new trick is to be led)."""
    tricks = view["hand"]["tricks"]
    if not tricks:
        return []
    last = tricks[-1]
    if last["winner_team"] is not None or last["tie"] or len(last["plays"]) >= view["players"]:
        return []
    return list(last["plays"])


def _tricks_won(view: View) -> int:
    team = view["you"]["team"]
    return sum(1 for t in view["hand"]["tricks"] if t["winner_team"] == team)


def easy_strategy(view: View) -> Action:
    """A simple, honest player that never sends anything but an item of `legal_actions`.

    - a raise to answer: accept with a decent hand (a manilha, or two cards of rank 2 or 3,
      counting a trick already won as a good card), refuse with a weak one;
    - a mão de onze to decide: accept with a decent hand (partners' cards count, when shown);
    - its turn to play: call truco once per hand with a strong hand (two manilhas, or a manilha
      and a 3); otherwise win the trick with the cheapest card that beats the table; when it
      cannot (or its partner already holds the trick), dump its weakest card; when leading,
      play its strongest card if it is a manilha or a 3, else its weakest;
    - blind hand (cards are `null`): play by `slot`.
    """
    legal: list[Action] = view["legal_actions"]
    if not legal:
        raise ValueError("nothing to do: legal_actions is empty")
    hand = view["hand"]
    manilhas: list[str] = hand["manilhas"] or []
    cards: list[str | None] = hand["cards"] or []
    known = [c for c in cards if c is not None]
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)

    pending = hand["pending"]
    if pending is not None and ("accept" in by_type or "refuse" in by_type):
        if pending["kind"] == "mao_de_onze":
            partners = (hand.get("partner_cards") or {}).values()
            good = _decent_hand(known, manilhas) or any(
                _decent_hand([c for c in p if c], manilhas) for p in partners)
        else:
            # the card it already put on the current trick still counts
            mine = known + [p["card"] for p in _current_plays(view)
                            if p["seat"] == view["you"]["seat"] and p["card"]]
            good = _decent_hand(mine, manilhas) or (
                _tricks_won(view) >= 1 and any(card_strength(c, manilhas) >= 7 for c in mine))
        choice = "accept" if good else "refuse"
        if choice in by_type:
            return by_type[choice][0]
        return (by_type.get("accept") or by_type.get("refuse") or legal)[0]

    plays = by_type.get("play", [])
    if "raise" in by_type and hand["stake"] < 3 and known and _strong_hand(known, manilhas):
        return by_type["raise"][0]
    if not plays:
        return legal[0]

    face_up = [a for a in plays if not a.get("face_down")]
    by_slot = [a for a in face_up if "slot" in a]
    if by_slot or not known:  # a blind hand: the cards are hidden, play by slot
        return (by_slot or face_up or plays)[0]
    by_card = [a for a in face_up if "card" in a]
    if not by_card:
        return plays[0]

    def strength(action: Action) -> int:
        return card_strength(action["card"], manilhas)

    weakest = min(by_card, key=strength)
    table = _current_plays(view)
    if not table:  # leading: the strongest card if it is likely to win, else the weakest
        strongest = max(by_card, key=strength)
        return strongest if strength(strongest) >= RANKS.index("3") else weakest
    top = max(card_strength(p["card"], manilhas) for p in table)
    holders = {p["seat"] % 2 for p in table if card_strength(p["card"], manilhas) == top}
    if holders == {view["you"]["team"]}:
        return weakest  # our partner holds the trick: keep the good cards
    winners = [a for a in by_card if strength(a) > top]
    if winners:
        return min(winners, key=strength)  # win it cheaply
    return weakest


def random_strategy(view: View) -> Action:
    """Any legal action, uniformly (what the server's `random` level does)."""
    return random.choice(view["legal_actions"])


STRATEGIES: dict[str, Strategy] = {"easy": easy_strategy, "random": random_strategy}

# ---------------------------------------------------------------------------------------------
# The HTTP client
# ---------------------------------------------------------------------------------------------


class ApiError(Exception):
    """A problem+json answer (any 4xx the client does not retry by itself)."""

    def __init__(self, status: int, problem: dict[str, Any], etag: str | None = None) -> None:
        self.status = status
        self.problem = problem
        self.code: str = problem.get("code", "unknown")
        self.etag = etag
        super().__init__(f"{status} {self.code}: {problem.get('detail', '')}")


class Unauthorized(ApiError):
    """401: the token is missing, unknown or rotated. Nothing to do but stop."""


class GiveUp(Exception):
    """The server stayed unreachable (or kept answering 5xx) through every retry."""


class Client:
    """A thin client for the Truco API: retries what is safe to retry, raises `ApiError`
    for the rest. Every request is retried on network errors, 5xx and 429; that is safe
    because reads change nothing, joins are idempotent, and actions carry an Idempotency-Key.
    """

    def __init__(self, base: str, token: str | None = None, *,
                 session: requests.Session | None = None, max_retries: int = 8,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.session = session or requests.Session()
        self.max_retries = max_retries
        self.sleep = sleep
        self.statuses: Counter[int] = Counter()
        """Every status code answered, for the summary (and the tests)."""

    # -- plumbing ---------------------------------------------------------------------------

    def request(self, method: str, path: str, *, params: dict[str, Any] | None = None,
                body: Any = None, headers: dict[str, str] | None = None,
                wait: int = 0) -> requests.Response:
        """Send one request, retrying network errors, 5xx and 429; answer the response
        (2xx or 304), or raise `Unauthorized` / `ApiError` / `GiveUp`."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        failures = 0
        while True:
            try:
                resp = self.session.request(
                    method, self.base + path, params=params, headers=all_headers,
                    json=body, timeout=(10, wait + 20))
            except requests.RequestException as exc:
                failures += 1
                self._back_off(failures, f"{method} {path}: {exc.__class__.__name__}: {exc}")
                continue
            self.statuses[resp.status_code] += 1
            log.debug("%s %s -> %s", method, resp.url, resp.status_code)
            if resp.status_code < 400:
                return resp
            problem = _problem(resp)
            if resp.status_code == 429:
                delay = _retry_after(resp, problem)
                log.warning("%s %s: rate limited, sleeping %.0f s", method, path, delay)
                self.sleep(delay)
                continue
            if resp.status_code >= 500:
                failures += 1
                self._back_off(failures, f"{method} {path}: {resp.status_code} "
                                         f"{problem.get('code')}", _retry_after(resp, problem, 0))
                continue
            error = Unauthorized if resp.status_code == 401 else ApiError
            raise error(resp.status_code, problem, resp.headers.get("ETag"))

    def _back_off(self, failures: int, what: str, at_least: float = 0) -> None:
        if failures > self.max_retries:
            raise GiveUp(f"giving up after {failures} failures: {what}")
        delay = max(at_least, min(30.0, 0.5 * 2 ** (failures - 1)) * random.uniform(0.8, 1.2))
        log.warning("%s; retry %d in %.1f s", what, failures, delay)
        self.sleep(delay)

    # -- endpoints --------------------------------------------------------------------------

    def register(self, name: str) -> dict[str, Any]:
        """`POST /v1/players` as a bot; keeps and answers the token (shown only this once)."""
        player: dict[str, Any] = self.request("POST", "/v1/players",
                                              body={"name": name, "bot": True}).json()
        self.token = player["token"]
        return player

    def me(self) -> dict[str, Any]:
        """`GET /v1/players/me`."""
        me: dict[str, Any] = self.request("GET", "/v1/players/me").json()
        return me

    def work(self, wait: int) -> list[dict[str, Any]]:
        """The matches that need this player now (long poll: held up to `wait` seconds
        until there is one)."""
        resp = self.request("GET", "/v1/me/matches",
                            params={"your_turn": "true", "wait": wait}, wait=wait)
        return resp.json()["items"] if resp.status_code == 200 else []

    def view(self, match_id: str) -> tuple[View, str | None]:
        """The match as this player sees it, and its ETag."""
        resp = self.request("GET", f"/v1/matches/{match_id}")
        return resp.json(), resp.headers.get("ETag")

    def create(self, body: dict[str, Any]) -> View:
        """`POST /v1/matches`: a new match, the caller seated in it; answers its view."""
        view: View = self.request("POST", "/v1/matches", body=body).json()
        return view

    def review(self, match_id: str, patience: float = 300) -> dict[str, Any]:
        """The computer's review of finished `match_id`: asked for (`POST .../review`), then
        read every second, with its ETag, until it is `done` (or `patience` seconds pass:
        GiveUp)."""
        review: dict[str, Any] = self.request("POST", f"/v1/matches/{match_id}/review").json()
        etag = None
        waited = 0.0
        while review["status"] != "done":
            if waited >= patience:
                raise GiveUp(f"{match_id}: the review is not done after {patience:.0f} s")
            self.sleep(1.0)
            waited += 1.0
            resp = self.request("GET", f"/v1/matches/{match_id}/review",
                                headers={"If-None-Match": etag} if etag else None)
            if resp.status_code == 200:
                review, etag = resp.json(), resp.headers.get("ETag")
        return review

    def join(self, match_id: str, invite_code: str | None = None) -> tuple[View, str | None]:
        """Take a seat (accept an invitation with no body; a private match with its code)."""
        body = {"invite_code": invite_code} if invite_code else None
        resp = self.request("POST", f"/v1/matches/{match_id}/join", body=body)
        return resp.json(), resp.headers.get("ETag")

    def act(self, match_id: str, action: Action, *, etag: str | None, key: str,
            wait: int = 0) -> tuple[View, str | None]:
        """Send one action with `If-Match` and `Idempotency-Key`; with `wait`, the answer is
        held until this player must act again or the match is over."""
        headers = {"Idempotency-Key": key}
        if etag:
            headers["If-Match"] = etag
        resp = self.request("POST", f"/v1/matches/{match_id}/actions", body=action,
                            headers=headers, params={"wait": wait} if wait else None, wait=wait)
        return resp.json(), resp.headers.get("ETag")


def _problem(resp: requests.Response) -> dict[str, Any]:
    try:
        body = resp.json()
    except ValueError:
        return {"code": "unknown", "detail": resp.text[:200]}
    return body if isinstance(body, dict) else {"code": "unknown", "detail": str(body)[:200]}


def _retry_after(resp: requests.Response, problem: dict[str, Any],
                 default: float = 1.0) -> float:
    value = resp.headers.get("Retry-After", problem.get("retry_after"))
    if value is None:
        return default
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return default

# ---------------------------------------------------------------------------------------------
# The bot: find work, decide, act, handle errors
# ---------------------------------------------------------------------------------------------


class Bot:
    """Plays every match that needs it, one decision at a time, with `strategy`."""

    MAX_ILLEGAL = 3
    """Illegal actions in a row in one match before the bot skips that match."""

    def __init__(self, client: Client, strategy: Strategy = easy_strategy, *,
                 wait: int = 30) -> None:
        self.client = client
        self.strategy = strategy
        self.wait = wait
        self.open: set[str] = set()
        """Matches the bot sits in whose end it has not seen yet."""
        self.skipped: set[str] = set()
        """Matches given up after an error that retrying cannot fix."""
        self.finished: list[str] = []
        self.reviews: dict[str, dict[str, Any]] = {}
        """Each reviewed match's tally of this bot's decisions (--review)."""
        self.actions_sent = 0
        self.actions_accepted = 0

    # -- the main loop ----------------------------------------------------------------------

    def run(self, max_matches: int | None = None) -> None:
        """Wait for work and do it until `max_matches` finished matches have been seen
        (forever when None)."""
        while max_matches is None or len(self.finished) < max_matches:
            items = [i for i in self.client.work(self.wait) if i["id"] not in self.skipped]
            if not items:
                self.check_open()  # a match may have ended on the opponents' move
                if self.skipped:
                    self.client.sleep(1)  # the long poll answers at once for skipped matches
                continue
            for item in items:
                if item.get("invitation"):
                    self.accept_invitation(item["id"])
                else:
                    self.play(item["id"])
                if max_matches is not None and len(self.finished) >= max_matches:
                    return

    def join(self, match_id: str, invite_code: str | None = None) -> None:
        """Take a seat in `match_id` (a private match's `invite_code` when given)."""
        view, _ = self.client.join(match_id, invite_code)
        log.info("%s: joined in seat %s (status %s)", match_id, view["you"]["seat"],
                 view["status"])
        self.open.add(match_id)

    def create(self, vs: str | None = None, challenge: str | None = None) -> str:
        """A 2-player match in seat 0, against the built-in level `vs` or with seat 1
        reserved for the player `challenge`; its id."""
        body: dict[str, Any] = {"players": 2, "seat": 0}
        if vs:
            body["bots"] = [{"seat": 1, "level": vs}]
        if challenge:
            body["invite"] = [{"seat": 1, "player_id": challenge}]
        view = self.client.create(body)
        log.info("%s: created (status %s), against %s", view["id"], view["status"],
                 f"the built-in level {vs}" if vs else f"player {challenge}, invited")
        self.open.add(view["id"])
        return str(view["id"])

    def accept_invitation(self, match_id: str) -> None:
        """An invitation is a seat reserved for the bot: join it (no body)."""
        try:
            self.join(match_id)
        except Unauthorized:
            raise
        except ApiError as exc:  # seat_taken, match_not_waiting...: the offer is gone
            log.warning("%s: could not accept the invitation: %s", match_id, exc)
            self.skipped.add(match_id)
            return
        self.play(match_id)

    def check_open(self) -> None:
        """Look at the matches in play whose end the bot has not seen."""
        for match_id in sorted(self.open):
            try:
                view, _ = self.client.view(match_id)
            except Unauthorized:
                raise
            except ApiError as exc:
                log.warning("%s: %s; forgetting it", match_id, exc)
                self.open.discard(match_id)
                continue
            self._note_status(match_id, view)

    def _note_status(self, match_id: str, view: View) -> None:
        if view["status"] in ("finished", "cancelled"):
            self.open.discard(match_id)
            if view["status"] == "finished" and match_id not in self.finished:
                self.finished.append(match_id)
                you = view.get("you") or {}
                result = "won" if view["winner_team"] == you.get("team") else "lost"
                log.info("%s: finished, %s %s", match_id, result, view["score"])
            elif view["status"] == "cancelled":
                log.info("%s: cancelled", match_id)
        else:
            self.open.add(match_id)

    # -- one match --------------------------------------------------------------------------

    def play(self, match_id: str) -> str:
        """Act in `match_id` for as long as it is the bot's turn; answer the match's status
        when it stops (or "skipped")."""
        try:
            view, etag = self.client.view(match_id)
            return self.play_from(match_id, view, etag)
        except Unauthorized:
            raise
        except ApiError as exc:  # 403 not_a_player, 404 match_not_found...
            log.error("%s: %s; skipping this match", match_id, exc)
            self.skipped.add(match_id)
            self.open.discard(match_id)
            return "skipped"

    def play_from(self, match_id: str, view: View, etag: str | None) -> str:
        """The decision loop, starting from a view the bot already holds."""
        illegal = 0
        while True:
            self._note_status(match_id, view)
            if view["status"] != "active" or not view["legal_actions"]:
                return str(view["status"])
            action = self.decide(match_id, view)
            key = str(uuid.uuid4())  # one per decision: the retries inside act() reuse it
            self.actions_sent += 1
            try:
                view, etag = self.client.act(match_id, action, etag=etag, key=key,
                                             wait=self.wait)
                self.actions_accepted += 1
                illegal = 0
            except Unauthorized:
                raise
            except ApiError as exc:
                if exc.code == "version_mismatch":  # the position moved on: decide again
                    log.info("%s: version mismatch, deciding again on the current view",
                             match_id)
                    view = exc.problem["current"]
                    etag = exc.etag
                elif exc.code == "match_not_active":  # it ended meanwhile: move on
                    log.info("%s: the match is over", match_id)
                    view, etag = self.client.view(match_id)
                elif exc.code == "illegal_action" and illegal < self.MAX_ILLEGAL:
                    illegal += 1
                    log.warning("%s: %s (reason %s; legal now: %s); re-reading the view",
                                match_id, exc, exc.problem.get("reason"),
                                exc.problem.get("legal_actions"))
                    view, etag = self.client.view(match_id)
                else:  # validation_error, idempotency_key_reused, ...: a bug in the bot
                    log.error("%s: %s %s; skipping this match", match_id, exc,
                              exc.problem.get("errors", ""))
                    self.skipped.add(match_id)
                    self.open.discard(match_id)
                    return "skipped"

    def decide(self, match_id: str, view: View) -> Action:
        """Ask the strategy; never send anything that is not in `legal_actions`."""
        legal = view["legal_actions"]
        action = self.strategy(view)
        if action not in legal:
            log.warning("%s: the strategy chose %s, not a legal action; sending %s instead",
                        match_id, action, legal[0])
            action = legal[0]
        hand = view["hand"]
        log.info("%s: hand %s, score %s, stake %s, cards %s, table %s -> %s", match_id,
                 hand["number"], view["score"], hand["stake"], hand["cards"],
                 [p["card"] for p in _current_plays(view)], json.dumps(action))
        return action

    def review(self, match_id: str) -> dict[str, Any]:
        """The computer's judgement of this bot's decisions in finished `match_id` (its seat's
        tally), logged with its costliest mistake: where the strategy gives points away."""
        review = self.client.review(match_id)
        view, _ = self.client.view(match_id)
        seat = (view.get("you") or {}).get("seat")
        tally = next((s for s in review["seats"] if s["seat"] == seat),
                     {"seat": seat, "decisions": 0, "mistakes": 0, "loss": 0.0})
        mine = [d for d in review["decisions"] if d["seat"] == seat and d["mistake"]]
        worst = max(mine, key=lambda d: d["loss"], default=None)
        log.info("%s: reviewed, %d mistakes in %d decisions%s", match_id,
                 tally["mistakes"], tally["decisions"],
                 "" if worst is None else
                 f"; costliest in hand {worst['hand']}, trick {worst['trick']}: played "
                 f"{json.dumps(worst['played'])}, better {json.dumps(worst['best'])} "
                 f"(-{worst['loss']:.2f} of the chance to win)")
        self.reviews[match_id] = tally
        return tally

    def summary(self) -> dict[str, Any]:
        """What happened, for people and tests."""
        return {"finished": self.finished, "skipped": sorted(self.skipped),
                "actions_sent": self.actions_sent, "actions_accepted": self.actions_accepted,
                "statuses": {str(k): v for k, v in sorted(self.client.statuses.items())},
                "reviews": self.reviews}

# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def parse_args(argv: Iterable[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=os.environ.get("TRUCO_BASE", "http://127.0.0.1:8000"),
                        help="the server's URL (env TRUCO_BASE)")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--token", default=os.environ.get("TRUCO_TOKEN"),
                     help="a bot player's token (env TRUCO_TOKEN)")
    who.add_argument("--name", help="register a new bot with this name (prints its token)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="easy")
    parser.add_argument("--join", metavar="MATCH_ID", help="first join this waiting match")
    parser.add_argument("--invite-code", help="the private match's invite code, for --join")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--vs", metavar="LEVEL", choices=("random", "easy", "medium", "hard"),
                       help="first create a match against a built-in bot of this level")
    start.add_argument("--challenge", metavar="PLAYER_ID",
                       help="first create a match inviting this player to seat 1")
    parser.add_argument("--once", action="store_true",
                        help="stop after one finished match (same as --max-matches 1)")
    parser.add_argument("--max-matches", type=int, metavar="N",
                        help="stop after N finished matches (default: run forever)")
    parser.add_argument("--wait", type=int, default=30, help="long-poll seconds (0..60)")
    parser.add_argument("--review", action="store_true",
                        help="once stopped, ask for the computer's review of each finished "
                             "match and log the bot's mistakes")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    args = parser.parse_args(argv)
    if not args.token and not args.name:
        parser.error("give --token (or TRUCO_TOKEN) or --name to register")
    if args.invite_code and not args.join:
        parser.error("--invite-code needs --join")
    if args.join and (args.vs or args.challenge):
        parser.error("--join, --vs and --challenge each start one match: give one of them")
    return args


def main(argv: Iterable[str] | None = None) -> int:
    """Run the bot; the exit status is 0 when it stopped as asked, 1 on a lost token or an
    unreachable server. A JSON summary is printed on stdout at the end."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    client = Client(args.base, args.token)
    bot = Bot(client, STRATEGIES[args.strategy], wait=args.wait)
    status = 0
    try:
        if args.name:
            player = client.register(args.name)
            log.info("registered %s as %s; token (shown once): %s", player["name"],
                     player["id"], player["token"])
        me = client.me()
        log.info("playing as %s (%s) on %s", me["name"], me["id"], args.base)
        if args.join:
            bot.join(args.join, args.invite_code)
        elif args.vs or args.challenge:
            bot.create(args.vs, args.challenge)
        else:
            log.info("waiting for a match: invite me with {\"invite\": [{\"seat\": 1, "
                     "\"player_id\": \"%s\"}]} in POST /v1/matches, or run me with --vs "
                     "easy or --challenge PLAYER_ID", me["id"])
        bot.run(1 if args.once else args.max_matches)
        if args.review:
            for match_id in bot.finished:
                bot.review(match_id)
    except Unauthorized as exc:
        log.error("the server refused the token (%s): register again or rotate it", exc)
        status = 1
    except GiveUp as exc:
        log.error("%s", exc)
        status = 1
    except ApiError as exc:
        log.error("%s", exc)
        status = 1
    except KeyboardInterrupt:
        log.info("stopped")
    print(json.dumps(bot.summary()))
    return status


if __name__ == "__main__":
    sys.exit(main())
