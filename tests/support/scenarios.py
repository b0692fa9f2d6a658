"""RULES.md §14 scenarios R-01 .. R-23 as plain data.

Every scenario is driver-neutral: it is run by ``tests/support/scenario_runner.py`` against
the engine (``tests/engine/test_scenarios.py``) and against the HTTP API
(``tests/api/test_scenarios_api.py``).  Nothing here imports the engine.

A scenario is a :class:`Scenario` with

* ``id``     -- ``"R-01"``, ``"R-11b"``, ``"R-22c"`` ...
* ``title``  -- the heading in RULES.md
* ``setup``  -- the create-body fragment exactly as in RULES.md, with ``F1`` .. ``F4`` expanded
* ``steps``  -- a list of step dicts, run in order.  Every step carries ``line``: the numbered
  line of RULES.md it comes from (``"3"``, or ``"b.1"`` for variant (b) line 1), so failures can
  be traced back to the text.

Step kinds (``step["kind"]``):

``act``     ``{"seat": N, "action": {...}}`` -- the action must succeed.
``reject``  ``{"seat": N, "action": {...}, "reason": "..."}`` -- the action must be refused with
            that reason (``match_not_active`` included); the runner also asserts that the view
            of every seat (and of a spectator) is unchanged.
``check``   an assertion on the match view; ``step["check"]`` names it:

  ``eq``          ``path`` (dotted, list indices as numbers: ``"hand.tricks.1.plays"``), ``value``;
                  optional ``seats`` (default: every seat -- only public fields use the default).
  ``to_play``     ``seat``: ``hand.pending`` is null and ``hand.to_act == [seat]`` (every seat's
                  view).
  ``legal``       ``seat``, ``actions``: ``legal_actions`` of that seat's view is exactly this set
                  of action bodies (order-free).
  ``legal_includes``  ``seat``, ``action``: that body is among the seat's ``legal_actions``.
  ``legal_no_type``   ``seat``, ``type``: no item of that ``type`` among the seat's
                  ``legal_actions``.
  ``trick``       ``n`` (1-based), ``where`` (``"hand"`` while the hand goes on, ``"last_hand"``
                  when that trick ended the hand), and ``winner_team`` (a team) or ``tie: True``:
                  the trick is complete (one play per seat) and its ``winner_team``/``tie`` are
                  (team, false) or (null, true).
  ``trick_plays`` ``seat``, ``where``, ``n``, ``plays``: the plays of that trick as that seat sees
                  them (``seat``, ``card``, ``face_down`` of each play, in order).
  ``hand_over``   ``winner_team``, ``points``, ``reason``, ``score``: ``last_hand`` describes the
                  hand that the last action ended (its ``number`` is the hand number before that
                  action) and ``score`` is the new score.
  ``last_hand_play_count``  ``count``: the number of cards played in ``last_hand`` (0 = "no card
                  was played"; 8 in R-07 = "trick 3 is never played").
  ``new_hand``    ``dealer``, optional ``leads``, optional ``initial``: ``hand.dealer``; unless
                  ``initial``, ``hand.number`` is one more than before the last action; with
                  ``leads``, pending null and ``to_act == [leads]``.
  ``match_over``  ``winner_team``: ``status`` finished, ``winner_team``, the final hand's
                  ``to_act`` empty and ``pending`` null, every seat's ``legal_actions`` empty.

Checks marked ``"derived": True`` are not spelled out on the RULES.md line but follow directly
from the rules text they cite in ``"note"``; everything else is a literal transcription.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Scenario", "SCENARIOS", "BY_ID", "F1", "F2", "F3", "F4", "parse_action"]


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    setup: dict
    steps: list = field(default_factory=list)

    def __repr__(self) -> str:  # keeps pytest ids / messages short
        return f"Scenario({self.id}: {self.title})"


# ---------------------------------------------------------------------------------------------
# Deals F1 .. F4 (RULES.md §14), hands by seat, in slot order.
# ---------------------------------------------------------------------------------------------

F1 = {"vira": "4d",
      "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], ["Ah", "Jc", "7c"]]}
F2 = {"vira": "4d",
      "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], ["Ah", "Jc", "7c"]]}
F3 = {"vira": None,
      "hands": [["7c", "As", "5d"], ["7s", "3c", "6h"], ["4h", "Kd", "Qd"], ["5c", "Jd", "6c"]]}
F4 = {
    "vira": "4d",
    "hands": [["6c", "Ah", "5h"], ["2c", "Kc", "7c"], ["Kd", "3s", "Qc"],
              ["Qh", "3d", "4c"], ["2s", "7h", "Js"], ["Jc", "6d", "4h"]],
}


def _deal(d: dict) -> dict:
    return copy.deepcopy(d)


# ---------------------------------------------------------------------------------------------
# Tiny parser for the action notation of RULES.md §14, so the data reads like the text.
#   "play 3h" / "play 3h face_down" / "play slot 1" / "play slot 1 face_down"
#   "raise" / "raise to 6" / "accept" / "refuse"
# ---------------------------------------------------------------------------------------------

_CARD = r"(?:[2-7AQJK][cdhs])"


def parse_action(text: str) -> dict:
    """One action in RULES.md notation (without the seat) -> an API.md action body."""
    t = text.strip()
    m = re.fullmatch(rf"play ({_CARD})( face_down)?", t)
    if m:
        body: dict[str, Any] = {"type": "play", "card": m.group(1)}
        if m.group(2):
            body["face_down"] = True
        return body
    m = re.fullmatch(r"play slot (\d)( face_down)?", t)
    if m:
        body = {"type": "play", "slot": int(m.group(1))}
        if m.group(2):
            body["face_down"] = True
        return body
    if t == "raise":
        return {"type": "raise"}
    m = re.fullmatch(r"raise to (\d+)", t)
    if m:
        return {"type": "raise", "to": int(m.group(1))}
    if t in ("accept", "refuse"):
        return {"type": t}
    raise ValueError(f"cannot parse action {text!r}")


def _seat_action(text: str) -> tuple[int, dict]:
    m = re.fullmatch(r"s(\d) (.+)", text.strip())
    if not m:
        raise ValueError(f"cannot parse seat action {text!r}")
    return int(m.group(1)), parse_action(m.group(2))


def acts(line: str, text: str) -> list[dict]:
    """``"s0 play 3c, s1 play Ad"`` -> one ``act`` step per action (each must succeed)."""
    out = []
    for part in text.split(","):
        seat, body = _seat_action(part)
        out.append({"line": line, "kind": "act", "seat": seat, "action": body,
                    "text": part.strip()})
    return out


def rej(line: str, text: str, reason: str) -> dict:
    """``"s0 play 5c"``, ``"raise_pending"`` -> a ``reject`` step."""
    seat, body = _seat_action(text)
    return {"line": line, "kind": "reject", "seat": seat, "action": body, "reason": reason,
            "text": text.strip()}


def L(*items: str) -> list[dict]:
    """A legal-actions set written as in RULES.md: ``L("play 5c", "raise to 3")``."""
    return [parse_action(i) for i in items]


def chk(line: str, check: str, **kw: Any) -> dict:
    return {"line": line, "kind": "check", "check": check, **kw}


# Shorthands for the checks that recur.
def eq(line: str, path: str, value: Any, seats: list[int] | None = None, **kw: Any) -> dict:
    d = chk(line, "eq", path=path, value=value, **kw)
    if seats is not None:
        d["seats"] = seats
    return d


def to_play(line: str, seat: int, **kw: Any) -> dict:
    return chk(line, "to_play", seat=seat, **kw)


def legal(line: str, seat: int, actions: list[dict], **kw: Any) -> dict:
    return chk(line, "legal", seat=seat, actions=actions, **kw)


def trick(line: str, n: int, result: int | str, where: str = "hand") -> dict:
    if result == "tie":
        return chk(line, "trick", n=n, where=where, tie=True)
    return chk(line, "trick", n=n, where=where, winner_team=result)


def hand_over(line: str, winner_team: int | None, points: int, reason: str,
              score: list[int]) -> dict:
    return chk(line, "hand_over", winner_team=winner_team, points=points, reason=reason,
               score=score)


def new_hand(line: str, dealer: int, leads: int | None = None, initial: bool = False,
             **kw: Any) -> dict:
    d = chk(line, "new_hand", dealer=dealer, initial=initial, **kw)
    if leads is not None:
        d["leads"] = leads
    return d


def match_over(line: str, winner_team: int) -> dict:
    return chk(line, "match_over", winner_team=winner_team)


def plays(*items: tuple[int, str | None, bool]) -> list[dict]:
    return [{"seat": s, "card": c, "face_down": fd} for s, c, fd in items]


NONE: list[dict] = []  # "legal(sN) = none"
ACCEPT_REFUSE = L("accept", "refuse")


def _setup4(deal: dict, ruleset: str = "paulista", **extra: Any) -> dict:
    s = {"players": 4, "ruleset": ruleset, "options": {"first_dealer": 3}}
    s.update(extra)
    s["deals"] = [_deal(deal)]
    return s


# ---------------------------------------------------------------------------------------------
# The scenarios.
# ---------------------------------------------------------------------------------------------

SCENARIOS: list[Scenario] = []


def _add(id: str, title: str, setup: dict, steps: list) -> None:
    flat: list[dict] = []
    for s in steps:
        if isinstance(s, list):
            flat.extend(s)
        else:
            flat.append(s)
    SCENARIOS.append(Scenario(id=id, title=title, setup=setup, steps=flat))


# R-01 Vira K: the aces are manilhas -----------------------------------------------------------
_add("R-01", "Vira K: the aces are manilhas",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "Kd", "hands": [["3c", "5c", "6h"], ["Ad", "7c", "4h"],
                                          ["2c", "Qc", "6d"], ["Kc", "Jc", "5d"]]}]},
     [
         # 1. hand.manilhas ["Ac","Ah","As","Ad"]; strength order ... (the plain order is pinned
         #    by the engine-only tests/engine/test_card_strength.py; here: manilhas and line 2).
         eq("1", "hand.manilhas", ["Ac", "Ah", "As", "Ad"]),
         eq("1", "hand.vira", "Kd", derived=True, note="§1.3 the vira stays visible (hand.vira)"),
         # 2. s0 play 3c, s1 play Ad, s2 play 2c, s3 play Kc -> trick 1: team 1; s1 to play
         acts("2", "s0 play 3c, s1 play Ad, s2 play 2c, s3 play Kc"),
         trick("2", 1, 1),
         to_play("2", 1),
     ])

# R-02 Vira 3 wraps round to the 4s ------------------------------------------------------------
_add("R-02", "Vira 3 wraps round to the 4s",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "3h", "hands": [["3c", "5c", "Kh"], ["4d", "6d", "Qh"],
                                          ["2h", "5h", "Js"], ["Ks", "5s", "6s"]]}]},
     [
         # 1. manilhas; "4d beats 3c" is line 2's trick 1, "6d beats 5c" line 3's trick 2.
         eq("1", "hand.manilhas", ["4c", "4h", "4s", "4d"]),
         acts("2", "s0 play 3c, s1 play 4d, s2 play 2h, s3 play Ks"),
         trick("2", 1, 1),
         to_play("2", 1),
         acts("3", "s1 play 6d, s2 play 5h, s3 play 5s, s0 play 5c"),
         trick("3", 2, 1, where="last_hand"),
         hand_over("3", 1, 1, "tricks", [0, 1]),
     ])

# R-03 Manilhas are ordered by suit and never tie ----------------------------------------------
_add("R-03", "Manilhas are ordered by suit and never tie",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "2c", "hands": [["3d", "4c", "5c"], ["2h", "6c", "7c"],
                                          ["3s", "Qc", "Jc"], ["3h", "Kc", "Ac"]]}]},
     [
         # 1. strengths 3c=14, 3h=13, 3s=12, 3d=11, 2h=9: the manilha order, and line 2
         # (3h > 3s > 3d > 2h).
         eq("1", "hand.manilhas", ["3c", "3h", "3s", "3d"]),
         acts("2", "s0 play 3d, s1 play 2h, s2 play 3s, s3 play 3h"),
         trick("2", 1, 1),
         to_play("2", 3),
     ])

# R-04 Mineiro fixed manilhas ------------------------------------------------------------------
_add("R-04", "Mineiro fixed manilhas",
     {"players": 4, "ruleset": "mineiro", "options": {"first_dealer": 3},
      "deals": [{"vira": None, "hands": [["3d", "4h", "4s"], ["7d", "7c", "6c"],
                                          ["Ah", "Ac", "5c"], ["2s", "Kc", "Jc"]]}]},
     [
         eq("1", "hand.manilhas", ["4c", "7h", "As", "7d"]),
         eq("1", "hand.vira", None, derived=True, note="§1.4 Mineiro: no vira (hand.vira null)"),
         eq("1", "hand.stake", 2, derived=True, note="§3.1 Mineiro base value 2"),
         acts("2", "s0 play 3d, s1 play 7d, s2 play Ah, s3 play 2s"),
         trick("2", 1, 1),
         to_play("2", 1),
     ])

# R-05 Partners sharing the top card win the trick ---------------------------------------------
_add("R-05", "Partners sharing the top card win the trick",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "4d", "hands": [["3h", "6c", "7c"], ["Kc", "Qc", "6h"],
                                          ["3s", "Jd", "7h"], ["2d", "Qh", "6s"]]}]},
     [
         acts("1", "s0 play 3h, s1 play Kc, s2 play 3s, s3 play 2d"),
         trick("1", 1, 0),  # a win, not a tie
         to_play("1", 0),
         acts("2", "s0 play 7c, s1 play Qc, s2 play Jd, s3 play Qh"),
         trick("2", 2, 0, where="last_hand"),
         hand_over("2", 0, 1, "tricks", [1, 0]),
     ])

# R-06 Tied first trick, then a won trick ------------------------------------------------------
_add("R-06", "Tied first trick, then a won trick",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "4d", "hands": [["6c", "Ah", "Kd"], ["3c", "Kh", "6d"],
                                          ["3h", "Qd", "Jc"], ["2s", "Qs", "7d"]]}]},
     [
         acts("1", "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s"),
         trick("1", 1, "tie"),
         to_play("1", 0),
         acts("2", "s0 play Ah, s1 play Kh, s2 play Qd, s3 play Qs"),
         trick("2", 2, 0, where="last_hand"),
         hand_over("2", 0, 1, "tricks", [1, 0]),
     ])

# R-07 Won trick then tie ends the hand at trick 2 ---------------------------------------------
_add("R-07", "Won trick then tie ends the hand at trick 2",
     _setup4(F2),
     [
         acts("1", "s0 play 3h, s1 play 2c, s2 play Qd, s3 play Ah"),
         trick("1", 1, 0),
         to_play("1", 0),
         acts("2", "s0 play Kc, s1 play Kd, s2 play Js, s3 play Jc"),
         trick("2", 2, "tie", where="last_hand"),
         hand_over("2", 0, 1, "tricks", [1, 0]),
         new_hand("2", 0, leads=1, derived=True,
                  note="'s1 leads' is not on the line; §2.2: the seat after the dealer leads"),
         chk("2", "last_hand_play_count", count=8),  # trick 3 is never played
     ])

# R-08 Tie then a win by the other team --------------------------------------------------------
_add("R-08", "Tie then a win by the other team",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "Jc", "hands": [["3c", "5d", "6h"], ["3s", "7d", "2h"],
                                          ["Qh", "4c", "4h"], ["Ac", "6s", "5s"]]}]},
     [
         acts("1", "s0 play 3c, s1 play 3s, s2 play Qh, s3 play Ac"),
         trick("1", 1, "tie"),
         to_play("1", 0),
         acts("2", "s0 play 5d, s1 play 2h, s2 play 4c, s3 play 6s"),
         trick("2", 2, 1, where="last_hand"),
         hand_over("2", 1, 1, "tricks", [0, 1]),
     ])

# R-09 Three ties: void hand, even after a truco -----------------------------------------------
_add("R-09", "Three ties: void hand, even after a truco",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "5c", "hands": [["3d", "2d", "Kc"], ["3h", "2h", "Kd"],
                                          ["4c", "4d", "Qs"], ["7c", "7d", "Js"]]}]},
     [
         acts("1", "s0 raise to 3, s1 accept"),
         eq("1", "hand.stake", 3),
         to_play("1", 0),
         acts("2", "s0 play 3d, s1 play 3h, s2 play 4c, s3 play 7c"),
         trick("2", 1, "tie"),
         to_play("2", 0),
         acts("3", "s0 play 2d, s1 play 2h, s2 play 4d, s3 play 7d"),
         trick("3", 2, "tie"),
         to_play("3", 0),
         acts("4", "s0 play Kc, s1 play Kd, s2 play Qs, s3 play Js"),
         trick("4", 3, "tie", where="last_hand"),
         hand_over("4", None, 0, "void", [0, 0]),  # nobody scores (void)
         new_hand("4", 0, leads=1),
     ])

# R-10 Truco accepted --------------------------------------------------------------------------
_add("R-10", "Truco accepted",
     _setup4(F1),
     [
         legal("1", 0, L("play 5c", "play 3h", "play 6c", "raise to 3")),
         legal("1", 1, NONE),
         acts("2", "s0 raise to 3"),
         eq("2", "hand.pending", {"kind": "raise", "by_seat": 0, "to": 3}),
         eq("2", "hand.to_act", [1, 3]),
         legal("2", 1, L("accept", "refuse", "raise to 6")),
         legal("2", 3, L("accept", "refuse", "raise to 6")),
         legal("2", 0, NONE),
         legal("2", 2, NONE),
         rej("3", "s0 play 5c", "raise_pending"),
         acts("4", "s1 accept"),
         eq("4", "hand.stake", 3),
         eq("4", "hand.pending", None),
         to_play("4", 0),
         legal("4", 0, L("play 5c", "play 3h", "play 6c")),
         acts("5", "s0 play 5c, s1 play 2c, s2 play Qd, s3 play Ah"),
         trick("5", 1, 0),
         to_play("5", 0),
         acts("6", "s0 play 3h, s1 play Kd, s2 play Js, s3 play Jc"),
         trick("6", 2, 0, where="last_hand"),
         hand_over("6", 0, 3, "tricks", [3, 0]),
     ])

# R-11 A refusal needs the whole team ----------------------------------------------------------
_add("R-11", "A refusal needs the whole team",
     _setup4(F1),
     [
         acts("1", "s0 raise to 3, s1 refuse"),
         eq("1", "hand.pending", {"kind": "raise", "by_seat": 0, "to": 3}),
         eq("1", "hand.to_act", [3]),
         legal("1", 1, NONE),
         legal("1", 3, L("accept", "refuse", "raise to 6")),
         acts("2", "s3 refuse"),
         hand_over("2", 0, 1, "raise_refused", [1, 0]),
         chk("2", "last_hand_play_count", count=0),  # no card was played
     ])
_add("R-11b", "A refusal needs the whole team (variant b)",
     _setup4(F1),
     [
         acts("b.1", "s0 raise to 3, s1 refuse, s3 accept"),
         eq("b.1", "hand.stake", 3),
         to_play("b.1", 0),
     ])

# R-12 The whole ladder, teams alternating -----------------------------------------------------
_add("R-12", "The whole ladder, teams alternating",
     _setup4(F1),
     [
         acts("1", "s0 raise to 3, s1 accept"),
         eq("1", "hand.stake", 3),
         acts("2", "s0 play 5c"),
         chk("2", "legal_includes", seat=1, action=parse_action("raise to 6")),
         acts("3", "s1 raise to 6, s2 accept"),
         eq("3", "hand.stake", 6),
         acts("4", "s1 play 2c"),
         chk("4", "legal_includes", seat=2, action=parse_action("raise to 9")),
         acts("5", "s2 raise to 9, s3 accept"),
         eq("5", "hand.stake", 9),
         acts("6", "s2 play Qd"),
         chk("6", "legal_includes", seat=3, action=parse_action("raise to 12")),
         acts("7", "s3 raise to 12, s0 accept"),
         eq("7", "hand.stake", 12),
         acts("8", "s3 play Ah"),
         trick("8", 1, 0),
         to_play("8", 0),
         chk("8", "legal_no_type", seat=0, type="raise"),
         acts("9", "s0 play 3h, s1 play Kd, s2 play Js, s3 play Jc"),
         trick("9", 2, 0, where="last_hand"),
         hand_over("9", 0, 12, "tricks", [12, 0]),
         match_over("9", 0),
     ])

# R-13 Calls only on your own turn, never twice in a row by one team ---------------------------
_add("R-13", "Calls only on your own turn, never twice in a row by one team",
     _setup4(F1),
     [
         rej("1", "s1 raise", "not_your_turn"),
         acts("2", "s0 raise to 3, s1 accept, s0 play 5c, s1 play 2c"),
         to_play("2", 2),
         legal("2", 2, L("play Qd", "play Js", "play 4s")),
         rej("3", "s2 raise", "raise_not_allowed"),  # team 0 made the last call
         acts("4", "s2 play Qd"),
         chk("4", "legal_includes", seat=3, action=parse_action("raise to 6")),
     ])

# R-14 Mão de onze: the team gives the hand up -------------------------------------------------
_add("R-14", "Mão de onze: the team gives the hand up",
     _setup4(F2, start_score=[11, 5]),
     [
         eq("1", "hand.special", "mao_de_onze"),
         eq("1", "hand.pending", {"kind": "mao_de_onze", "team": 0}),
         eq("1", "hand.stake", 1),
         eq("1", "hand.to_act", [0, 2]),
         legal("1", 0, ACCEPT_REFUSE),
         legal("1", 2, ACCEPT_REFUSE),
         legal("1", 1, NONE),
         legal("1", 3, NONE),
         eq("1", "hand.partner_cards", None, seats=[1]),
         eq("1", "hand.partner_cards", None, seats=[3]),
         eq("1", "hand.partner_cards", {"2": ["Qd", "Js", "4s"]}, seats=[0]),
         eq("1", "hand.partner_cards", {"0": ["3h", "Kc", "6c"]}, seats=[2]),
         rej("2", "s0 play 3h", "decision_pending"),
         acts("3", "s0 refuse"),
         eq("3", "hand.pending", {"kind": "mao_de_onze", "team": 0}),
         eq("3", "hand.to_act", [2]),
         acts("4", "s2 refuse"),
         hand_over("4", 1, 1, "mao_de_onze_refused", [11, 6]),
         chk("4", "last_hand_play_count", count=0),  # no card was played
         new_hand("4", 0, derived=True,
                  note="R-22: 'a given-up mão de onze (R-14) moves the deal the same way'"),
     ])

# R-15 Mão de onze played and won; nobody may raise --------------------------------------------
_add("R-15", "Mão de onze played and won; nobody may raise",
     _setup4(F2, start_score=[11, 5]),
     [
         acts("1", "s0 refuse, s2 accept"),
         eq("1", "hand.stake", 3),
         eq("1", "hand.pending", None),
         to_play("1", 0),
         legal("1", 0, L("play 3h", "play Kc", "play 6c")),
         rej("2", "s0 raise", "raise_not_allowed"),
         acts("3", "s0 play 3h"),
         to_play("3", 1),
         legal("3", 1, L("play 2c", "play Kd", "play 6d")),
         rej("4", "s1 raise", "raise_not_allowed"),
         acts("5", "s1 play 2c, s2 play Qd, s3 play Ah"),
         trick("5", 1, 0),
         to_play("5", 0),
         acts("6", "s0 play Kc, s1 play 6d, s2 play Js, s3 play Jc"),
         trick("6", 2, 0, where="last_hand"),
         hand_over("6", 0, 3, "tricks", [14, 5]),
         match_over("6", 0),
     ])

# R-16 Paulista mão de ferro (11 x 11) is blind ------------------------------------------------
_add("R-16", "Paulista mão de ferro (11 × 11) is blind",
     _setup4(F2, start_score=[11, 11]),
     [
         eq("1", "hand.special", "mao_de_ferro"),
         eq("1", "hand.pending", None),
         eq("1", "hand.stake", 1),
         eq("1", "hand.cards", [None, None, None], seats=[0]),
         eq("1", "hand.partner_cards", None, seats=[0]),
         legal("1", 0, L("play slot 0", "play slot 1", "play slot 2")),
         legal("1", 1, NONE),
         rej("2", "s0 play 3h", "slot_required"),
         rej("2", "s0 raise", "raise_not_allowed"),
         acts("3", "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0"),
         trick("3", 1, 0),
         to_play("3", 0),
         eq("3", "hand.cards", [None, None], seats=[0]),
         legal("3", 0, L("play slot 0", "play slot 1")),
         # 3h, 2c, Qd, Ah were turned up
         chk("3", "trick_plays", seat=0, where="hand", n=1,
             plays=plays((0, "3h", False), (1, "2c", False), (2, "Qd", False), (3, "Ah", False))),
         rej("4", "s0 play slot 0 face_down", "face_down_not_allowed"),
         acts("5", "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0"),
         trick("5", 2, "tie", where="last_hand"),
         hand_over("5", 0, 1, "tricks", [12, 11]),
         match_over("5", 0),
         # Kc, Kd, Js, Jc tie; team 0 won trick 1
         chk("5", "trick_plays", seat=0, where="last_hand", n=2,
             plays=plays((0, "Kc", False), (1, "Kd", False), (2, "Js", False), (3, "Jc", False))),
         trick("5", 1, 0, where="last_hand"),
     ])

# R-17 No face-down card in trick 1 ------------------------------------------------------------
_add("R-17", "No face-down card in trick 1",
     _setup4(F1),
     [
         legal("1", 0, L("play 5c", "play 3h", "play 6c", "raise to 3")),
         rej("2", "s0 play 6c face_down", "face_down_not_allowed"),
         acts("3", "s0 play 5c, s1 play 2c, s2 play Qd, s3 play Ah"),
         trick("3", 1, 0),
         legal("3", 0, L("play 3h", "play 6c", "play 3h face_down", "play 6c face_down",
                         "raise to 3")),
     ])

# R-18 A face-down card never wins and stays hidden --------------------------------------------
_add("R-18", "A face-down card never wins and stays hidden",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
      "deals": [{"vira": "Kd", "hands": [["Ac", "3c", "2d"], ["6d", "4h", "5c"],
                                          ["Qs", "Jh", "7d"], ["6s", "5h", "4c"]]}]},
     [
         acts("1", "s0 play Ac, s1 play 6d, s2 play Qs, s3 play 6s"),
         trick("1", 1, 0),
         to_play("1", 0),
         acts("2", "s0 play 3c face_down, s1 play 4h, s2 play Jh face_down"),
         chk("2", "trick_plays", seat=2, where="hand", n=2,
             plays=plays((0, None, True), (1, "4h", False), (2, "Jh", True))),
         chk("3", "trick_plays", seat=0, where="hand", n=2,
             plays=plays((0, "3c", True), (1, "4h", False), (2, None, True))),
         chk("3", "trick_plays", seat=1, where="hand", n=2,
             plays=plays((0, None, True), (1, "4h", False), (2, None, True)),
             derived=True, note="§9.3 shown only to the seat that played it"),
         chk("3", "trick_plays", seat=None, where="hand", n=2,
             plays=plays((0, None, True), (1, "4h", False), (2, None, True)),
             derived=True, note="§9.3 / API.md: a spectator never sees a card not face up"),
         acts("4", "s3 play 5h"),
         trick("4", 2, 1),
         to_play("4", 3),
         acts("5", "s3 play 4c, s0 play 2d, s1 play 5c, s2 play 7d"),
         trick("5", 3, 0, where="last_hand"),
         hand_over("5", 0, 1, "tricks", [1, 0]),
     ])

# R-19 Mineiro: plain 7s tie, the espadilha wins -----------------------------------------------
_add("R-19", "Mineiro: plain 7s tie, the espadilha wins",
     _setup4(F3, ruleset="mineiro"),
     [
         acts("1", "s0 play 7c, s1 play 7s, s2 play 4h, s3 play 5c"),
         trick("1", 1, "tie"),
         to_play("1", 0),
         acts("2", "s0 play As, s1 play 3c, s2 play Kd, s3 play Jd"),
         trick("2", 2, 0, where="last_hand"),
         hand_over("2", 0, 2, "tricks", [2, 0]),
     ])

# R-20 Mineiro refusal awards ------------------------------------------------------------------
_add("R-20", "Mineiro refusal awards",
     _setup4(F3, ruleset="mineiro"),
     [
         acts("1", "s0 raise to 4, s1 refuse, s3 refuse"),
         hand_over("1", 0, 2, "raise_refused", [2, 0]),
     ])
_add("R-20b", "Mineiro refusal awards (variant b)",
     _setup4(F3, ruleset="mineiro"),
     [
         acts("b.1", "s0 raise to 4, s1 raise to 6"),
         eq("b.1", "hand.stake", 4),
         eq("b.1", "hand.pending", {"kind": "raise", "by_seat": 1, "to": 6}),
         acts("b.2", "s0 raise to 10"),
         eq("b.2", "hand.stake", 6),
         eq("b.2", "hand.pending", {"kind": "raise", "by_seat": 0, "to": 10}),
         acts("b.3", "s3 raise to 12"),
         eq("b.3", "hand.stake", 10),
         eq("b.3", "hand.pending", {"kind": "raise", "by_seat": 3, "to": 12}),
         legal("b.3", 0, ACCEPT_REFUSE),
         legal("b.3", 2, ACCEPT_REFUSE),
         acts("b.4", "s0 refuse, s2 refuse"),
         hand_over("b.4", 1, 10, "raise_refused", [0, 10]),
     ])

# R-21 Six players: teams by parity, two ties --------------------------------------------------
_add("R-21", "Six players: teams by parity, two ties",
     {"players": 6, "ruleset": "paulista", "options": {"first_dealer": 5}, "deals": [_deal(F4)]},
     [
         acts("1", "s0 play 6c, s1 play 2c, s2 play Kd, s3 play Qh, s4 play 2s, s5 play Jc"),
         trick("1", 1, "tie"),
         to_play("1", 0),
         acts("2", "s0 play Ah, s1 play Kc, s2 play 3s, s3 play 3d, s4 play 7h, s5 play 6d"),
         trick("2", 2, "tie"),
         to_play("2", 0),
         acts("3", "s0 play 5h, s1 play 7c, s2 play Qc, s3 play 4c, s4 play Js, s5 play 4h"),
         trick("3", 3, 0, where="last_hand"),
         hand_over("3", 0, 1, "tricks", [1, 0]),
     ])

# R-22 The deal moves one seat every hand ------------------------------------------------------
# The score after each hand is not on the lines; it is the sum of the "+p" awards from [0, 0].
_add("R-22", "The deal moves one seat every hand",
     {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3}, "seed": 1},
     [
         new_hand("1", 3, leads=0, initial=True),
         acts("2", "s0 raise to 3, s1 refuse, s3 refuse"),
         hand_over("2", 0, 1, "raise_refused", [1, 0]),
         new_hand("2", 0, leads=1),
         acts("3", "s1 raise to 3, s2 refuse, s0 refuse"),
         hand_over("3", 1, 1, "raise_refused", [1, 1]),
         new_hand("3", 1, leads=2),
     ])
_add("R-22b", "The deal moves one seat every hand (variant b, 2 players)",
     {"players": 2, "ruleset": "paulista", "options": {"first_dealer": 1}, "seed": 1},
     [
         new_hand("b.1", 1, leads=0, initial=True),
         acts("b.2", "s0 raise to 3, s1 refuse"),
         hand_over("b.2", 0, 1, "raise_refused", [1, 0]),
         new_hand("b.2", 0, leads=1),
         acts("b.3", "s1 raise to 3, s0 refuse"),
         hand_over("b.3", 1, 1, "raise_refused", [1, 1]),
         new_hand("b.3", 1, leads=0),
     ])
_add("R-22c", "The deal moves one seat every hand (variant c, 6 players)",
     {"players": 6, "ruleset": "paulista", "options": {"first_dealer": 5}, "seed": 1},
     [
         new_hand("c.1", 5, leads=0, initial=True),
         acts("c.2", "s0 raise to 3, s1 refuse, s3 refuse, s5 refuse"),
         hand_over("c.2", 0, 1, "raise_refused", [1, 0]),
         new_hand("c.2", 0, leads=1),
         acts("c.3", "s1 raise to 3, s0 refuse, s2 refuse, s4 refuse"),
         hand_over("c.3", 1, 1, "raise_refused", [1, 1]),
         new_hand("c.3", 1, leads=2),
     ])

# R-23 Passing 12 ends the match ---------------------------------------------------------------
_add("R-23", "Passing 12 ends the match",
     _setup4(F1, start_score=[10, 4]),
     [
         acts("1", "s0 raise to 3, s1 accept, s0 play 5c, s1 play 2c, s2 play Qd, s3 play Ah"),
         acts("2", "s0 play 3h, s1 play Kd, s2 play Js, s3 play Jc"),
         hand_over("2", 0, 3, "tricks", [13, 4]),  # the raw score 13 is kept
         match_over("2", 0),
         rej("3", "s1 play 2c", "match_not_active"),  # HTTP 409
     ])


BY_ID: dict[str, Scenario] = {s.id: s for s in SCENARIOS}

EXPECTED_IDS = [
    "R-01", "R-02", "R-03", "R-04", "R-05", "R-06", "R-07", "R-08", "R-09", "R-10",
    "R-11", "R-11b", "R-12", "R-13", "R-14", "R-15", "R-16", "R-17", "R-18", "R-19",
    "R-20", "R-20b", "R-21", "R-22", "R-22b", "R-22c", "R-23",
]
assert [s.id for s in SCENARIOS] == EXPECTED_IDS, [s.id for s in SCENARIOS]
