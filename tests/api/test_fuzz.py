"""Fuzzing the HTTP API with hypothesis: bad input is a 4xx problem, never a 500, and a
rejected request changes nothing.

Random JSON values, raw bytes, and dicts with the documented fields set to values of random
types are posted to /v1/players, /v1/matches (create), join and the actions of an active
match; the GET endpoints get random query strings, path ids and validators (`wait` never in
1..60, so nothing is held). For every answer: the status is below 500; a 4xx is
`application/problem+json` whose `code` is a non-empty string and whose `status` is the HTTP
status; a request that was not accepted leaves what it could have changed (the match's
version, counters, status and state; the number of players, matches, seats, events, actions
and idempotency records) exactly as it was. `--hypothesis-show-statistics` shows the answers.

Bounded: 150 examples in all (FUZZ_SCALE multiplies them), no deadline, no example database.
"""
from __future__ import annotations

import json
import os
import string
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from engine import OPTION_CHOICES, OPTION_DEFAULTS
from engine.cards import DECK
from tests.support.api import D2, PROBLEM, auth, create, db_rows, deal, register
from tests.support.player import Player


def fuzz(examples: int) -> settings:
    """`FUZZ_SCALE=20` in the environment runs 20 times as many examples (a longer hunt)."""
    scale = int(os.environ.get("FUZZ_SCALE", "1"))
    return settings(max_examples=examples * scale, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture()
def memo() -> dict[str, Any]:
    """Tables reused by the examples of one test (fixtures run once per test, not example)."""
    return {}


def status_of(app: Any, match_id: str) -> str | None:
    rows = db_rows(app, "SELECT status FROM matches WHERE id = :m", m=match_id)
    return rows[0][0] if rows else None


# --- strategies -------------------------------------------------------------------------

BIG = 2**64
scalars = (st.none() | st.booleans()
           | st.integers(-BIG, BIG) | st.sampled_from([0, 1, 2, 3, -1, 2**31, 2**63, 10**30])
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12) | st.sampled_from(["", " ", "\x00", "\udc00", "7c", "null"]))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=8)

cards = st.sampled_from(list(DECK)) | st.sampled_from(
    ["7C", "as", "1c", "Xs", "7", "7cc", " 7c", "10h", "", "\x00"])


