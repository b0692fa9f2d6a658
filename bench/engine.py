#!/usr/bin/env python3
"""Benchmark the rules engine against a baseline: pytruco 0.1.3 (Uruguayan truco, pure Python).

    python3 bench/engine.py            # about 15 s per measurement, two to three minutes in all
    python3 bench/engine.py --quick    # about 3 s per measurement, well under a minute

What it measures, all in one run so that the ratios are fair on a noisy machine:

1. Random play to the end of whole matches, for 2, 4 and 6 players, with our engine and with
   pytruco. One *action* is one state transition: one `engine.apply(...)` call here, one
   `IJugada.hacer(partida)` call in pytruco: a card played, a call (truco/raise, and in pytruco
   also envido/flor) or an answer (accept/refuse, quiero/no quiero). Each step also pays for
   finding the acting seat and its legal actions, and for the random choice:

   - ours: the acting seat comes from the state itself when the engine exposes it (checked
     against `view(state, None)["hand"]["to_act"]` before use); otherwise from the cheaper of
     the two documented ways, measured at start-up: `view(state, None)["hand"]["to_act"]`
     followed by one `legal_actions` call, or `legal_actions(state, seat)` for every seat
     (seats with a non-empty list are the ones that may act). Then a seat is drawn uniformly
     among those that may act, and an action uniformly among its legal actions.
   - pytruco: its own random walker, `pytruco.pdt.chi.random_action(p, allow_mazo=False)` then
     `action.hacer(p)`, on `Partida(20, ..., verbose=False)`: the loop of its own
     `pytruco-bench`. `random_action` computes every player's legal actions (`chis`), draws a
     player uniformly among those with any, then an action uniformly: the same shape as ours.

   Hands per second count our `hand_won` events; for pytruco, the deals of new rounds
   (`Partida.nueva_ronda`, counted by a subclass) plus the last round of each finished match.
   Rules differ (pytruco plays to 20 with envido and flor; Paulista to 12 with truco only), so
   hands are not equal units; actions per second is the main comparison.

   The time budget of each player count is split into chunks that alternate ours and
   pytruco, so that a slow spell on the machine hits both.

2. The cost of one `engine.view(state, seat)` plus `json.dumps` of the result, over states
   sampled from random play (every seat of 2, 4 and 6 player matches, hands at every stage and
   finished matches). The baseline is pytruco's per-player view: `p.perspectiva(jid).to_dict()`
   plus that player's legal actions (`chi(p, manojo)`, as strings), then `json.dumps`.

Ratios are ours over pytruco for throughput, pytruco over ours for the view time: above 1
means our engine is faster. The last line of output is one JSON object with every figure.

pytruco is imported lazily; when it is missing the script installs it into the running
interpreter's environment with `python -m pip install pytruco==0.1.3` (see
bench/requirements.txt). If our engine cannot be imported or fails, its figures are null, the
baseline still runs, and the exit status is 1.
"""
from __future__ import annotations

import copy
import importlib
import json
import operator
import os
import platform
import random
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Protocol, TypeVar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

PYTRUCO_REQUIREMENT = "pytruco==0.1.3"
PYTRUCO_VERSION = "0.1.3"
PLAYER_COUNTS = (2, 4, 6)
PYTRUCO_PLAYER_COUNTS = (2, 4, 6)  # Partida accepts 2, 4 or 6 players
RULESET = "paulista"

from bench.lib.report import fmt, last_line, log, options  # noqa: E402
from bench.lib.stats import rate, ratio, rounded  # noqa: E402

perf_counter = time.perf_counter

_T = TypeVar("_T")


class Choice(Protocol):
    """`rng.choice`."""

    def __call__(self, seq: Sequence[_T], /) -> _T: ...


# a picker: (state, choice) -> (seat, legal actions of seat), or (None, None)
Picker = Callable[[Any, Choice], tuple[Any, Any]]


# --------------------------------------------------------------------------------------------
# Our engine
# --------------------------------------------------------------------------------------------

