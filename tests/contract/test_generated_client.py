"""A client generated from the served openapi.yaml plays a whole match, typed all the way.

Its functions are named by the operationIds (every operation has one), the models that the match
view and the create body use hold no ``Any``, options are typed, and a 304 keeps the 200's type.

openapi-python-client (the generator third parties use) turns ``GET /openapi.yaml`` of a real
server (gunicorn, as in production) into a package in a temporary folder; four players then
register, create and join a 4-player match, long-poll, and play it to the end with items of
``legal_actions`` as they came, typed action models. Every parsed answer is checked against the
generated models' own annotations: a dict where a model belongs, an undocumented field in
``additional_properties``, or ``None`` where no null is documented fails the test.
"""
from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs
import httpx
import pytest
import yaml

from app.db.webhook_models import WEBHOOK_EVENTS
from tests.support.servers import Server, start_testing_servers
from tests.support.spec import operations
from tests.support.webhook_receiver import receiver

PACKAGE = "truco_client"
# No post hooks: the generator would run ruff on the code, which nothing here needs.
GENERATOR_CONFIG = f"post_hooks: []\nproject_name_override: {PACKAGE}\n" \
                   f"package_name_override: {PACKAGE}\n"
MAX_ACTIONS = 2000
FREE_FORM = {"ValidationProblemErrors"}
"""Maps of any JSON value by design (validation messages, nested like the body)."""


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    (started,) = start_testing_servers(["client"], database_url)
    yield started
    started.stop()


@pytest.fixture(scope="module")
def api(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[types.ModuleType]:
    """The generated package, imported from a temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    spec = folder / "openapi.yaml"
    spec.write_text(httpx.get(f"{server.url}/openapi.yaml", timeout=10).raise_for_status().text)
    config = folder / "config.yaml"
    config.write_text(GENERATOR_CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
         "--config", str(config), "--meta", "none", "--output-path", str(folder / PACKAGE)],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class Typed:
    """Checks parsed answers against the generated models' annotations."""

    def __init__(self) -> None:
        self.names = vars(importlib.import_module(f"{PACKAGE}.models"))

    def __call__(self, value: Any, model: type, where: str = "$") -> Any:
        assert isinstance(value, model), f"{where}: {value!r} is not a {model.__name__}"
        self._model(value, where)
        return value

    def _model(self, obj: Any, where: str) -> None:
        cls = type(obj)
        hints = get_type_hints(cls, vars(sys.modules[cls.__module__]), self.names)
        fields = attrs.fields(cls)
        if cls.__name__ in FREE_FORM:
            return
        for field in fields:
            value = getattr(obj, field.name)
            if field.name == "additional_properties" and len(fields) > 1:
                assert value == {}, f"{where}: fields the spec does not document: {value}"
            else:  # a field, or the entries of a map (a model without fields of its own)
                self._value(value, hints[field.name], f"{where}.{field.name}")

    def _value(self, value: Any, hint: Any, where: str) -> None:
        origin, args = get_origin(hint), get_args(hint)
        assert hint is not Any, f"{where}: {value!r} is untyped"
        if origin in (Union, types.UnionType):
            for arm in args:
                try:
                    self._value(value, arm, where)
                    return
                except AssertionError:
                    continue
            raise AssertionError(f"{where}: {value!r} is not a {hint}")
        if origin in (list, dict):
            assert isinstance(value, origin), f"{where}: {value!r} is not a {hint}"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                self._value(item, args[-1], f"{where}[{key!r}]")
        elif hint is type(None):
            assert value is None, f"{where}: {value!r} is not None"
        elif attrs.has(hint):
            assert isinstance(value, hint), f"{where}: {value!r} is not a {hint.__name__}"
            self._model(value, where)
        elif hint in (int, float):
            assert isinstance(value, hint) and not isinstance(value, bool), \
                f"{where}: {value!r} is not a {hint.__name__}"
        else:
            assert isinstance(value, hint), f"{where}: {value!r} is not a {hint}"


def _module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def _hints(model: type) -> dict[str, Any]:
    names = vars(importlib.import_module(f"{PACKAGE}.models"))
    return get_type_hints(model, vars(sys.modules[model.__module__]), names)


def _untyped(hint: Any, where: str, seen: set[type]) -> list[str]:
    """Where ``hint`` (a field's annotation, followed into models, unions, lists and maps)
    holds ``Any``. A model's ``additional_properties`` (the fields a later version adds) is not
    followed, except in a map model, whose entries it is."""
    if hint is Any:
        return [where]
    if get_origin(hint) in (Union, types.UnionType, list, dict):
        return [found for arg in get_args(hint) for found in _untyped(arg, where, seen)]
    if not attrs.has(hint) or hint in seen:
        return []
    seen.add(hint)
    hints, fields = _hints(hint), attrs.fields(hint)
    return [found for field in fields
            if field.name != "additional_properties" or len(fields) == 1
            for found in _untyped(hints[field.name], f"{hint.__name__}.{field.name}", seen)]


def test_every_operation_is_named_and_typed(api: types.ModuleType, server: Server) -> None:
    """Functions named by operationIds; no Any in the view's and the create body's models,
    in the rulesets' options, nor in what a conditional GET returns."""
    spec = httpx.get(f"{server.url}/openapi.yaml", timeout=10).raise_for_status()
    listed = list(operations(yaml.safe_load(spec.text)))
    missing = [f"{method} {path}" for path, method, op in listed if "operationId" not in op]
    assert missing == [], f"operations without an operationId: {missing}"
    ids = [op["operationId"] for _, _, op in listed]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i)
                                             for i in ids), ids
    generated = {p.stem for p in (Path(api.__file__).parent / "api").glob("*/*.py")} - {
        "__init__"}
    assert generated == {_snake(i) for i in ids}
    assert {"create_match", "get_match", "send_action", "join_match", "list_events",
            "list_my_matches", "register_player"} <= generated

    m = importlib.import_module(f"{PACKAGE}.models")
    for model in (m.MatchView, m.MatchCreate, m.RulesetList):
        assert _untyped(model, model.__name__, set()) == []
    assert m.MatchOptions in get_args(_hints(m.MatchCreate)["options"])
    assert [p.value for p in m.PlayerCount] == [2, 4, 6] and m.PlayerCount.FOUR == 4
    for path, method, op in listed:
        if "304" in op["responses"]:  # a conditional GET: the 304 keeps the 200's type
            module = _module(f"{op['tags'][0]}.{_snake(op['operationId'])}")
            returned = get_args(get_type_hints(module._parse_response, vars(module))["return"])
            ok = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            assert Any not in returned and getattr(m, ok.rsplit("/", 1)[1]) in returned, returned


