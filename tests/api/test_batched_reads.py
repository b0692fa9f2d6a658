"""app/live/batched_reads.py: the version reads of concurrent view requests share one query, and
none of them is answered by a query that started before it asked."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg2
import pytest

from app.db import prepared
from app.infra.tokens import hash_token
from app.live.batched_reads import BatchedReads, ReadFailed
from app.live.current import Current
from app.live.known import Known
from app.db.prepared import Statement
from app.db.channels import libpq_dsn
from tests.support.api import D2_SETUP, act_ok, full_match, get_view, next_move, register


class Database:
    """`run` for BatchedReads on one connection of the test database, recording the keys of
    each query; `hold` makes the next query wait (after reading) until released."""

    def __init__(self, dsn: str) -> None:
        self.connection = psycopg2.connect(dsn)
        self.connection.autocommit = True
        self.info: dict[str, Any] = {}
        self.queries: list[list[str]] = []
        self.fail_next = False
        self.held = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def cursor(self) -> Any:
        return self.connection.cursor()

    def hold(self) -> None:
        self.held.clear()
        self.release.clear()

    def run(self, statement: Statement, params: dict[str, Any]) -> list[tuple[Any, ...]] | None:
        self.queries.append(list(params["match_ids"]))
        if self.fail_next:
            self.fail_next = False
            return None
        with prepared.run(self, [statement], params) as cursor:
            rows = cursor.fetchall()
        self.held.set()
        assert self.release.wait(10)
        return rows


@pytest.fixture()
def database(database_url: str) -> Iterator[Database]:
    found = Database(libpq_dsn(database_url))
    yield found
    found.release.set()
    found.connection.close()


def live_known() -> Known:
    known = Known()
    known.listening(True)
    return known


def asked(reads: BatchedReads, keys: int) -> None:
    """Wait until the next query holds `keys` keys (all the threads have asked)."""
    deadline = time.monotonic() + 10
    while reads._next is None or len(reads._next.keys) < keys:
        assert time.monotonic() < deadline, "the reads were not asked"
        time.sleep(0.005)


def read_in_threads(reads: BatchedReads, known: Known,
                    asks: list[tuple[str, str | None]]) -> tuple[list[threading.Thread], dict]:
    answers: dict[int, Any] = {}

    def ask(i: int, match_id: str, token_hash: str | None) -> None:
        try:
            answers[i] = reads.read(known, match_id, token_hash)
        except ReadFailed as exc:
            answers[i] = exc

    threads = [threading.Thread(target=ask, args=(i, *a)) for i, a in enumerate(asks)]
    for thread in threads:
        thread.start()
    return threads, answers


def test_reads_asked_while_a_query_runs_share_the_next_one(client: Any,
                                                           database: Database) -> None:
    first, seated = full_match(client, players=2, **D2_SETUP)
    second, others = full_match(client, players=2, **D2_SETUP)
    versions = {m: get_view(client, m, p)["version"] for m, p in ((first, seated[0]),
                                                                  (second, others[1]))}
    reads, known = BatchedReads(database.run), live_known()
    database.hold()
    blocker, blocked = read_in_threads(reads, known, [(first, hash_token(seated[0].token))])
    assert database.held.wait(10)
    asks = [(first, hash_token(seated[0].token)), (first, hash_token(seated[1].token)),
            (second, hash_token(others[1].token)), (second, None), (second, None),
            (first, hash_token(others[0].token)), ("m_00000000000000000000000a", None)]
    threads, answers = read_in_threads(reads, known, asks)
    asked(reads, len(set(asks)))
    database.release.set()
    for thread in [*blocker, *threads]:
        thread.join(10)
    assert len(database.queries) == 2, "the reads asked meanwhile shared one query"
    assert len(database.queries[1]) == len(set(asks))  # (one row asked per key)
    assert blocked[0] == Current(first, versions[first], 0, seated[0].id)
    assert answers[0] == Current(first, versions[first], 0, seated[0].id)
    assert answers[1] == Current(first, versions[first], 1, seated[1].id)
    assert answers[2] == Current(second, versions[second], 1, others[1].id)
    assert answers[3] == answers[4] == Current(second, versions[second], None, None)
    assert answers[5] == Current(first, versions[first], None, others[0].id)  # not seated
    assert answers[6] is None  # no such match
    # what was read is learned, and trusted once the match is watched (app/live/watches.py)
    assert known.version(first) is None and known.seat(first, seated[1].id, versions[first])
    with database.cursor() as cursor:
        cursor.execute("INSERT INTO match_watches VALUES (%s, now() + interval '1 minute')",
                       (first,))
    assert reads.read(known, first, hash_token(seated[0].token)) == blocked[0]
    assert known.version(first) == versions[first] and 50 < known.watched_for(first) <= 55


def test_an_unknown_token_reads_nothing(client: Any, database: Database) -> None:
    match_id, _ = full_match(client, players=2, **D2_SETUP)
    reads = BatchedReads(database.run)
    assert reads.read(live_known(), match_id, hash_token("tk_not_a_token")) is None


def test_a_read_is_never_answered_by_a_query_that_began_before_it(
        client: Any, database: Database) -> None:
    """Read-your-writes: a caller who asks after a change was committed gets the change,
    even when a query that read the version before it is still in flight."""
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    token = hash_token(seated[0].token)
    before = get_view(client, match_id, seated[0])["version"]
    reads, known = BatchedReads(database.run), live_known()
    database.hold()
    early, early_answer = read_in_threads(reads, known, [(match_id, token)])
    assert database.held.wait(10)  # the first query has read `before` and is held
    mover, action = next_move(client, match_id, seated)
    after = act_ok(client, match_id, mover, action)["version"]
    assert after > before
    late, late_answer = read_in_threads(reads, known, [(match_id, token)])
    asked(reads, 1)
    database.release.set()
    for thread in [*early, *late]:
        thread.join(10)
    assert early_answer[0].version == before
    assert late_answer[0].version == after
    assert len(database.queries) == 2


def test_a_failed_query_fails_its_callers_and_the_next_read_asks_again(
        client: Any, database: Database) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    token = hash_token(seated[0].token)
    reads, known = BatchedReads(database.run), live_known()
    database.fail_next = True
    with pytest.raises(ReadFailed):
        reads.read(known, match_id, token)
    assert reads.read(known, match_id, token).version == get_view(
        client, match_id, seated[0])["version"]


def test_the_view_shortcut_answers_concurrent_views_from_shared_reads(client: Any,
                                                                      app: Any) -> None:
    """Through the HTTP path: many concurrent views of several matches, each with the body
    of its own seat at the current version."""
    matches = [full_match(client, players=2, **D2_SETUP) for _ in range(3)]
    stranger = register(client, "zed")
    expected = {(m, p.id): client.get(f"/v1/matches/{m}", headers={**p.headers, "Origin": "x"})
                for m, seated in matches for p in [*seated, stranger]}
    results: list[tuple[str, str, Any]] = []

    def view(match_id: str, player: Any) -> None:
        r = app.test_client().get(f"/v1/matches/{match_id}", headers=player.headers)
        results.append((match_id, player.id, r))

    threads = [threading.Thread(target=view, args=(m, p))
               for _ in range(3) for m, seated in matches for p in [*seated, stranger]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(results) == len(threads)
    for match_id, player_id, r in results:  # (as Flask's path answers them: Origin)
        assert r.status_code == expected[(match_id, player_id)].status_code
        assert r.get_data() == expected[(match_id, player_id)].get_data()


def test_an_idle_reader_ends_and_the_next_read_starts_another(client: Any,
                                                              database: Database) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    token = hash_token(seated[0].token)
    reads, known = BatchedReads(database.run, idle_seconds=0.2), live_known()
    first = reads.read(known, match_id, token)
    reader = reads._reader
    assert reader is not None and reader.is_alive()
    reader.join(5)
    assert not reader.is_alive() and reads._reader is None
    assert reads.read(known, match_id, token) == first
    assert reads._reader is not None and reads._reader is not reader
