"""bench/lib/showdown.py: the hand's chance by fast play-outs, on hands whose end is known."""
from __future__ import annotations

import random

import engine
from bench.lib.showdown import play_out, view_chance
from engine.bots.observation import observe
from engine.cards import strengths
from tests.support.bot_positions import fixed, play


def test_play_out_gives_the_hand_to_the_stronger_cards_and_voids_three_ties() -> None:
    table = strengths("mineiro", None)
    strong, weak = ["3c", "2d", "Ac"], ["5h", "6h", "Kh"]
    assert play_out(table, [], [], 0, {0: list(strong), 1: list(weak)}) == 0
    assert play_out(table, [], [], 0, {0: list(weak), 1: list(strong)}) == 1
    assert play_out(table, [], [], 0, {0: ["5c", "6c", "Kc"], 1: ["5d", "6d", "Kd"]}) is None


def test_play_out_goes_on_from_the_open_trick_and_the_done_ones() -> None:
    """Seat 0 won trick 1 and led a 3 into trick 2: seat 1's K loses it, and the hand."""
    table = strengths("mineiro", None)
    assert play_out(table, [0], [(0, "3c", False)], 1, {0: ["4h"], 1: ["Kd", "Qd"]}) == 0
    # a 3 led face down counts 0: seat 1 takes trick 2 with its cheapest card, the 6, and
    # ties trick 3 K for K, which gives the hand to trick 1's winner
    assert play_out(table, [0], [(0, "3c", True)], 1, {0: ["Kh"], 1: ["Kd", "6d"]}) == 0
    assert play_out(table, [1], [(0, "3c", True)], 1, {0: ["Kh"], 1: ["Kd", "6d"]}) == 1


def test_a_seat_that_must_win_or_must_lose_every_trick_has_chance_1_or_0() -> None:
    """Vira 4d: the 5s are manilhas. Three of them win every trick whatever the other seat
    holds; the three 4s left lose every one (no other card is as weak)."""
    rng = random.Random(7)
    sure = observe(engine.view(fixed(2, [["5c", "5h", "5s"], ["Qd", "Jh", "6d"]]), 0))
    assert view_chance(sure, rng) == 1.0
    hopeless = observe(engine.view(fixed(2, [["4c", "4h", "4s"], ["Qd", "Jh", "6d"]]), 0))
    assert view_chance(hopeless, rng) == 0.0


def test_the_chance_counts_what_the_seat_sees_on_the_table() -> None:
    """Seat 1 follows a lead of the zap (5c) holding the other three manilhas: it loses trick 1
    and must win both others, which its two top cards left always do, against any two cards."""
    state = play(fixed(2, [["5c", "Qd", "Jh"], ["5h", "5s", "5d"]]), (0, "5c"))
    follow = observe(engine.view(state, 1))
    assert view_chance(follow, random.Random(3)) == 1.0
    mixed = observe(engine.view(fixed(2, [["7c", "Ad", "6h"], ["Qd", "Jh", "6d"]]), 0))
    assert 0.0 < view_chance(mixed, random.Random(3), samples=64) < 1.0
