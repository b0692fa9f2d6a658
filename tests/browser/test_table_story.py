"""What the table tells a person beyond the cards: a way to give up, the clock that played for
them, who is their partner, who played what in the last hand, every hand in a replay, and table
talk that reads top down."""
from __future__ import annotations

import os
import time
from collections.abc import Callable

import psycopg2
import requests

from tests.browser.test_client import _auth, _created, _events, _human_match
from tests.browser.test_screens import _axe
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server

# seat 0 (ana) holds three manilhas (vira 3d: the fours) and leads; seat 1 has nothing
DEALS = [{"vira": "3d", "hands": [["4c", "4h", "4s"], ["5d", "6d", "7d"]]}]


def test_a_player_gives_up_a_match_after_being_asked(browsers: Callable[..., Browser],
                                                     server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    match_id, (bia,) = _human_match(server, ana)
    ana.wait(lambda: ana.table()["status"] == "active", why="the match in play")
    ana.click("[data-testid=resign]")
    asked = ana.wait(lambda: ana.all(".resign-ask") and ana.css(".resign-ask").text,
                     why="the question")
    assert "Give up this match? It counts as lost." in asked
    _picture(ana, "resign-phone")
    assert _axe(ana) == []
    focused = ana.driver.execute_script("return document.activeElement.dataset.testid")
    assert focused == "resign-cancel"  # (Enter at once keeps playing)
    ana.click("[data-testid=resign-cancel]")
    ana.wait(lambda: ana.all("[data-testid=resign]"), why="the question gone")
    assert ana.table()["status"] == "active"
    assert not [e for e in _events(server, match_id, bia) if e["type"] == "player_resigned"]
    ana.click("[data-testid=resign]")
    ana.click("[data-testid=resign-confirm]")
    ana.wait(lambda: ana.table()["status"] == "finished", why="the match given up")
    assert ana.css("[data-testid=end-reason]").text == "How it ended: You resigned"
    assert not ana.all("[data-testid=resign]")  # (nothing to give up any more)
    ana.click(".log-box summary")
    talk = ana.css("[data-testid=table] .log").text.splitlines()
    assert talk[:2] == ["They won the match", "You resigned"]  # (not "Them won")
    resigned = [e for e in _events(server, match_id, bia) if e["type"] == "player_resigned"]
    assert [e["seat"] for e in resigned] == [0]


def test_a_spectator_has_no_way_to_resign(browsers: Callable[..., Browser],
                                          server: Server) -> None:
    ana, eve = browsers(), browsers()
    ana.register("ana")
    match_id, _ = _human_match(server, ana)
    eve.register("eve")
    eve.open(f"/play/#/match/{match_id}")
    eve.wait(lambda: eve.table()["status"] == "active", why="the match watched")
    assert not eve.all("[data-testid=resign]")


def test_the_clock_that_played_for_me_is_said_with_what_comes_next(
        browsers: Callable[..., Browser], server: Server, database_url: str) -> None:
    ana = browsers()
    ana.register("ana")
    match_id, (bia,) = _human_match(server, ana, turn_timeout=86400, deals=DEALS,
                                    options={"first_dealer": 1})
    ana.wait(lambda: ana.actions(), why="my turn")
    assert not ana.all("[data-testid=clock-warning]")
    version = int(ana.table()["version"])
    dsn = database_url.replace("+psycopg2", "")
    with psycopg2.connect(dsn) as conn, conn.cursor() as cur:  # (the day gone by)
        cur.execute("UPDATE matches SET deadline = now() - interval '1 second', due_at = now()"
                    " WHERE id = %s", (match_id,))
    said = ana.wait(lambda: int(ana.table()["version"]) > version
                    and ana.all("[data-testid=clock-warning]")
                    and ana.css("[data-testid=clock-warning]").text,
                    why="the turn timed out, said", timeout=60)
    assert said == ("The clock has played for you once in a row: at 3 in a row your side "
                    "loses the match.")
    timed = [e for e in _events(server, match_id, bia) if e["type"] == "turn_timed_out"]
    assert [(e["seat"], e["timeouts_in_row"]) for e in timed] == [(0, 1)]
    ana.click(".log-box summary")
    talk = ana.css("[data-testid=table] .log").text.splitlines()
    assert "You: time ran out, the computer played (1 in a row)" in talk
    _picture(ana, "clock-warning")
    assert _axe(ana) == []
    # a move of my own clears it (bia plays her cards through the API until it is my turn)
    # (the clock's move may have been a truco: bia accepts it first)
    for body in ({"type": "accept"}, *({"type": "play", "card": c} for c in ("5d", "6d", "7d"))):
        if [a for a in ana.actions() if a["type"] == "play"]:
            break
        requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia, timeout=10,
                      json=body)  # (refused when it is not hers to make)
        time.sleep(1)
    play = ana.wait(lambda: [a for a in ana.actions() if a["type"] == "play"], why="my turn")
    ana.click_action(play[0])
    ana.wait(lambda: not ana.all("[data-testid=clock-warning]"), why="the warning gone")


