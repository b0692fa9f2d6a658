"""Invitations at the reference client: a person sets their handle, a friend challenges them by
it from the new-match form, the invitation is answered at its table (accepted: the match
starts; declined: it leaves the inbox), a public waiting match offers its seat to whoever opens
it, and the waiting panel never asks to share a link it does not show."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import requests

from tests.browser.test_screens import _axe
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server


def _handle(name: str) -> str:
    """A handle of its own for this test (the server is shared by the package's tests)."""
    return f"{name}_{uuid.uuid4().hex[:8]}"


def _auth(browser: Browser) -> dict[str, str]:
    token = browser.driver.execute_script("return localStorage.getItem('truco.token')")
    return {"Authorization": f"Bearer {token}"}


def _player(server: Server, name: str, handle: str | None = None) -> dict[str, Any]:
    """A player registered through the API: its profile, with `auth` (its header) added."""
    body: dict[str, Any] = {"name": name, **({"handle": handle} if handle else {})}
    made = requests.post(f"{server.url}/v1/players", json=body, timeout=10)
    assert made.status_code == 201, made.text
    player = made.json()
    return {**player, "auth": {"Authorization": f"Bearer {player['token']}"}}


def _me(server: Server, auth: dict[str, str]) -> dict[str, Any]:
    return requests.get(f"{server.url}/v1/players/me", headers=auth, timeout=10).json()


def _match(server: Server, match_id: str, auth: dict[str, str] | None = None) -> dict[str, Any]:
    return requests.get(f"{server.url}/v1/matches/{match_id}", headers=auth or {},
                        timeout=10).json()


def _created(server: Server, auth: dict[str, str], body: dict[str, Any]) -> str:
    made = requests.post(f"{server.url}/v1/matches", json=body, headers=auth, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _inbox_ids(server: Server, auth: dict[str, str]) -> list[str]:
    page = requests.get(f"{server.url}/v1/me/matches", headers=auth, timeout=10).json()
    return [item["id"] for item in page["items"]]


def _set_handle(browser: Browser, handle: str) -> str:
    """Type `handle` under "Your handle" and save it; what the form then says."""
    if not browser.css(".who details.handle-edit").get_attribute("open"):
        browser.click(".who details.handle-edit summary")
    field = browser.css("[data-testid=handle]")
    field.clear()
    field.send_keys(handle)
    before = browser.css("[data-testid=handle-said]").text
    browser.click("[data-testid=save-handle]")
    return browser.wait(lambda: (said := browser.css("[data-testid=handle-said]").text)
                        != before and said, why="the handle's answer")


def _challenge(browser: Browser, players: str, friends: str, handles: str) -> None:
    """Fill the new-match form for friends, `handles` in "Friends' handles", and send it."""
    browser.choose("players", players)
    browser.choose("friends", friends)
    field = browser.css("[data-testid=invite-handle]")
    field.clear()
    field.send_keys(handles)
    # (in the middle of the window: the error line, kept in sight at its bottom, may cover
    # what is just scrolled into view)
    browser.driver.execute_script(
        "document.querySelector('[data-testid=invite]').scrollIntoView({block: 'center'})")
    browser.click("[data-testid=invite]")


def _panel(browser: Browser) -> str:
    """The waiting panel's text ("" when there is none)."""
    return browser.driver.execute_script(
        "return [...document.querySelectorAll('.waiting')].map(p => p.innerText).join('\\n')")


def test_a_person_sets_her_handle_and_a_taken_one_changes_nothing(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    assert not ana.css("[data-testid=my-handle]").is_displayed()  # none yet
    mine = _handle("ana")
    assert _set_handle(ana, f"@{mine}") == f"Saved: you are @{mine}."
    assert ana.css("[data-testid=my-handle]").text == f"@{mine}"  # beside "Playing as ana"
    auth = _auth(ana)
    assert _me(server, auth)["handle"] == mine
    # another player's handle: refused in words, mine kept, here and at the server
    zoe = _handle("zoe")
    _player(server, "zoe", zoe)
    assert _set_handle(ana, zoe.upper()) == "That handle is taken: choose another."
    ana.refused_on_purpose(409)
    assert ana.css("[data-testid=handle]").get_attribute("aria-invalid") == "true"
    assert ana.css("[data-testid=my-handle]").text == f"@{mine}"
    assert _me(server, auth)["handle"] == mine
    # not a handle at all: said before anything is sent
    assert _set_handle(ana, "ana maria") == "A handle is 3 to 20 of a-z 0-9 _ - (no spaces)."
    assert _me(server, auth)["handle"] == mine
    # read from the server whenever home is drawn
    ana.driver.refresh()
    ana.wait(lambda: ana.css("[data-testid=my-handle]").text == f"@{mine}",
             why="the handle after a reload")
    assert ana.css("[data-testid=handle]").get_attribute("value") == mine


def test_a_challenge_by_handle_is_accepted_at_the_table_and_the_match_starts(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana, bia = browsers(), browsers()
    ana.register("ana")
    mine = _handle("ana")
    _set_handle(ana, mine)
    bia.register("bia")
    _challenge(bia, "2", "1", f"@{mine}")
    match_id = bia.wait(lambda: bia.table()["status"] == "waiting" and bia.table()["match-id"],
                        why="bia's waiting table")
    # bia waits for ana by name; the only friend's seat is kept for her: no link to share
    bia.wait(lambda: "Waiting for ana to accept the invitation." in _panel(bia),
             why="bia's waiting panel")
    assert "Share this link" not in _panel(bia) and not bia.all("[data-testid=invite-link]")
    ana_id = _me(server, _auth(ana))["id"]
    seat = _match(server, match_id)["seats"][1]
    assert (seat["player"]["id"], seat["invited"]) == (ana_id, True)
    # ana's inbox: an invitation, which waits for her
    ana.open()
    item = ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{match_id}']"),
                    why="the invitation in ana's inbox")[0]
    assert item.get_attribute("data-your-turn") == "true"
    assert item.find_element("css selector", ".badge").text == "Invitation"
    item.find_element("css selector", "a").click()
    ana.wait(lambda: ana.all("[data-testid=accept-invitation]"), why="the invitation")
    panel = ana.css("[data-testid=invitation]").text
    assert "bia invites you to play." in panel and "2 players · Paulista" in panel
    assert ana.css("[data-testid=decline-invitation]").text == "Decline"
    text = ana.text()
    assert "You are watching" not in text and "Share this link" not in text
    # the table is seen from the seat kept for her (bia across, in the other side's colour)
    assert "place-bottom" in ana.css(".seat[data-seat='1']").get_attribute("class")
    assert "them" in ana.css(".seat[data-seat='0']").get_attribute("class").split()
    assert "team-1" in ana.css(".scoreboard .us").get_attribute("class").split()  # hers first
    teams = " ".join(ana.css(".scoreboard .teams").text.split())
    assert teams == "Us 0 × 0 Them"  # seen from her seat, not "Team 2 0 × 0 Team 1"
    assert _axe(ana) == []
    ana.click("[data-testid=accept-invitation]")
    for browser in (ana, bia):
        browser.wait(lambda b=browser: b.table()["status"] == "active", why="the match started")
    assert not ana.all("[data-testid=invitation], .waiting")
    ana.wait(lambda: len(ana.all(".hand .card")) == 3, why="ana's cards")
    view = _match(server, match_id, _auth(ana))
    assert view["status"] == "active" and view["you"] == {"seat": 1, "team": 1}
    assert [s["invited"] for s in view["seats"]] == [False, False]


def test_a_declined_invitation_leaves_the_inbox_and_one_withdrawn_is_said(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    # (a table whose stream is cut does not hear of a withdrawn invitation: it still shows it)
    ana.cut_streams_on_demand()
    ana.register("ana")
    mine = _handle("ana")
    auth = _auth(ana)
    assert requests.patch(f"{server.url}/v1/players/me", json={"handle": mine}, headers=auth,
                          timeout=10).status_code == 200
    bia = _player(server, "bia")
    match_id = _created(server, bia["auth"], {"players": 2, "turn_timeout": 86400,
                                              "invite": [{"seat": 1, "handle": mine}]})
    ana.open(f"/play/#/match/{match_id}")
    panel = ana.wait(lambda: ana.all("[data-testid=invitation]")
                     and ana.css("[data-testid=invitation]").text, why="the invitation")
    assert "2 players · Paulista · 1 d per turn" in panel
    ana.click("[data-testid=decline-invitation]")
    notice = ana.wait(lambda: ana.all("[data-testid=notice]")
                      and ana.css("[data-testid=notice]").text, why="home, with a notice")
    assert notice == "Invitation declined."
    assert ana.driver.execute_script("return location.hash") == "#/"
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="the inbox without it")
    assert match_id not in _inbox_ids(server, auth)
    # bia still waits, her match open again: the seat is free, nobody invited to it
    view = _match(server, match_id)
    assert view["status"] == "waiting"
    assert (view["seats"][1]["player"], view["seats"][1]["invited"]) == (None, False)
    # an invitation withdrawn while the table still shows it: accepting it is said in words
    withdrawn = _created(server, bia["auth"], {"players": 2,
                                               "invite": [{"seat": 1, "handle": mine}]})
    ana.open(f"/play/#/match/{withdrawn}")
    ana.wait(lambda: ana.all("[data-testid=accept-invitation]"), why="the second invitation")
    ana.driver.execute_script("window.dropStreams()")
    left = requests.post(f"{server.url}/v1/matches/{withdrawn}/leave", headers=bia["auth"],
                         timeout=10)
    assert left.status_code == 200 and left.json()["status"] == "cancelled", left.text
    ana.click("[data-testid=accept-invitation]")
    said = ana.wait(lambda: ana.css("#error").text.startswith("This invitation")
                    and ana.css("#error").text, why="the refusal in words")
    assert said == ("This invitation no longer holds: it expired or was withdrawn, "
                    "or the match has started.")
    ana.refused_on_purpose(409)
    ana.wait(lambda: ana.table()["status"] == "cancelled", why="the table read again")
    assert not ana.all("[data-testid=accept-invitation]")


def test_a_public_waiting_match_offers_its_seat_to_whoever_opens_it(
        browsers: Callable[..., Browser], server: Server) -> None:
    caio = _player(server, "caio")
    public = _created(server, caio["auth"], {"players": 2})
    dan = browsers()  # no key yet: Take a seat asks for a name first
    dan.open(f"/play/#/match/{public}")
    dan.wait(lambda: dan.all("[data-testid=take-seat]"), why="the seat offered")
    text = dan.text()
    assert "Waiting for players." in text
    assert "Share this link" not in text and "You are watching" not in text
    dan.click("[data-testid=take-seat]")
    dan.wait(lambda: dan.all("[data-testid=name]"), why="the registration")
    dan.css("[data-testid=name]").send_keys("dan")
    dan.click("[data-testid=register]")
    dan.wait(lambda: dan.table()["match-id"] == public and dan.table()["status"] == "active",
             why="dan seated, the match started")
    dan_id = _me(server, _auth(dan))["id"]
    view = _match(server, public)
    assert view["status"] == "active" and view["seats"][1]["player"]["id"] == dan_id
    # with a key: the seat is taken at once, at the table
    again = _created(server, caio["auth"], {"players": 2})
    dan.open(f"/play/#/match/{again}")
    dan.wait(lambda: dan.all("[data-testid=take-seat]"), why="the seat offered again")
    dan.click("[data-testid=take-seat]")
    dan.wait(lambda: dan.table()["match-id"] == again and dan.table()["status"] == "active",
             why="the second match started")
    assert _match(server, again)["seats"][1]["player"]["id"] == dan_id
    # a private match's seat is not offered to someone without its link, nor one reserved
    private = _created(server, caio["auth"], {"players": 2, "visibility": "private"})
    reserved = _created(server, caio["auth"], {"players": 2, "invite": [
        {"seat": 1, "player_id": _player(server, "eva")["id"]}]})
    for match_id in (private, reserved):
        dan.open(f"/play/#/match/{match_id}")
        dan.wait(lambda m=match_id: dan.table()["match-id"] == m and "Waiting for players."
                 in _panel(dan), why="the waiting panel")
        assert not dan.all("[data-testid=take-seat], [data-testid=accept-invitation]")
        assert "Share this link" not in dan.text()


def test_a_join_link_says_who_invites_to_what_match_before_the_name_is_given(
        browsers: Callable[..., Browser], server: Server) -> None:
    """A friend without a key who opens a private match's link reads who invites them and to
    what match (the view anyone may read) above the name to give, then sits down in it."""
    ana = _player(server, "ana", _handle("ana"))
    match_id = _created(server, ana["auth"], {"players": 2, "visibility": "private",
                                               "turn_timeout": 86400})
    code = _match(server, match_id, ana["auth"])["invite_code"]
    eva = browsers(size=PHONE)
    eva.open(f"/play/#/join/{match_id}/{code}")
    note = eva.wait(lambda: eva.all("[data-testid=join-note]")
                    and eva.css("[data-testid=join-note]").text, why="the invitation's words")
    who = f"ana (@{ana['handle']})"
    assert note.splitlines() == [f"{who} invites you to a 2\u2011player match, Paulista.",
                                 "1 d per turn", "Give your name to sit down and join it."]
    eva.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    eva.driver.refresh()
    note = eva.wait(lambda: eva.all("[data-testid=join-note]")
                    and eva.css("[data-testid=join-note]").text, why="in Portuguese")
    assert note.splitlines()[0] == (f"{who} convida você para uma partida de 2 jogadores, "
                                    "Paulista.")
    eva.css("[data-testid=name]").send_keys("eva")
    eva.click("[data-testid=register]")
    eva.wait(lambda: eva.table()["match-id"] == match_id and eva.table()["status"] == "active",
             why="eva seated, the match started")


def test_the_waiting_panel_shows_the_link_it_asks_to_share(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    # a public match made through the API: its own address is the link (anyone may sit)
    public = _created(server, _auth(ana), {"players": 2})
    ana.open(f"/play/#/match/{public}")
    link = ana.wait(lambda: ana.all("[data-testid=invite-link]")
                    and ana.css("[data-testid=invite-link]").text, why="the public link")
    assert link == f"{server.url}/play/#/match/{public}"
    assert "Waiting for players. Share this link:" in _panel(ana)
    # six players, three friends, two named by handle: their seats kept (partners first,
    # in the order written), the third friend's seat by the private match's link
    gil, ivo = _handle("gil"), _handle("ivo")
    gil_id = _player(server, "gil", gil)["id"]
    ivo_id = _player(server, "ivo", ivo)["id"]
    ana.open()
    ana.wait(lambda: ana.all("[data-testid=new-match]"), why="the form")
    _challenge(ana, "6", "3", f"@{gil}, {ivo.upper()}")
    match_id = ana.wait(lambda: ana.table()["match-id"] != public and ana.table()["match-id"],
                        why="the new match")
    link = ana.wait(lambda: ana.all("[data-testid=invite-link]")
                    and ana.css("[data-testid=invite-link]").text, why="the join link")
    view = _match(server, match_id, _auth(ana))
    assert link == f"{server.url}/play/#/join/{match_id}/{view['invite_code']}"
    seats = {s["seat"]: ((s["player"] or {}).get("id"), s["invited"], s["bot_level"])
             for s in view["seats"]}
    assert seats[2] == (gil_id, True, None) and seats[4] == (ivo_id, True, None)
    assert seats[1] == (None, False, None)  # the friend who comes by the link
    assert seats[3][2] and seats[5][2]  # bots
    panel = _panel(ana)
    assert "Waiting for gil and ivo to accept the invitation." in panel
    # every panel: "Share this link:" only with a link after it
    for match in (public, match_id):
        ana.open(f"/play/#/match/{match}")
        ana.wait(lambda m=match: ana.table()["match-id"] == m and _panel(ana), why="the panel")
        if "Share this link" in _panel(ana):
            assert ana.css("[data-testid=invite-link]").text.startswith(server.url)


def test_a_challenge_the_server_cannot_send_is_said_in_words(
        browsers: Callable[..., Browser], server: Server) -> None:
    bia = browsers()
    bia.register("bia")
    mine = _handle("bia")
    _set_handle(bia, mine)
    # before anything is sent: my own handle, a word that is no handle, more handles than friends
    for handles, said in ((mine.upper(), "That is your own handle: name a friend's."),
                          ("ana maria!", "“maria!” is not a handle: 3 to 20 of a-z 0-9 _ -."),
                          ("abc def", "2 handles for 1 friend: choose more friends to invite, "
                                      "or name fewer.")):
        _challenge(bia, "2", "1", handles)
        bia.wait(lambda s=said: bia.css("#error").text == s, why=said)
    # nobody has it (the server's 422, and the look-up that names which)
    nobody = _handle("nobody")
    _challenge(bia, "2", "1", nobody)
    bia.wait(lambda: bia.css("#error").text == f"Nobody has the handle @{nobody}.",
             why="the unknown handle")
    bia.refused_on_purpose(422, 404)
    # a player who blocked me (403 blocked)
    ana = _player(server, "ana", _handle("ana"))
    bia_id = _me(server, _auth(bia))["id"]
    blocked = requests.put(f"{server.url}/v1/me/blocks/{bia_id}", headers=ana["auth"], timeout=10)
    assert blocked.status_code == 200, blocked.text
    _challenge(bia, "2", "1", ana["handle"])
    bia.wait(lambda: bia.css("#error").text
             == f"@{ana['handle']} does not take your invitations.", why="the block")
    bia.refused_on_purpose(403)
    assert not bia.all("[data-testid=table]")  # still at home: nothing was created
    assert _inbox_ids(server, _auth(bia)) == []


def test_the_window_title_counts_what_waits_for_me_on_every_screen(
        browsers: Callable[..., Browser], server: Server) -> None:
    """"(2) Truco" while two invitations wait, on the home screen and elsewhere, and the plain
    title once they are declined: a tab in the background says when to come back."""
    ana = browsers()
    ana.register("ana")
    me = _me(server, _auth(ana))
    assert ana.driver.title == "Truco"
    bia = _player(server, "bia")
    _created(server, bia["auth"], {"invite": [{"seat": 1, "player_id": me["id"]}]})
    ana.wait(lambda: ana.driver.title == "(1) Truco", why="one invitation in the title")
    ana.open("/play/#/leaderboard")
    ana.wait(lambda: ana.all("[data-testid=leaderboard]"), why="the leaderboard")
    _created(server, bia["auth"], {"invite": [{"seat": 1, "player_id": me["id"]}]})
    ana.wait(lambda: ana.driver.title == "(2) Truco", why="two on another screen")
    declined = requests.post(f"{server.url}/v1/me/invitations/decline", headers=_auth(ana),
                             timeout=10)
    assert declined.json() == {"declined": 2}
    ana.wait(lambda: ana.driver.title == "Truco", why="the plain title again")


def test_a_match_nobody_came_to_is_left_and_cancelled(browsers: Callable[..., Browser],
                                                      server: Server) -> None:
    """The creator of a match for friends leaves it from its table (after a confirmation): the
    match is cancelled, its invitation withdrawn, and home says so."""
    ana = browsers()
    ana.register("ana")
    bia = _player(server, "bia", _handle("bia"))
    ana.choose("players", "2")
    ana.choose("friends", "1")
    ana.css("[data-testid=invite-handle]").send_keys(bia["handle"])
    ana.click("[data-testid=invite]")
    ana.wait(lambda: ana.all("[data-testid=leave-match]"), why="the waiting table")
    match_id = ana.table()["match-id"]
    assert match_id in _inbox_ids(server, bia["auth"])  # (bia's invitation)
    ana.driver.execute_script("window.confirm = () => false")  # thought better of it
    ana.click("[data-testid=leave-match]")
    assert _match(server, match_id)["status"] == "waiting"
    ana.driver.execute_script("window.confirm = () => true")
    ana.click("[data-testid=leave-match]")
    ana.wait(lambda: ana.all("[data-testid=notice]"), why="home with the notice")
    assert ana.css("[data-testid=notice]").text == "You left the match."
    assert _match(server, match_id)["status"] == "cancelled"
    assert match_id not in _inbox_ids(server, bia["auth"])
    assert match_id not in _inbox_ids(server, _auth(ana))