def some_of(fields: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts with any subset of `fields`, each value mostly from its own strategy, else any
    JSON value; one in five also has an unknown field."""
    optional = {name: st.one_of(strategy, strategy, strategy, json_values)
                for name, strategy in fields.items()}
    return st.tuples(st.fixed_dictionaries({}, optional=optional), st.integers(0, 4),
                     st.text(max_size=6), json_values).map(
        lambda t: {**t[0], t[2]: t[3]} if t[1] == 0 else t[0])


def bodies(fields: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A request body: mostly field dicts, else any JSON value or raw bytes (not always JSON)."""
    return st.one_of(some_of(fields), some_of(fields), some_of(fields), json_values, raw_bodies)


ACTION_FIELDS = {
    "type": st.sampled_from(["play", "raise", "accept", "refuse", "resign", "PLAY", ""]),
    "card": cards,
    "slot": st.integers(-3, 5),
    "face_down": st.booleans(),
    "to": st.sampled_from([None, 1, 3, 6, 9, 12, 4, 10]),
}
hands = st.lists(st.lists(cards, max_size=4), max_size=7)
OPTION_VALUES = {name: st.sampled_from(list(values)) for name, values in OPTION_CHOICES.items()}
OPTION_VALUES["first_dealer"] = st.sampled_from(["random", 0, 1, 5, 6, -1])
OPTION_VALUES["iron_hand_value"] = st.sampled_from([None, 1, 4, 12, 13, 0])
CREATE_FIELDS = {
    "ruleset": st.sampled_from(["paulista", "mineiro", "PAULISTA", "gaucho"]),
    "players": st.sampled_from([2, 4, 6, 3, 0, 8]),
    "target_score": st.sampled_from([12, 15, 0]),
    "seat": st.integers(-2, 7),
    "bots": st.lists(some_of({"seat": st.integers(-1, 6),
                              "level": st.sampled_from(["random", "easy", "hard", "x"])}),
                     max_size=6),
    "visibility": st.sampled_from(["public", "private", "secret"]),
    "turn_timeout": st.sampled_from([None, 9, 10, 86400, 1_209_601]),
    "on_timeout": st.sampled_from(["auto_play", "forfeit", "nap"]),
    "seed": st.integers(-1, 2**63),
    "start_score": st.lists(st.integers(-1, 13), max_size=3),
    "deals": st.lists(some_of({"vira": cards, "hands": hands}), max_size=2),
    "options": some_of({name: OPTION_VALUES.get(name, json_values) for name in OPTION_DEFAULTS}),
}
JOIN_FIELDS = {"seat": st.integers(-2, 7), "invite_code": st.text(max_size=12)}
PLAYER_FIELDS = {"name": st.text(max_size=40) | st.text(string.ascii_letters + " ", max_size=40)
                 | st.sampled_from(["ana", " bo ", "x" * 33, "\tana\n", "a\u200bb"]),
                 "bot": st.booleans()}
raw_bodies = st.binary(max_size=40) | st.sampled_from(
    [b"", b"{", b"[1,", b'{"type": "play"', b"\xff\xfe", b"NaN", b"[" * 3000 + b"]" * 3000,
     b'{"type": ' + b"[" * 5000 + b"]" * 5000 + b"}"])
header_text = st.text(alphabet=string.printable.strip() + " ", max_size=20) | st.sampled_from(
    ["", "*", 'W/"x"', "a\x00b", "k" * 256])


# --- checks -----------------------------------------------------------------------------


def check(r: Any, what: Any) -> None:
    """Never a 500; a 4xx is a problem with a stable code and its own status."""
    text = r.get_data(as_text=True)
    if currently_in_test_context():  # the answers, for --hypothesis-show-statistics
        event(f"{r.status_code} {r.json.get('code', '') if r.is_json else ''}".strip())
    assert r.status_code < 500, (what, r.status_code, text)
    assert "Traceback" not in text and "<html" not in text.lower(), (what, text)
    if r.status_code >= 400:
        assert r.headers["Content-Type"].startswith(PROBLEM), (what, r.headers, text)
        body = json.loads(text)
        assert isinstance(body.get("code"), str) and body["code"], (what, body)
        assert body["status"] == r.status_code, (what, body)
    elif r.status_code != 304:
        assert r.headers["Content-Type"].startswith("application/json"), (what, r.headers)
        json.loads(text)


def counts(app: Any, match_id: str | None = None) -> tuple[Any, ...]:
    """What a rejected request must leave alone."""
    totals = db_rows(app, "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM matches),"
                          " (SELECT count(*) FROM seats), (SELECT count(*) FROM events),"
                          " (SELECT count(*) FROM actions),"
                          " (SELECT count(*) FROM idempotency_records)")[0]
    match = () if match_id is None else tuple(db_rows(
        app, "SELECT version, event_count, action_count, status, state FROM matches"
             " WHERE id = :m", m=match_id)[0])
    return tuple(totals) + match


def post(client: Any, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    """`body` as JSON, or as it is when it is bytes (declared JSON all the same)."""
    if isinstance(body, bytes):
        return client.post(path, data=body, content_type="application/json", headers=headers)
    return client.post(path, json=body, headers=headers)


# --- bodies -----------------------------------------------------------------------------


@fuzz(50)
@given(data=st.data())
def test_random_action_bodies(client: Any, app: Any, memo: dict[str, Any],
                              data: st.DataObject) -> None:
    """Posted to the actions of an active 2-player match (from 0-0, a mão de onze or a blind
    mão de ferro) by the seat to act, the other seat or a stranger: legal actions, legal
    actions with one field changed, random bodies; random If-Match / Idempotency-Key now and
    then. A non-200 changes nothing."""
    # Every draw is made whatever the state, so that hypothesis can replay an example.
    start_score = data.draw(st.sampled_from([None, [11, 3], [11, 11], [10, 9]]), "start")
    table = memo.get("table")
    if table is None or status_of(app, table[0]) != "active":
        seats = [register(client, f"seat {i}") for i in range(2)]
        m = create(client, seats[0], players=2, seat=0, deals=[deal(D2)],
                   start_score=start_score)
        r = client.post(f"/v1/matches/{m['id']}/join", json={"seat": 1},
                        headers=seats[1].headers)
        assert r.status_code == 200 and r.json["status"] == "active"
        table = memo["table"] = (m["id"], seats + [register(client, "stranger")])
    match_id, people = table
    to_act = client.get(f"/v1/matches/{match_id}").json["hand"]["to_act"]
    who = data.draw(st.integers(0, 5), "who: 0-3 a seat to act, 4 the other, 5 a stranger")
    player: Player = (people[to_act[who % len(to_act)]] if who <= 3 and to_act
                      else people[1 - to_act[0]] if who == 4 and to_act else people[2])
    mine = client.get(f"/v1/matches/{match_id}", headers=player.headers)
    legal = mine.json["legal_actions"]
    kind = data.draw(st.integers(0, 9), "kind: 0-3 legal, 4-5 changed legal, 6+ random")
    fuzzed = data.draw(bodies(ACTION_FIELDS), "random body")
    pick = data.draw(st.integers(0, 20), "which legal action")
    field = data.draw(st.sampled_from(sorted(ACTION_FIELDS)), "field to change")
    value = data.draw(ACTION_FIELDS[field] | json_values, "its value")
    body = fuzzed
    if kind <= 5 and legal:
        body = {**legal[pick % len(legal)], **({field: value} if kind >= 4 else {})}
    validators = data.draw(st.integers(0, 5), "validators: 0-1 random, 2 the ETag, 3+ none")
    headers = {**player.headers, **(
        data.draw(st.fixed_dictionaries({}, optional={"If-Match": header_text,
                                                      "Idempotency-Key": header_text}))
        if validators <= 1 else {"If-Match": mine.headers["ETag"]} if validators == 2
        else {})}
    before = counts(app, match_id)
    r = post(client, f"/v1/matches/{match_id}/actions", body, headers)
    check(r, (body, headers))
    if r.status_code != 200:
        assert counts(app, match_id) == before, (body, r.get_data(as_text=True))


@fuzz(30)
@given(body=bodies(CREATE_FIELDS))
def test_random_create_bodies(client: Any, app: Any, memo: dict[str, Any], body: Any) -> None:
    if "creator" not in memo:
        memo["creator"] = register(client, "creator")
    creator = memo["creator"]
    before = counts(app)
    r = post(client, "/v1/matches", body, creator.headers)
    check(r, body)
    if r.status_code != 201:
        assert counts(app) == before, (body, r.get_data(as_text=True))


@fuzz(15)
@given(body=bodies(PLAYER_FIELDS))
def test_random_player_bodies(client: Any, app: Any, body: Any) -> None:
    before = counts(app)
    r = post(client, "/v1/players", body)
    check(r, body)
    if r.status_code != 201:
        assert counts(app) == before, (body, r.get_data(as_text=True))
    else:
        assert r.json["name"] == body["name"].strip() and r.json["token"]


@fuzz(20)
@given(data=st.data())
def test_random_join_bodies(client: Any, app: Any, memo: dict[str, Any],
                            data: st.DataObject) -> None:
    """Posted to a waiting 6-player match (public or private) by a new player or its
    creator; a new match replaces it once it starts."""
    visibility = data.draw(st.sampled_from(["public", "private"]), "visibility of a new match")
    table = memo.get("table")
    if table is None or status_of(app, table[0]) != "waiting":
        owner = register(client, "owner")
        m = create(client, owner, players=6, visibility=visibility)
        table = memo["table"] = (m["id"], owner, m["invite_code"])
    match_id, owner, invite = table
    who = owner if data.draw(st.integers(0, 4), "owner?") == 0 else register(client, "joiner")
    body = data.draw(bodies(JOIN_FIELDS | {"invite_code": st.just(invite) | st.text()}), "body")
    before = counts(app, match_id)
    r = post(client, f"/v1/matches/{match_id}/join", body, who.headers)
    check(r, body)
    if r.status_code != 200:
        assert counts(app, match_id) == before, (body, r.get_data(as_text=True))


# --- query strings ----------------------------------------------------------------------


def _holds(value: str) -> bool:
    """Whether `wait=value` would be read as a wait of 1 to 60 seconds (too slow here)."""
    try:
        return 1 <= int(value) <= 60
    except ValueError:
        return False


QUERY_NAMES = ["wait", "after", "limit", "offset", "ruleset", "players", "status", "your_turn",
               "x", ""]
query_values = (st.sampled_from(["0", "-1", "61", "1e3", "0.5", "", "true", "false", "1",
                                 "paulista", "waiting", "active", "9" * 25, "\x00", "%ff"])
                | st.integers(-BIG, BIG).map(str) | st.text(max_size=10))
queries = st.lists(st.tuples(st.sampled_from(QUERY_NAMES) | st.text(max_size=5), query_values),
                   max_size=5).map(
    lambda pairs: [(k, "0" if k == "wait" and _holds(v) else v) for k, v in pairs])
path_ids = st.text(max_size=40) | st.sampled_from(["\x00", "m_\x00", "x" * 300, "..", "%"])


@fuzz(35)
@given(data=st.data())
def test_random_query_strings(client: Any, app: Any, memo: dict[str, Any],
                              data: st.DataObject) -> None:
    """GET endpoints with random query strings, ids and validators: never a 500, never held."""
    if "fixture" not in memo:
        ana = register(client, "ana")
        m = create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
        memo["fixture"] = (m["id"], ana)
    match_id, ana = memo["fixture"]
    some_id = data.draw(st.sampled_from([match_id, ana.id]) | path_ids, "id")
    path = data.draw(st.sampled_from([
        "/v1/matches", f"/v1/matches/{match_id}", f"/v1/matches/{match_id}/events",
        "/v1/me/matches", f"/v1/players/{ana.id}", "/v1/players/me", "/v1/rulesets",
        f"/v1/matches/{quote(some_id, safe='')}",
        f"/v1/matches/{quote(some_id, safe='')}/events",
        f"/v1/players/{quote(some_id, safe='')}"]), "path")
    query = urlencode(data.draw(queries, "query"))
    if data.draw(st.integers(0, 9), "raw query?") == 0:
        query = data.draw(st.text(max_size=20), "raw query")
        while "wait" in query:
            query = query.replace("wait", "w")
        query = quote(query, safe="=&")  # no %-escape can spell wait
    headers = {**auth(ana if data.draw(st.booleans(), "token?") else None),
               **data.draw(st.fixed_dictionaries({}, optional={"If-None-Match": header_text}),
                           "headers")}
    before = counts(app, match_id)
    r = client.get(f"{path}?{query}", headers=headers)
    check(r, (path, query, headers))
    assert counts(app, match_id) == before


# --- what the fuzzing found (fixed) -----------------------------------------------------


def test_deeply_nested_json_is_422(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    before = counts(app)
    for body in (b"[" * 30000 + b"]" * 30000, b'{"options": ' + b"[" * 40 + b"]" * 40 + b"}"):
        for path, headers in (("/v1/matches", ana.headers), ("/v1/players", {})):
            r = client.post(path, data=body, content_type="application/json", headers=headers)
            check(r, body[:20])
            assert r.status_code == 422 and r.json["code"] == "validation_error"
    assert counts(app) == before


def test_ids_no_row_can_have_are_404(client: Any) -> None:
    ana = register(client, "ana")
    for bad in ("%00", "m_%00", "x" * 300):
        for method, path in (("GET", f"/v1/matches/{bad}"), ("GET", f"/v1/matches/{bad}/events"),
                             ("POST", f"/v1/matches/{bad}/join"),
                             ("POST", f"/v1/matches/{bad}/actions")):
            body = {"type": "accept"} if path.endswith("actions") else {}
            r = client.open(path, method=method, headers=ana.headers,
                            json=body if method == "POST" else None)
            check(r, path)
            assert r.status_code == 404 and r.json["code"] == "match_not_found", path
        for extra in ({"If-None-Match": '"x"'}, {"If-None-Match": '"x"', "Origin": "x"}):
            r = client.get(f"/v1/matches/{bad}", headers={**ana.headers, **extra})
            check(r, bad)  # (a conditional view, before Flask or through it)
            assert r.status_code == 404 and r.json["code"] == "match_not_found", extra
        r = client.get(f"/v1/players/{bad}")
        check(r, bad)
        assert r.status_code == 404 and r.json["code"] == "player_not_found"
    for path in ("/v1/matches//events", "//v1/rulesets", "/v1//players/me"):
        r = client.get(path, headers=ana.headers)  # no HTML redirect to a merged path
        check(r, path)
        assert r.status_code == 404, path


def test_lobby_offset_beyond_bigint_is_422(client: Any) -> None:
    for offset in ("99999999999999999999", str(2**31)):
        r = client.get(f"/v1/matches?offset={offset}")
        check(r, offset)
        assert r.status_code == 422 and "offset" in r.json["errors"]
    assert client.get(f"/v1/matches?offset={2**31 - 1}").status_code == 200


def test_idempotency_key_with_a_nul_is_422(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    before = counts(app, m["id"])
    r = client.post(f"/v1/matches/{m['id']}/actions", json={"type": "raise"},
                    headers={**ana.headers, "Idempotency-Key": "a\x00b"})
    check(r, "nul key")
    assert r.status_code == 422 and "Idempotency-Key" in r.json["errors"]
    assert counts(app, m["id"]) == before
