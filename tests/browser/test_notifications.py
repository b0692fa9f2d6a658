"""The browser's notifications at the reference client: asked for under "Settings", they say
an invitation that came and a match that became my turn while the page is open, open that
match when clicked, keep quiet for the match whose table is in sight and once turned off; a
browser that blocks them is said in words. The page's Notification is a stand-in that records
what it is asked to show (headless Chromium shows none)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests

from tests.browser.test_invitations import _auth, _player
from tests.support.browser import Browser
from tests.support.servers import Server

_STAND_IN = """
window.notes = [];
class StandIn {
  constructor(title, options = {}) {
    Object.assign(this, options, {title});
    window.notes.push(this);
  }
  close() { this.closed = true; }
  static get permission() { return localStorage.getItem('stand-in.permission') || 'default'; }
  static async requestPermission() {
    const answer = localStorage.getItem('stand-in.answer') || 'granted';
    localStorage.setItem('stand-in.permission', answer);
    return answer;
  }
}
window.Notification = StandIn;
"""


def _browser(browsers: Callable[..., Browser]) -> Browser:
    browser = browsers()
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _STAND_IN})
    return browser


def _notes(browser: Browser) -> list[dict[str, Any]]:
    return list(browser.driver.execute_script(
        "return window.notes.map(n => ({title: n.title, body: n.body, tag: n.tag}))"))


def _view(server: Server, match_id: str, auth: dict[str, str]) -> dict[str, Any]:
    return dict(requests.get(f"{server.url}/v1/matches/{match_id}", headers=auth,
                             timeout=10).json())


def _play(server: Server, match_id: str, auth: dict[str, str]) -> None:
    """The seat of `auth` plays a card (it must be its turn)."""
    view = _view(server, match_id, auth)
    card = next(a for a in view["legal_actions"] if a["type"] == "play")
    played = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=auth,
                           json=card, timeout=10)
    assert played.status_code == 200, played.text


def _turn_to(server: Server, match_id: str, auths: dict[int, dict[str, str]], seat: int) -> None:
    """Play on, each seat to act playing a card, until `seat` is the one to act."""
    for _ in range(12):
        to_act = _view(server, match_id, auths[seat])["hand"]["to_act"]
        if to_act == [seat]:
            return
        _play(server, match_id, auths[to_act[0]])
    raise AssertionError(f"seat {seat} never came to act")


def test_my_turn_and_an_invitation_are_notified_and_open_the_match(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = _browser(browsers)
    ana.register("ana")
    me = ana.driver.execute_script("return JSON.parse(localStorage.getItem('truco.player'))")
    toggle = "[data-testid=notify]"
    assert ana.css(toggle).get_attribute("aria-pressed") == "false"
    ana.click(toggle)
    ana.wait(lambda: ana.css(toggle).get_attribute("aria-pressed") == "true", why="turned on")

    # an invitation from bia: notified, with the match's kind and who sits there
    bia = _player(server, "bia")
    made = requests.post(f"{server.url}/v1/matches", headers=bia["auth"], timeout=10, json={
        "players": 2, "seat": 0, "invite": [{"seat": 1, "player_id": me["id"]}]})
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    (note,) = ana.wait(lambda: _notes(ana), why="the invitation notified")
    assert note["title"] == "Truco: an invitation to a match"
    assert "2 players · Paulista" in note["body"] and "bia" in note["body"]
    assert note["tag"] == f"truco-{match_id}"

    # accepted; once bia has to act and acts, it is ana's turn: notified
    joined = requests.post(f"{server.url}/v1/matches/{match_id}/join", headers=_auth(ana),
                           json={}, timeout=10)
    assert joined.status_code == 200, joined.text
    seats = {0: bia["auth"], 1: _auth(ana)}
    _turn_to(server, match_id, seats, 0)
    ana.wait(lambda: ana.driver.title == "Truco", why="nothing waits for ana")
    _turn_to(server, match_id, seats, 1)
    ana.wait(lambda: len(_notes(ana)) == 2, why="ana's turn notified")
    assert _notes(ana)[-1]["title"] == "Truco: your turn"
    # the notification clicked: the match's table
    ana.driver.execute_script("window.notes.at(-1).onclick()")
    ana.wait(lambda: ana.table()["match-id"] == match_id, why="the table opened")

    # with that table in sight, its turns are not notified (the table says them)
    _turn_to(server, match_id, seats, 0)
    ana.wait(lambda: ana.driver.title == "Truco", why="bia to act")
    _turn_to(server, match_id, seats, 1)
    ana.wait(lambda: ana.driver.title == "(1) Truco", why="ana's turn again, in the title")
    ana.wait_current()
    assert len(_notes(ana)) == 2

    # turned off: quiet
    ana.open()
    ana.click(toggle)
    ana.wait(lambda: ana.css(toggle).get_attribute("aria-pressed") == "false", why="turned off")
    _turn_to(server, match_id, seats, 0)
    ana.wait(lambda: ana.driver.title == "Truco", why="nothing waits for ana")
    _turn_to(server, match_id, seats, 1)
    ana.wait(lambda: ana.driver.title == "(1) Truco", why="ana's turn again")
    assert _notes(ana) == []  # (a new page: none shown since it opened)


def test_a_browser_that_blocks_notifications_is_said_so(browsers: Callable[..., Browser]) -> None:
    eva = _browser(browsers)
    eva.register("eva")
    eva.driver.execute_script("localStorage.setItem('stand-in.answer', 'denied')")
    eva.click("[data-testid=notify]")
    eva.wait(lambda: "blocks notifications" in eva.css("[data-testid=notify-said]").text,
             why="the refusal said")
    assert eva.css("[data-testid=notify]").get_attribute("aria-pressed") == "false"
    assert not eva.css("[data-testid=notify]").is_enabled()
