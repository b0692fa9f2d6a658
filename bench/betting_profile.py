#!/usr/bin/env python3
"""Betting profile: how a bot level bets, by what it holds, as a reader of its bets sees it.

    python3 bench/betting_profile.py --level hard                  # hard against itself
    python3 bench/betting_profile.py --level hard --against frozen_hard --quick

The questions a person asks to exploit a bot, as numbers: does it bluff, and in which trick;
does it raise with good cards or wait; what does it answer a raise with; does it hide its
dumps face down; does it decide the same way twice (a fixed answer can be read, noise is not
strategy). It plays `--level` against `--against` (default: itself) in 2- and 4-player
matches of both rulesets (the level's team alternating by seed) and tallies the level's
decisions in normal hands where it sees its cards (no mão de onze or de ferro):

- a bet spot (a raise is legal, no call pending), per trick: `weak` when the easy rule would
  not call on its cards (fewer than two good things: a 2, a 3 or a manilha, or a trick won;
  and no top manilha), else `strong`; how often it raised. A raise on weak cards is a bluff.
- with 2 players, the same bet spots by the hand's chance to win its tricks
  (`bench/lib/showdown.py`: the other seat's cards dealt at random, the rest played out by a
  fixed rule), in fifths: how often it raised. When the raise rate is flat across the fifths,
  the level's raises in that trick say nothing of its cards.
- an answer spot (a raise pending), by good things held (0, 1, 2 or more): how often it
  accepted, refused, raised again.
- a face-down spot (a face-down play is legal): how often it played face down; and among
  them the dumps (the card played cannot take the trick as it stands: a face-up card on it
  ranks as high or higher), how often the dump went face down.
- a card spot (nothing pending, two or more cards it may play): whether the card it played
  ranks as the one the easy rule's card play (`cardplay.choose_card`) picks, by what that rule
  would do there (lead, win, tie or dump); and for the hand's first lead, which of its three
  cards it led (lowest, middle, highest). A partner or an opponent that reads its plays by the
  easy rule reads them right that often.
- mixing: every `--recheck-every`-th decision with more than one legal action is decided
  again from the same view with another random generator; the share of equal actions.

The searching levels play at a far clock cap, so their work budget alone decides (and under
--quick at the arena's reduced playouts). The last line of output is one JSON object.
"""
from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Iterable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.arena import (  # noqa: E402  (after the path is set)
    CONFIGS,
    FAR_CAP_MS,
    QUICK_HARD_PLAYOUTS,
    Decision,
    play_match,
)
from bench.lib.frozen import add_frozen_option, frozen_commit  # noqa: E402
from bench.lib.pool import run_all  # noqa: E402
from bench.lib.report import last_line, log, options  # noqa: E402
from bench.lib.showdown import view_chance  # noqa: E402
from bench.lib.stats import wilson  # noqa: E402
from engine.bots import choose_with  # noqa: E402
from engine.bots.cardplay import choose_card, easy_calls, simple_strength, table_top  # noqa: E402
from engine.bots.observation import Observation, observe  # noqa: E402

ANSWERS = ("accept", "refuse", "raise")
INTENTS = ("lead", "win", "tie", "dump")
"""What the easy rule's card play would do in a card spot (cardplay.CardChoice.intent)."""
LEADS = ("lowest", "middle", "highest")
FIFTHS = ("<.2", ".2-.4", ".4-.6", ".6-.8", ">=.8")
"""The bands of a hand's chance to win its tricks (2 players)."""

Tally = dict[str, list[int]]
"""Counter name -> [times it happened, spots]; names like '2p bet weak t1'."""
Job = tuple[str, str, int, str, int, int | None, int, str]
"""(level, against, players, ruleset, seed, playouts, recheck every, frozen_hard's commit)."""


def count(tally: Tally, name: str, happened: bool) -> None:
    """One more spot of `name` in `tally`, and one more time it happened if it did."""
    cell = tally.setdefault(name, [0, 0])
    cell[0] += int(happened)
    cell[1] += 1