def _seating() -> tuple[Any, Any, Any]:
    """The generated modules that register a player, create a match and join it."""
    return (_module("players.register_player"), _module("matches.create_match"),
            _module("matches.join_match"))


def test_a_generated_client_plays_a_whole_match(api: types.ModuleType, server: Server) -> None:
    m = importlib.import_module(f"{PACKAGE}.models")
    typed = Typed()
    register, create, join = _seating()
    show = _module("matches.get_match")
    mine = _module("players.list_my_matches")
    act = _module("actions.send_action")
    events = _module("events.list_events")
    timeout = httpx.Timeout(90)

    anonymous = api.Client(base_url=server.url, timeout=timeout)
    clients = []
    for seat in range(4):
        answer = register.sync_detailed(client=anonymous, body=m.PlayerCreate(name=f"seat {seat}"))
        created = typed(answer.parsed, m.PlayerCreated)
        assert answer.headers["Location"] == f"/v1/players/{created.id}"
        clients.append(api.AuthenticatedClient(base_url=server.url, token=created.token,
                                               timeout=timeout))

    answer = create.sync_detailed(client=clients[0], body=m.MatchCreate(
        players=m.PlayerCount.FOUR, seat=0, seed=20240611,
        options=m.MatchOptions(tie_leader=m.TieLeader.HAND_MAO, games_to_win=m.GamesToWin.ONE)))
    waiting = typed(answer.parsed, m.MatchView)
    match_id = waiting.id
    assert answer.headers["Location"] == f"/v1/matches/{match_id}"
    assert waiting.status == m.MatchStatus.WAITING and waiting.hand is None
    assert typed(waiting.you, m.You).seat == 0 and waiting.legal_actions == []
    assert waiting.rules.tie_leader == m.TieLeader.HAND_MAO
    etags: dict[int, str] = {0: answer.headers["ETag"]}
    # a long poll that runs out: 304, an empty body
    held = show.sync_detailed(match_id, client=clients[0], wait=1, if_none_match=etags[0])
    assert held.status_code == 304 and held.parsed == ""

    views: dict[int, Any] = {}
    for seat in range(1, 4):
        answer = join.sync_detailed(match_id, client=clients[seat], body=m.Join(seat=seat))
        views[seat], etags[seat] = typed(answer.parsed, m.MatchView), answer.headers["ETag"]
    current = views[3]
    assert current.status == m.MatchStatus.ACTIVE
    assert [typed(s.player, m.PlayerPublic).name for s in current.seats] == [
        f"seat {i}" for i in range(4)]

    # the creator's stale ETag: the long poll answers at once with the started match
    answer = show.sync_detailed(match_id, client=clients[0], wait=30, if_none_match=etags[0])
    views[0], etags[0] = typed(answer.parsed, m.MatchView), answer.headers["ETag"]
    assert views[0].version == current.version

    rng = random.Random(7)
    seen_actions: set[type] = set()
    checked_errors = False
    for step in range(MAX_ACTIONS):
        if current.status == m.MatchStatus.FINISHED:
            break
        hand = typed(current.hand, m.Hand)
        seat = hand.to_act[0]
        page = typed(mine.sync(client=clients[seat], your_turn=True, wait=30), m.MyMatchList)
        assert [item.id for item in page.items] == [match_id] and page.items[0].your_turn
        if views[seat].version != current.version:  # changed since this seat last looked
            answer = show.sync_detailed(match_id, client=clients[seat], wait=30,
                                        if_none_match=etags[seat])
            views[seat], etags[seat] = typed(answer.parsed, m.MatchView), answer.headers["ETag"]
        view = views[seat]
        assert typed(view.you, m.You).seat == seat and seat in view.hand.to_act
        cards = view.hand.cards
        assert isinstance(cards, list) and len(cards) == view.seats[seat].cards_in_hand
        for action in view.legal_actions:
            if isinstance(action, m.PlayAction) and isinstance(action.card, str):
                assert action.card in cards
            if isinstance(action, (m.AcceptAction, m.RefuseAction)):
                assert isinstance(view.hand.pending, (m.RaisePending, m.MaoDeOnzePending))
        if not checked_errors:
            _errors_are_typed(m, typed, act, clients[seat], match_id, view, etags[seat])
            checked_errors = True
        action = rng.choice(view.legal_actions)
        seen_actions.add(type(action))
        answer = act.sync_detailed(match_id, client=clients[seat], body=action,
                                   if_match=etags[seat], idempotency_key=f"step-{step}")
        assert answer.status_code == 200, answer.content
        current = views[seat] = typed(answer.parsed, m.MatchView)
        etags[seat] = answer.headers["ETag"]
        if step == 0:
            _replays_are_typed(m, typed, act, clients[seat], match_id, action, "step-0", current)
    assert current.status == m.MatchStatus.FINISHED, "the match did not end"
    assert current.winner_team in (0, 1) and current.legal_actions == []
    assert {m.PlayAction, m.RaiseAction} <= seen_actions
    last = typed(current.last_hand, m.LastHand)
    assert last.reason in set(m.HandEndReason)

    log: list[Any] = []
    after = 0
    while True:
        page = typed(events.sync(match_id, client=clients[1], after=after, limit=100, wait=0),
                     m.EventPage)
        log += page.items
        if not page.items:
            break
        after = page.next_after
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    kinds = {e.type_.value for e in log}
    assert {"player_joined", "match_started", "hand_dealt", "card_played", "hand_won",
            "match_won"} <= kinds
    assert kinds & {"trick_won", "trick_tied"}
    dealt = [e for e in log if isinstance(e, m.HandDealtEvent)]
    assert dealt and all(len(e.hands) == 4 for e in dealt)  # the finished match's full log
    joined = [e for e in log if isinstance(e, m.PlayerJoinedEvent)]
    assert [e.seat for e in joined] == [0, 1, 2, 3]
    assert all(isinstance(e.player_id, str) for e in joined)
    won = [e for e in log if isinstance(e, m.MatchWonEvent)]
    assert [e.winner_team for e in won] == [current.winner_team]
    assert current.end_reason == m.EndReason.SCORE and won[0].end_reason.value == "score"
    _rematch_is_typed(m, typed, clients, match_id)


