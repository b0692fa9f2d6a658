// A player's page ("#/player/<id>", reached from the leaderboard): GET /v1/players/{id}, their
// name, handle, ratings and record, and their rating over their latest rated matches (GET
// /v1/players/{id}/rating-history); a person (or a third-party bot) is challenged to a duel, a
// 2-player match whose other seat is kept for them (they find the invitation in their
// matches), and a built-in level is played at once.

import * as api from "./api.js";
import { h, selectField, sentBy, showError } from "./dom.js";
import { lang, t } from "./i18n.js";
import { creationProblem } from "./home.js";
import { ratingItem, ratingMove, recordWords, shownRating } from "./leaderboard.js";
import { TURN_TIMEOUTS, levelName, levelsOf, rulesetName, timeoutLabel } from "./words.js";

/** What the server refuses about a challenge (`body`), in words (its own sentence
 * otherwise). */
function refused(error, name, body) {
  if (error.code === "blocked") return t("blockedBy")(name);
  if (error.code === "too_many_invitations") return t("tooManyInvitations")(name);
  return creationProblem(error, body) || error.message;
}

/** The duel's form: rules and time per turn, and the button that makes the match (`body`
 * adds who sits in the other seat). */
function duelForm(rulesets, label, body, go) {
  const form = h("form", { class: "challenge", "data-testid": "challenge", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const timeout = data.get("turn_timeout");
    showError("");
    const sent = {
      players: 2, seat: 0, ruleset: data.get("ruleset"), visibility: "private",
      turn_timeout: timeout === "" ? null : Number(timeout), ...body.seat,
    };
    await sentBy(e.submitter || form.querySelector("[type=submit]"), async () => {
      try {
        const view = await api.call("POST", "/v1/matches", sent);
        go(`#/match/${view.id}`);
        return true;
      } catch (error) {
        showError(refused(error, body.name, sent));
        return false;
      }
    }, t("pressedSlow"));
  } },
  h("div", { class: "fields" },
    selectField("ruleset", t("ruleset"),
      rulesets.items.map((r) => [r.name, rulesetName(r.name)]), "paulista"),
    selectField("turn_timeout", t("turnTimeout"),
      TURN_TIMEOUTS.map((s) => [s === null ? "" : String(s), timeoutLabel(s)]), "")),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary", "data-testid": "challenge-button" }, label)));
  return form;
}

/** What I can do about this player: nothing when it is me, sit down first without a key,
 * play a built-in level at once, or challenge anyone else. */
function offer(player, level, rulesets, go) {
  const me = api.token() ? api.me() : null;
  if (me && me.id === player.id) return h("p", { class: "note-line" }, t("thisIsYou"));
  if (!me) {
    return h("p", { class: "note-line" }, t("sitDownFirst"), " ",
      h("a", { href: "#/" }, t("sitDownLink")));
  }
  if (level) {
    return duelForm(rulesets, t("playLevel")(levelName(level)),
      { seat: { bots: [{ seat: 1, level }] }, name: levelName(level) }, go);
  }
  return h("div", {}, h("p", { class: "hint" }, t("challengeHint")(player.name)),
    duelForm(rulesets, t("challenge"),
      { seat: { invite: [{ seat: 1, player_id: player.id }] }, name: player.name }, go),
    blockToggle(player));
}

/** Block or unblock a person (PUT / DELETE /v1/me/blocks/{id}): while blocked, their
 * invitations to me are refused and those pending were declined. Pressed while
 * GET /v1/me/blocks lists them. */
function blockToggle(player) {
  const path = `/v1/me/blocks/${encodeURIComponent(player.id)}`;
  const said = h("span", { class: "hint", "data-testid": "block-said", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "toggle", "data-testid": "block",
    "aria-pressed": "false", disabled: true, onclick: async () => {
      const blocking = button.getAttribute("aria-pressed") !== "true";
      button.disabled = true;
      try {
        const answer = await api.call(blocking ? "PUT" : "DELETE", path);
        show(blocking);
        said.textContent = blocking ? t("blockedSaid")(player.name, answer.declined) : "";
      } catch (error) {
        showError(error.message);
      } finally {
        button.disabled = false;
      }
    } }, h("span", { class: "box", "aria-hidden": "true" }), t("blockPlayer")(player.name));
  const show = (blocked) => button.setAttribute("aria-pressed", String(blocked));
  api.call("GET", "/v1/me/blocks").then((page) => {
    show(page.items.some((b) => b.player_id === player.id));
    button.disabled = false;
  }).catch(() => {}); // (no toggle to press: the page stands without it)
  return h("div", { class: "block" }, button, " ", said);
}