class Ours:
    """Our engine plus the cheapest correct way found to pick the acting seat."""

    def __init__(self, engine: ModuleType, seed: int) -> None:
        self.engine = engine
        self.new_match = engine.new_match
        self.apply = engine.apply
        self.legal_actions = engine.legal_actions
        self.view = engine.view
        self.etype: Callable[[Any], Any] = operator.itemgetter("type")
        self.to_act_source: str | None = None
        self.pickers: dict[int, Picker] = {}
        self._choose_picker(seed)

    # -- start-up probe ----------------------------------------------------------------------

    def _event_type_getter(self, events: Sequence[Any]) -> Callable[[Any], Any]:
        ev = events[0]
        if isinstance(ev, dict):
            return operator.itemgetter("type")
        return operator.attrgetter("type")

    def _spectator_to_act(self, state: Any) -> list[int]:
        return list(self.view(state, None)["hand"]["to_act"])

    def _probe_states(self, seed: int, per_count: int = 400) -> dict[int, list[Any]]:
        """Random play driven by the documented (slow) way; returns {players: [states]}."""
        rng = random.Random(seed)
        out = {}
        for n in PLAYER_COUNTS:
            states: list[Any] = []
            match_seed = seed * 1000 + n
            while len(states) < per_count:
                state, events = self.new_match(players=n, ruleset=RULESET, seed=match_seed)
                match_seed += 1
                self.etype = self._event_type_getter(events)
                states.append(state)
                while True:
                    seats = self._spectator_to_act(state)
                    if not seats:
                        break
                    seat = rng.choice(seats)
                    acts = self.legal_actions(state, seat)
                    if not acts:
                        raise RuntimeError(f"seat {seat} is in to_act but has no legal action")
                    state, events = self.apply(state, seat, rng.choice(acts))
                    states.append(state)
                    if any(self.etype(e) == "match_won" for e in events):
                        break
            out[n] = states
        return out

    def _attribute_candidates(self) -> list[tuple[str, Callable[[Any], Any]]]:
        cands: list[tuple[str, Callable[[Any], Any]]] = []
        fn = getattr(self.engine, "to_act", None)
        if callable(fn):
            cands.append(("engine.to_act(state)", fn))
        for path in ("to_act", "hand.to_act"):
            getter: Callable[[Any], Any] = operator.attrgetter(path)
            cands.append((f"state.{path}", getter))

            def called(s: Any, g: Callable[[Any], Any] = getter) -> Any:
                return g(s)()

            cands.append((f"state.{path}()", called))
        return cands

    def _choose_picker(self, seed: int) -> None:
        probe = self._probe_states(seed)
        all_states = [s for n in PLAYER_COUNTS for s in probe[n]]
        expected = [self._spectator_to_act(s) for s in all_states]

        # 1. The state (or the engine) says who acts: cheapest, if it agrees with view().
        for name, getter in self._attribute_candidates():
            try:
                got = [getter(s) for s in all_states]
            except Exception:
                continue
            if all(isinstance(g, (list, tuple)) and list(g) == e for g, e in zip(got, expected)):
                self.to_act_source = name
                for n in PLAYER_COUNTS:
                    self.pickers[n] = self._make_attr_picker(getter)
                return

        # 2. Documented ways: spectator view, or legal_actions for every seat. Check that both
        #    agree, then time them over the probe states and keep the faster.
        for n in PLAYER_COUNTS:
            for s in probe[n]:
                scan = [seat for seat in range(n) if self.legal_actions(s, seat)]
                if scan != self._spectator_to_act(s):
                    raise RuntimeError(
                        f"legal_actions scan {scan} disagrees with view()['hand']['to_act']"
                    )
        timings: dict[str, float] = {}
        for kind in ("view", "scan"):
            t0 = perf_counter()
            for n in PLAYER_COUNTS:
                pick = self._make_picker(kind, n)
                rng = random.Random(0)
                for s in probe[n]:
                    pick(s, rng.choice)
            timings[kind] = perf_counter() - t0
        best = min(timings, key=timings.__getitem__)
        self.to_act_source = {
            "view": 'view(state, None)["hand"]["to_act"] + legal_actions(state, seat)',
            "scan": "legal_actions(state, seat) for every seat",
        }[best]
        self.to_act_probe_ms = {k: round(v * 1000, 1) for k, v in timings.items()}
        for n in PLAYER_COUNTS:
            self.pickers[n] = self._make_picker(best, n)

    # -- pickers: (state, choice) -> (seat, legal actions of seat), or (None, None) ----------

    def _make_attr_picker(self, getter: Callable[[Any], Any]) -> Picker:
        legal_actions = self.legal_actions

        def pick(state: Any, choice: Choice) -> tuple[Any, Any]:
            seats = getter(state)
            if not seats:
                return None, None
            seat = choice(seats)
            return seat, legal_actions(state, seat)

        return pick

    def _make_picker(self, kind: str, n: int) -> Picker:
        legal_actions, view = self.legal_actions, self.view
        if kind == "view":
            def pick(state: Any, choice: Choice) -> tuple[Any, Any]:
                seats = view(state, None)["hand"]["to_act"]
                if not seats:
                    return None, None
                seat = choice(seats)
                return seat, legal_actions(state, seat)
        else:
            seats_range = range(n)

            def pick(state: Any, choice: Choice) -> tuple[Any, Any]:
                options: list[tuple[int, Any]] = []
                for seat in seats_range:
                    acts = legal_actions(state, seat)
                    if acts:
                        options.append((seat, acts))
                if not options:
                    return None, None
                return choice(options)
        return pick

    # -- random play ---------------------------------------------------------------------------

    def play(self, players: int, budget: float, rng: random.Random,
             match_seed: int) -> tuple[int, int, int, float, int]:
        """Random matches until `budget` seconds pass. Returns counters and the next seed."""
        new_match, apply, etype = self.new_match, self.apply, self.etype
        pick = self.pickers[players]
        choice = rng.choice
        actions = hands = matches = 0
        start = perf_counter()
        deadline = start + budget
        out_of_time = False
        while not out_of_time:
            state, _ = new_match(players=players, ruleset=RULESET, seed=match_seed)
            match_seed += 1
            while True:
                seat, acts = pick(state, choice)
                if seat is None:
                    raise RuntimeError("nobody may act but no match_won event was seen")
                state, events = apply(state, seat, choice(acts))
                actions += 1
                finished = False
                for ev in events:
                    t = etype(ev)
                    if t == "hand_won":
                        hands += 1
                    elif t == "match_won":
                        finished = True
                if perf_counter() >= deadline:
                    out_of_time = True
                if finished:
                    matches += 1
                    break
                if out_of_time:
                    break
        return actions, hands, matches, perf_counter() - start, match_seed

    def sample_states(self, players: int, count: int, seed: int) -> list[tuple[Any, int]]:
        """(state, seat) pairs from random play: every step of whole matches, random seat."""
        rng = random.Random(seed)
        pick = self.pickers[players]
        samples: list[tuple[Any, int]] = []
        match_seed = seed
        while len(samples) < count:
            state, _ = self.new_match(players=players, ruleset=RULESET, seed=match_seed)
            match_seed += 1
            while True:
                samples.append((state, rng.randrange(players)))
                seat, acts = pick(state, rng.choice)
                if seat is None:
                    break
                state, _ = self.apply(state, seat, rng.choice(acts))
        return samples[:count]

    def view_json(self, samples: Sequence[tuple[Any, Any]],
                  budget: float) -> tuple[float, float, int]:
        return time_views(self.view, samples, budget)


