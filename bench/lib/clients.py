"""The steps of the Python load clients: reads of one path, two players playing their own
match (views, actions with If-Match and an Idempotency-Key), and the baseline's row-lock
write."""
from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

from bench.lib.load import Conn, SliceResult

perf_counter = time.perf_counter


class GetClient:
    """GETs of one path; with `if_none_match` a conditional GET that must answer 304."""

    def __init__(self, path: str, token: str | None, if_none_match: str | None = None) -> None:
        self.path = path
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.expect = 200
        if if_none_match is not None:
            self.headers["If-None-Match"] = if_none_match
            self.expect = 304

    @classmethod
    def with_headers(cls, path: str, headers: dict[str, str], expect: int) -> GetClient:
        client = cls(path, None)
        client.headers, client.expect = dict(headers), expect
        return client

    def step(self, conn: Conn, res: SliceResult) -> None:
        t0 = perf_counter()
        status, _, data = conn.request("GET", self.path, None, self.headers)
        res.record(perf_counter() - t0)
        res.count += 1
        res.bytes += len(data)
        if status == self.expect:
            res.ok += 1
        else:
            res.errors += 1
            res.extra[f"status_{status}"] += 1

    def reset_after_error(self) -> None:
        pass


class ActionClient:
    """Two bench players playing a match against each other: each step is one action by the
    seat to act, with If-Match and an Idempotency-Key as the README tells bot authors to
    send them. Only the POST is timed; when the seat to act is not the one that acted last,
    its view is read first (a GET, inside the slice's time: the baseline does a GET before
    each POST too). Bots move in a background worker, which the benchmark does not run, so
    no seat is a bot."""

    def __init__(self, tokens: tuple[str, str], seed: int) -> None:
        self.auths = [{"Authorization": f"Bearer {t}"} for t in tokens]
        self.rng = random.Random(seed)
        self.match_id: str | None = None
        self.views: dict[int, tuple[dict[str, Any], str | None]] = {}
        self.last_post_s = 0.0

    def _create(self, conn: Conn, res: SliceResult) -> None:
        self.match_id, self.views = None, {}
        json_type = {"Content-Type": "application/json"}
        body = json.dumps({"players": 2, "visibility": "private"}).encode()
        status, _, data = conn.request("POST", "/v1/matches", body,
                                          {**self.auths[0], **json_type})
        res.extra["creates"] += 1
        if status != 201:
            res.errors += 1
            res.extra[f"create_status_{status}"] += 1
            return
        view = json.loads(data)
        body = json.dumps({"invite_code": view["invite_code"]}).encode()
        status, _, data = conn.request("POST", f"/v1/matches/{view['id']}/join", body,
                                       {**self.auths[1], **json_type})
        if status != 200:
            res.errors += 1
            res.extra[f"join_status_{status}"] += 1
            return
        self.match_id = view["id"]

    def _view(self, conn: Conn, res: SliceResult,
              seat: int) -> tuple[dict[str, Any], str | None] | None:
        if seat not in self.views:
            status, resp, data = conn.request("GET", f"/v1/matches/{self.match_id}", None,
                                              self.auths[seat])
            res.extra["views_read"] += 1
            if status != 200:
                return None
            self.views = {seat: (json.loads(data), resp.getheader("ETag"))}
        return self.views[seat]

    def step(self, conn: Conn, res: SliceResult) -> None:
        if self.match_id is None:
            self._create(conn, res)
            return
        seen = self._view(conn, res, next(iter(self.views), 0))
        if seen is None or seen[0].get("status") != "active":
            if seen is not None and seen[0].get("status") == "finished":
                res.extra["matches_finished"] += 1
            self._create(conn, res)
            return
        seat = seen[0]["hand"]["to_act"][0]
        mine = self._view(conn, res, seat)
        if mine is None or not mine[0].get("legal_actions"):
            res.extra["no_legal_action"] += 1
            self.match_id = None
            return
        view, tag = mine
        body = json.dumps(self.rng.choice(view["legal_actions"])).encode()
        headers = {**self.auths[seat], "Content-Type": "application/json",
                   "If-Match": tag or "*", "Idempotency-Key": uuid.uuid4().hex}
        t0 = perf_counter()
        status, resp, data = conn.request("POST", f"/v1/matches/{self.match_id}/actions",
                                          body, headers)
        self.last_post_s = perf_counter() - t0
        res.record(self.last_post_s)
        res.count += 1
        res.bytes += len(data)
        if status == 200:
            res.ok += 1
            self.views = {seat: (json.loads(data), resp.getheader("ETag"))}
        else:
            res.errors += 1
            res.extra[f"action_status_{status}"] += 1
            if len(res.error_samples) < 5:
                res.error_samples.append(f"action {status}: {data[:300]!r}")
            self.views = {}

    def reset_after_error(self) -> None:
        self.views = {}  # read the views again before the next action


class CounterClient:
    """The baseline's write: one row-lock transaction per request, on its own row."""

    def __init__(self, k: int, size: int, seed: int) -> None:
        self.path = f"/counter/{k}/{size}"
        self.view_path = f"/view/{size}"
        self.rng = random.Random(seed)

    def step(self, conn: Conn, res: SliceResult) -> None:
        conn.request("GET", self.view_path, None, {})  # as our client reads the seat's view
        body = json.dumps({"type": "play", "card": self.rng.choice(["7c", "Ah", "3s"])}).encode()
        headers = {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        t0 = perf_counter()
        status, _, data = conn.request("POST", self.path, body, headers)
        res.record(perf_counter() - t0)
        res.count += 1
        res.bytes += len(data)
        if status == 200:
            res.ok += 1
            json.loads(data)  # our action client parses its answer too
        else:
            res.errors += 1
            res.extra[f"status_{status}"] += 1

    def reset_after_error(self) -> None:
        pass