const HISTORY = 50; // rated matches the line shows
const LISTED = 10; // of which the latest are listed

/** The rating over `items` (the history, latest first) as a line: an SVG whose label says it
 * in words. */
function ratingLine(fmt, items) {
  const points = [items[items.length - 1].before, ...[...items].reverse().map((i) => i.after)]
    .map((r) => r.rating);
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = Math.max(high - low, 1);
  const [w, ht, pad] = [300, 60, 4]; // the viewBox, stretched to the panel's width
  const x = (i) => (pad + (i * (w - 2 * pad)) / (points.length - 1)).toFixed(1);
  const y = (r) => (pad + ((high - r) * (ht - 2 * pad)) / span).toFixed(1);
  const xy = points.map((r, i) => `${x(i)},${y(r)}`).join(" ");
  // (parsed from markup, the SVG gets its namespace without the page naming it; every value in
  // it is a number made here, and the label is set as an attribute)
  const markup = document.createElement("template");
  markup.innerHTML = `<svg class="rating-line" viewBox="0 0 ${w} ${ht}" role="img"`
    + ` preserveAspectRatio="none"><polyline points="${xy}"></polyline></svg>`;
  const svg = markup.content.firstElementChild;
  svg.setAttribute("aria-label", t("ratingLineSaid")(t("formatsShort")[fmt], items.length,
    shownRating({ rating: points[0] }), shownRating({ rating: points[points.length - 1] })));
  return svg;
}

/** One rated match in the list: "Won · 1500 → 1523 (+23)", a link to its table. */
function ratedMatch(item) {
  return h("li", { dataset: { matchId: item.match_id } },
    h("a", { href: `#/match/${item.match_id}` }, item.won ? t("wonShort") : t("lostShort")),
    ` · ${ratingMove(item.before, item.after)}`);
}

/** The player's rating over their latest rated matches, per format that has any (filled in
 * once read; nothing said when there are none). */
function history(playerId) {
  const node = h("div", { class: "panel history", "data-testid": "rating-history",
    hidden: true });
  const read = async (fmt) => {
    const page = await api.call("GET", `/v1/players/${encodeURIComponent(playerId)}`
      + `/rating-history?format=${fmt}&limit=${HISTORY}`);
    if (!page.items.length) return null;
    return h("section", { class: "format", dataset: { format: fmt } },
      h("h3", {}, t("formats")[fmt]),
      ratingLine(fmt, page.items),
      h("ol", { class: "rated" }, page.items.slice(0, LISTED).map(ratedMatch)));
  };
  Promise.all(["duel", "teams"].map(read))
    .then((parts) => {
      node.replaceChildren(h("h2", {}, t("ratingHistory")), ...parts.filter(Boolean));
      node.hidden = !parts.some(Boolean);
    })
    .catch(() => {}); // (the page stands without it)
  return node;
}

/** The player's page; `rulesets` (GET /v1/rulesets) names the built-in levels' players. */
export async function profileScreen(playerId, rulesets, go) {
  const player = await api.call("GET", `/v1/players/${encodeURIComponent(playerId)}`);
  const level = levelsOf(rulesets)[player.id];
  const duel = ratingItem("duel");
  const teams = ratingItem("teams");
  duel.show(player.ratings.duel);
  teams.show(player.ratings.teams);
  const since = new Date(player.created_at).toLocaleDateString(
    lang() === "pt" ? "pt-BR" : "en", { year: "numeric", month: "long" });
  const node = h("section", { class: "profile-screen", "data-testid": "profile",
    dataset: { playerId: player.id } },
  h("nav", { class: "top" }, h("a", { href: "#/leaderboard" }, `← ${t("leaderboard")}`)),
  h("div", { class: "panel" },
    h("div", { class: "who-head" },
      h("h2", {}, level ? levelName(level) : player.name),
      player.handle && !level ? h("span", { class: "handle" }, `@${player.handle}`) : null,
      player.bot && !level ? h("span", { class: "badge" }, t("bot")) : null),
    h("p", { class: "sub" }, level ? t("builtInLevel") : t("playingSince")(since)),
    h("ul", { class: "standing", "data-testid": "standing" }, duel.item, teams.item,
      h("li", { dataset: { format: "record" } }, h("span", { class: "term" }, t("record")),
        h("span", { class: "line" }, recordWords(player)))),
    offer(player, level, rulesets, go)),
  history(player.id));
  return { node, close() {} };
}
