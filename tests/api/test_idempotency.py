"""Idempotency-Key on actions: a repeat returns the stored response and applies nothing again;
the same key with another body is 422 idempotency_key_reused; keys are per player and match."""
from __future__ import annotations

from typing import Any

from tests.support.api import (F1, act, act_ok, assert_problem, create, db_rows, db_scalar,
                               deal, full_match, get_view, join, register, snapshot)

SETUP = {"options": {"first_dealer": 3}, "deals": [deal(F1)]}
PLAY_5C = {"type": "play", "card": "5c"}


def _key(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def test_a_repeat_returns_the_stored_response_and_applies_nothing(client: Any,
                                                                  app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    first = act(client, match_id, seated[0], PLAY_5C, headers=_key("k-1"))
    assert first.status_code == 200
    snap = snapshot(client, app, match_id, [None, *seated])
    stored = db_scalar(app, "SELECT count(*) FROM idempotency_records")

    again = act(client, match_id, seated[0], PLAY_5C, headers=_key("k-1"))
    assert again.status_code == 200
    assert again.json == first.json
    assert again.headers["ETag"] == first.headers["ETag"]
    assert snapshot(client, app, match_id, [None, *seated]) == snap
    assert db_scalar(app, "SELECT count(*) FROM idempotency_records") == stored
    # without the key the same body is a new action, and an illegal one now
    r = act(client, match_id, seated[0], PLAY_5C)
    assert_problem(r, 422, "illegal_action")


def test_the_stored_response_survives_later_changes(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    first = act(client, match_id, seated[0], {"type": "raise"}, headers=_key("truco"))
    act_ok(client, match_id, seated[1], {"type": "accept"})
    version = get_view(client, match_id)["version"]
    actions = db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id)

    again = act(client, match_id, seated[0], {"type": "raise"}, headers=_key("truco"))
    assert again.status_code == 200
    assert again.json == first.json  # the answer of the first request, not the current view
    assert again.json["hand"]["pending"] == {"kind": "raise", "by_seat": 0, "to": 3}
    assert get_view(client, match_id)["version"] == version
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m",
                     m=match_id) == actions


def test_the_body_is_compared_as_json(client: Any, app: Any) -> None:
    """Key order and whitespace do not make another body."""
    match_id, seated = full_match(client, players=4, **SETUP)
    headers = {**seated[0].headers, "Content-Type": "application/json", **_key("k")}
    url = f"/v1/matches/{match_id}/actions"
    first = client.post(url, data='{"type": "play", "card": "5c"}', headers=headers)
    again = client.post(url, data='{ "card":"5c","type":"play" }', headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 1


def test_same_key_different_body_is_422(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    act(client, match_id, seated[0], {"type": "raise"}, headers=_key("k-2"))
    act_ok(client, match_id, seated[1], {"type": "accept"})
    snap = snapshot(client, app, match_id, [None, *seated])
    r = act(client, match_id, seated[0], PLAY_5C, headers=_key("k-2"))
    assert_problem(r, 422, "idempotency_key_reused")
    assert snapshot(client, app, match_id, [None, *seated]) == snap
    # the action itself is fine under a fresh key
    assert act(client, match_id, seated[0], PLAY_5C, headers=_key("k-3")).status_code == 200


def test_keys_are_scoped_to_the_player(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    act_ok(client, match_id, seated[0], {"type": "raise"})
    a = act(client, match_id, seated[1], {"type": "refuse"}, headers=_key("shared"))
    assert a.status_code == 200 and a.json["hand"]["to_act"] == [3]
    b = act(client, match_id, seated[3], {"type": "refuse"}, headers=_key("shared"))
    assert b.status_code == 200
    assert b.json["you"]["seat"] == 3
    assert b.json["last_hand"]["reason"] == "raise_refused"  # seat 3's refusal was applied
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 3


def test_keys_are_scoped_to_the_match(client: Any, app: Any) -> None:
    m1, seated1 = full_match(client, players=2, options={"first_dealer": 1})
    m2, _ = full_match(client, players=2, options={"first_dealer": 1})
    # the same player sits in a second match
    bob = register(client, "bob")
    m3 = create(client, seated1[0], options={"first_dealer": 1})
    join(client, m3["id"], bob)
    r1 = act(client, m1, seated1[0], {"type": "raise"}, headers=_key("same"))
    r3 = act(client, m3["id"], seated1[0], {"type": "raise"}, headers=_key("same"))
    assert r1.status_code == r3.status_code == 200
    assert r1.json["id"] == m1 and r3.json["id"] == m3["id"]
    for match_id in (m1, m3["id"]):
        assert get_view(client, match_id)["hand"]["pending"]["kind"] == "raise"
        assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m",
                         m=match_id) == 1
    assert get_view(client, m2)["hand"]["pending"] is None


def test_a_rejected_request_does_not_use_the_key(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    assert_problem(act(client, match_id, seated[0], {"type": "accept"}, headers=_key("k")),
                   422, "illegal_action")
    r = act(client, match_id, seated[0], PLAY_5C, headers=_key("k"))
    assert r.status_code == 200


def test_key_length(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    snap = snapshot(client, app, match_id, [None, *seated])
    body = assert_problem(act(client, match_id, seated[0], PLAY_5C, headers=_key("k" * 256)),
                          422, "validation_error")
    assert body["errors"]
    assert snapshot(client, app, match_id, [None, *seated]) == snap
    assert act(client, match_id, seated[0], PLAY_5C, headers=_key("k" * 255)).status_code == 200
    again = act(client, match_id, seated[0], PLAY_5C, headers=_key("k" * 255))
    assert again.status_code == 200 and again.headers["ETag"]


def test_a_retry_with_the_same_if_match_gets_the_stored_answer(client: Any, app: Any) -> None:
    """The usual retry: the answer was lost, the client resends the same request (same key, same
    If-Match). The match has moved on, yet the stored 200 comes back, not a 412."""
    match_id, seated = full_match(client, players=4, **SETUP)
    tag = client.get(f"/v1/matches/{match_id}", headers=seated[0].headers).headers["ETag"]
    headers = {**_key("retry"), "If-Match": tag}
    first = act(client, match_id, seated[0], PLAY_5C, headers=headers)
    assert first.status_code == 200
    again = act(client, match_id, seated[0], PLAY_5C, headers=headers)
    assert again.status_code == 200 and again.json == first.json
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 1
    # a new request with that stale tag is refused
    r = act(client, match_id, seated[1], {"type": "play", "card": "2c"},
            headers={"If-Match": tag})
    assert_problem(r, 412, "version_mismatch")


def test_a_retry_that_spells_the_same_action_differently_is_a_replay(client: Any,
                                                                    app: Any) -> None:
    """Card case and explicit defaults do not make another request: the action is compared
    in its normal form."""
    match_id, seated = full_match(client, players=4, **SETUP)
    first = act(client, match_id, seated[0], PLAY_5C, headers=_key("k-norm"))
    assert first.status_code == 200
    stored = db_scalar(app, "SELECT count(*) FROM actions")
    for body in ({"type": "play", "card": "5C"},
                 {"type": "play", "card": "5c", "face_down": False},
                 {"face_down": False, "card": "5C", "type": "play"}):
        again = act(client, match_id, seated[0], body, headers=_key("k-norm"))
        assert again.status_code == 200, body
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.json == first.json
    assert db_scalar(app, "SELECT count(*) FROM actions") == stored
    other = act(client, match_id, seated[0], {"type": "play", "card": "5c", "face_down": True},
                headers=_key("k-norm"))
    assert_problem(other, 422, "idempotency_key_reused")


def test_the_answer_is_kept_as_the_text_sent(client: Any, app: Any) -> None:
    """The record holds the body exactly as it was sent (text, not JSONB: migration 0010)."""
    match_id, seated = full_match(client, players=4, **SETUP)
    first = act(client, match_id, seated[0], PLAY_5C, headers=_key("as-sent"))
    assert first.status_code == 200
    row = db_rows(app, "SELECT answer, response FROM idempotency_records WHERE key = :k",
                  k="as-sent")
    assert [(r.answer, r.response) for r in row] == [(first.get_data(as_text=True), None)]


def test_a_record_kept_as_jsonb_before_still_replays(client: Any, app: Any) -> None:
    """Records made before migration 0010 hold the body as JSONB (`response`, no `answer`):
    a repeat still gets that body, as the API encodes JSON."""
    from sqlalchemy import text

    from app.db.extensions import db

    match_id, seated = full_match(client, players=4, **SETUP)
    first = act(client, match_id, seated[0], PLAY_5C, headers=_key("old"))
    with app.app_context():
        db.session.execute(text("UPDATE idempotency_records SET response = answer::jsonb,"
                                " answer = NULL WHERE key = 'old'"))
        db.session.commit()
        db.session.remove()
    again = act(client, match_id, seated[0], PLAY_5C, headers=_key("old"))
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()


def test_the_key_length_counts_characters_not_bytes(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    key = "é" * 200  # 200 characters, 400 bytes in UTF-8
    sent = {"Idempotency-Key": key.encode().decode("latin-1")}  # (headers travel as bytes)
    first = act(client, match_id, seated[0], PLAY_5C, headers=sent)
    assert first.status_code == 200, first.get_data(as_text=True)
    again = act(client, match_id, seated[0], PLAY_5C, headers=sent)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert db_scalar(app, "SELECT key FROM idempotency_records") == key
    too_long = {"Idempotency-Key": ("é" * 256).encode().decode("latin-1")}
    assert_problem(act(client, match_id, seated[1], PLAY_5C, headers=too_long), 422,
                   "validation_error")
