#!/usr/bin/env python3
"""Headroom: what knowing the hidden cards would be worth to `hard`, decision kind by kind.

    python3 bench/headroom.py --players 4 --against easy               # every row, 4 players
    python3 bench/headroom.py --players 2 --know none,answers --pairs 80 --against frozen_hard

Before tuning a part of the hard level's play, measure how much that part could gain at all:
the same search run on the true deal instead of on worlds drawn from what the seat sees, for
one kind of decision at a time, against the same opponents on the same duplicate seeds. A kind
whose perfect-information row wins little more than `none` has little to gain; the gap to
`none` bounds what a better guess of the cards can give there (part of it no player can reach:
nobody knows the cards).

Rows (`--know`):

- `none`: `hard` as it is (the baseline of the run).
- `cards`: every card to play chosen on the true deal (whether to raise, where a raise is
  legal, still decided by the normal search).
- `raises`: whether to raise decided on the true deal (the card, when it does not raise, by
  the normal search).
- `answers`: every answer to a raise on the true deal.
- `reads`: every answer to a raise on worlds drawn as usual, but only those that give the
  raiser cards of its true strength by the easy rule's count (good cards, a top manilha):
  a perfect read of how strong the raise is, not of the cards (what reading the raiser better
  could give at most, where `answers` is knowing its cards).
- `partner`: every decision on worlds that give each partner its true cards, the opponents'
  drawn as usual (with 2 players the same as `none`).
- `all`: every decision on the true deal.

Duplicate matches (each seed twice, the teams swapped), both rulesets, single games to 12,
the hard team's seats at `--playouts` per decision with no clock cap. Last line: JSON.
"""
from __future__ import annotations

import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.arena import (  # noqa: E402  (after the path is set)
    FAR_CAP_MS,
    QUICK_HARD_PLAYOUTS,
    Bot,
    play_match,
)
from bench.lib.frozen import add_frozen_option, frozen_commit  # noqa: E402
from bench.lib.pool import run_all  # noqa: E402
from bench.lib.report import last_line, log, options  # noqa: E402
from bench.lib.stats import wilson  # noqa: E402
from engine.bots.beliefs import world_weight  # noqa: E402
from engine.bots.cardplay import simple_strength, top_manilha  # noqa: E402
from engine.bots.hard import Draw, search  # noqa: E402
from engine.cards import strengths  # noqa: E402
from engine.determinize import determinize  # noqa: E402
from engine.state import MatchState  # noqa: E402

KINDS = ("none", "cards", "raises", "answers", "reads", "partner", "all")
READ_TRIES = 200
"""Worlds a `reads` draw tries before it keeps one whose raiser is not read as the truth."""
Job = tuple[str, str, int, str, int, int, str]
"""(know, against, players, ruleset, seed, playouts, frozen_hard's commit)."""


def spot(view: dict[str, Any]) -> str:
    """The kind of decision `view` asks for: "answer" (a raise is pending), "bet" (a raise is
    legal) or "card"."""
    pending = view["hand"]["pending"]
    if pending is not None and pending["kind"] == "raise":
        return "answer"
    if any(a["type"] == "raise" for a in view["legal_actions"]):
        return "bet"
    return "card"


def true_deal(state: MatchState) -> Draw:
    """A `Draw` that returns the true deal (`state`) whatever the view."""
    def draw(view: dict[str, Any], rng: random.Random, seed: int) -> MatchState:
        return state.copy()
    return draw


def partners_dealt(state: MatchState) -> Draw:
    """A `Draw` of worlds drawn as usual, except that the view's partners hold their true
    cards (the cards it moves out of the drawn hands go to whoever held the true ones)."""
    def draw(view: dict[str, Any], rng: random.Random, seed: int) -> MatchState:
        world = determinize(view, rng, seed=seed)
        seat, h = int(view["you"]["seat"]), world.hand
        for partner in range(seat % 2, state.players, 2):
            if partner == seat:
                continue
            true, drawn = list(state.hand.hands[partner]), h.hands[partner]
            spare = [c for c in drawn if c not in true]
            for card in (c for c in true if c not in drawn):
                _replace(world, card, spare.pop())  # where the world put it, if dealt
            h.hands[partner] = true
        return world
    return draw


def raiser_strength(world: MatchState) -> tuple[int, bool]:
    """The pending raise's caller's strength as the easy rule counts it: good things (good
    cards held and tricks won, 3 or more as 3) and whether it holds a top manilha."""
    h = world.hand
    assert h.pending is not None, "a read is made only to answer a raise"
    caller = int(h.pending["by_seat"])
    table = strengths(world.ruleset, h.vira)
    results = [t.winner_team for t in h.tricks if t.done]
    cards = h.hands[caller]
    return (min(3, simple_strength(cards, table, results, caller % 2)),
            top_manilha(cards, table))


def raiser_read(state: MatchState) -> Draw:
    """A `Draw` of worlds drawn as usual until the pending raise's caller holds cards of the
    strength its true ones have (raiser_strength; READ_TRIES at most)."""
    truth = raiser_strength(state)

    def draw(view: dict[str, Any], rng: random.Random, seed: int) -> MatchState:
        for _ in range(READ_TRIES):
            world = determinize(view, rng, seed=seed)
            if raiser_strength(world) == truth:
                break
        return world
    return draw