def _rematch_is_typed(m: Any, typed: Typed, clients: list[Any], match_id: str) -> None:
    """The finished match's rematch (operation `createRematch`): 201 once, then the same
    match (200) for anyone; seats moved on by one."""
    rematch, show = _module("matches.create_rematch"), _module("matches.get_match")
    made = rematch.sync_detailed(match_id, client=clients[2])
    new = typed(made.parsed, m.MatchView)
    assert made.status_code == 201 and made.headers["Location"] == f"/v1/matches/{new.id}"
    assert typed(new.you, m.You).seat == 3 and new.status == m.MatchStatus.WAITING
    again = rematch.sync_detailed(match_id, client=clients[0])
    assert again.status_code == 200 and typed(again.parsed, m.MatchView).id == new.id
    old = typed(show.sync(match_id, client=clients[0]), m.MatchView)
    assert old.rematch_id == new.id and new.rematch_id is None and new.end_reason is None


def _errors_are_typed(m: Any, typed: Typed, act: Any, client: Any, match_id: str, view: Any,
                      etag: str) -> None:
    """412 and both kinds of 422, through the typed models; none of them changes anything."""
    answer = act.sync_detailed(match_id, client=client, body=view.legal_actions[0],
                               if_match='"stale"')
    problem = typed(answer.parsed, m.VersionMismatchProblem)
    assert answer.status_code == 412 and answer.headers["ETag"] == etag
    assert typed(problem.current, m.MatchView).version == view.version

    answer = act.sync_detailed(match_id, client=client, body=m.RaiseAction(
        type_=m.RaiseActionType.RAISE, to=99))
    illegal = typed(answer.parsed, m.IllegalActionProblem)
    assert answer.status_code == 422 and illegal.reason == "raise_not_allowed"
    assert [a.to_dict() for a in illegal.legal_actions] == [
        a.to_dict() for a in view.legal_actions]

    answer = act.sync_detailed(match_id, client=client,
                               body=m.PlayAction(type_=m.PlayActionType.PLAY))
    invalid = typed(answer.parsed, m.ValidationProblem)
    assert answer.status_code == 422 and "card" in invalid.errors.additional_properties