def record(tally: Tally, prefix: str, view: dict[str, Any], action: dict[str, Any],
           rng: random.Random) -> None:
    """The level's decision `action` at `view` in the tallies its spot belongs to (`rng`
    deals the other seat's cards for the hand's chance)."""
    legal = view["legal_actions"]
    obs = observe(view)
    if obs.cards is None or obs.special is not None:
        return
    trick = len(obs.results) + 1
    pending = obs.pending
    if pending is not None and pending.get("kind") == "raise":
        good = min(2, simple_strength(obs.cards, obs.strength, obs.results, obs.team))
        for answer in ANSWERS:
            count(tally, f"{prefix} answer {good} {answer}", action["type"] == answer)
        return
    if pending is None and any(a["type"] == "raise" for a in legal):
        strong = easy_calls(obs.cards, obs.strength, obs.results, obs.team)
        count(tally, f"{prefix} bet {'strong' if strong else 'weak'} t{trick}",
              action["type"] == "raise")
        if obs.players == 2:
            fifth = min(4, int(view_chance(obs, rng) * 5))
            count(tally, f"{prefix} bet chance{fifth} t{trick}", action["type"] == "raise")
    if any(a["type"] == "play" and a.get("face_down") for a in legal):
        count(tally, f"{prefix} face_down", bool(action.get("face_down")))
        if action["type"] == "play" and is_dump(obs, action["card"]):
            count(tally, f"{prefix} face_down dump", bool(action.get("face_down")))
    if pending is None and action["type"] == "play":
        record_card(tally, prefix, obs, action["card"])


def record_card(tally: Tally, prefix: str, obs: Observation, card: str) -> None:
    """A card play with a choice (two or more cards it may play) against the easy rule's
    card, and the hand's first lead by the rank of the card led."""
    cards = obs.playable_cards()
    if len(cards) < 2:
        return
    easy = choose_card(cards, obs.strength, obs.plays, obs.seat, obs.results)
    count(tally, f"{prefix} card {easy.intent}", obs.strength[easy.card] == obs.strength[card])
    if not obs.plays and not obs.results and len(cards) == 3:
        rank = sorted(obs.strength[c] for c in cards).index(obs.strength[card])
        for i, lead in enumerate(LEADS):
            count(tally, f"{prefix} first_lead {lead}", rank == i)


def is_dump(obs: Observation, card: str) -> bool:
    """Whether `card` cannot take the open trick as it stands: a card already on it ranks as
    high or higher (a face-down one counts 0; a lead is never a dump)."""
    top, _ = table_top(obs.plays, obs.strength)
    return bool(obs.plays) and obs.strength[card] <= top


def profile_match(job: Job) -> Tally:
    """The tallies of one match's decisions by the profiled level."""
    level, against, players, ruleset, seed, playouts, recheck, frozen = job
    mine = seed % 2
    prefix = f"{players}p"
    tally: Tally = {}
    decided = 0
    deals = random.Random(f"chance:{seed}")

    def tally_decision(d: Decision) -> None:
        nonlocal decided
        if d.seat % 2 != mine:
            return
        record(tally, prefix, d.view, d.action, deals)
        if recheck and len(d.view["legal_actions"]) > 1:
            decided += 1
            if decided % recheck == 0:
                again = choose_with(d.bot, d.view, random.Random(f"recheck:{seed}:{decided}"),
                                    budget_ms=FAR_CAP_MS)
                count(tally, f"{prefix} same_again", again == d.action)

    teams = (level, against) if mine == 0 else (against, level)
    play_match(teams, players, ruleset, seed, playouts, FAR_CAP_MS, frozen, tally_decision)
    return tally


def merge(tallies: Iterable[Tally]) -> Tally:
    """The sum of `tallies`, counter by counter."""
    out: Tally = {}
    for tally in tallies:
        for name, (k, n) in tally.items():
            cell = out.setdefault(name, [0, 0])
            cell[0] += k
            cell[1] += n
    return out


def prefix_total(tally: Tally, prefix: str) -> Tally:
    """A tally of one counter, named `prefix`: the sum of every counter whose name starts
    with it (`merge` sums tallies counter by counter; this sums counters within one)."""
    cells = [cell for name, cell in tally.items() if name.startswith(prefix)]
    return {prefix: [sum(k for k, _ in cells), sum(n for _, n in cells)]}


