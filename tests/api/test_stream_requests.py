"""The streams' refusals: a bad resume point, an unknown match, a bad or missing token, each
a problem answered before anything is streamed; what a stream sends when its time is up."""
from __future__ import annotations

import json
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import yaml

from tests.support.api import (assert_problem, create, full_match, get_events, get_view,
                               random_step, register)


def test_a_bad_last_event_id_is_a_validation_error(client: Any) -> None:
    ana = register(client)
    match_id = create(client, ana)["id"]
    for bad in ("abc", "-1", "1.5", "9" * 30, "9" * 5000):
        r = client.get(f"/v1/matches/{match_id}/stream", headers={
            **ana.headers, "Last-Event-ID": bad})
        assert_problem(r, 422, "validation_error")
    assert_problem(client.get(f"/v1/matches/{match_id}/stream?after=x", headers=ana.headers),
                   422, "validation_error")


def test_a_resume_point_past_the_last_event_is_a_validation_error(client: Any) -> None:
    # such a stream would wait for seqs the match has not reached and send none of the
    # events in between
    ana = register(client)
    match_id = create(client, ana)["id"]
    log = client.get(f"/v1/matches/{match_id}/events", headers=ana.headers).json["items"]
    last = log[-1]["seq"]
    r = client.get(f"/v1/matches/{match_id}/stream", headers={
        **ana.headers, "Last-Event-ID": str(last + 1)})
    assert "must be at most" in assert_problem(r, 422, "validation_error")["errors"][
        "Last-Event-ID"][0]
    assert_problem(client.get(f"/v1/matches/{match_id}/stream?after={last + 500}",
                              headers=ana.headers), 422, "validation_error")


def test_an_unknown_match_is_not_found(client: Any) -> None:
    assert_problem(client.get("/v1/matches/nope/stream"), 404, "match_not_found")


def test_a_bad_token_is_unauthorized_on_both_streams(client: Any) -> None:
    ana = register(client)
    match_id = create(client, ana)["id"]
    bad = {"Authorization": "Bearer not-a-token"}
    assert_problem(client.get(f"/v1/matches/{match_id}/stream", headers=bad), 401,
                   "unauthorized")
    assert_problem(client.get("/v1/me/stream", headers=bad), 401, "unauthorized")
    assert_problem(client.get("/v1/me/stream"), 401, "unauthorized")


def _messages(body: str) -> list[dict[str, str]]:
    out = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            out.append(fields)
    return out


def test_a_stream_ends_when_its_time_is_up_with_what_it_had_to_say(app: Any,
                                                                   client: Any) -> None:
    app.config["STREAM_MAX_SECONDS"] = 0
    ana = register(client)
    match_id = create(client, ana, bots=[{"seat": 1, "level": "random"}])["id"]
    r = client.get(f"/v1/matches/{match_id}/stream", headers={**ana.headers,
                                                              "Last-Event-ID": "0"})
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "private, no-cache"
    messages = _messages(r.get_data(as_text=True))
    log = client.get(f"/v1/matches/{match_id}/events", headers=ana.headers).json["items"]
    view = client.get(f"/v1/matches/{match_id}", headers=ana.headers).json
    assert [json.loads(m["data"]) for m in messages[:-1]] == [
        e for e in log if e["version"] <= view["version"]]
    assert [m["id"] for m in messages[:-1]] == [str(e["seq"]) for e in log][:len(messages) - 1]
    assert messages[-1]["event"] == "view" and json.loads(messages[-1]["data"]) == view
    inbox = _messages(client.get("/v1/me/stream", headers=ana.headers).get_data(as_text=True))
    mine = client.get("/v1/me/matches?your_turn=true", headers=ana.headers).json
    assert [m["event"] for m in inbox] == ["inbox"] and json.loads(inbox[0]["data"]) == mine


