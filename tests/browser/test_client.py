"""The reference client at /play/ in a real headless Chromium: a person registers, plays
against a bot to the end, plays beside a friend in another browser, comes back to a
correspondence match after closing the browser; no page logs a console error."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable

import pytest
import requests

from tests.browser.test_review import _above_the_scoreboard
from tests.support.browser import PHONE, Browser, play_turn
from tests.support.servers import Server


def _start(browser: Browser, players: str = "2", level: str = "random") -> dict[str, str]:
    browser.choose("players", players)
    browser.choose("ruleset", "paulista")
    browser.choose("level", level)
    browser.click("[data-testid=start]")
    return browser.wait(lambda: browser.table()["status"] == "active" and browser.table(),
                        why="the match against bots")


def _overflow(browser: Browser) -> int:
    """How much wider than the window the page is (0: nothing overflows)."""
    return browser.driver.execute_script("const d = document.documentElement;"
                                         "return Math.max(0, d.scrollWidth - d.clientWidth)")


def _invite(browser: Browser, players: str, friends: str) -> str:
    """Create a match for friends; the invite link the page shows."""
    browser.choose("players", players)
    browser.choose("friends", friends)
    browser.click("[data-testid=invite]")
    return browser.wait(lambda: browser.css("[data-testid=invite-link]").text,
                        why="the invite link")


def test_a_person_registers_and_plays_a_bot_to_the_end(browsers: Callable[..., Browser],
                                                       server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    table = _start(ana)
    view = requests.get(f"{server.url}/v1/matches/{table['match-id']}", timeout=10).json()
    assert view["seats"][1]["bot_level"] == "random"
    turns = 0
    while play_turn(ana):
        turns += 1
        assert turns < 200
    final = requests.get(f"{server.url}/v1/matches/{table['match-id']}", timeout=10).json()
    assert final["status"] == "finished" and max(final["score"]) >= 12
    result = ana.wait(lambda: ana.css("[data-testid=result]").text, why="the result")
    assert ("won" in result) == (final["winner_team"] == 0)
    assert f"{final['score'][0]} × {final['score'][1]}" in result
    assert ana.table()["version"] == str(final["version"])
    if "end_reason" in final:  # (served with the endings: how it ended, rematch and replay)
        assert ana.wait(lambda: ana.css("[data-testid=end-reason]").text,
                        why="how it ended").endswith("reached 12 points")
        ana.click("[data-testid=rematch]")
        rematch = ana.wait(lambda: ana.table()["match-id"] != table["match-id"]
                           and ana.table(), why="the rematch's table")
        assert rematch["status"] in ("waiting", "active")


def test_two_browsers_play_as_partners_in_a_four_player_match(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana, bia = browsers(), browsers()
    ana.register("ana")
    link = _invite(ana, "4", "1")
    assert ana.table()["status"] == "waiting"
    ana.driver.set_window_size(*PHONE)
    assert _overflow(ana) == 0  # the invite link wraps at a phone's width
    bia.open(link.removeprefix(server.url))
    bia.wait(lambda: bia.all("[data-testid=name]"), why="the invitation's registration")
    bia.css("[data-testid=name]").send_keys("bia")
    bia.click("[data-testid=register]")
    match_id = bia.wait(lambda: bia.table()["status"] == "active" and bia.table()["match-id"],
                        why="bia at the table")
    assert ana.wait(lambda: ana.table()["status"] == "active", why="ana sees it start")
    view = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10).json()
    names = {s["seat"]: (s["player"] or {}).get("name") for s in view["seats"]}
    assert names[0] == "ana" and names[2] == "bia"  # partners: team 0
    assert [s["bot_level"] for s in view["seats"]] == [None, "easy", None, "easy"]
    hands = view["hand"]["number"]
    played = set()
    while True:  # both play until the first hand is over
        for name, browser in (("ana", ana), ("bia", bia)):
            browser.wait_current()
            actions = browser.actions()
            if actions and browser.table()["status"] == "active":
                before = browser.table()["version"]
                browser.click_action(next(a for a in actions if a["type"] == "play"
                                          and not a.get("face_down")) if any(
                    a["type"] == "play" for a in actions) else actions[0])
                browser.wait(lambda b=browser, v=before: b.table()["version"] != v,
                             why=f"{name}'s action answered")
                played.add(name)
        now = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10).json()
        if now["status"] != "active" or now["hand"]["number"] > hands:
            break
    assert played == {"ana", "bia"}
    for browser in (ana, bia):
        summary = browser.wait(lambda b=browser: b.css("[data-testid=last-hand]").text,
                               why="the hand's summary")
        assert str(hands) in summary


def test_a_correspondence_match_survives_a_closed_browser(browsers: Callable[..., Browser],
                                                         server: Server) -> None:
    profile = tempfile.mkdtemp(prefix="truco-profile-")
    try:
        ana = browsers(profile=profile)
        ana.register("ana")
        ana.choose("turn_timeout", "86400")
        link = _invite(ana, "2", "1")
        match_id = ana.table()["match-id"]
        bia = browsers()
        bia.register("bia")
        bia.open(link.removeprefix(server.url))
        bia.wait(lambda: bia.table()["status"] == "active", why="bia joins")
        view = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10).json()
        assert view["turn_timeout"] == 86400 and view["deadline"]
        first = view["hand"]["to_act"][0]
        mover, other = (ana, bia) if first == 0 else (bia, ana)
        assert play_turn(mover)
        ana.quit()  # ana closes her browser; bia plays meanwhile
        if other is bia:
            assert play_turn(bia)
        reopened = browsers(profile=profile)  # the same profile: her token is remembered
        reopened.open()
        inbox = reopened.wait(lambda: reopened.all("[data-testid=inbox] [data-match-id]"),
                              why="ana's inbox")
        assert inbox[0].get_attribute("data-match-id") == match_id
        assert inbox[0].get_attribute("data-your-turn") == "true"
        assert inbox[0].text.count("2 players · Paulista") + inbox[0].text.count(
            "2 jogadores · Paulista") == 1  # the table's size and rules, named
        inbox[0].find_element("css selector", "a").click()
        reopened.wait(lambda: reopened.table()["match-id"] == match_id, why="the table")
        assert play_turn(reopened)
        after = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10).json()
        assert after["status"] == "active" and 0 not in after["hand"]["to_act"]
        # bia's table follows from the stream without a reload
        bia.wait(lambda: bia.table()["version"] == str(after["version"]), why="bia's stream")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def test_the_token_can_be_copied_to_another_device(browsers: Callable[..., Browser],
                                                   server: Server) -> None:
    phone, laptop = browsers(), browsers()
    phone.register("ana")
    phone.click(".who summary")
    token = phone.css("[data-testid=token]").text
    laptop.open()
    laptop.wait(lambda: laptop.all("#f-token"), why="the token field")
    laptop.click("details.panel summary")
    laptop.css("#f-token").send_keys(token[:-1])  # (copied short: not a key of anyone's)
    use = laptop.driver.find_element("xpath", "//button[contains(., 'Use this key')]")
    use.click()
    laptop.wait(lambda: laptop.css("#error").text, why="the key refused")
    assert laptop.css("#error").text == ("This key is not known here: check that it was "
                                         "copied whole.")
    laptop.refused_on_purpose(401)
    laptop.css("#f-token").send_keys(token[-1])
    use.click()
    laptop.wait(lambda: laptop.all("[data-testid=new-match]"), why="signed in")
    stored = laptop.driver.execute_script("return localStorage.getItem('truco.player')")
    me = requests.get(f"{server.url}/v1/players/me", timeout=10,
                      headers={"Authorization": f"Bearer {token}"}).json()
    assert json.loads(stored)["id"] == me["id"]


def test_a_mao_de_onze_is_answered_with_the_tables_words(browsers: Callable[..., Browser],
                                                         server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id = _created(server, _auth(ana), {"players": 2, "start_score": [11, 3],
                                             "bots": [{"seat": 1, "level": "random"}]})
    ana.open(f"/play/#/match/{match_id}")
    ana.wait(lambda: ana.actions(), why="the mão de onze question")
    labels = {b.get_attribute("data-action"): b.text for b in ana.all("[data-action]")}
    # the table's word, and under it (in English) what it means
    assert labels == {'{"type":"accept"}': "Jogo\nplay it", '{"type":"refuse"}': "Corro\nfold"}
    assert ana.css(".question").text == "Mão de onze: play this hand for 3 points?"
    assert ana.css(".scoreboard .stake").text == "Hand worth 3"  # as the question says
    assert ana.css(".felt").text.count("Mão de onze") == 1  # named once, in the question
    version = ana.table()["version"]
    ana.click_action({"type": "refuse"})
    ana.wait(lambda: ana.table()["version"] != version, why="the refusal answered")
    summary = ana.wait(lambda: ana.css("[data-testid=last-hand]").text, why="the summary")
    assert "We gave up the mão de onze: Them +1 point" in summary  # who, why, and what for


def _auth(browser: Browser) -> dict[str, str]:
    """The Authorization header of the browser's player (its token in localStorage)."""
    token = browser.driver.execute_script("return localStorage.getItem('truco.token')")
    return {"Authorization": f"Bearer {token}"}