def _replays_are_typed(m: Any, typed: Typed, act: Any, client: Any, match_id: str,
                       action: Any, key: str, view: Any) -> None:
    """The same action and key again: the stored answer; another action with that key: 422."""
    again = act.sync_detailed(match_id, client=client, body=action, idempotency_key=key)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert typed(again.parsed, m.MatchView).to_dict() == view.to_dict()
    other = m.RaiseAction(type_=m.RaiseActionType.RAISE, to=99)
    reused = act.sync_detailed(match_id, client=client, body=other, idempotency_key=key)
    assert reused.status_code == 422
    assert typed(reused.parsed, m.Problem).code == "idempotency_key_reused"


def test_every_webhook_payload_the_server_sends_parses_into_its_model(
        api: types.ModuleType, server: Server) -> None:
    """A real server's worker delivers each of the seven events; each body is the model its
    `type` names in the spec (x-webhooks), typed all the way, with no undocumented field."""
    m, typed = importlib.import_module(f"{PACKAGE}.models"), Typed()
    spec = yaml.safe_load(httpx.get(f"{server.url}/openapi.yaml", timeout=10).text)
    assert set(spec["x-webhooks"]) == set(WEBHOOK_EVENTS)
    register, add_hook = _module("players.register_player"), _module("webhooks.create_webhook")
    create, join = _module("matches.create_match"), _module("matches.join_match")
    resign = _module("matches.resign_match")
    ask_review = _module("reviews.request_review")
    anonymous = api.Client(base_url=server.url, timeout=httpx.Timeout(30))
    players = [register.sync(client=anonymous, body=m.PlayerCreate(name=n)) for n in "ab"]
    ana, bia = (api.AuthenticatedClient(base_url=server.url, token=p.token,
                                        timeout=httpx.Timeout(30)) for p in players)
    with receiver() as hook:
        assert isinstance(add_hook.sync(client=ana, body=m.WebhookCreate(url=hook.url())),
                          m.WebhookCreated)
        # bia invites ana to seat 1; ana leads the first trick (seat 0 deals) with 10 s a turn
        match = create.sync(client=bia, body=m.MatchCreate(
            seat=0, turn_timeout=10, invite=[m.Invite(seat=1, player_id=players[0].id)],
            options=m.MatchOptions(first_dealer=0)))
        join.sync(match.id, client=ana, body=m.Join(seat=1))

        def received(kind: str, seconds: float) -> None:
            deadline = time.monotonic() + seconds
            while kind not in [h.json["type"] for h in hook.received]:
                assert time.monotonic() < deadline, f"no {kind} webhook"
                time.sleep(0.05)

        received("deadline_soon", 15)
        received("turn_timed_out", 10)  # the easy bot plays for ana, who then resigns
        resign.sync(match.id, client=ana)
        received("match_finished", 10)
        ask_review.sync(match.id, client=ana)  # the worker reviews the match, then tells her
        received("review_done", 60)
    bodies = [h.json for h in hook.received]
    assert {b["type"] for b in bodies} == set(WEBHOOK_EVENTS)
    for body in bodies:
        model = getattr(m, body["type"].title().replace("_", "") + "Webhook")
        parsed = typed(model.from_dict(body), model)
        assert parsed.data.match_id == match.id and parsed.data.player_id == players[0].id


