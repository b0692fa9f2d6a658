"""Runs the RULES.md §14 scenarios of ``tests/support/scenarios.py`` against a driver.

A driver has three methods:

``create(setup: dict) -> None``
    Create the match from the scenario's create-body fragment (every seat a player).
``act(seat: int, action: dict) -> str | None``
    Send one action as that seat: ``None`` when it was applied, else the rejection reason
    (``illegal_action``'s ``reason``, ``match_not_active`` for the 409, ``validation_error`` for a
    malformed body).
``view(seat: int | None) -> dict``
    The match view as that seat (``None``: a spectator) sees it, a JSON-like dict
    (docs/engine-api.md ``view`` / API.md "The match view").

A driver may also set ``volatile_keys``: top-level view keys that may change without any
action (for the HTTP API, e.g. ``deadline``); they are left out of the "nothing changes"
comparison.  Every check reads the view only, so one scenario list serves every driver.
"""
from __future__ import annotations

import json
from typing import Any, Protocol

__all__ = ["Driver", "ScenarioFailure", "run_scenario", "describe_step"]


class Driver(Protocol):
    def create(self, setup: dict) -> None: ...

    def act(self, seat: int, action: dict) -> str | None: ...

    def view(self, seat: int | None) -> dict: ...


class ScenarioFailure(AssertionError):
    pass


_MISSING = object()


def _get(view: Any, path: str) -> Any:
    cur = view
    for part in path.split("."):
        if isinstance(cur, dict):
            if part not in cur:
                return _MISSING
            cur = cur[part]
        elif isinstance(cur, list):
            try:
                cur = cur[int(part)]
            except (ValueError, IndexError):
                return _MISSING
        else:
            return _MISSING
    return cur


def _fmt(v: Any) -> str:
    if v is _MISSING:
        return "<missing>"
    try:
        return json.dumps(v, sort_keys=True)
    except (TypeError, ValueError):
        return repr(v)