def _created(server: Server, auth: dict[str, str], body: dict[str, object]) -> str:
    """The id of a match made through the API by the player of `auth` with `body`."""
    created = requests.post(f"{server.url}/v1/matches", timeout=10, headers=auth, json=body)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def _bot_match(server: Server, browser: Browser, **body: object) -> str:
    """A 2-player match against a bot made through the API with `body` (fixed deals, a
    starting score), opened at the browser's table; its id."""
    match_id = _created(server, _auth(browser),
                        {"players": 2, "bots": [{"seat": 1, "level": "easy"}], **body})
    browser.open(f"/play/#/match/{match_id}")
    return match_id


def test_my_own_face_down_card_is_marked_as_played_face_down(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.driver.set_window_size(*PHONE)
    ana.register("ana")
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    # bia plays through the API, only when told: the table stays as ana left it
    bia = requests.post(f"{server.url}/v1/players", json={"name": "bia"}, timeout=10).json()
    bia_auth = {"Authorization": f"Bearer {bia['token']}"}
    # my 5 of clubs is the top manilha: I win the first trick and lead the second
    created = requests.post(f"{server.url}/v1/matches", timeout=10,
                            headers={"Authorization": f"Bearer {token}"},
                            json={"players": 2, "seat": 0, "options": {"first_dealer": 1},
                                  "deals": [{"vira": "4h", "hands": [["5c", "3h", "2s"],
                                                                     ["4d", "Ks", "Qd"]]}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    joined = requests.post(f"{server.url}/v1/matches/{match_id}/join", json={"seat": 1},
                           headers=bia_auth, timeout=10)
    assert joined.status_code == 200, joined.text
    ana.open(f"/play/#/match/{match_id}")
    ana.wait(lambda: any(a.get("card") == "5c" for a in ana.actions()), why="my first card")
    version = ana.table()["version"]
    ana.click_action({"type": "play", "card": "5c"})
    ana.wait(lambda: ana.table()["version"] != version, why="the first card played")
    answer = requests.post(f"{server.url}/v1/matches/{match_id}/actions", timeout=10,
                           headers=bia_auth, json={"type": "play", "card": "4d"})
    assert answer.status_code == 200, answer.text
    down = {"type": "play", "card": "3h", "face_down": True}
    ana.wait(lambda: down in ana.actions(), why="the second trick")
    heights = [b.rect["height"] for b in ana.all(".hand .face-down")]
    assert heights and min(heights) >= 44  # a finger's size on a phone
    # what playing face down means, for a pointer that rests on it and for a screen reader
    said = {(b.get_attribute("title"), ana.driver.find_element(
        "id", b.get_attribute("aria-describedby")).get_attribute("textContent"))
        for b in ana.all(".hand .face-down")}
    assert said == {("Played hidden: it counts 0 in the trick, and nobody else sees which card "
                     "it was.",) * 2}
    from tests.browser.test_screens import _axe
    assert _axe(ana) == []
    ana.click_action(down)
    label = ana.wait(lambda: [c.get_attribute("aria-label") for c in
                              ana.all(".place-bottom .played .card.covered")], why="my card down")
    assert label == ["3 of hearts (face down)"]
    assert ana.css(".place-bottom .covered-note").text == "face down"
    assert _overflow(ana) == 0


def test_the_special_hands_are_named_as_the_table_says_them(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    _bot_match(server, ana, start_score=[11, 11])
    special = ana.wait(lambda: ana.css(".special").text, why="the mão de ferro")
    assert special == "Mão de ferro: cards played blind"
    _bot_match(server, ana, ruleset="mineiro", start_score=[10, 3])
    question = ana.wait(lambda: ana.all(".question") and ana.css(".question").text,
                        why="the mão de dez question")
    assert question == "Mão de dez: play this hand for 4 points?"  # (worth 4 once played)
    assert ana.css(".felt").text.count("Mão de dez") == 1  # in the question alone


def test_a_reloaded_table_brings_back_its_table_talk(browsers: Callable[..., Browser],
                                                     server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id = _bot_match(server, ana, deals=[{"vira": "4h", "hands": [["5c", "3h", "2s"],
                                                                       ["4d", "Ks", "Qd"]]}])
    ana.wait(lambda: any(a.get("card") == "5c" for a in ana.actions()), why="my first card")
    version = ana.table()["version"]
    ana.click_action({"type": "play", "card": "5c"})
    ana.wait(lambda: ana.table()["version"] != version, why="the first card played")
    ana.driver.refresh()
    ana.wait(lambda: ana.table()["match-id"] == match_id, why="the table again")
    talk = ana.wait(lambda: "5 of clubs" in (ana.css(".log").get_attribute("textContent") or "")
                    and ana.all(".log li"), why="the table talk brought back")
    lines = [li.get_attribute("textContent") for li in talk]
    assert lines.count("You played 5 of clubs") == 1
    assert lines[-1] == "You sat down"  # the oldest last, as the stream leaves them
    assert lines.index("You played 5 of clubs") < lines.index("Hand 1 dealt")


def _human_match(server: Server, browser: Browser, players: int = 2,
                 **body: object) -> tuple[str, list[dict[str, str]]]:
    """A match of `players` made through the API with `body`, the browser's player at seat 0
    and the other seats taken by people who act only through the API when the test says so
    (the table stays as they left it); opened at the browser's table. Its id, and each other
    seat's Authorization header (seat 1 first)."""
    match_id = _created(server, _auth(browser), {"players": players, "seat": 0, **body})
    others = []
    for seat in range(1, players):
        player = requests.post(f"{server.url}/v1/players", json={"name": f"p{seat}"},
                               timeout=10).json()
        auth = {"Authorization": f"Bearer {player['token']}"}
        joined = requests.post(f"{server.url}/v1/matches/{match_id}/join", json={"seat": seat},
                               headers=auth, timeout=10)
        assert joined.status_code == 200, joined.text
        others.append(auth)
    browser.open(f"/play/#/match/{match_id}")
    return match_id, others


def test_the_mao_de_onze_is_named_once_on_either_side(browsers: Callable[..., Browser],
                                                      server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id, (bia,) = _human_match(server, ana, start_score=[3, 11])
    question = ana.wait(lambda: ana.all(".question") and ana.css(".question").text,
                        why="their mão de onze question")
    assert question == "Mão de onze: they decide whether to play it"  # not asked of me
    assert ana.css(".felt").text.count("Mão de onze") == 1
    assert ana.actions() == []
    version = ana.table()["version"]
    decided = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                            json={"type": "accept"}, timeout=10)
    assert decided.status_code == 200, decided.text
    ana.wait(lambda: ana.table()["version"] != version and not ana.all(".question"),
             why="the hand played")
    assert ana.css(".special").text == "Mão de onze"  # a label once nothing is asked
    assert ana.css(".felt").text.count("Mão de onze") == 1


def _events(server: Server, match_id: str, auth: dict[str, str]) -> list[dict[str, object]]:
    page = requests.get(f"{server.url}/v1/matches/{match_id}/events?limit=500", headers=auth,
                        timeout=10)
    assert page.status_code == 200, page.text
    return page.json()["items"]


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_press_survives_a_redraw_and_acts_once(browsers: Callable[..., Browser],
                                                 server: Server, pointer: str) -> None:
    """A view that comes between the press of a control and its release redraws the table;
    the control's action, still offered, is sent (once) all the same, by a mouse or a finger."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    ana = browsers()
    ana.register("ana")
    # seat 1 leads and calls truco; ana (seat 0) and her partner (seat 2) may both answer
    match_id, (bob, bia, _) = _human_match(server, ana, players=4,
                                           options={"first_dealer": 0})
    called = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bob,
                           json={"type": "raise"}, timeout=10)
    assert called.status_code == 200, called.text
    accept = {"type": "accept"}
    ana.wait(lambda: accept in ana.actions(), why="the truco question")
    ana.wait(lambda: not ana.all("[data-fresh]"), why="the answers take a press")
    version = int(ana.table()["version"])
    button = next(b for b in ana.all("[data-action]")
                  if json.loads(b.get_attribute("data-action")) == accept)
    if pointer == "touch":
        finger = ActionBuilder(ana.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        finger.pointer_action.move_to(button).pointer_down()
        finger.perform()
    else:
        ActionChains(ana.driver).move_to_element(button).click_and_hold().perform()
    # her partner refuses meanwhile: a new view, in which ana may still accept
    refused = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                            json={"type": "refuse"}, timeout=10)
    assert refused.status_code == 200, refused.text
    ana.wait(lambda: int(ana.table()["version"]) > version, why="the partner's refusal drawn")
    assert accept in ana.actions()
    redrawn = int(ana.table()["version"])
    if pointer == "touch":
        finger.clear_actions()
        finger.pointer_action.pointer_up()
        finger.perform()
    else:
        ActionChains(ana.driver).release().perform()
    ana.wait(lambda: int(ana.table()["version"]) > redrawn, why="the press answered")
    time.sleep(1)  # (time for a second request, if one went)
    answers = [e for e in _events(server, match_id, bob)
               if e["type"] in ("raise_accepted", "raise_refused") and e["seat"] == 0]
    assert [e["type"] for e in answers] == ["raise_accepted"]
    assert ana.css("#error").text == ""


def test_a_failed_action_is_said_in_sight_and_can_be_tried_again(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    _human_match(server, ana, start_score=[11, 3])  # a mão de onze: ana answers first
    accept = {"type": "accept"}
    ana.wait(lambda: accept in ana.actions(), why="the mão de onze question")
    # the connection fails for what ana sends (twice: the client tries once more by itself)
    ana.driver.execute_script(
        "window.realFetch = window.fetch; window.fetch = (url, init) => init"
        " && init.method === 'POST' ? Promise.reject(new TypeError('Failed to fetch'))"
        " : window.realFetch(url, init)")
    ana.click_action(accept)
    said = ana.wait(lambda: ana.css("#error").text, why="the error line")
    assert said.startswith("No connection to the server.")  # words, not "Failed to fetch"
    top, bottom, height = ana.driver.execute_script(
        "const r = document.getElementById('error').getBoundingClientRect();"
        "return [r.top, r.bottom, window.innerHeight]")
    assert 0 <= top and bottom <= height  # in sight, not below the cards
    ana.wait(lambda: accept in ana.actions(), why="the controls again")
    ana.driver.execute_script("window.fetch = window.realFetch")
    version = ana.table()["version"]
    ana.click_action(accept)
    ana.wait(lambda: ana.table()["version"] != version, why="the second try answered")
    assert ana.css("#error").text == ""


def test_a_refused_action_is_explained_in_the_players_words(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    _human_match(server, ana, start_score=[11, 3])
    accept = {"type": "accept"}
    ana.wait(lambda: accept in ana.actions(), why="the mão de onze question")
    # the server refuses: the match ended meanwhile (409), as the other side resigned just then
    ana.driver.execute_script(
        "window.realFetch = window.fetch; window.fetch = (url, init) => init"
        " && init.method === 'POST' ? Promise.resolve(new Response(JSON.stringify({"
        "code: 'match_not_active', status: 409, title: 'Conflict',"
        " detail: 'the match is finished'}), {status: 409,"
        " headers: {'Content-Type': 'application/problem+json'}}))"
        " : window.realFetch(url, init)")
    ana.click_action(accept)
    said = ana.wait(lambda: ana.css("#error").text, why="the error line")
    assert said == "This match is not in play now."  # not the server's "the match is finished"
    ana.wait(lambda: accept in ana.actions(), why="the table read again")


def test_my_side_keeps_its_colour_in_either_team(browsers: Callable[..., Browser],
                                                 server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    # ana in team 1 (seat 1), as a rematch can seat her
    match_id = _created(server, _auth(ana),
                        {"players": 2, "seat": 1, "bots": [{"seat": 0, "level": "easy"}]})
    ana.open(f"/play/#/match/{match_id}")
    ana.wait(lambda: ana.table()["status"] == "active", why="the table")

    def colour(selector: str) -> str:
        return ana.driver.execute_script(
            "return getComputedStyle(document.querySelector(arguments[0])).color", selector)

    us, them = "rgb(255, 209, 102)", "rgb(154, 209, 255)"  # --us, --them
    assert colour("[data-testid=score-us]") == us
    assert colour("[data-testid=score-them]") == them
    assert colour(".seat[data-seat='1'] .name") == us  # me
    assert colour(".seat[data-seat='0'] .name") == them


def test_a_link_to_a_match_without_a_free_seat_leads_home_and_says_why(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id = _bot_match(server, ana)  # her seat and a bot's: no seat left
    ana.wait(lambda: ana.table()["status"] == "active", why="the table")
    cid = browsers(size=PHONE)
    cid.register("cid")
    cid.open(f"/play/#/join/{match_id}/a-code")
    said = cid.wait(lambda: cid.css("#error").text, why="the error line")
    assert said.startswith("This match has no free seat any more")
    assert cid.all("[data-testid=new-match]") and cid.all("[data-testid=inbox]")  # home
    assert cid.driver.current_url.endswith("/play/#/")
    # (the home screen's panels read, and the page's height settled: a panel that comes later
    # makes it longer)
    cid.wait(lambda: cid.all("[data-testid=lobby][aria-busy=false]"), why="the lobby read")
    heights: list[int] = []

    def settled() -> bool:
        heights.append(cid.driver.execute_script("return document.documentElement.scrollHeight"))
        time.sleep(0.5)
        return len(heights) >= 2 and heights[-1] == heights[-2]

    cid.wait(settled, why="the page's height settled")
    # the line at the bottom of the window covers nothing the page cannot scroll above it: at
    # the end of the page, the open matches' Refresh is over the line, not under it
    cid.driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    top, bottom, refresh, end = cid.driver.execute_script(
        "const box = (e) => e.getBoundingClientRect();"
        "const line = box(document.getElementById('error-line'));"
        "return [line.top, line.bottom,"
        " box(document.querySelector('[data-testid=lobby-refresh]')).bottom,"
        " box(document.querySelector('main').lastElementChild).bottom]")
    assert bottom <= PHONE[1] and bottom - top < 140
    assert refresh <= top and end <= top
    # (and the lobby's controls are a finger's size, its size filter rounded at its ends only)
    heights = [b.rect["height"] for b in cid.all(".lobby-head button")]
    assert len(heights) == 5 and min(heights) >= 44, heights
    corners = cid.driver.execute_script(
        "return [...document.querySelectorAll('.lobby-head .switch button')].map((b) => {"
        " const c = getComputedStyle(b);"
        " return [c.borderTopLeftRadius, c.borderTopRightRadius]; })")
    assert corners[0][0] != "0px" and corners[0][1] == "0px"
    assert all(c == ["0px", "0px"] for c in corners[1:-1]), corners
    assert corners[-1][0] == "0px" and corners[-1][1] != "0px"
    close = cid.css("#error-close")
    assert close.accessible_name == "Close this message"
    assert close.rect["height"] >= 44 and close.rect["width"] >= 44
    close.click()
    cid.wait(lambda: not cid.css("#error-line").is_displayed(), why="the line closed")
    assert cid.css("#error").get_attribute("textContent") == ""
    cid.errors()  # the join's 409, which the browser logs, is this test's point
    cid.console = [m for m in cid.console if f"/v1/matches/{match_id}/join" not in m["message"]]


def test_the_inbox_puts_my_side_first_and_says_who_won(browsers: Callable[..., Browser],
                                                       server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    auth = {"Authorization": f"Bearer {token}"}
    # ana in team 1 at 5 points, the bot's team at 2
    playing = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 2, "seat": 1, "start_score": [2, 5], "bots": [{"seat": 0, "level": "easy"}]})
    assert playing.status_code == 201, playing.text
    match_id, (bia,) = _human_match(server, ana)
    resigned = requests.post(f"{server.url}/v1/matches/{match_id}/resign", headers=bia,
                             timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.open()
    items = ana.wait(lambda: len(ana.all("[data-testid=inbox] [data-match-id]")) == 2
                     and ana.all("[data-testid=inbox] [data-match-id]"), why="the inbox")
    texts = {i.get_attribute("data-match-id"): i.text for i in items}
    assert texts[playing.json()["id"]].endswith("5 × 2")  # us first, as at the table
    assert texts[match_id].startswith("Won")


def test_the_keyboard_focus_survives_a_redraw_and_lands_on_a_control(
        browsers: Callable[..., Browser], server: Server) -> None:
    from selenium.webdriver.common.keys import Keys

    ana = browsers()
    ana.register("ana")
    # bia (seat 1) leads; ana's 5 of clubs is the top manilha: she wins and leads the next trick
    match_id, (bia,) = _human_match(server, ana, options={"first_dealer": 0}, deals=[
        {"vira": "4h", "hands": [["5c", "3h", "2s"], ["4d", "Ks", "Qd"]]}])
    ana.wait(lambda: ana.all(".log-box summary"), why="the table")
    ana.driver.execute_script("document.querySelector('.log-box summary').focus()")
    version = int(ana.table()["version"])
    played = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                           json={"type": "play", "card": "4d"}, timeout=10)
    assert played.status_code == 200, played.text
    five = {"type": "play", "card": "5c"}
    ana.wait(lambda: int(ana.table()["version"]) > version and five in ana.actions(),
             why="bia's card drawn")

    def focused() -> str:
        return ana.driver.execute_script(
            "const e = document.activeElement; return e.tagName + ' ' + e.className")

    assert focused() == "SUMMARY "  # still on the table talk's summary after the redraw
    card = next(b for b in ana.all("[data-action]")
                if json.loads(b.get_attribute("data-action")) == five)
    ana.wait(lambda: not ana.all("[data-fresh]"), why="the card takes a press")
    ana.driver.execute_script("arguments[0].focus()", card)
    version = int(ana.table()["version"])
    card.send_keys(Keys.ENTER)
    ana.wait(lambda: int(ana.table()["version"]) > version and ana.actions(),
             why="ana to lead the second trick")
    # her card gone, the focus is on the first control offered (Truco!), which takes no Enter
    # for a moment (a second press meant for the card does not call truco), never on a box
    ana.wait(lambda: focused().startswith("BUTTON action raise"), why="the focus on Truco!")
    time.sleep(1)  # (the stream's copy of the view drawn, and the hold on Truco! over)
    assert focused().startswith("BUTTON action raise")
    # Truco! with Enter: nothing is left to do until bia answers, and the focus is on the
    # table talk's summary (not on the empty box of a card, nor on the whole table)
    version = int(ana.table()["version"])
    ana.driver.switch_to.active_element.send_keys(Keys.ENTER)
    ana.wait(lambda: int(ana.table()["version"]) > version, why="the truco called")
    ana.wait(lambda: focused() == "SUMMARY ", why="the focus on the table talk")
    time.sleep(1)
    assert focused() == "SUMMARY "


# a finger that taps where it meant to tap a card the moment the answers to a truco appear
# there: pointerdown, pointerup and click on Corro as soon as it is drawn
_TAP_ON_ARRIVAL = """
window.tapped = 0;
new MutationObserver(() => {
  const corro = [...document.querySelectorAll('[data-action]')]
    .find((b) => JSON.parse(b.dataset.action).type === 'refuse');
  if (!corro || window.tapped) return;
  window.tapped = 1;
  const at = {bubbles: true, isPrimary: true, button: 0, pointerType: 'touch'};
  corro.dispatchEvent(new PointerEvent('pointerdown', at));
  corro.dispatchEvent(new PointerEvent('pointerup', at));
  corro.click();
}).observe(document.body, {childList: true, subtree: true});
"""


def test_a_truco_that_comes_moves_no_card_and_takes_no_tap_at_once(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    # p1 (seat 1) leads and calls truco while ana waits with her three cards
    match_id, (bob,) = _human_match(server, ana, options={"first_dealer": 0})
    ana.wait(lambda: ana.table()["status"] == "active" and len(ana.all(".hand .card")) == 3,
             why="ana's cards")
    time.sleep(0.5)  # (the stream's copy of the view drawn)
    cards = [c.rect for c in ana.all(".hand .card")]
    assert ana.all(".question-slot") and not ana.all(".question")  # its line kept, empty
    ana.driver.execute_script(_TAP_ON_ARRIVAL)
    called = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bob,
                           json={"type": "raise"}, timeout=10)
    assert called.status_code == 200, called.text
    refuse = {"type": "refuse"}
    ana.wait(lambda: refuse in ana.actions(), why="the truco question")
    assert ana.css(".question").text == "p1 calls Truco!"
    # the question's line was kept: the cards are where they were, the answers above them
    assert [c.rect for c in ana.all(".hand .card")] == cards
    answers = [b.rect for b in ana.all(".controls [data-action]")]
    assert max(a["y"] + a["height"] for a in answers) <= min(c["y"] for c in cards)
    assert ana.driver.execute_script("return window.tapped") == 1  # (the tap came)
    time.sleep(1)  # (time for the tap's request, had one gone)
    assert refuse in ana.actions() and ana.css("#error").text == ""
    assert [e for e in _events(server, match_id, bob) if e["type"] == "raise_refused"] == []
    # a moment later Corro takes a tap
    version = ana.table()["version"]
    ana.click_action(refuse)
    ana.wait(lambda: ana.table()["version"] != version, why="Corro answered")
    assert [e["seat"] for e in _events(server, match_id, bob)
            if e["type"] == "raise_refused"] == [0]


def test_a_finished_tricks_cards_stay_dimmed_until_the_next_is_played(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    # ana (seat 0) leads with the top manilha: she wins the first trick and leads the second
    match_id, (bia,) = _human_match(server, ana, options={"first_dealer": 1}, deals=[
        {"vira": "4h", "hands": [["5c", "3h", "2s"], ["4d", "Ks", "Qd"]]}])
    ana.wait(lambda: not ana.all(".played.previous") and {"type": "play", "card": "5c"}
             in ana.actions(), why="ana's first card")
    ana.click_action({"type": "play", "card": "5c"})
    ana.wait(lambda: not ana.actions(), why="the card played")
    played = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                           json={"type": "play", "card": "4d"}, timeout=10)
    assert played.status_code == 200, played.text
    ana.wait(lambda: {"type": "play", "card": "3h"} in ana.actions(), why="the second trick")
    ana.wait(lambda: len(ana.all(".played.previous .card")) == 2, why="the first trick, dimmed")
    captions = [c.text for c in ana.all(".played.previous .trick-caption")]
    assert captions == ["Trick 1", "Trick 1"]
    opacity = ana.driver.execute_script(
        "return getComputedStyle(document.querySelector('.played.previous .card')).opacity")
    assert float(opacity) < 0.6
    assert _overflow(ana) == 0
    ana.click_action({"type": "play", "card": "3h"})
    ana.wait(lambda: not ana.all(".played.previous, .trick-caption"), why="the second trick")
    assert [c.get_attribute("aria-label") for c in ana.all(".place-bottom .played .card")] == [
        "3 of hearts"]


def test_the_answers_say_in_english_what_the_tables_words_mean(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    # bia (seat 1) leads and calls truco: ana may accept, refuse or raise
    match_id, (bia,) = _human_match(server, ana, options={"first_dealer": 0})
    called = requests.post(f"{server.url}/v1/matches/{match_id}/actions", headers=bia,
                           json={"type": "raise"}, timeout=10)
    assert called.status_code == 200, called.text
    ana.wait(lambda: {"type": "accept"} in ana.actions(), why="the truco question")

    def labels() -> dict[str, str]:
        return {json.loads(b.get_attribute("data-action"))["type"]: b.text
                for b in ana.all("[data-action]") if b.get_attribute("class").find("card") < 0}

    assert labels() == {"accept": "Desce\naccept", "refuse": "Corro\nfold",
                        "raise": "Seis!\nraise to 6"}
    names = {json.loads(b.get_attribute("data-action"))["type"]: b.accessible_name
             for b in ana.all(".controls [data-action]")}
    assert names == {"accept": "Desce accept", "refuse": "Corro fold", "raise": "Seis! raise to 6"}
    assert _overflow(ana) == 0
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    ana.wait(lambda: {"type": "accept"} in ana.actions(), why="the table in Portuguese")
    assert labels() == {"accept": "Desce", "refuse": "Corro", "raise": "Seis!"}  # as said


def test_the_inbox_names_who_plays_and_how_long_is_left(browsers: Callable[..., Browser],
                                                        server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    bot_match = _bot_match(server, ana)
    ana.wait(lambda: ana.table()["status"] == "active", why="the bot's table")
    # an invitation from a player whose table this browser never opened: named all the same
    me = requests.get(f"{server.url}/v1/players/me", timeout=10, headers=_auth(ana)).json()
    caio = requests.post(f"{server.url}/v1/players", json={"name": "caio"}, timeout=10).json()
    invited = _created(server, {"Authorization": f"Bearer {caio['token']}"},
                       {"invite": [{"seat": 1, "player_id": me["id"]}]})
    # ana (seat 0) leads, with a day per turn; p1 sits against her
    match_id, _ = _human_match(server, ana, turn_timeout=86400, options={"first_dealer": 1})
    ana.wait(lambda: ana.actions(), why="ana's turn at the table")
    ana.open()
    item = ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{match_id}']"),
                    why="the inbox")[0]
    assert item.text.splitlines()[0] == "Your turn"
    assert "vs p1 · 23 hours left" in item.text
    assert "vs Bot (easy)" in ana.css(f"[data-match-id='{bot_match}']").text
    assert "vs caio" in ana.css(f"[data-match-id='{invited}']").text
    assert _overflow(ana) == 0
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    item = ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{match_id}']"),
                    why="the inbox in Portuguese")[0]
    assert "contra p1 · faltam 23 horas" in item.text
    assert "contra Robô (fácil)" in ana.css(f"[data-match-id='{bot_match}']").text


def _resigned_match(server: Server, ana: Browser) -> str:
    """A match of ana against p1 in which ana refused a mão de onze and p1 then resigned."""
    match_id, (bia,) = _human_match(server, ana, start_score=[11, 3])
    ana.wait(lambda: {"type": "refuse"} in ana.actions(), why="the mão de onze question")
    ana.click_action({"type": "refuse"})
    ana.wait(lambda: ana.all("[data-testid=last-hand]"), why="the hand's end")
    resigned = requests.post(f"{server.url}/v1/matches/{match_id}/resign", headers=bia,
                             timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.wait(lambda: ana.table()["status"] == "finished", why="the match's end")
    return match_id


def test_the_end_of_a_match_says_who_resigned_in_either_language(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    _resigned_match(server, ana)
    said = ana.wait(lambda: ana.css("[data-testid=end-reason]").text, why="how it ended")
    assert said == "How it ended: p1 resigned"
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    said = ana.wait(lambda: ana.all("[data-testid=end-reason]")
                    and ana.css("[data-testid=end-reason]").text, why="in Portuguese")
    assert said == "Como terminou: p1 desistiu"
    assert ana.css("[data-testid=last-hand] p").text == "Corremos da mão de onze: Eles +1 ponto"
    assert ana.css("[data-testid=replay]").text == "Rever a partida"  # not "Replay"


def test_a_replay_names_the_players_from_its_first_step(browsers: Callable[..., Browser],
                                                        server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    _resigned_match(server, ana)
    ana.click("[data-testid=replay]")
    ana.wait(lambda: ana.all(".replay-bar"), why="the replay")
    # it opens on the first deal: the vira and my cards, not the empty table before it
    step = ana.css(".replay-bar span").text
    assert not step.startswith("Step 0 /"), step
    assert ana.all(".vira .card") and len(ana.all(".hand .card")) == 3
    while not ana.css(".replay-bar span").text.startswith("Step 0 /"):
        shown = ana.css(".replay-bar span").text
        ana.click(".replay-bar [data-focus=prev]")  # Previous
        ana.wait(lambda s=shown: ana.css(".replay-bar span").text != s, why="the step before")
    names = [n.text for n in ana.all(".seat .name")]
    assert sorted(names) == ["p1", "you"]  # not "Seat 2 (free seat)"


def test_each_replay_step_says_what_happened(browsers: Callable[..., Browser],
                                             server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    match_id = _resigned_match(server, ana)
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    events = requests.get(f"{server.url}/v1/matches/{match_id}/events?after=0&limit=500",
                          headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    refused = next(e for e in events["items"] if e["type"] == "eleven_decided")
    assert refused["seat"] == 0 and not refused["accept"]
    ana.click("[data-testid=replay]")
    ana.wait(lambda: ana.all("[data-testid=replay-step]"), why="the replay")
    assert ana.css(".replay-label").text.lower() == "replay"  # not a live table
    # the bar above the scoreboard: the scoreboard and the felt stay together
    _above_the_scoreboard(ana, ".replay-bar")
    assert not ana.all("[data-testid=replay-review]")  # (only "See it" says a mistake)
    steps = len(events["items"])
    while not ana.css("[data-testid=replay-step]").text.startswith(f"Step {refused['seq']} /"):
        shown = ana.css("[data-testid=replay-step]").text
        number = int(shown.split()[1])
        assert number < refused["seq"], shown
        ana.click("[data-focus=next]")
        ana.wait(lambda s=shown: ana.css("[data-testid=replay-step]").text != s,
                 why="the next step")
    said = ana.css("[data-testid=replay-step]").text
    assert said == f"Step {refused['seq']} / {steps} · you: Corro!", said
    dealt = next(e for e in events["items"] if e["type"] == "hand_dealt")
    while not ana.css("[data-testid=replay-step]").text.startswith(f"Step {dealt['seq']} /"):
        shown = ana.css("[data-testid=replay-step]").text
        ana.click("[data-focus=prev]")
        ana.wait(lambda s=shown: ana.css("[data-testid=replay-step]").text != s,
                 why="the step before")
    said = ana.css("[data-testid=replay-step]").text
    assert said == f"Step {dealt['seq']} / {steps} · Hand {dealt['hand']} dealt", said
    ana.click("[data-focus=close-replay]")
    ana.wait(lambda: not ana.all(".replay-bar"), why="the live table again")
    assert not ana.all(".replaying")
    if os.environ.get("TRUCO_SCREENSHOTS"):  # (to look at while working on the page)
        ana.driver.set_window_size(*PHONE)
        ana.click("[data-testid=replay]")
        ana.wait(lambda: ana.all("[data-testid=replay-step]"), why="the replay")
        _above_the_scoreboard(ana, ".replay-bar")
        ana.driver.execute_script("window.scrollTo(0, 0)")
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/replay-phone.png")


def test_the_inbox_says_when_its_connection_is_lost_and_back(browsers: Callable[..., Browser],
                                                            server: Server) -> None:
    ana = browsers()
    ana.cut_streams_on_demand()
    ana.register("ana")
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="the inbox read")
    ana.driver.execute_script("window.dropStreams()")
    said = ana.wait(lambda: ana.css("#error").text, why="the error line")
    assert said == "Connection lost: reconnecting…"
    ana.driver.execute_script("window.streamsBack()")
    ana.wait(lambda: ana.css("#error").text == "", why="the stream back")


def _offline(browser: Browser, offline: bool) -> None:
    """Cut (or give back) the browser's network, as a server out of reach would."""
    browser.network(offline=offline)
    if not offline:  # the requests it failed, which Chromium logs, are the test's point
        browser.errors()
        browser.console[:] = [m for m in browser.console
                              if "ERR_INTERNET_DISCONNECTED" not in m["message"]]


def test_home_says_once_that_the_server_is_out_of_reach_and_retries(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="the inbox read")
    assert not ana.css("[data-testid=unreachable]").is_displayed()
    _offline(ana, True)
    ana.driver.execute_script("location.hash = '#/home'")  # home drawn again: its reads fail
    said = ana.wait(lambda: ana.all("[data-testid=unreachable]")
                    and ana.css("[data-testid=unreachable]").is_displayed()
                    and ana.css("[data-testid=unreachable]").text, why="the line")
    assert said == "Cannot reach the server. Retrying…"
    ana.wait(lambda: ana.css("#error").text == "", why="one line, not the error line too")
    _offline(ana, False)  # the reads tried again fill the panels and the line goes
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="the inbox read again")
    ana.wait(lambda: not ana.css("[data-testid=unreachable]").is_displayed(), why="no line")
    ana.wait(lambda: ana.all("[data-testid=standing]")
             and ana.css("[data-testid=standing]").is_displayed(), why="my ratings")
    # a screen that cannot be read at all says so too, in Portuguese, and comes once it can
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="home in Portuguese")
    _offline(ana, True)
    ana.driver.execute_script("location.hash = '#/leaderboard'")
    said = ana.wait(lambda: ana.all("[data-testid=unreachable]")
                    and ana.css("[data-testid=unreachable]").is_displayed()
                    and ana.css("[data-testid=unreachable]").text, why="the line in Portuguese")
    assert said == "Não foi possível falar com o servidor. Tentando de novo…"
    _offline(ana, False)
    ana.wait(lambda: ana.all("[data-testid=leaderboard]"), why="the leaderboard, once reached")
    assert not ana.all("[data-testid=unreachable]")
    _offline(ana, False)  # (the console's failed requests of the last seconds offline)


def test_the_match_over_by_resignation_shows_no_hand_left_to_play(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    # p1 resigns as a second mão de onze is dealt: its cards are never played
    _resigned_match(server, ana)
    ana.wait(lambda: ana.all("[data-testid=result]"), why="the result banner")
    assert ana.css("[data-testid=end-reason]").text == "How it ended: p1 resigned"
    assert ana.css("[data-testid=last-hand] p").text == "We gave up the mão de onze: Them +1 point"
    assert ana.all(".hand") == []  # my cards of the unplayed hand, not offered
    assert ana.all(".hand-card, .playable, [data-action]") == []
    assert ana.all(".scoreboard .stake") == []  # no "Hand worth 1"
    assert ana.all(".special, .question, .vira, .manilhas") == []  # no "Mão de onze"
    assert ana.all(".seat .backs .card") == []  # nor p1's cards, face down
    assert "Hand worth" not in ana.text() and "Mão de onze" not in ana.text()


# GET /v1/rulesets with an option the client has no words for (when the page's session says
# so), and the bodies of the matches created, kept for the test to read
_RULES_SPY = """(() => {
  const realFetch = window.fetch.bind(window);
  window.fetch = async (url, init = {}) => {
    if (String(url).endsWith('/v1/matches') && init.method === 'POST') {
      const sent = JSON.parse(sessionStorage.getItem('sent') || '[]');
      sent.push(JSON.parse(init.body));
      sessionStorage.setItem('sent', JSON.stringify(sent));
    }
    const response = await realFetch(url, init);
    if (!String(url).endsWith('/v1/rulesets') || !sessionStorage.getItem('future')) return response;
    const body = await response.json();
    body.items.forEach((r) => { r.options.future_rule = {values: ['some_thing', 3],
                                                         default: 'some_thing'}; });
    return new Response(JSON.stringify(body), {status: 200,
                                               headers: {'Content-Type': 'application/json'}});
  };
})();"""


def _rule_field(browser: Browser, option: str) -> tuple[str, list[str], str]:
    """The label of rule `option` in the new-match form, its values' names, its hint."""
    field = browser.css(f"details.options [data-option={option}]")
    hints = field.find_elements("css selector", ".hint")
    return (field.find_element("css selector", "label").get_attribute("textContent"),
            [o.get_attribute("textContent") for o in field.find_elements("css selector", "option")],
            hints[0].get_attribute("textContent") if hints else "")


def test_the_more_rules_are_named_in_words_and_sent_as_the_server_names_them(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RULES_SPY})
    ana.register("ana")
    assert _rule_field(ana, "all_ties") == (
        "Three tied tricks", ["nobody scores (default)", "the mão's team scores"], "")
    assert _rule_field(ana, "max_face_down_per_team_per_trick")[1] == [
        "no limit (default)", "at most one"]
    label, values, hint = _rule_field(ana, "face_down")
    assert (label, values) == ("Playing a card face down", ["allowed (default)", "not allowed"])
    assert hint.startswith("From the second trick on")
    assert _rule_field(ana, "response_mode")[1] == [
        "any accepts, all fold (default)", "the first answer counts", "only the next player"]
    assert _rule_field(ana, "games_to_win")[1] == [
        "one game to 12 (default)", "best of three (queda)"]
    words = ana.css("details.options").get_attribute("textContent")
    for raw in ("any_accept_all_refuse", "trick_leader", "null", "true", "void", "illegal call"):
        assert raw not in words, raw
    # in Portuguese, and an option (a value) the client does not know shown by its own name
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt');"
                              "sessionStorage.setItem('future', '1')")
    ana.driver.refresh()
    ana.wait(lambda: ana.all("details.options [data-option=future_rule]"), why="in Portuguese")
    assert _rule_field(ana, "all_ties") == (
        "Três vazas empatadas (cangou tudo)", ["ninguém marca (padrão)", "a dupla do mão marca"],
        "")
    assert _rule_field(ana, "face_down")[:2] == ("Jogar coberta (encoberta)",
                                                  ["pode (padrão)", "não pode"])
    assert _rule_field(ana, "iron_hand_blind")[0] == "Mão de ferro no escuro (escurinho)"
    assert _rule_field(ana, "future_rule") == ("future rule", ["some_thing (padrão)", "3"], "")
    # what is sent: the server's own values, the chosen ones and every default
    ana.driver.execute_script("sessionStorage.removeItem('future')")
    ana.driver.refresh()
    ana.wait(lambda: ana.all("details.options [data-option=all_ties]"), why="the form again")
    ana.click("details.options summary")
    for option, value in (("all_ties", '"mao_team"'), ("max_face_down_per_team_per_trick", "1"),
                          ("games_to_win", "2"), ("iron_hand_blind", "false"),
                          ("first_dealer", '"before_you"')):
        ana.choose(f"opt-{option}", value)
    ana.css("#f-opt-iron_hand_value").send_keys("3")
    ana.click("[data-testid=start]")
    ana.wait(lambda: ana.all("[data-testid=table]"), why="the match")
    sent = json.loads(ana.driver.execute_script("return sessionStorage.getItem('sent')"))
    # the player before you (seat 0) in a 2-player match is seat 1; the mão de ferro's worth
    # is sent as a number only because it was filled in
    assert sent[-1]["options"] == {
        "all_ties": "mao_team", "face_down": True, "face_down_after_tie": True,
        "first_dealer": 1, "force_highest_after_first_tie": False, "games_to_win": 2,
        "illegal_call_policy": "reject", "iron_hand_blind": False, "iron_hand_value": 3,
        "max_face_down_per_team_per_trick": 1, "raise_cap": "ladder",
        "response_mode": "any_accept_all_refuse", "tie_leader": "trick_leader"}
    match_id = ana.table()["match-id"]
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    view = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10,
                        headers={"Authorization": f"Bearer {token}"}).json()
    rules = view["rules"]
    assert rules["all_ties"] == "mao_team" and rules["games_to_win"] == 2
    assert (rules["first_dealer"], rules["iron_hand_value"]) == (1, 3)
    assert view["hand"]["dealer"] == 1


def test_the_first_dealer_and_the_iron_hands_worth_are_asked_in_words(
        browsers: Callable[..., Browser], server: Server) -> None:
    # first_dealer's values are "random" and "a seat number" (a description, not a value:
    # sent, it was refused with 422); the form asks who, by where they sit from you
    ana = browsers()
    ana.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RULES_SPY})
    ana.register("ana")
    label, values, hint = _rule_field(ana, "first_dealer")
    assert (label, values) == ("Who deals first", [
        "drawn at random (default)", "you (the next player leads)",
        "the player before you (you lead)"])
    assert hint == "The player after the dealer plays first."
    field = ana.css("#f-opt-iron_hand_value")
    assert (field.get_attribute("placeholder"), field.get_attribute("max")) == (
        "1 (Paulista) · 2 (Mineiro)", "32756")
    # six players: the player before you is seat 5, and you lead; left blank, no worth is sent
    ana.click("details.options summary")
    ana.choose("players", "6")
    ana.choose("opt-first_dealer", '"before_you"')
    ana.click("[data-testid=start]")
    ana.wait(lambda: ana.all("[data-testid=table]"), why="the match")
    sent = json.loads(ana.driver.execute_script("return sessionStorage.getItem('sent')"))
    assert sent[-1]["options"]["first_dealer"] == 5
    assert "iron_hand_value" not in sent[-1]["options"]
    match_id = ana.table()["match-id"]
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    view = requests.get(f"{server.url}/v1/matches/{match_id}", timeout=10,
                        headers={"Authorization": f"Bearer {token}"}).json()
    assert view["hand"]["dealer"] == 5 and view["rules"]["iron_hand_value"] == 1