def test_the_specs_last_event_id_pattern_is_what_the_server_accepts(client: Any) -> None:
    # an empty Last-Event-ID is as if absent (STREAM_MAX_SECONDS 0: the stream ends at once)
    spec = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    item = spec["paths"]["/v1/matches/{match_id}/stream"]
    params = item.get("parameters", []) + item["get"]["parameters"]
    pattern = next(p for p in params if p["name"] == "Last-Event-ID")["schema"]["pattern"]
    ana = register(client)
    match_id = create(client, ana)["id"]
    client.application.config["STREAM_MAX_SECONDS"] = 0
    for value in ("", "0", "abc", "-1", "1.5", "9" * 30):
        r = client.get(f"/v1/matches/{match_id}/stream", headers={
            **ana.headers, "Last-Event-ID": value})
        r.close()
        assert (r.status_code == 200) is bool(re.search(pattern, value)), (value, r.status_code)


def test_a_stream_hides_cards_as_the_log_does_and_opens_it_to_players_at_the_end(
        app: Any, client: Any) -> None:
    """The stream's events are the event log as each viewer may read it: mid-match no
    `hands`, no other seat's cards; once finished, every deal to the players only."""
    app.config["STREAM_MAX_SECONDS"] = 0
    match_id, seated = full_match(client, players=4)
    rng = random.Random(4)

    def streamed(viewer: Any) -> list[dict[str, Any]]:
        headers = {"Last-Event-ID": "0", **({} if viewer is None else viewer.headers)}
        r = client.get(f"/v1/matches/{match_id}/stream", headers=headers)
        assert r.status_code == 200
        return [json.loads(m["data"]) for m in _messages(r.get_data(as_text=True))
                if m["event"] == "event"]

    while len(get_events(client, match_id)) < 30 \
            and get_view(client, match_id)["status"] == "active":
        random_step(client, match_id, seated, rng)
    for viewer in (*seated, None):  # mid-match (unless the random play ended it already)
        finished = get_view(client, match_id)["status"] == "finished"
        log = get_events(client, match_id, viewer)
        assert streamed(viewer) == log
        dealt = [e for e in log if e["type"] == "hand_dealt"]
        assert [("hands" in e) for e in dealt] == [finished and viewer is not None] * len(dealt)
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[1].headers)
    assert get_view(client, match_id)["status"] == "finished"
    for viewer in (*seated, None):
        log = get_events(client, match_id, viewer)
        assert streamed(viewer) == log
        dealt = [e for e in log if e["type"] == "hand_dealt"]
        assert [("hands" in e) for e in dealt] == [viewer is not None] * len(dealt)



def test_the_inbox_stream_ends_once_its_token_is_replaced(app: Any, client: Any) -> None:
    """A rotated token stops working at once (API.md): an inbox stream opened with it says
    nothing more of the player's matches (a leaked token's stream must not outlive it)."""
    app.config["STREAM_HEARTBEAT_SECONDS"] = 0.5
    app.config["STREAM_MAX_SECONDS"] = 5
    ana, bob = register(client, "ana"), register(client, "bob")
    chunks: list[bytes] = []

    def read() -> None:  # in a thread of its own, as a server would (contexts are per thread)
        r = app.test_client().get("/v1/me/stream", headers=ana.headers, buffered=False)
        assert r.status_code == 200
        chunks.extend(r.response)
        r.close()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 5
    while not chunks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert chunks and b"event: inbox" in chunks[0]
    rotated = client.post("/v1/players/me/token", headers=ana.headers)
    assert rotated.status_code == 200
    # an invitation changes ana's inbox: the old token's stream must not be told of it
    create(client, bob, players=2, seat=0, visibility="private",
           invite=[{"seat": 1, "player_id": ana.id}])
    reader.join(10)  # (the stream ends at once, or after STREAM_MAX_SECONDS)
    assert not reader.is_alive()
    later = b"".join(chunks[1:])
    assert b"event: inbox" not in later, later[:300]
    new = {"Authorization": "Bearer " + rotated.json["token"]}
    assert client.get("/v1/me/matches?your_turn=true", headers=new).json["invitations"] == 1