def _canon(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def _first_diff(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON-like values first differ (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            p = f"{path}.{k}" if path else str(k)
            if k not in a:
                return f"{p}: added {_fmt(b[k])}"
            if k not in b:
                return f"{p}: removed (was {_fmt(a[k])})"
            d = _first_diff(a[k], b[k], p)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {_fmt(a)} -> {_fmt(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_diff(x, y, f"{path}.{i}" if path else str(i))
            if d:
                return d
        return None
    if a != b or type(a) is not type(b):
        return f"{path}: {_fmt(a)} -> {_fmt(b)}"
    return None


def describe_step(step: dict) -> str:
    if step["kind"] == "act":
        return f"s{step['seat']} {_fmt(step['action'])}"
    if step["kind"] == "reject":
        return f"s{step['seat']} {_fmt(step['action'])} must be rejected with {step['reason']!r}"
    params = {k: v for k, v in step.items()
              if k not in ("line", "kind", "check", "note", "derived")}
    return f"check {step['check']} {_fmt(params)}"


class _Run:
    def __init__(self, scenario: Any, driver: Driver):
        self.sc = scenario
        self.d = driver
        self.players = int(scenario.setup.get("players", 2))
        self.seats = list(range(self.players))
        self.volatile = set(getattr(driver, "volatile_keys", ()) or ())
        self.number_before_last_act: Any = _MISSING
        self.step_no = 0
        self.step: dict = {}

    # -- reporting -----------------------------------------------------------------------------
    def fail(self, msg: str, view: dict | None = None) -> None:
        s = self.step
        where = (f"{self.sc.id} ({self.sc.title}), RULES.md line {s.get('line')},"
                 f" step #{self.step_no}")
        text = f"{where}: {describe_step(s)}\n  {msg}"
        if s.get("derived"):
            text += f"\n  (derived check: {s.get('note', '')})"
        if view is not None:
            hand = view.get("hand")
            text += (f"\n  view: status={_fmt(view.get('status'))} score={_fmt(view.get('score'))}"
                     f" winner_team={_fmt(view.get('winner_team'))}"
                     f"\n  hand={_fmt(hand)}\n  last_hand={_fmt(view.get('last_hand'))}"
                     f"\n  legal_actions={_fmt(view.get('legal_actions'))}")
        raise ScenarioFailure(text)

    def expect(self, ok: bool, msg: str, view: dict | None = None) -> None:
        if not ok:
            self.fail(msg, view)

    def expect_eq(self, view: dict, path: str, want: Any, who: Any) -> None:
        got = _get(view, path)
        if got is _MISSING or got != want or (want is None) != (got is None):
            self.fail(f"{path} as seen by {self._who(who)}: expected {_fmt(want)},"
                      f" got {_fmt(got)}", view)

    @staticmethod
    def _who(seat: Any) -> str:
        return "the spectator" if seat is None else f"s{seat}"

    def view(self, seat: int | None) -> dict:
        v = self.d.view(seat)
        if not isinstance(v, dict):
            self.fail(f"view({seat}) returned {type(v).__name__}, not a dict")
        return v

    def snapshot(self) -> dict:
        out = {}
        for s in [*self.seats, None]:
            v = self.view(s)
            out[s] = {k: val for k, val in v.items() if k not in self.volatile}
        return out

    # -- steps -------------------------------------------------------------------------------
    def run(self) -> None:
        self.d.create(self.sc.setup)
        for i, step in enumerate(self.sc.steps, 1):
            self.step_no, self.step = i, step
            kind = step["kind"]
            if kind == "act":
                self.do_act(step)
            elif kind == "reject":
                self.do_reject(step)
            elif kind == "check":
                getattr(self, "check_" + step["check"])(step)
            else:  # pragma: no cover - data error
                raise ValueError(f"{self.sc.id}: unknown step kind {kind!r}")

    def do_act(self, step: dict) -> None:
        before = self.view(step["seat"])
        self.number_before_last_act = _get(before, "hand.number")
        reason = self.d.act(step["seat"], step["action"])
        if reason is not None:
            self.fail(f"expected the action to be applied; it was rejected with {reason!r}", before)

    def do_reject(self, step: dict) -> None:
        before = self.snapshot()
        reason = self.d.act(step["seat"], step["action"])
        if reason is None:
            self.fail(f"expected rejection {step['reason']!r}; the action was applied",
                      self.view(step["seat"]))
        if reason != step["reason"]:
            self.fail(f"expected rejection {step['reason']!r}, got {reason!r}",
                      before[step["seat"]])
        after = self.snapshot()
        for s in [*self.seats, None]:
            diff = _first_diff(before[s], after[s])
            if diff:
                self.fail(f"rejected action changed the view of {self._who(s)}"
                          f" (nothing may change): {diff}", after[s])

    # -- checks ------------------------------------------------------------------------------
    def check_eq(self, step: dict) -> None:
        seats = step.get("seats", self.seats)
        for s in seats:
            self.expect_eq(self.view(s), step["path"], step["value"], s)

    def check_to_play(self, step: dict) -> None:
        for s in self.seats:
            v = self.view(s)
            self.expect_eq(v, "hand.pending", None, s)
            self.expect_eq(v, "hand.to_act", [step["seat"]], s)

    def _legal(self, seat: int) -> tuple[dict, list]:
        v = self.view(seat)
        la = v.get("legal_actions", _MISSING)
        if not isinstance(la, list):
            self.fail(f"legal_actions of s{seat} is {_fmt(la)}, not a list", v)
        return v, la

    def check_legal(self, step: dict) -> None:
        seat = step["seat"]
        v, la = self._legal(seat)
        got = sorted(_canon(a) for a in la)
        want = sorted(_canon(a) for a in step["actions"])
        if got != want:
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            dup = len(got) != len(set(got))
            self.fail(f"legal_actions of s{seat}: expected exactly {want}; got {got}"
                      f"\n  missing: {missing}; unexpected: {extra}"
                      + ("; duplicates listed" if dup else ""), v)

    def check_legal_includes(self, step: dict) -> None:
        seat = step["seat"]
        v, la = self._legal(seat)
        want = _canon(step["action"])
        self.expect(want in {_canon(a) for a in la},
                    f"legal_actions of s{seat} should include {want};"
                    f" got {[_canon(a) for a in la]}", v)

    def check_legal_no_type(self, step: dict) -> None:
        seat = step["seat"]
        v, la = self._legal(seat)
        bad = [a for a in la if isinstance(a, dict) and a.get("type") == step["type"]]
        self.expect(not bad,
                    f"legal_actions of s{seat} should have no {step['type']!r}; got {bad}", v)

    def _trick(self, v: dict, where: str, n: int, who: Any) -> dict:
        tricks = _get(v, f"{where}.tricks")
        if not isinstance(tricks, list) or len(tricks) < n or not isinstance(tricks[n - 1], dict):
            self.fail(f"{where}.tricks as seen by {self._who(who)} has no trick {n}:"
                      f" {_fmt(tricks)}", v)
        return tricks[n - 1]

    def check_trick(self, step: dict) -> None:
        n, where = step["n"], step["where"]
        want_tie = bool(step.get("tie", False))
        want_team = None if want_tie else step["winner_team"]
        for s in self.seats:
            v = self.view(s)
            t = self._trick(v, where, n, s)
            label = f"{where}.tricks[{n - 1}] as seen by {self._who(s)}"
            pl = t.get("plays")
            self.expect(isinstance(pl, list) and len(pl) == self.players,
                        f"{label}: a finished trick has one play per seat ({self.players});"
                        f" got {_fmt(pl)}", v)
            self.expect(t.get("tie") is want_tie and t.get("winner_team") == want_team
                        and (want_team is None) == (t.get("winner_team") is None),
                        f"{label}: expected "
                        + ("a tie (tie true, winner_team null)" if want_tie
                           else f"won by team {want_team} (tie false)")
                        + f"; got winner_team={_fmt(t.get('winner_team', _MISSING))}"
                          f" tie={_fmt(t.get('tie', _MISSING))}",
                        v)

    def check_trick_plays(self, step: dict) -> None:
        s, n, where = step["seat"], step["n"], step["where"]
        v = self.view(s)
        t = self._trick(v, where, n, s)
        pl = t.get("plays")
        got = ([{k: p.get(k, _MISSING) for k in ("seat", "card", "face_down")}
                if isinstance(p, dict) else p
                for p in pl] if isinstance(pl, list) else pl)
        ok = isinstance(got, list) and len(got) == len(step["plays"]) and all(
            isinstance(g, dict) and all(g[k] == w[k] and type(g[k]) is type(w[k]) for k in w)
            for g, w in zip(got, step["plays"]))
        self.expect(ok, f"{where}.tricks[{n - 1}].plays as seen by {self._who(s)}: expected "
                        f"{_fmt(step['plays'])}, got {_fmt(pl)}", v)

    def _check_last_hand_number(self, v: dict, who: Any) -> None:
        if self.number_before_last_act is _MISSING:
            self.fail("no action before this check (cannot tell which hand ended)")
        self.expect_eq(v, "last_hand.number", self.number_before_last_act, who)

    def check_hand_over(self, step: dict) -> None:
        for s in self.seats:
            v = self.view(s)
            lh = v.get("last_hand")
            self.expect(isinstance(lh, dict), f"last_hand as seen by {self._who(s)} is {_fmt(lh)}; "
                                              "the last action should have ended the hand", v)
            self._check_last_hand_number(v, s)
            self.expect_eq(v, "last_hand.winner_team", step["winner_team"], s)
            self.expect_eq(v, "last_hand.points", step["points"], s)
            self.expect_eq(v, "last_hand.reason", step["reason"], s)
            self.expect_eq(v, "score", step["score"], s)

    def check_last_hand_play_count(self, step: dict) -> None:
        for s in self.seats:
            v = self.view(s)
            tricks = _get(v, "last_hand.tricks")
            self.expect(isinstance(tricks, list),
                        f"last_hand.tricks as seen by {self._who(s)}: {_fmt(tricks)}", v)
            count = sum(len(t.get("plays") or []) for t in tricks if isinstance(t, dict))
            self.expect(count == step["count"],
                        f"last_hand should hold {step['count']} played cards; it holds {count}:"
                        f" {_fmt(tricks)}", v)

    def check_new_hand(self, step: dict) -> None:
        for s in self.seats:
            v = self.view(s)
            self.expect_eq(v, "status", "active", s)
            self.expect_eq(v, "hand.dealer", step["dealer"], s)
            if not step.get("initial"):
                if (self.number_before_last_act is _MISSING
                        or not isinstance(self.number_before_last_act, int)):
                    self.fail("hand.number before the last action was"
                              f" {_fmt(self.number_before_last_act)}")
                self.expect_eq(v, "hand.number", self.number_before_last_act + 1, s)
            if "leads" in step:
                self.expect_eq(v, "hand.pending", None, s)
                self.expect_eq(v, "hand.to_act", [step["leads"]], s)

    def check_match_over(self, step: dict) -> None:
        for s in [*self.seats, None]:
            v = self.view(s)
            self.expect_eq(v, "status", "finished", s)
            self.expect_eq(v, "winner_team", step["winner_team"], s)
            self.expect_eq(v, "hand.to_act", [], s)
            self.expect_eq(v, "hand.pending", None, s)
            la = v.get("legal_actions")
            self.expect(la == [], f"legal_actions of {self._who(s)} after the match: expected [],"
                                  f" got {_fmt(la)}", v)


def run_scenario(scenario: Any, driver: Driver) -> None:
    """Create the scenario's match on ``driver`` and run every step, raising
    :class:`ScenarioFailure` (an ``AssertionError``) naming the scenario, the RULES.md line and
    the step at the first expectation that does not hold."""
    _Run(scenario, driver).run()
