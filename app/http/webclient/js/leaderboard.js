// Where players stand: a rating as the client shows it, and the leaderboard screen
// ("#/leaderboard"), GET /v1/leaderboard by format (duel: 2 players; teams: 4 and 6), with or
// without the computer levels, a page at a time, my own row marked.

import * as api from "./api.js";
import { h, showError } from "./dom.js";
import { t } from "./i18n.js";
import { levelName, levelsOf } from "./words.js";

const PAGE = 50;
const FORMATS = ["duel", "teams"];
// what the screen shows, kept while the page is open (a language switch draws it again)
const chosen = { format: "duel", bots: true };
const said = (error) => showError(error.message);

/** A rating's number as a person reads it: whole points. */
export function shownRating(entry) {
  return String(Math.round(entry.rating));
}

/** A rating's move as a person reads it: "1500 → 1523 (+23)", the difference of the
 * numbers shown. */
export function ratingMove(before, after) {
  const [from, to] = [shownRating(before), shownRating(after)];
  const moved = Number(to) - Number(from);
  const sign = moved > 0 ? "+" : moved < 0 ? "−" : "±";
  return `${from} → ${to} (${sign}${Math.abs(moved)})`;
}

/** A rating: its number, marked "provisional" while it is still uncertain. */
function ratingNode(entry) {
  return h("span", { class: "rating" }, h("span", { class: "value" }, shownRating(entry)),
    entry.provisional ? [" ", h("span", { class: "prov" }, t("provisional"))] : null);
}

/** A rating in `format` (a player's own or another's): `item`, and `show(entry)` that fills
 * it in place (no element replaced, so a re-read while someone reads the page moves nothing). */
export function ratingItem(format) {
  const value = h("span", { class: "value" });
  const prov = h("span", { class: "prov" }, t("provisional"));
  const sub = h("span", { class: "sub" });
  const item = h("li", { dataset: { format } },
    h("span", { class: "term" }, t("formats")[format]),
    h("span", { class: "line" }, h("span", { class: "rating" }, value, " ", prov), " ", sub));
  return { item, show(entry) {
    value.textContent = shownRating(entry);
    prov.hidden = !entry.provisional;
    sub.textContent = t("ratedMatches")(entry.rated_matches);
  } };
}

/** A profile's record in words: "4 played · 3 won · 1 lost (1 by time)", and the matches
 * neither won nor lost when there are any (a built-in level seated on both teams: its
 * tallies count them as played only), "· 2 on both teams (neither won nor lost)". */
export function recordWords(profile) {
  const said = t("recordWords")(profile.matches_played, profile.won, profile.lost,
    profile.forfeited);
  const both = profile.matches_played - profile.won - profile.lost;
  return both > 0 ? `${said} · ${t("bothTeams")(both)}` : said;
}

/** A player's name as the board shows it, a link to their page: a built-in level in the
 * client's words ("Bot (easy)"), anyone else by name and @handle; mine marked "(you)". */
function nameCell(player, level, mine) {
  const name = level ? levelName(level) : player.name;
  return h("td", { class: "player" },
    h("a", { class: "name", href: `#/player/${player.id}` }, name),
    mine ? [" ", h("strong", { class: "you" }, `(${t("you")})`)] : null,
    player.handle && !level ? h("span", { class: "handle" }, `@${player.handle}`) : null,
    player.bot && !level ? h("span", { class: "badge" }, t("bot")) : null);
}

/** The leaderboard screen; `rulesets` (GET /v1/rulesets) names the computer levels' players.
 * Resolves once the first page is drawn. Returns `{node, close}`. */
export async function leaderboardScreen(rulesets) {
  const levels = levelsOf(rulesets);
  const me = api.token() ? api.me() : null;
  const rows = h("tbody");
  const caption = h("caption");
  const table = h("table", { class: "board-table" }, caption,
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "rank" }, h("span", { "aria-hidden": "true" }, "#"),
        h("span", { class: "offscreen" }, t("boardRank"))),
      h("th", { scope: "col" }, t("boardPlayer")),
      h("th", { scope: "col", class: "num" }, t("boardRating")),
      h("th", { scope: "col", class: "num" }, t("boardMatches")))),
    rows);
  const empty = h("p", { class: "empty", hidden: true }, t("boardEmpty"));
  const absent = h("p", { class: "note-line", hidden: true }, t("notOnBoard"));
  const more = h("button", { type: "button", class: "more", hidden: true,
    "data-testid": "board-more", onclick: () => load(next).catch(said) },
  t("more"));
  const formats = FORMATS.map((format) => h("button", { type: "button", name: "format",
    value: format, onclick: () => { chosen.format = format; reload().catch(said); } },
  t("formatsShort")[format]));
  const bots = h("button", { type: "button", class: "toggle", "data-testid": "board-bots",
    onclick: () => { chosen.bots = !chosen.bots; reload().catch(said); } },
  h("span", { class: "box", "aria-hidden": "true" }), t("showBots"));
  const node = h("section", { class: "board-screen", "data-testid": "leaderboard" },
    h("nav", { class: "top" }, h("a", { href: "#/" }, `← ${t("back")}`)),
    h("div", { class: "panel" },
      h("h2", {}, t("leaderboard")),
      h("div", { class: "board-controls" },
        h("div", { class: "switch", role: "group", "aria-label": t("boardFormat") }, formats),
        bots),
      table, empty, absent, more));
  let asked = 0; // the newest request: an older answer that comes late is dropped
  let next = null;

  function row(item) {
    const mine = me !== null && item.player.id === me.id;
    return h("tr", { class: mine ? "me" : null, "aria-current": mine ? "true" : null,
      dataset: { playerId: item.player.id, rank: item.rank } },
    h("td", { class: "rank" }, String(item.rank)),
    nameCell(item.player, levels[item.player.id], mine),
    h("td", { class: "num" }, ratingNode(item)),
    h("td", { class: "num" }, String(item.rated_matches)));
  }

  async function load(offset) {
    const ask = ++asked;
    node.setAttribute("aria-busy", "true");
    more.disabled = true;
    try {
      const query = new URLSearchParams({ format: chosen.format, bots: String(chosen.bots),
        offset: String(offset), limit: String(PAGE) });
      const page = await api.call("GET", `/v1/leaderboard?${query}`);
      if (ask !== asked) return;
      if (offset === 0) rows.replaceChildren();
      rows.append(...page.items.map(row));
      next = page.next_offset;
      more.hidden = next === null || next === undefined;
      const listed = rows.childElementCount > 0;
      table.hidden = !listed;
      empty.hidden = listed;
      // the whole list is here and I am not in it: I have no rated match in this format
      absent.hidden = !me || !more.hidden || Boolean(rows.querySelector("tr.me"));
    } finally {
      if (ask === asked) {
        node.removeAttribute("aria-busy");
        more.disabled = false;
      }
    }
  }

  function reload() {
    showError("");
    node.dataset.format = chosen.format;
    node.dataset.bots = String(chosen.bots);
    formats.forEach((b) => b.setAttribute("aria-pressed", String(b.value === chosen.format)));
    bots.setAttribute("aria-pressed", String(chosen.bots));
    caption.textContent = t("boardCaption")[chosen.format];
    return load(0);
  }

  await reload();
  return { node, close: () => { asked += 1; } };
}
