"""The computer's review at the table of a finished match: a player asks for it with one
button, sees it being worked out, then each seat's tally and their own costliest mistakes as
GET /v1/matches/{id}/review says them."""
from __future__ import annotations

import math
import os
from collections.abc import Callable

import requests

from tests.browser.test_invitations import _auth, _player
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server

# seat 0 holds the three strongest manilhas (vira 3: the fours), seat 1 nothing
DEALS = [{"vira": "3d", "hands": [["4c", "4h", "4s"], ["5d", "6d", "7d"]]}]


def test_a_player_sees_the_review_of_a_truco_refused_with_the_best_cards(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    auth, dan = _auth(ana), _player(server, "dan")
    made = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 2, "seat": 0, "deals": DEALS, "options": {"first_dealer": 0},
        "invite": [{"seat": 1, "player_id": dan["id"]}]})
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    for who, path, body in ((dan, "join", {}), (dan, "actions", {"type": "raise", "to": 3}),
                            ({"auth": auth}, "actions", {"type": "refuse"}),
                            ({"auth": auth}, "resign", None)):
        r = requests.post(f"{server.url}/v1/matches/{match_id}/{path}", headers=who["auth"],
                          json=body, timeout=10)
        assert r.status_code == 200, r.text
    ana.open(f"/play/#/match/{match_id}")
    ana.wait(lambda: ana.table()["status"] == "finished", why="the finished match")
    ana.click("[data-testid=review]")
    listed = ana.wait(lambda: ana.all("[data-testid=mistakes] li"),
                      why="the review, once the worker has worked it out", timeout=60)
    review = requests.get(f"{server.url}/v1/matches/{match_id}/review", headers=auth,
                          timeout=10).json()
    assert review["status"] == "done"
    refusal = next(d for d in review["decisions"] if d["played"] == {"type": "refuse"})
    assert refusal["mistake"]
    text = listed[0].text
    assert text.startswith("Hand 1, trick 1 · holding 4♣ 4♥ 4♠")
    assert "you played Corro (fold); better " in text and "chance to win " in text
    chance = {str(sorted(o["action"].items())): o["chance"] for o in refusal["options"]}
    # (rounded as the page's Math.round rounds: a half up, where Python's round goes even)
    was, could = (math.floor(chance[str(sorted(a.items()))] * 100 + 0.5)
                  for a in (refusal["played"], refusal["best"]))
    assert text.endswith(f"chance to win {was}% → {could}%")
    seats = ana.css(".review-seats").text
    assert "you: 1 mistake in 1 decision" in seats
    assert "dan: " in seats
    if os.environ.get("TRUCO_SCREENSHOTS"):
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/review-desktop.png")
    # See it: a finger's size on a phone; the replay at that moment, dan's truco to answer
    ana.driver.set_window_size(*PHONE)
    ana.wait(lambda: ana.css("[data-testid=see-mistake]").rect["height"] >= 44,
             why="See it, a finger's size")
    ana.click("[data-testid=see-mistake]")
    bar = ana.wait(lambda: ana.css(".replay-bar").text, why="the replay at the mistake")
    assert f"Step {refusal['step']} / " in bar
    pending = ana.wait(lambda: "Truco!" in ana.css("[data-testid=table]").text,
                       why="the truco to answer, in the replay")
    assert pending
    # the mistake stays said under the bar, and the bar sits above the scoreboard and felt
    note = ana.css("[data-testid=replay-review]").text
    assert note.startswith("Review: Hand 1, trick 1 · holding 4♣ 4♥ 4♠: "), note
    assert note.endswith(f"you played Corro (fold); better {text.split('; better ')[1]}"), note
    _above_the_scoreboard(ana, ".replay-bar")
    if os.environ.get("TRUCO_SCREENSHOTS"):  # (to look at while working on the page)
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/review-replay.png")
        phone = browsers(size=PHONE)
        phone.driver.get(server.url + "/play/")
        phone.driver.execute_script(
            "localStorage.setItem('truco.token', arguments[0]);"
            "localStorage.setItem('truco.player', arguments[1]);",
            auth["Authorization"][7:],
            ana.driver.execute_script("return localStorage.getItem('truco.player')"))
        phone.open(f"/play/#/match/{match_id}")
        _review_drawn(phone, os.environ["TRUCO_SCREENSHOTS"] + "/review-phone.png")
        phone.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
        phone.driver.refresh()
        _review_drawn(phone, os.environ["TRUCO_SCREENSHOTS"] + "/review-phone-pt.png")
    # another step: the mistake's sentence goes (it said this step's move only)
    shown = ana.css("[data-testid=replay-step]").text
    ana.click(".replay-bar [data-focus=next]")
    ana.wait(lambda: ana.css("[data-testid=replay-step]").text != shown, why="the next step")
    assert not ana.all("[data-testid=replay-review]")


def _above_the_scoreboard(browser: Browser, selector: str) -> None:
    """`selector` drawn above the scoreboard, and the scoreboard right on top of the felt."""
    above, board, felt = (browser.css(s).rect for s in (selector, ".scoreboard", ".felt"))
    assert above["y"] + above["height"] <= board["y"], (above, board)
    assert abs(board["y"] + board["height"] - felt["y"]) <= 1, (board, felt)


def _review_drawn(browser: Browser, picture: str) -> None:
    """The finished table's review asked for and drawn, in sight, written to `picture`."""
    browser.wait(lambda: browser.table()["status"] == "finished", why="the finished table")
    browser.click("[data-testid=review]")
    browser.wait(lambda: browser.all("[data-testid=mistakes] li"), why="the review drawn")
    browser.driver.execute_script(
        "document.querySelector('[data-testid=review-panel]').scrollIntoView()")
    browser.driver.save_screenshot(picture)