def time_views(view: Callable[[Any, Any], Any], samples: Sequence[tuple[Any, Any]],
               budget: float) -> tuple[float, float, int]:
    """`json.dumps(view(a, b))` for each (a, b) of `samples`, round after round until `budget`
    seconds pass: (microseconds per call, bytes per call, calls)."""
    dumps = json.dumps
    calls = nbytes = 0
    start = perf_counter()
    deadline = start + budget
    while True:
        for state, seat in samples:
            nbytes += len(dumps(view(state, seat)))
        calls += len(samples)
        if perf_counter() >= deadline:
            break
    elapsed = perf_counter() - start
    return elapsed / calls * 1e6, nbytes / calls, calls


def load_engine() -> tuple[ModuleType | None, str | None]:
    try:
        engine = importlib.import_module("engine")
        for name in ("new_match", "apply", "legal_actions", "view"):
            getattr(engine, name)  # an empty engine/ imports as a bare namespace package
        return engine, None
    except Exception:
        return None, traceback.format_exc()


# --------------------------------------------------------------------------------------------
# The baseline: pytruco
# --------------------------------------------------------------------------------------------

def _import_pytruco() -> tuple[ModuleType, ModuleType]:
    from pytruco.pdt import chi as pt_chi
    from pytruco.pdt import partida as pt_partida
    return pt_partida, pt_chi