def test_partners_are_named_and_not_only_coloured(browsers: Callable[..., Browser],
                                                 server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id = _created(server, _auth(ana), {"players": 4, "seat": 0, "bots": [
        {"seat": 1, "level": "easy"}, {"seat": 2, "level": "easy"}, {"seat": 3, "level": "easy"}]})
    ana.open(f"/play/#/match/{match_id}")
    ana.wait(lambda: ana.table()["status"] == "active", why="the match in play")
    tags = {int(s.get_attribute("data-seat")): s.get_attribute("aria-label")
            for s in ana.all(".seat")}
    assert "partner" in tags[2] and ana.css(".seat[data-seat='2'] .level").text.endswith(
        "· partner")
    assert "partner" not in tags[1] and "partner" not in tags[3] and "partner" not in tags[0]
    _picture(ana, "partner-4p")
    eve = browsers()  # a spectator has no partner
    eve.register("eve")
    eve.open(f"/play/#/match/{match_id}")
    eve.wait(lambda: eve.all(".seat"), why="the match watched")
    assert not [s for s in eve.all(".seat") if "partner" in s.get_attribute("aria-label")]


def test_the_last_hand_says_who_played_what_and_who_took_each_trick(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id, (bia,) = _human_match(server, ana, deals=DEALS, options={"first_dealer": 1})
    for card, mine in (("4c", True), ("5d", False), ("4h", True), ("6d", False)):
        if mine:
            ana.wait(lambda c=card: {"type": "play", "card": c} in ana.actions(), why=card)
            ana.click_action({"type": "play", "card": card})
        else:
            ana.wait(lambda: not ana.actions(), why="bia's turn")
            played = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                                   timeout=10, json={"type": "play", "card": card})
            assert played.status_code == 200, played.text
    last = ana.wait(lambda: ana.all("[data-testid=last-hand]")
                    and ana.css("[data-testid=last-hand]").text, why="the last hand")
    lines = last.splitlines()
    assert lines[0] == "Last hand (hand 1)"
    tricks = [li.text.replace("\n", " ") for li in ana.all("[data-testid=last-hand] li")]
    assert tricks[0].startswith("Trick 1:") and "you" in tricks[0] and "p1" in tricks[0]
    assert tricks[0].endswith("→ Us") and tricks[1].endswith("→ Us"), tricks
    ana.driver.execute_script(
        "document.querySelector('[data-testid=last-hand]').scrollIntoView()")
    _picture(ana, "last-hand")
    assert _axe(ana) == []


def test_a_replay_shows_what_every_seat_held(browsers: Callable[..., Browser],
                                             server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    auth = _auth(ana)
    match_id, (bia,) = _human_match(server, ana, deals=DEALS, options={"first_dealer": 1})
    ana.wait(lambda: ana.actions(), why="my turn")
    resigned = requests.post(f"{server.url}/v1/matches/{match_id}/resign", headers=bia,
                             timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.wait(lambda: ana.table()["status"] == "finished", why="the match over")
    ana.click("[data-testid=replay]")
    bar = ana.wait(lambda: ana.all(".replay-bar") and ana.css("[data-testid=replay-step]").text,
                   why="the replay at the first deal")
    step = int(bar.split()[1])
    page = requests.get(f"{server.url}/v1/matches/{match_id}/replay?step={step}", headers=auth,
                        timeout=10).json()
    held = page["view"]["hand"]["hands"][1]
    assert held == ["5d", "6d", "7d"]
    shown = [c.get_attribute("aria-label") for c in ana.all(".seat[data-seat='1'] .backs .card")]
    assert len(shown) == 3 and "hidden" not in " ".join(shown).lower(), shown
    _picture(ana, "replay-open-hands")
    assert _axe(ana) == []
    ana.click(".replay-bar [aria-label='Close the replay']")
    ana.wait(lambda: not ana.all(".replay-bar"), why="the table again")
    assert not ana.all(".seat[data-seat='1'] .card")  # (over: nobody's cards)


def _picture(browser: Browser, name: str) -> None:
    """A screenshot to look at while working on the page (TRUCO_SCREENSHOTS: where)."""
    if os.environ.get("TRUCO_SCREENSHOTS"):
        browser.driver.save_screenshot(f"{os.environ['TRUCO_SCREENSHOTS']}/{name}.png")