def test_the_more_rules_fit_a_phone_in_either_language(browsers: Callable[..., Browser],
                                                       server: Server) -> None:
    # a select is as wide as its longest option name unless told otherwise: 49 px too wide
    ana = browsers(size=PHONE)
    ana.register("ana")
    for language in ("en", "pt"):
        ana.driver.execute_script(f"localStorage.setItem('truco.lang', '{language}')")
        ana.driver.refresh()
        ana.wait(lambda: ana.all("details.options [data-option=all_ties]"), why="the form")
        ana.driver.execute_script("document.querySelector('details.options').open = true")
        assert _overflow(ana) == 0, language


def test_the_inbox_says_whose_turn_it_is_when_it_is_not_mine(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    # four players, ana at seat 0: after dealer 1 seat 2 leads (her partner), after 0 seat 1
    partners, _ = _human_match(server, ana, players=4, options={"first_dealer": 1})
    others, _ = _human_match(server, ana, players=4, options={"first_dealer": 0})
    ana.open()

    def badge(match_id: str) -> str:
        items = ana.all(f"[data-testid=inbox] [data-match-id='{match_id}'] .badge")
        return items[0].text if items else ""
    ana.wait(lambda: badge(partners) and badge(others), why="the inbox")
    assert (badge(partners), badge(others)) == ("Partner's turn", "Their turn")
    assert _overflow(ana) == 0
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    ana.wait(lambda: badge(partners) == "Vez do parceiro", why="the inbox in Portuguese")
    assert badge(others) == "Vez deles"