def load_pytruco() -> tuple[tuple[ModuleType, ModuleType] | None, str | None]:
    """Import pytruco, installing it into this interpreter's environment when missing."""
    try:
        mods = _import_pytruco()
    except ImportError:
        cmd = [sys.executable, "-m", "pip", "install", PYTRUCO_REQUIREMENT]
        log(f"pytruco is not installed; installing it: {' '.join(cmd)}")
        rc = subprocess.call(cmd, stdout=sys.stderr)
        if rc != 0:
            log(f"pip failed with status {rc}; the baseline is skipped")
            return None, None
        importlib.invalidate_caches()
        try:
            mods = _import_pytruco()
        except ImportError:
            import site  # pip may have fallen back to a user site that is not on sys.path yet
            site.addsitedir(site.getusersitepackages())
            try:
                mods = _import_pytruco()
            except ImportError:
                log("pytruco still cannot be imported after pip install; baseline skipped")
                log(traceback.format_exc())
                return None, None
    try:
        from importlib.metadata import version
        found = version("pytruco")
    except Exception:
        found = None
    if found != PYTRUCO_VERSION:
        log(f"warning: pytruco {found} found, the baseline is defined as {PYTRUCO_VERSION}")
    return mods, found


class PyTruco:
    AZULES = ["Alice", "Ariana", "Annie"]
    ROJOS = ["Bob", "Ben", "Bill"]

    def __init__(self, mods: tuple[ModuleType, ModuleType]) -> None:
        pt_partida, pt_chi = mods
        self.random_action = pt_chi.random_action
        self.chi = pt_chi.chi
        counter = self

        # pytruco has no types and is imported at run time: to mypy this base is Any (misc), an
        # attribute of a module object rather than a class it knows (name-defined)
        class CountingPartida(pt_partida.Partida):  # type: ignore[name-defined,misc]
            """Partida that counts the new rounds it deals (one per finished hand)."""

            def nueva_ronda(self, el_mano: Any) -> None:
                counter.new_rounds += 1
                super().nueva_ronda(el_mano)

        self.Partida = CountingPartida
        self.new_rounds = 0
        self.errors = 0

    def new_partida(self, players: int) -> Any:
        k = players // 2
        return self.Partida(20, self.AZULES[:k], self.ROJOS[:k], verbose=False)

    def play(self, players: int, budget: float,
             rng_state: tuple[Any, ...]) -> tuple[int, int, int, float, tuple[Any, ...]]:
        """pytruco's own random walker until `budget` seconds pass.

        pytruco deals and draws with the global `random` module, so it is seeded through that;
        the global generator is restored afterwards. Returns counters and the next rng state.
        """
        saved = random.getstate()
        random.setstate(rng_state)
        random_action = self.random_action
        new_partida = self.new_partida
        self.new_rounds = 0
        actions = matches = 0
        start = perf_counter()
        deadline = start + budget
        out_of_time = False
        try:
            while not out_of_time:
                p = new_partida(players)
                try:
                    while not p.terminada():
                        random_action(p, allow_mazo=False).hacer(p)
                        actions += 1
                        if perf_counter() >= deadline:
                            out_of_time = True
                            break
                except Exception:  # pytruco-bench also guards its loop; count and go on
                    self.errors += 1
                    out_of_time = perf_counter() >= deadline
                    continue
                if p.terminada():
                    matches += 1  # its last round ended the match without a new deal
            elapsed = perf_counter() - start
            hands = self.new_rounds + matches
            return actions, hands, matches, elapsed, random.getstate()
        finally:
            random.setstate(saved)

    def sample_states(self, players: int, count: int, seed: int) -> list[tuple[Any, Any]]:
        saved = random.getstate()
        random.seed(seed)
        rng = random.Random(seed)
        samples: list[tuple[Any, Any]] = []
        try:
            while len(samples) < count:
                p = self.new_partida(players)
                ids = [m.jugador.id for m in p.ronda.manojos]
                while True:
                    samples.append((copy.deepcopy(p), rng.choice(ids)))
                    if p.terminada():
                        break
                    self.random_action(p, allow_mazo=False).hacer(p)
        finally:
            random.setstate(saved)
        return samples[:count]

    def view(self, p: Any, jid: Any) -> dict[str, Any]:
        """pytruco's per-player view: perspectiva(jid) plus that player's legal actions."""
        d: dict[str, Any] = p.perspectiva(jid).to_dict()
        d["legal_actions"] = [str(a) for a in self.chi(p, p.manojo(jid))]
        return d

    def view_json(self, samples: Sequence[tuple[Any, Any]],
                  budget: float) -> tuple[float, float, int]:
        return time_views(self.view, samples, budget)


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