def share(tally: Tally, name: str) -> str:
    """How often `name` happened, with its Wilson 95% interval and its spots ('-': none)."""
    k, n = tally.get(name, (0, 0))
    if not n:
        return "-"
    low, high = wilson(k, n)
    return f"{k / n:6.1%} [{low:.0%}-{high:.0%}] of {n}"


def rate(tally: Tally, name: str) -> str:
    """How often `name` happened and of how many spots ('-': none), in short."""
    k, n = tally.get(name, (0, 0))
    return f"{k / n:.0%} of {n}" if n else "-"


def report(tally: Tally, players: int) -> None:
    """The table of one player count."""
    p = f"{players}p"
    log(f"{players} players")
    for kind in ("weak", "strong"):
        cells = "   ".join(f"t{t} {share(tally, f'{p} bet {kind} t{t}')}" for t in (1, 2, 3))
        log(f"  raises on {kind} cards: {cells}")
    if players == 2:
        log("  raises by the hand's chance to win its tricks:")
        for t in (1, 2, 3):
            cells = "  ".join(f"{band} {rate(tally, f'{p} bet chance{i} t{t}')}"
                              for i, band in enumerate(FIFTHS))
            log(f"    t{t}  {cells}")
    for good in (0, 1, 2):
        spots = tally.get(f"{p} answer {good} accept", [0, 0])[1]
        cells = "  ".join(f"{a} {tally[f'{p} answer {good} {a}'][0] / spots:.0%}"
                          for a in ANSWERS) if spots else "-"
        log(f"  answers with {good}{'+' if good == 2 else ''} good things: {cells} of {spots}")
    log(f"  face down where allowed: {share(tally, f'{p} face_down')}")
    log(f"  face down, of the dumps where allowed: {share(tally, f'{p} face_down dump')}")
    cells = "   ".join(f"{intent} {rate(tally, f'{p} card {intent}')}" for intent in INTENTS)
    log(f"  card plays ranked as the easy rule's, by its intent: {cells}")
    every = f"{p} card "
    log(f"  card plays ranked as the easy rule's, all: {share(prefix_total(tally, every), every)}")
    cells = "  ".join(f"{lead} {rate(tally, f'{p} first_lead {lead}')}" for lead in LEADS)
    log(f"  the hand's first lead: {cells}")
    log(f"  same action decided again: {share(tally, f'{p} same_again')}")


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "fewer matches, searching levels at "
                 f"{QUICK_HARD_PLAYOUTS} playouts per decision")
    ap.add_argument("--level", default="hard", help="the level profiled (default hard)")
    ap.add_argument("--against", default=None, help="its opponents' level (default: itself)")
    ap.add_argument("--matches", type=int, default=None,
                    help="matches per player count and ruleset (default 24, 8 with --quick)")
    ap.add_argument("--playouts", type=int, default=None,
                    help="playouts per decision of the searching levels (default: theirs, "
                         f"{QUICK_HARD_PLAYOUTS} with --quick)")
    ap.add_argument("--recheck-every", type=int, default=4,
                    help="decide every n-th decision again to measure mixing (0: never)")
    add_frozen_option(ap)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    against = args.against or args.level
    frozen = (frozen_commit(ap, args.frozen) if "frozen_hard" in (args.level, against)
              else args.frozen)
    matches = args.matches or (8 if args.quick else 24)
    playouts = args.playouts or (QUICK_HARD_PLAYOUTS if args.quick else None)
    jobs: list[Job] = [(args.level, against, players, ruleset, args.seed + i, playouts,
                        args.recheck_every, frozen)
                       for players, ruleset in CONFIGS for i in range(matches)]
    start = time.perf_counter()
    log(f"betting profile of {args.level} against {against}: {len(jobs)} matches, "
        f"playouts {playouts or 'default'}, seed {args.seed}")
    tally = merge(run_all(profile_match, jobs, args.jobs, "matches played"))
    for players in sorted({p for p, _ in CONFIGS}):
        report(tally, players)
    seconds = round(time.perf_counter() - start)
    last_line({"level": args.level, "against": against, "matches": len(jobs),
               "playouts": playouts, "seed": args.seed, "seconds": seconds,
               "tallies": {name: tally[name] for name in sorted(tally)}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
