// What a finished match did to its players' ratings, under its result at the table: GET
// /v1/matches/{id}/ratings, read once the match is over and again while the server is still
// counting it (a second or so): "Duel ratings: you 1500 → 1523 (+23) · Bot (easy) 1512 →
// 1489 (−23)", mine first. Nothing is said for a match that is not rated.

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { ratingMove } from "./leaderboard.js";
import { levelName, levelsOf } from "./words.js";

const AGAIN = 1500; // ms between two readings while the match is being counted
const TRIES = 20;

/** One player's change: "you 1500 → 1523 (+23)" (a built-in level named as lists name it, by
 * `levels`: levelsOf). */
function entry(change, me, levels) {
  const id = change.player.id;
  const who = me && id === me.id ? t("you")
    : levels[id] ? levelName(levels[id]) : change.player.name;
  return h("span", { class: "change", dataset: { playerId: id } },
    `${who} ${ratingMove(change.before, change.after)}`);
}

/** The line for match `matchId`: `node` (hidden until there is something to say), `start()`
 * once the match is finished (read once), `close()` when the table goes; `known()` gives
 * GET /v1/rulesets when the table has read it (it names the levels' players). */
export function ratingChanges(matchId, known) {
  const node = h("p", { class: "rating-changes", "data-testid": "rating-changes", hidden: true });
  let started = false;
  let closed = false;
  let timer = null;
  let tries = 0;
  async function read() {
    try {
      const page = await api.call("GET", `/v1/matches/${matchId}/ratings`);
      if (closed) return;
      if (page.state === "counting" && tries < TRIES) {
        tries += 1;
        timer = setTimeout(read, AGAIN);
        return;
      }
      if (page.state !== "rated" || !page.changes.length) return;
      const me = api.me();
      const levels = levelsOf(known());
      const mine = (c) => Number(Boolean(me && c.player.id === me.id));
      const changes = [...page.changes].sort((a, b) => mine(b) - mine(a));
      node.replaceChildren(`${t("ratingsOf")[page.format]}: `,
        ...changes.flatMap((c, i) => (i ? [" · "] : []).concat(entry(c, me, levels))));
      node.hidden = false;
    } catch {
      // (a line less: the result stands without it)
    }
  }
  return {
    node,
    start() {
      if (started) return;
      started = true;
      read();
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
