// The computer's review of a finished match, under its result at the table (a player's
// only): a "Computer review" button asks for it (POST /v1/matches/{id}/review, which gives
// the review at once if any player asked already), and the panel reads it again (GET) while
// the server works it out: "Reviewing… 12 of 40 moves". Once
// done: each seat's mistakes, and mine, the costliest first: "Hand 2, trick 1 · holding 4♣
// 4♥ 4♠: you played Corro (fold); better Seis! (raise to 6) · chance to win 31% → 78%", each
// with a button that opens the replay at that moment.

import * as api from "./api.js";
import { SUITS } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { actionHint, actionLabel, seatName } from "./words.js";

const AGAIN = 1500; // ms between two readings while the review is being worked out
const SHOWN = 5; // my mistakes listed, the costliest first

/** "4♣" (the list is dense: symbols, not names). */
function shortCard(code) {
  return `${code[0]}${SUITS[code[1]].symbol}`;
}

/** An action as the review says it: "4♣", "4♣ face down", "Corro (fold)", "Truco!". */
function said(view, action) {
  if (action.type === "play") {
    const card = action.card ? shortCard(action.card) : `${t("slot")} ${action.slot + 1}`;
    return action.face_down ? `${card} ${t("faceDown")}` : card;
  }
  const bare = { ruleset: view.ruleset, hand: null };
  const hint = actionHint(bare, action);
  return hint ? `${actionLabel(bare, action)} (${hint})` : actionLabel(bare, action);
}

const percent = (chance) => `${Math.round(chance * 100)}%`;

/** The same action (the review's JSON keys may come in another order). */
function same(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function mistakeItem(view, d, see) {
  const chance = (action) => d.options.find((o) => same(o.action, action)).chance;
  const when = t("handTrick")(d.hand, d.trick);
  const holding = d.cards.length ? ` · ${t("holding")} ${d.cards.map(shortCard).join(" ")}` : "";
  const move = t("reviewMove")(said(view, d.played), said(view, d.best),
    percent(chance(d.played)), percent(chance(d.best)));
  return h("li", { class: "mistake", dataset: { actionNumber: d.action_number } },
    h("span", { class: "when" }, when), holding,
    d.step === null || d.step === undefined ? null : h("button", { type: "button",
      class: "see", "data-testid": "see-mistake",
      onclick: () => see(d.step, `${when}${holding}: ${move}`) }, t("seeIt")),
    h("br"), move);
}

function seatLine(view, tally) {
  return h("li", { dataset: { seat: tally.seat } },
    t("seatMistakes")(seatName(view, tally.seat), tally.mistakes, tally.decisions));
}

/** The panel for match `matchId`: `node`, `show(view)` with each view drawn (it starts once
 * the match is finished, for a player), `close()` when the table goes; `see(step, text)` opens
 * the replay at a mistake's step (the table as its seat saw it), `text` its sentence. */
export function reviewPanel(matchId, see) {
  const body = h("div", { class: "review-body", "aria-live": "polite" });
  const ask = h("button", { type: "button", "data-testid": "review",
    onclick: () => request() }, t("review"));
  const node = h("div", { class: "review", "data-testid": "review-panel", hidden: true },
    ask, body);
  let view = null;
  let started = false;
  let closed = false;
  let timer = null;

  function draw(review) {
    if (closed) return;
    ask.remove();
    if (review.status !== "done") {
      body.replaceChildren(h("p", { class: "note" },
        t("reviewing")(review.progress.reviewed, review.progress.actions)));
      timer = setTimeout(read, AGAIN);
      return;
    }
    const me = view.you.seat;
    const mine = review.decisions.filter((d) => d.seat === me && d.mistake && !d.auto_played)
      .sort((a, b) => b.loss - a.loss).slice(0, SHOWN);
    body.replaceChildren(
      h("h3", {}, t("review")),
      h("ul", { class: "review-seats" }, review.seats.map((s) => seatLine(view, s))),
      mine.length ? h("ol", { class: "mistakes", "data-testid": "mistakes" },
        mine.map((d) => mistakeItem(view, d, see)))
        : h("p", { "data-testid": "no-mistakes" }, t("noMistakes")),
      h("p", { class: "note" }, t("reviewHow")));
  }

  async function read() {
    try {
      draw(await api.call("GET", `/v1/matches/${matchId}/review`));
    } catch (error) {
      if (!closed) body.replaceChildren(h("p", { class: "error" }, error.message));
    }
  }

  async function request() {
    ask.disabled = true;
    try {
      draw(await api.call("POST", `/v1/matches/${matchId}/review`));
    } catch (error) {
      ask.disabled = false;
      body.replaceChildren(h("p", { class: "error" }, error.message));
    }
  }

  return {
    node,
    show(shownView) {
      view = shownView;
      if (started || view.status !== "finished" || !view.you) return;
      started = true;
      node.hidden = false;
      ask.hidden = false;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