def _replace(world: MatchState, card: str, by: str) -> None:
    """`card` replaced by `by` wherever `world` holds it: a hand or a face-down play."""
    h = world.hand
    for s, held in enumerate(h.hands):
        if card in held:
            h.hands[s] = [by if c == card else c for c in held]
            return
    for trick in h.tricks:
        for i, (s, c, down) in enumerate(trick.plays):
            if c == card:
                trick.plays[i] = (s, by, down)
                return


def knowing(know: str, state: MatchState, playouts: int) -> Bot:
    """The hard level's search with the true deal (`state`) for the decisions of kind
    `know`."""
    truth = partners_dealt(state) if know == "partner" else true_deal(state)

    def run(view: dict[str, Any], rng: random.Random, actions: list[dict[str, Any]],
            draw: Draw = determinize) -> dict[str, Any]:
        if len(actions) == 1:
            return dict(actions[0])
        return search(view, actions, rng, world_weight, budget_ms=FAR_CAP_MS,
                      playouts=playouts, draw=draw)

    def bot(view: dict[str, Any], rng: random.Random, *,
            budget_ms: float | None = None) -> dict[str, Any]:
        legal, kind = view["legal_actions"], spot(view)
        plays = [a for a in legal if a["type"] == "play"]
        if not plays and kind != "answer":  # a mão de onze question: no row knows for it
            return run(view, rng, legal)
        if know in ("all", "partner") or (know == "answers" and kind == "answer"):
            return run(view, rng, legal, truth)
        if know == "reads" and kind == "answer":
            return run(view, rng, legal, raiser_read(state))
        if know == "raises" and kind == "bet":
            chosen = run(view, rng, legal, truth)
            return chosen if chosen["type"] == "raise" else run(view, rng, plays)
        if know == "cards" and kind != "answer":
            chosen = run(view, rng, legal) if kind == "bet" else {"type": "play"}
            return chosen if chosen["type"] == "raise" else run(view, rng, plays, truth)
        return run(view, rng, legal)
    return bot


def duplicate(job: Job) -> tuple[str, int, str, int]:
    """(know, players, ruleset, how many of the seed's two matches the hard team won)."""
    know, against, players, ruleset, seed, playouts, frozen = job

    wins = 0
    for hard_team in (0, 1):
        def stand_in(state: MatchState, seat: int, level: str,
                     team: int = hard_team) -> Bot | None:
            # the hard team's seats only: `--against hard` seats the same level opposite
            return knowing(know, state, playouts) if seat % 2 == team else None

        teams = ("hard", against) if hard_team == 0 else (against, "hard")
        winner = play_match(teams, players, ruleset, seed, playouts, FAR_CAP_MS, frozen,
                            stand_in=stand_in)
        wins += int(winner == hard_team)
    return know, players, ruleset, wins


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "8 duplicate pairs per ruleset and row")
    ap.add_argument("--know", default=",".join(KINDS),
                    help=f"the rows, comma-separated (default all: {','.join(KINDS)})")
    ap.add_argument("--against", default="easy",
                    help="the opponents' level (any arena level; default easy)")
    ap.add_argument("--players", type=int, choices=(2, 4, 6), default=4)
    ap.add_argument("--pairs", type=int, default=None,
                    help="duplicate pairs per ruleset and row (default 40, 8 with --quick)")
    ap.add_argument("--playouts", type=int, default=QUICK_HARD_PLAYOUTS,
                    help=f"playouts per decision of the searching levels (default "
                         f"{QUICK_HARD_PLAYOUTS})")
    add_frozen_option(ap)
    ap.add_argument("--seed", type=int, default=7100)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    rows = args.know.split(",")
    unknown = [k for k in rows if k not in KINDS]
    if unknown:
        ap.error(f"unknown row(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    pairs = args.pairs or (8 if args.quick else 40)
    frozen = frozen_commit(ap, args.frozen) if args.against == "frozen_hard" else args.frozen
    jobs: list[Job] = [(know, args.against, args.players, ruleset, args.seed + i,
                        args.playouts, frozen)
                       for know in rows for ruleset in ("paulista", "mineiro")
                       for i in range(pairs)]
    start = time.perf_counter()
    log(f"headroom of hard against {args.against}, {args.players} players: {len(rows)} rows "
        f"of {4 * pairs} matches, {args.playouts} playouts, seed {args.seed}")
    won: dict[str, list[int]] = {know: [0, 0] for know in rows}
    for know, _, _, wins in run_all(duplicate, jobs, args.jobs, "duplicate pairs played"):
        won[know][0] += wins
        won[know][1] += 2
    figures: dict[str, Any] = {}
    base = won[rows[0]][0] / won[rows[0]][1]
    for know in rows:
        k, n = won[know]
        low, high = wilson(k, n)
        log(f"  {know:8} {k / n:6.1%} [{low:.1%}-{high:.1%}] of {n}"
            f"   {100 * (k / n - base):+5.1f} points on {rows[0]}")
        figures[know] = {"win_rate": round(k / n, 4), "ci95": [round(low, 4), round(high, 4)],
                         "matches": n}
    seconds = round(time.perf_counter() - start)
    log(f"{seconds} s in all")
    last_line({"against": args.against, "players": args.players, "playouts": args.playouts,
               "seed": args.seed, "seconds": seconds, "rows": figures})
    return 0


if __name__ == "__main__":
    sys.exit(main())
