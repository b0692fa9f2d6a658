// The table: a match's view drawn as a card table, kept current from its stream. Others'
// moves are shown one at a time; every control comes from `legal_actions`.

import * as api from "./api.js";
import { cardElement, cardName } from "./cards.js";
import { delivery, Stopped } from "./delivery.js";
import { announce, h, sentBy, showError } from "./dom.js";
import { creationProblem } from "./home.js";
import { t } from "./i18n.js";
import { ratingChanges } from "./ratingchanges.js";
import { reachLine } from "./reach.js";
import { reviewPanel } from "./review.js";
import { waitingRoom } from "./waiting.js";
import { actionHint, actionLabel, callWord, describe, seatName, sideOf, specialName, teamName }
  from "./words.js";

const PLACES = {
  2: ["bottom", "top"],
  4: ["bottom", "right", "top", "left"],
  6: ["bottom", "bottom-right", "top-right", "top", "top-left", "bottom-left"],
};
const STEP_MS = 700;
const FRESH_MS = 400; // a control that just appeared takes no press for this long
const BRIEF_MS = 250;
const SLOW_MS = 600; // an action not answered by then is said to be on its way
const RESULTS = new Set(["trick_won", "trick_tied", "hand_won", "match_won"]);
const TALK_KEPT = 30; // lines of table talk brought back when a table is opened
const REFUSALS = { // an action refused: what the player is told (the table is read again)
  illegal_action: "tooLate", version_mismatch: "tooLate", match_not_active: "notInPlay",
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** An action refused, as a player is told it (the server's detail is for developers). */
const refusalWords = (error) => (REFUSALS[error.code] ? t(REFUSALS[error.code]) : error.message);
/** The link back to all matches, at the head of the table. */
const backLink = () => h("a", { href: "#/", "data-focus": "back" }, `← ${t("back")}`);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1); // (a line of talk)
const FORFEIT_AFTER = 3; // turns in a row the clock plays for a seat before its side loses

/** Whether `view`'s match is over (finished or cancelled): its hand is not played any more. */
function over(view) {
  return view.status === "finished" || view.status === "cancelled";
}

/** The hand of `view` as far as it was played: null once the match is over before any card of
 * it was played (a resignation, a forfeit between hands: a hand dealt but never played). */
function playedHand(view) {
  const hand = view.hand;
  if (!hand || !over(view)) return hand;
  return hand.tricks.some((tr) => tr.plays.length) ? hand : null;
}

/** Where I sit: my seat, else the seat reserved for me (an invitation is seen from it), else
 * seat 0 (a spectator). */
function mySeat(view) {
  if (view.you) return view.you.seat;
  const me = api.token() ? api.me() : null;
  const held = me && view.seats.find((s) => s.invited && s.player && s.player.id === me.id);
  return held ? held.seat : 0;
}

/** "us" or "them": a team's colour follows who looks (a spectator's "us" is team 0), so that
 * my side keeps its colour when a rematch seats me in the other team. */
function side(view, team) {
  return team === (view.you ? view.you.team : mySeat(view) % 2) ? "us" : "them";
}

function actionButton(action, text, attrs = {}) {
  return h("button", { type: "button", class: "action", "data-action": JSON.stringify(action),
    ...attrs }, text);
}

/** `trick` (the last of `view`'s hand) is `done` (its number) when it is over and the next one
 * has no card yet: its cards stay on the felt, dimmed and captioned, until one is played. */
function seatBox(view, seat, trick, done = null) {
  const info = view.seats[seat];
  const place = PLACES[view.players][(seat - mySeat(view) + view.players) % view.players];
  const toAct = view.status === "active" && view.hand && view.hand.to_act.includes(seat);
  const play = trick ? trick.plays.find((p) => p.seat === seat) : null;
  const partners = view.hand && view.hand.partner_cards && !over(view)
    ? view.hand.partner_cards[seat] : null;
  const mine = view.you && view.you.seat === seat;
  // (a replay shows every seat's cards: hand.hands, which only replays carry)
  const open = view.hand && view.hand.hands && !over(view) ? view.hand.hands[seat] : null;
  const backs = mine || over(view) ? [] : open ? open.map((c) => cardElement(c, { small: true }))
    : Array.from({ length: info.cards_in_hand }, () =>
      cardElement(null, { small: true, label: t("hidden") }));
  // with partners, mine said in words (not by colour only)
  const partner = view.players > 2 && !!view.you && !mine && seat % 2 === view.you.seat % 2;
  const level = info.bot_level ? t("levels")[info.bot_level] || info.bot_level : null;
  const tag = [level, partner ? t("partner") : null].filter(Boolean).join(" · ");
  // (a seat reserved for a player who has not accepted yet says so)
  const name = info.invited ? `${seatName(view, seat)} (${t("invited")})` : seatName(view, seat);
  return h("div", { class: `seat place-${place} team-${seat % 2} ${side(view, seat % 2)}${toAct ? " to-act" : ""}`,
    "data-seat": seat,
    "aria-label": `${name}${partner ? `, ${t("partner")}` : ""}${toAct ? `, ${t("toAct")}` : ""}` },
  h("div", { class: "who" },
    h("div", { class: "name" }, name,
      toAct && h("span", { class: "turn-dot", "aria-hidden": "true" }, " ●")),
    tag ? h("div", { class: "level" }, tag) : null,
    partners ? h("div", { class: "partner-cards", "aria-label": t("partnerCards") },
      partners.map((c) => cardElement(c, { small: true })))
      : mine ? null : h("div", { class: open ? "backs open" : "backs" }, backs)),
  h("div", { class: done && play ? "played previous" : "played" }, play ? playedCard(play) : null,
    done && play ? h("span", { class: "trick-caption" }, t("trickDone")(done)) : null));
}

function playedCard(play, small = false, who = null) {
  // a card on the table; one's own face-down card shows its face, marked as played face down
  const name = play.card ? cardName(play.card) : "";
  const label = play.card && play.face_down ? `${name} (${t("faceDown")})`
    : play.card ? name : t("faceDown");
  const card = cardElement(play.card, { small, label: who ? `${who}: ${label}` : label });
  if (!play.card || !play.face_down) return card;
  card.classList.add("covered");
  return small ? card : h("div", { class: "covered-play" }, card,
    h("span", { class: "covered-note", "aria-hidden": "true" }, t("faceDown")));
}

let rulesetsRead = null; // GET /v1/rulesets, read once: what a mão de onze is worth

function rulesets() {
  rulesetsRead = rulesetsRead || api.call("GET", "/v1/rulesets").catch(() => {
    rulesetsRead = null; // (asked again next time; the table does without meanwhile)
    return null;
  });
  return rulesetsRead;
}

/** The points a mão de onze of `view`'s ruleset is played for (null: not known). */
function elevenStake(view, known) {
  const ruleset = known && known.items.find((r) => r.name === view.ruleset);
  return ruleset && ruleset.mao_de_onze_stake ? ruleset.mao_de_onze_stake : null;
}

function center(view, known = null) {
  // once the match is over, only what was played of its hand stays: no question, no label
  const hand = playedHand(view);
  if (!hand) return h("div", { class: "center" });
  const tricks = hand.tricks.filter((tr) => tr.winner_team !== null || tr.tie);
  const pending = over(view) ? null : hand.pending;
  const mine = view.you ? view.you.team : null;
  let question = null;
  if (pending && pending.kind === "raise") {
    const word = callWord(view.ruleset, pending.to);
    question = view.you && pending.by_seat === view.you.seat ? `${t("youCall")} ${word}`
      : `${seatName(view, pending.by_seat)} ${t("calledBy")} ${word}`;
  } else if (pending && pending.kind === "mao_de_onze") {
    // the special hand named once: in the question while it is asked, as a label after
    const stake = elevenStake(view, known);
    const ask = stake ? t("pending11For")(stake) : t("pending11"); // (the hand is worth more
    const who = mine === null ? `${teamName(view, pending.team)}: ${ask}` // once played)
      : pending.team === mine ? ask : t("pending11Theirs");
    question = `${specialName(view)}: ${who}`;
  }
  return h("div", { class: "center" },
    hand.vira ? h("div", { class: "vira" }, h("span", { class: "label" }, t("vira")),
      cardElement(hand.vira, { label: `${t("vira")}: ${cardName(hand.vira)}` })) : null,
    h("div", { class: "manilhas" }, h("span", { class: "label" }, t("manilhas")),
      h("span", { class: "list" }, hand.manilhas.map((c) => cardElement(c, { small: true })))),
    h("ol", { class: "tricks", "aria-label": t("trick") }, tricks.map((tr, i) => h("li", {
      class: `trick-mark ${tr.tie ? "tie" : `team-${tr.winner_team} ${side(view, tr.winner_team)}`}` },
    `${i + 1}: ${tr.tie ? t("tie") : teamName(view, tr.winner_team)}`))),
    hand.special && !over(view) && !(pending && pending.kind === "mao_de_onze")
      ? h("div", { class: "special" }, specialName(view)) : null,
    // (the question's line is kept when nothing is asked: a question that comes does not make
    // the felt taller and push the cards under a finger down, answers in their place)
    over(view) ? null : h("div", { class: "question-slot" },
      question ? h("div", { class: "question", role: "status" }, question) : null));
}

function scoreboard(view, deadline, known = null) {
  const mine = view.you ? view.you.team : mySeat(view) % 2; // (an invitee: their side first)
  // while a mão de onze is asked, the hand is worth what the question says (hand.stake says
  // 1 until it is played)
  const pending = view.hand && view.hand.pending;
  const stake = pending && pending.kind === "mao_de_onze"
    ? elevenStake(view, known) || view.hand.stake : view.hand && view.hand.stake;
  const other = 1 - mine;
  return h("header", { class: "scoreboard" },
    h("div", { class: "teams" },
      h("span", { class: `team team-${mine} us` }, `${teamName(view, mine)} `,
        h("strong", { "data-testid": "score-us" }, view.score[mine])),
      h("span", { class: "versus", "aria-hidden": "true" }, "×"),
      h("span", { class: `team team-${other} them` }, h("strong", { "data-testid": "score-them" },
        view.score[other]), ` ${teamName(view, other)}`)),
    view.rules && view.rules.games_to_win > 1
      ? h("span", {}, `${t("games")} ${view.games[mine]}–${view.games[other]}`) : null,
    view.hand && !over(view) ? h("span", { class: "stake" }, `${t("stake")} ${stake}`) : null,
    deadline);
}

function handRow(view, live) {
  const actions = live ? view.legal_actions : [];
  const plays = actions.filter((a) => a.type === "play");
  const cards = view.hand && view.hand.cards ? view.hand.cards : [];
  const items = cards.map((code, slot) => {
    const up = plays.find((a) => !a.face_down && (code ? a.card === code : a.slot === slot));
    const down = plays.find((a) => a.face_down && a.card === code && code);
    const name = code ? cardName(code) : `${t("slot")} ${slot + 1} (${t("hidden")})`;
    const face = up
      ? cardElement(code, { tag: "button", label: name })
      : cardElement(code, { label: name });
    if (up) {
      face.type = "button";
      face.classList.add("playable");
      face.dataset.action = JSON.stringify(up);
    }
    return h("div", { class: "hand-card" }, face,
      down ? actionButton(down, t("playFaceDown"), { class: "action face-down",
        "aria-label": `${t("playFaceDown")}: ${name}`, title: t("faceDownHint"),
        "aria-describedby": "face-down-hint" }) : null);
  });
  // what playing face down means, said once for every Face down button's description
  const hint = plays.some((a) => a.face_down)
    ? h("span", { id: "face-down-hint", class: "offscreen" }, t("faceDownHint")) : null;
  return h("div", { class: "hand", role: "group", "aria-label": t("yourCards") }, items, hint);
}

function controls(view, live) {
  const others = (live ? view.legal_actions : []).filter((a) => a.type !== "play");
  return h("div", { class: "controls", role: "group" },
    others.map((a) => {
      // the table's Portuguese word, and in English what it means on a second line
      const hint = actionHint(view, a);
      return actionButton(a, hint ? [h("span", { class: "word" }, actionLabel(view, a)),
        h("span", { class: "hint" }, hint)] : actionLabel(view, a), {
        class: `action ${a.type}${hint ? " hinted" : ""}` });
    }));
}

function calls(view) {
  const list = (view.hand && view.hand.calls) ?? [];
  if (!list.length) return null;
  return h("div", { class: "calls" }, h("h3", {}, t("calls")), h("ol", {}, list.map((c) =>
    h("li", {}, `${seatName(view, c.seat)}: ${c.action === "raise" ? callWord(view.ruleset, c.to)
      : c.action === "accept" ? (c.kind === "mao_de_onze" ? "Jogo" : "Desce") : "Corro"}`))));
}

function lastHand(view) {
  const last = view.last_hand;
  if (!last) return null;
  const reason = t("reasons")[last.reason] || last.reason;
  const said = last.winner_team === null ? null : t("handEnds")[last.reason];
  const gain = last.winner_team === null ? null : `${teamName(view, last.winner_team)} ` +
    `+${last.points} ${t(last.points === 1 ? "point" : "points")}`;
  return h("div", { class: "last-hand", "data-testid": "last-hand" },
    h("h3", {}, t("lastHand")(last.number)),
    h("p", {}, last.winner_team === null ? reason // who won it, how, and what for
      : said ? `${said(sideOf(view, last.winner_team), sideOf(view, 1 - last.winner_team))}: ${gain}`
        : `${gain} (${reason})`),
    h("ol", { class: "last-tricks" }, last.tricks.map((tr, i) => h("li", { class: "last-trick" },
      h("span", { class: "trick-no" }, `${t("trickDone")(i + 1)}:`),
      tr.plays.map((p) => {
        const who = seatName(view, p.seat);
        return h("span", { class: "last-play" }, playedCard(p, true, who),
          h("span", { class: "by", "aria-hidden": "true" }, who));
      }),
      tr.winner_team !== null || tr.tie ? h("span", { class: "took" },
        `→ ${tr.tie ? t("tie") : teamName(view, tr.winner_team)}`) : null))));
}

function fairness(view) {
  const f = view.fairness;
  if (!f) return null;
  return h("details", { class: "fairness" }, h("summary", {}, t("fairness")),
    h("p", {}, `${t("commitment")}: `, h("code", {}, f.commitment)),
    f.secret ? h("p", {}, `${t("secret")}: `, h("code", {}, f.secret)) : null);
}

/** Said while the clock has played my last turns for me (on_timeout auto_play): how many in
 * a row, and that at FORFEIT_AFTER my side loses the match. */
function clockWarning(view) {
  if (!view.you || view.status !== "active" || view.on_timeout !== "auto_play") return null;
  const row = view.seats[view.you.seat].timeouts_in_row;
  return row > 0 ? h("p", { class: "clock-warning", role: "status", "data-testid": "clock-warning" },
    t("clockWarning")(row, FORFEIT_AFTER)) : null;
}

/** The table screen for match `matchId`; `go(hash)` navigates. Returns `{node, close}`. */
export function tableScreen(matchId, go) {
  const node = h("section", { class: "table-screen", "data-testid": "table",
    "data-match-id": matchId, "data-status": "waiting", "data-version": "0" });
  // (newest first: a list, not numbered)
  const log = h("ul", { class: "log", "aria-label": t("log") });
  let shown = null; // what is drawn
  let shownLive = false; // whether `shown` is a view as received (not a card patched in, a replay)
  let current = null; // the newest view received
  let sending = false; // an action on its way: no other goes until it is answered
  let delivering = null; // its delivery (js/delivery.js), which the player may stop
  let sendNote = null; // what the felt says of it meanwhile: "sending", "sendingOffline"
  let closed = false; // the screen left
  let resignAsked = false; // "Resign…" pressed: the question stands until it is answered
  let logOpen = false; // the table talk stays open (or closed) from one drawing to the next
  let blurred = null; // the control that had the focus when sending disabled it
  let known = null; // GET /v1/rulesets, read before the first view is drawn
  const changes = ratingChanges(matchId, () => known); // under a finished match's result
  // under it too, for a player; "See it" opens the replay at a mistake, its sentence kept
  const review = reviewPanel(matchId, (step, mistake) => replay(step, false, mistake));
  let pressed = null; // the control a pointer went down on: {action, el}
  let sentByPointer = null; // {action, at}: the click that follows that press sends nothing
  let drawnActions = new Set(); // the actions the last drawing offered
  let fresh = new Set(); // those that had just appeared there: no press takes them yet
  let freshTimer = null;
  let replayEvents = null; // the finished match's event log by seq, once a replay read it
  const queue = [];
  let draining = false;
  let ticker = null;
  // a waiting match: the link to share, an invitation to answer, a seat to take (the view
  // answered to an acceptance or a seat taken is drawn as an action's answer is)
  const waitingPanel = waitingRoom(matchId, go, (view) => {
    current = view;
    if (view.version > Number(node.dataset.version)) render(view);
  });

  function deadlineNode(view) {
    if (!view.deadline || view.status !== "active") return null;
    const el = h("span", { class: "deadline", "data-testid": "deadline" });
    const due = Date.parse(view.deadline);
    const tick = () => {
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      const m = Math.floor(left / 60);
      el.textContent = `${t("deadline")} ${m >= 60 ? `${Math.floor(m / 60)} h ` : ""}` +
        `${m % 60}:${String(left % 60).padStart(2, "0")}`;
    };
    tick();
    clearInterval(ticker);
    ticker = setInterval(tick, 1000);
    return el;
  }

  function finishedBanner(view) {
    if (view.status !== "finished" && view.status !== "cancelled") return null;
    const mine = view.you ? view.you.team : null;
    const headline = mine === null || view.winner_team === null ? t("over")
      : view.winner_team === mine ? t("won") : t("lost");
    const said = view.winner_team === null ? null : t("matchEnds")[view.end_reason];
    const reason = !view.end_reason ? null : said // who resigned, ran out of time, reached 12
      ? said(sideOf(view, view.winner_team, true), sideOf(view, 1 - view.winner_team, true))
      : t("reasons")[view.end_reason] || view.end_reason;
    const buttons = [];
    if ("rematch_id" in view && view.you) {
      buttons.push(view.rematch_id
        ? h("a", { class: "button", href: `#/match/${view.rematch_id}`, "data-focus": "rematch" },
          t("rematch"))
        : h("button", { type: "button", "data-testid": "rematch", "data-focus": "rematch",
          onclick: (e) => sentBy(e.currentTarget, async () => {
            try {
              const next = await api.call("POST", `/v1/matches/${view.id}/rematch`);
              go(`#/match/${next.id}`);
              return true;
            } catch (error) {
              showError(creationProblem(error) || error.message);
              return false;
            }
          }, t("pressedSlow")) }, t("rematch")));
    }
    if ("end_reason" in view && view.status === "finished") {  // (served beside end_reason)
      buttons.push(h("button", { type: "button", "data-testid": "replay", "data-focus": "replay",
        onclick: () => replay(0, true) }, t("replay")));
    }
    return h("div", { class: "finished", "data-testid": "result", role: "status" },
      h("h2", {}, headline),
      h("p", {}, `${teamName(view, mine ?? 0)} ${view.score[mine ?? 0]} × ` +
        `${view.score[1 - (mine ?? 0)]} ${teamName(view, 1 - (mine ?? 0))}`),
      reason ? h("p", { "data-testid": "end-reason" }, `${t("endedBy")}: ${reason}`) : null,
      view.status === "finished" ? (changes.start(), changes.node) : null,
      buttons.length ? h("div", { class: "buttons" }, buttons) : null,
      (review.show(view), review.node),
      fairness(view));
  }

  function resignControl(view) {
    // a seated player may give up an active match: asked first, in place
    if (!view || !view.you || view.status !== "active") return null;
    const again = (focus) => {
      if (shown) draw(shown, shownLive);
      const el = node.querySelector(`[data-testid=${focus}]`);
      if (el) el.focus({ preventScroll: true });
    };
    if (!resignAsked) {
      return h("button", { type: "button", class: "resign", "data-testid": "resign",
        "data-focus": "resign", onclick: () => { resignAsked = true; again("resign-cancel"); } },
      t("resign"));
    }
    return h("span", { class: "resign-ask", role: "group", "aria-label": t("resignAsk") },
      h("span", {}, t("resignAsk")),
      h("button", { type: "button", class: "resign-yes", "data-testid": "resign-confirm",
        onclick: (e) => sentBy(e.currentTarget, resign, t("pressedSlow")) }, t("resignYes")),
      h("button", { type: "button", "data-testid": "resign-cancel", "data-focus": "resign",
        onclick: () => { resignAsked = false; again("resign"); } }, t("resignNo")));
  }

  async function resign() {
    // (done with either way: the table is drawn again, the question gone; a view drawn while
    // the answer comes shows Resign… again, not the question, so it is not sent twice)
    resignAsked = false;
    try {
      const view = await api.call("POST", `/v1/matches/${matchId}/resign`);
      current = view;
      if (view.version > Number(node.dataset.version)) render(view);
    } catch (error) {
      showError(refusalWords(error));
      if (shown) draw(shown, shownLive);
    }
    return true;
  }

  function draw(view, live, extra = null) {
    const focused = node.contains(document.activeElement) ? document.activeElement : blurred;
    blurred = null;
    const trick = view.hand ? view.hand.tricks[view.hand.tricks.length - 1] : null;
    const done = trick && (trick.winner_team !== null || trick.tie) && !over(view)
      ? view.hand.tricks.length : null;
    const waiting = live ? waitingPanel(view) : null; // (in place of "You are watching")
    const felt = h("div", { class: `felt players-${view.players}${over(view) ? " over" : ""}` },
      view.seats.map((s) => seatBox(view, s.seat, trick, done)), center(view, known),
      live ? noteNode() : null);
    node.replaceChildren(...[
      h("nav", { class: "top" }, backLink(),
        extra ? null : resignControl(current)), // (not in a replay; between cards too)
      finishedBanner(view), // (above the table: in sight when the match ends)
      waiting, // (above it too; not in a replay of the match's first steps)
      // the replay bar and the spectator's note above the scoreboard, which stays on the felt
      extra,
      !view.you && !waiting ? h("p", { class: "note" }, t("spectator")) : null,
      scoreboard(view, deadlineNode(view), known),
      felt,
      live ? clockWarning(view) : null,
      over(view) ? null : controls(view, live),
      view.you && !over(view) ? handRow(view, live) : null, // (no hand to play once over)
      h("aside", { class: "side" }, lastHand(view), calls(view),
        h("details", { class: "log-box", open: logOpen,
          ontoggle: (e) => { logOpen = e.currentTarget.open; } }, h("summary", { "data-focus": "log" }, t("log")), log)),
    ].filter(Boolean));
    guardFresh();
    if (focused && !focused.isConnected) refocus(focused);
  }

  function guardFresh() {
    // a control that was not there a moment ago (Desce, Corro and Seis! when a truco comes)
    // takes no press for FRESH_MS: a tap meant for what was under the finger before is lost,
    // not turned into an answer; the same control drawn again stays as it was
    const offered = new Set([...node.querySelectorAll("[data-action]")]
      .map((b) => b.dataset.action));
    const appeared = [...offered].filter((a) => !drawnActions.has(a));
    drawnActions = offered;
    holdBack(appeared);
  }

  function holdBack(actions) {
    // `actions` take no press (nor Enter) for FRESH_MS; data-fresh marks their controls
    if (!actions.length) return;
    fresh = new Set([...fresh, ...actions]);
    clearTimeout(freshTimer);
    freshTimer = setTimeout(() => {
      fresh = new Set();
      node.querySelectorAll("[data-fresh]").forEach((b) => b.removeAttribute("data-fresh"));
    }, FRESH_MS);
    node.querySelectorAll("[data-action]").forEach((b) => {
      if (fresh.has(b.dataset.action)) b.dataset.fresh = "";
    });
  }

  function refocus(lost) {
    // the focus stays where it was when a redraw takes its element: on the same control (the
    // same action, the same card) or the element of the same role (data-focus: the table
    // talk's summary, Replay...) when it is still there; else on the first control offered
    // (Truco!, Desce..., else my first card I may play), else on the table talk's summary:
    // always on something a key acts on, never on a bare box. A control the focus falls
    // back to was not chosen: like one that just appeared, it takes no Enter for a moment
    // (a second press meant for the control gone does not act on it)
    const find = (selector) => [...node.querySelectorAll(selector)].find((el) => !el.disabled);
    const same = lost.dataset.action ? [...node.querySelectorAll("[data-action]")]
      .find((b) => !b.disabled && b.dataset.action === lost.dataset.action)
      : lost.dataset.focus ? find(`[data-focus="${CSS.escape(lost.dataset.focus)}"]`) : null;
    const target = same || find("[data-action]") || find("[data-focus=log]");
    if (!target) return;
    if (!same && target.dataset.action) holdBack([target.dataset.action]);
    target.focus({ preventScroll: true });
  }

  function render(view, live = true) {
    node.classList.remove("replaying");
    shown = view;
    shownLive = live;
    draw(view, live);
    if (live) {
      node.dataset.status = view.status;
      node.dataset.version = String(view.version);
    }
  }

  async function replayLog() {
    // the finished match's events by seq, read once when its replay opens (step N is the
    // table after event N): each step's caption; none when the log cannot be read
    if (replayEvents) return replayEvents;
    const events = new Map();
    try {
      for (let after = 0; ;) {
        const page = await api.call("GET", `/v1/matches/${matchId}/events?after=${after}&limit=500`);
        if (!page.items.length) break;
        for (const event of page.items) events.set(event.seq, event);
        if (page.next_after === after) break;
        after = page.next_after;
      }
    } catch { return events; } // (not kept: the next step tries again)
    replayEvents = events;
    return events;
  }

  /** The replay's table at `step`; with `toDeal`, the first step from there with cards dealt
   * (a replay opens on the first deal, not on the empty table before it); `mistake`, the
   * review's sentence on the move at that step ("See it"), said under the bar until another
   * step is shown or the replay closes. */
  async function replay(step, toDeal = false, mistake = null) {
    try {
      const [page, events] = await Promise.all([
        api.call("GET", `/v1/matches/${matchId}/replay?step=${step}`), replayLog()]);
      if (toDeal && !page.view.hand && page.step < page.steps) return replay(page.step + 1, true);
      // the first steps come before anyone sat down: the seats named as the match has them
      const view = page.view;
      const seated = current ? current.seats : [];
      view.seats = view.seats.map((s, i) => (s.player || s.bot_level || !seated[i] ? s
        : { ...s, player: seated[i].player, bot_level: seated[i].bot_level, invited: false }));
      // what happened at this step: its event's sentence, else its type in plain words
      const event = events.get(page.step);
      const said = event ? describe(view, event) || event.type.replaceAll("_", " ") : null;
      const bar = h("div", { class: "replay-bar", role: "group", "aria-label": t("replay") },
        h("strong", { class: "replay-label" }, t("replayLabel")),
        h("button", { type: "button", disabled: page.step <= 0, "data-focus": "prev",
          onclick: () => replay(page.step - 1) }, t("prev")),
        h("span", { class: "replay-step", "data-testid": "replay-step", "aria-live": "polite" },
          `${t("step")} ${page.step} / ${page.steps}${said ? ` · ${said}` : ""}`),
        h("button", { type: "button", disabled: page.step >= page.steps, "data-focus": "next",
          onclick: () => replay(page.step + 1) }, t("next")),
        h("button", { type: "button", "aria-label": t("closeReplay"), title: t("closeReplay"),
          "data-focus": "close-replay", onclick: () => render(current) }, "×"),
        mistake ? h("p", { class: "replay-review", "data-testid": "replay-review" },
          h("strong", {}, `${t("reviewNote")}: `), mistake) : null);
      node.classList.add("replaying");
      draw(view, false, bar);
    } catch (error) { showError(error.message); }
  }

  function patchPlay(event) {
    // a card falling on the table shown before the view that follows it
    const view = structuredClone(shown);
    const hand = view.hand;
    if (!hand) return;
    let trick = hand.tricks[hand.tricks.length - 1];
    if (!trick || trick.plays.length >= view.players || trick.winner_team !== null || trick.tie) {
      trick = { plays: [], winner_team: null, tie: false };
      hand.tricks.push(trick);
    }
    trick.plays.push({ seat: event.seat, card: event.card, face_down: event.face_down });
    view.seats[event.seat].cards_in_hand = Math.max(0, view.seats[event.seat].cards_in_hand - 1);
    hand.to_act = [];
    shown = view;
    shownLive = false;
    draw(view, false);
  }

  function flash(text) {
    // a trick's or a hand's result, over the table until the next drawing
    const felt = node.querySelector(".felt");
    if (felt) felt.append(h("div", { class: "flash", "aria-hidden": "true" }, text));
  }

  async function recall(view) {
    // the table talk of before this page opened (a reload, a return): the log's last lines
    // up to `view`, below whatever the stream has added since
    const said = [];
    try {
      for (let after = 0; ;) {
        const page = await api.call("GET", `/v1/matches/${matchId}/events?after=${after}&limit=500`);
        for (const event of page.items) {
          if (event.version > view.version) continue;
          const text = describe(view, event);
          if (text) said.push(text);
        }
        if (page.items.length < 500) break;
        after = page.next_after;
      }
    } catch { return; } // the log is a courtesy: the table itself is whole without it
    said.slice(-TALK_KEPT).reverse().forEach((text) => log.append(h("li", {}, capital(text))));
  }

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length) {
        const message = queue.shift();
        const body = JSON.parse(message.data);
        if (message.event === "view") {
          if (!current) {
            recall(body);
            // (not long: the table is drawn without the points rather than late)
            known = await Promise.race([rulesets(), sleep(1500).then(() => null)]);
            if (!known) rulesets().then((read) => { known = read; }); // (for the next views)
          }
          current = body;
          // (the view already drawn, e.g. an action's answer that the stream repeats, is not
          // drawn again: a redraw under a finger about to tap is a tap at risk)
          const same = shown && shownLive && body.version === shown.version
            && body.status === shown.status;
          if (!shown || (!same && (body.version >= shown.version
              || body.status !== shown.status))) {
            render(body);
          }
          continue;
        }
        if (message.event !== "event" || !shown) continue;
        const text = describe(shown, body);
        if (text) {
          const line = capital(text);
          log.prepend(h("li", {}, line));
          announce(line);
        }
        const news = body.version > Number(node.dataset.version);
        const hurry = queue.length > 12;
        const theirs = !shown.you || body.seat !== shown.you.seat;
        if (news && body.type === "card_played" && theirs) {
          patchPlay(body);
          if (!hurry) await sleep(STEP_MS);
        } else if (news && text && !hurry && RESULTS.has(body.type)) {
          flash(text);
          await sleep(STEP_MS);
        } else if (news && text && !hurry && body.type !== "hand_dealt") {
          await sleep(BRIEF_MS);
        }
      }
    } finally {
      draining = false;
    }
  }

  function noteNode() {
    // an action on its way: said on the felt once it takes long, and while the server is out
    // of reach (then with a way to stop it: the controls come back)
    if (!sendNote) return null;
    return h("div", { class: "sending", "data-testid": "sending" },
      h("span", { role: "status" }, t(sendNote)),
      sendNote === "sendingOffline" ? h("button", { type: "button", "data-testid": "stop-sending",
        onclick: () => delivering && delivering.stop() }, t("stopSending")) : null);
  }

  function say(note) {
    sendNote = note;
    const was = node.querySelector("[data-testid=sending]");
    const now = noteNode();
    if (was && now) was.replaceWith(now);
    else if (was) was.remove();
    else if (now && shownLive) node.querySelector(".felt")?.append(now);
  }

  async function send(raw) {
    // one action at a time: a second tap, or a tap on a control redrawn meanwhile, sends
    // nothing while the first is on its way
    if (sending) return;
    sending = true;
    showError("");
    if (node.contains(document.activeElement)) blurred = document.activeElement;
    node.querySelectorAll("[data-action]").forEach((b) => { b.disabled = true; });
    const key = crypto.randomUUID(); // (every try of this action: it is applied once)
    const slow = setTimeout(() => { if (!sendNote) say("sending"); }, SLOW_MS);
    delivering = delivery(
      (tag) => api.call("POST", `/v1/matches/${matchId}/actions`, JSON.parse(raw),
        { "Idempotency-Key": key, ...(tag ? { "If-Match": tag } : {}) }),
      () => api.getTagged(`/v1/matches/${matchId}`),
      Number(node.dataset.version), () => {
        clearTimeout(slow);
        say("sendingOffline");
      });
    try {
      let view = null;
      let refused = null;
      try {
        view = await delivering.done;
      } catch (error) {
        refused = error;
      }
      clearTimeout(slow);
      delivering = null;
      say(null);
      if (closed) return;
      if (view) {
        current = view;
        if (view.version > Number(node.dataset.version)) render(view);
      } else if (refused instanceof Stopped) {
        if (shown && shownLive) render(shown); // the controls again, to choose anew
      } else {
        showError(refusalWords(refused));
        try {
          render(await api.call("GET", `/v1/matches/${matchId}`));
        } catch {
          if (shown && shownLive) render(shown); // the controls again, to try once more
        }
      }
    } finally {
      sending = false;
      // (the answer already drawn from the stream: the focus the disabled control lost)
      if (blurred && !blurred.isConnected && document.activeElement === document.body) {
        refocus(blurred);
      }
      blurred = null;
    }
  }

  // Controls are pressed by delegation, keyed by their data-action. A view can come between
  // a press (pointerdown) and its release: the table is redrawn under the finger, and the
  // browser sends no click to a control that is no longer the one pressed. So a release on a
  // control with the same action as the one pressed (the same control, redrawn) sends it, and
  // the click that may follow that release sends nothing more.
  node.addEventListener("pointerdown", (e) => {
    const button = e.isPrimary && e.button === 0 ? e.target.closest("[data-action]") : null;
    pressed = button && !button.disabled && !fresh.has(button.dataset.action)
      ? { action: button.dataset.action, el: button } : null;
  });
  node.addEventListener("pointercancel", () => { pressed = null; }); // (a touch that scrolled)
  node.addEventListener("pointerup", (e) => {
    const was = pressed;
    pressed = null;
    if (!was || was.el.isConnected) return; // not redrawn: its own click comes
    const under = document.elementFromPoint(e.clientX, e.clientY); // (a touch's target is
    const button = under && under.closest("[data-action]"); // the element it began on)
    if (!button || button.disabled || button.dataset.action !== was.action) return;
    sentByPointer = { action: was.action, at: e.timeStamp };
    send(was.action);
  });
  node.addEventListener("click", (e) => {
    const button = e.target.closest("[data-action]");
    if (!button || button.disabled) return;
    if (fresh.has(button.dataset.action)) { // (just appeared: a tap meant for something else)
      sentByPointer = null;
      return;
    }
    const echo = sentByPointer && sentByPointer.action === button.dataset.action
      && e.timeStamp - sentByPointer.at < 1000;
    sentByPointer = null;
    if (!echo) send(button.dataset.action);
  });

  const live = api.stream(`/v1/matches/${matchId}/stream`, (message) => {
    queue.push(message);
    drain();
  }, (state, error) => {
    // a dropped stream is said on the error line until it is back; a table not drawn yet
    // (opened while the server is out of reach) says so in its place, and comes once it can
    const line = document.getElementById("error");
    if (state === "reconnecting" && !current && !closed) {
      if (!node.querySelector("[data-testid=unreachable]")) {
        node.replaceChildren(h("nav", { class: "top" }, backLink()), reachLine(false));
      }
      return;
    }
    if (state === "reconnecting" && (!line || !line.textContent)) showError(t("reconnecting"));
    if (state === "open" && line && line.textContent === t("reconnecting")) showError("");
    if (state === "failed") node.replaceChildren(h("p", { class: "panel" },
      error && error.status === 404 ? t("notFound") : error.message),
    h("a", { href: "#/" }, t("back")));
  });

  return { node, close: () => {
    closed = true;
    if (delivering) delivering.stop();
    live.close(); clearInterval(ticker); clearTimeout(freshTimer); changes.close(); review.close();
  } };
}