def test_a_generated_client_finds_players_and_reads_ratings(api: types.ModuleType,
                                                            server: Server) -> None:
    m = importlib.import_module(f"{PACKAGE}.models")
    typed = Typed()
    register, create = _module("players.register_player"), _module("matches.create_match")
    update, find = _module("players.update_my_profile"), _module("players.find_player_by_handle")
    board = _module("leaderboard.get_leaderboard")
    resign = _module("matches.resign_match")
    anonymous = api.Client(base_url=server.url, timeout=httpx.Timeout(30))
    created = typed(register.sync(client=anonymous, body=m.PlayerCreate(name="rita")),
                    m.PlayerCreated)
    rita = api.AuthenticatedClient(base_url=server.url, token=created.token,
                                   timeout=httpx.Timeout(30))
    mine = typed(update.sync(client=rita, body=m.PlayerUpdate(handle="Rita-1")),
                 m.PlayerProfile)
    assert mine.handle == "Rita-1" and mine.ratings.duel.rating == 1500.0
    taken = update.sync_detailed(client=rita, body=m.PlayerUpdate(handle="bot-easy"))
    assert taken.status_code == 409
    assert typed(find.sync(client=anonymous, handle="rita-1"), m.PlayerProfile).id == created.id

    match = typed(create.sync(client=rita, body=m.MatchCreate(
        bots=[m.BotSeat(seat=1, level=m.BotLevel.HARD)])), m.MatchView)
    assert resign.sync_detailed(match.id, client=rita).status_code == 200
    deadline = time.monotonic() + 20
    while True:  # the server's worker settles the match (other tests' players may be listed)
        page = typed(board.sync(client=anonymous, format_=m.GetLeaderboardFormat.DUEL,
                                bots=True, limit=100), m.Leaderboard)
        listed = {e.player.id: e for e in page.items}
        if created.id in listed or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    entry = listed[created.id]
    assert entry.player.handle == "Rita-1" and entry.rating < 1500 and entry.rated_matches == 1
    assert listed["p_level_hard"].player.bot is True
    assert [e.rank for e in page.items] == list(range(1, len(page.items) + 1))


def test_a_generated_client_audits_a_match_and_replays_it(api: types.ModuleType,
                                                          server: Server) -> None:
    """A commitment first, seeds, the reveal, the deals_revealed event and every replay
    step, typed by the generated models."""
    m, typed = importlib.import_module(f"{PACKAGE}.models"), Typed()
    (register, create, join) = _seating()
    resign = _module("matches.resign_match")
    events = _module("events.list_events")
    commit, replay = _module("commitments.create_commitment"), _module("replays.get_replay")
    anonymous = api.Client(base_url=server.url, timeout=httpx.Timeout(30))
    clients = [api.AuthenticatedClient(base_url=server.url, timeout=httpx.Timeout(30), token=typed(
        register.sync(client=anonymous, body=m.PlayerCreate(name=n)), m.PlayerCreated).token)
        for n in ("ana", "bob")]
    promise = typed(commit.sync_detailed(client=clients[0]).parsed, m.Commitment)
    made = typed(create.sync(client=clients[0], body=m.MatchCreate(
        commitment=promise.commitment, client_seed="ana-77")), m.MatchView)
    fairness = typed(made.fairness, m.Fairness)
    assert fairness.commitment == promise.commitment and made.id == promise.match_id
    assert fairness.client_seeds == ["ana-77", None]
    join.sync(made.id, client=clients[1], body=m.Join(client_seed="b0b.1"))
    ended = typed(resign.sync(made.id, client=clients[1]), m.MatchView)
    assert typed(ended.fairness, m.Fairness).secret is not None
    log = typed(events.sync(made.id, client=clients[0], after=0, limit=100, wait=0),
                m.EventPage).items
    assert isinstance(log[-1], m.DealsRevealedEvent) and log[-1].secret == ended.fairness.secret
    for step in range(len(log) + 1):
        shown = typed(replay.sync(made.id, client=clients[0], step=step), m.Replay)
        assert shown.step == step and shown.steps == len(log)
        typed(shown.view, m.MatchView)
    assert len(shown.view.hand.hands) == 2