def side_rows(n: int, sides: tuple[tuple[str, dict[int, Any]], ...],
              row: Callable[[Any], str], blank: str) -> None:
    """Log a table's line for each engine at `n` players: `row` of its result, or `blank`."""
    for name, res in sides:
        r = res.get(n)
        log(f"{n:>7}  {name:<8} " + (row(r) if r is not None else blank))


def play_row(r: dict[str, Any]) -> str:
    """The random-play table's figures of one engine."""
    return (f"{fmt(rate(r['actions'], r['elapsed'])):>11}"
            f" {fmt(rate(r['hands'], r['elapsed'])):>9} {r['actions']:>10,} {r['hands']:>8,}"
            f" {r['matches']:>8,} {fmt(ratio(r['actions'], r['hands']), '{:.1f}'):>8}"
            f" {r['elapsed']:>7.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "3 s per measurement (under a minute)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="time budget per measurement (default 15, or 3 with --quick)")
    ap.add_argument("--chunks", type=int, default=3,
                    help="alternations of ours and pytruco within each player count")
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args(argv)
    budget = args.seconds if args.seconds is not None else (3.0 if args.quick else 15.0)
    chunks = max(1, args.chunks)
    t_run = perf_counter()

    log(f"bench/engine.py: {budget:g} s per measurement, Python {platform.python_version()}"
        f" ({platform.python_implementation()}), {platform.machine()}, seed {args.seed}")

    failed = False
    engine, err = load_engine()
    ours = None
    if engine is None:
        failed = True
        log("our engine cannot be imported; its figures will be null:\n" + str(err))
    else:
        try:
            ours = Ours(engine, args.seed)
            log(f"ours: acting seat from {ours.to_act_source}"
                + (f" (probe ms: {ours.to_act_probe_ms})"
                   if getattr(ours, "to_act_probe_ms", None) else ""))
        except Exception:
            failed = True
            ours = None
            log("our engine failed during the start-up probe; its figures will be null:\n"
                + traceback.format_exc())

    mods, pt_version = load_pytruco()
    pt = PyTruco(mods) if mods else None
    if pt:
        log(f"baseline: pytruco {pt_version}, random_action(p, allow_mazo=False) + hacer(p)")

    # ---- random play ---------------------------------------------------------------------
    res_ours = {}
    res_pt = {}
    for n in PLAYER_COUNTS:
        o_tot = [0, 0, 0, 0.0]
        p_tot = [0, 0, 0, 0.0]
        rng = random.Random(args.seed + n)
        match_seed = args.seed * 10 + n * 1_000_000
        pt_rng = random.Random(args.seed + n).getstate()
        do_pt = pt is not None and n in PYTRUCO_PLAYER_COUNTS
        for _ in range(chunks):
            if ours is not None:
                try:
                    a, h, m, e, match_seed = ours.play(n, budget / chunks, rng, match_seed)
                    o_tot = [o_tot[0] + a, o_tot[1] + h, o_tot[2] + m, o_tot[3] + e]
                except Exception:
                    failed = True
                    ours = None
                    log(f"our engine failed in random play ({n} players); figures null:\n"
                        + traceback.format_exc())
            if do_pt and pt is not None:
                a, h, m, e, pt_rng = pt.play(n, budget / chunks, pt_rng)
                p_tot = [p_tot[0] + a, p_tot[1] + h, p_tot[2] + m, p_tot[3] + e]
        if ours is not None and o_tot[3] > 0:
            res_ours[n] = dict(actions=o_tot[0], hands=o_tot[1], matches=o_tot[2],
                               elapsed=o_tot[3])
        if do_pt and p_tot[3] > 0:
            res_pt[n] = dict(actions=p_tot[0], hands=p_tot[1], matches=p_tot[2],
                             elapsed=p_tot[3])

    # ---- view + json.dumps -----------------------------------------------------------------
    view_ours = {}
    view_pt = {}
    n_samples = 300
    for n in PLAYER_COUNTS:
        if ours is not None:
            try:
                samples = ours.sample_states(n, n_samples, args.seed + 7 * n)
                view_ours[n] = ours.view_json(samples, budget / len(PLAYER_COUNTS))
            except Exception:
                failed = True
                ours = None
                log(f"our view/json.dumps failed ({n} players); figures null:\n"
                    + traceback.format_exc())
        if pt is not None:
            samples = pt.sample_states(n, n_samples, args.seed + 7 * n)
            view_pt[n] = pt.view_json(samples, budget / len(PLAYER_COUNTS))

    # ---- report ------------------------------------------------------------------------------
    out: dict[str, Any] = {}
    log("")
    log("Random play to the end of matches (actions/s: apply() vs hacer() calls per second)")
    log(f"{'players':>7}  {'engine':<8} {'actions/s':>11} {'hands/s':>9} {'actions':>10}"
        f" {'hands':>8} {'matches':>8} {'act/hand':>8} {'seconds':>7}")
    for n in PLAYER_COUNTS:
        side_rows(n, (("ours", res_ours), ("pytruco", res_pt)), play_row, f"{'-':>11} {'-':>9}")
    log("")
    log("Ratios, ours / pytruco (above 1: ours is faster)")
    for n in PLAYER_COUNTS:
        o, p = res_ours.get(n), res_pt.get(n)
        a_o = rate(o["actions"], o["elapsed"]) if o else None
        h_o = rate(o["hands"], o["elapsed"]) if o else None
        a_p = rate(p["actions"], p["elapsed"]) if p else None
        h_p = rate(p["hands"], p["elapsed"]) if p else None
        out[f"actions_per_s_{n}p"] = rounded(a_o, 0)
        out[f"hands_per_s_{n}p"] = rounded(h_o, 1)
        out[f"pytruco_actions_per_s_{n}p"] = rounded(a_p, 0)
        out[f"pytruco_hands_per_s_{n}p"] = rounded(h_p, 1)
        out[f"ratio_{n}p"] = rounded(ratio(a_o, a_p), 2)
        out[f"hands_ratio_{n}p"] = rounded(ratio(h_o, h_p), 2)
        log(f"{n:>7}p  actions/s {fmt(ratio(a_o, a_p), '{:.2f}x'):>8}"
            f"   hands/s {fmt(ratio(h_o, h_p), '{:.2f}x'):>8}")

    log("")
    log("One view for a seat + json.dumps, over states sampled from random play")
    log(f"{'players':>7}  {'engine':<8} {'us/call':>9} {'bytes':>7} {'calls':>9}")
    for n in PLAYER_COUNTS:
        side_rows(n, (("ours", view_ours), ("pytruco", view_pt)),
                  lambda r: f"{r[0]:>9.1f} {r[1]:>7.0f} {r[2]:>9,}", f"{'-':>9}")
        out[f"view_json_us_{n}p"] = rounded(view_ours[n][0]) if n in view_ours else None
        out[f"pytruco_view_json_us_{n}p"] = rounded(view_pt[n][0]) if n in view_pt else None
    v_o = (sum(view_ours[n][0] for n in PLAYER_COUNTS) / len(PLAYER_COUNTS)
           if len(view_ours) == len(PLAYER_COUNTS) else None)
    v_p = (sum(view_pt[n][0] for n in PLAYER_COUNTS) / len(PLAYER_COUNTS)
           if len(view_pt) == len(PLAYER_COUNTS) else None)
    out["view_json_us"] = rounded(v_o)
    out["pytruco_view_json_us"] = rounded(v_p)
    out["view_ratio"] = rounded(ratio(v_p, v_o), 2)
    log(f"{'mean':>7}  ours {fmt(v_o, '{:.1f}')} us, pytruco {fmt(v_p, '{:.1f}')} us;"
        f" pytruco / ours = {fmt(ratio(v_p, v_o), '{:.2f}x')}")

    out.update(
        to_act_source=getattr(ours, "to_act_source", None) if ours else None,
        pytruco_version=pt_version,
        pytruco_errors=pt.errors if pt else None,
        seconds_per_measurement=budget,
        quick=bool(args.quick),
        python=platform.python_version(),
        wall_s=round(perf_counter() - t_run, 1),
    )
    log("")
    last_line(out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
