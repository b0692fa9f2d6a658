// The home screen: registering, who I am and where I stand, the new-match form (against bots,
// or for friends with an invite link, listed in the lobby when anyone may join), and the inbox
// of my matches, live from /v1/me/stream.

import * as api from "./api.js";
import { copyText, h, selectField, sentBy, showError } from "./dom.js";
import { listen } from "./badge.js";
import { friendHandles, handleEditor, inviteProblem } from "./handles.js";
import { lang, ruleWords, t } from "./i18n.js";
import { ratingItem, recordWords } from "./leaderboard.js";
import { notifyToggle } from "./notify.js";
import { TURN_TIMEOUTS, listedName, matchKind, othersSeated, rulesetName, timeoutLabel }
  from "./words.js";

/** The registration form; `then()` runs once the player has a token. */
export function registerForm(then, note = null) {
  const name = h("input", { id: "f-name", "data-testid": "name", name: "name", required: true,
    maxlength: 32, autocomplete: "nickname", "aria-describedby": "f-name-hint" });
  const paste = h("input", { id: "f-token", name: "token", autocomplete: "off" });
  const form = h("form", { class: "panel", onsubmit: (e) => {
    e.preventDefault();
    sentBy(e.submitter || form.querySelector("[type=submit]"), async () => {
      showError("");
      try {
        await api.register(name.value);
      } catch (error) {
        showError(error.message);
        return false;
      }
      then();
      return true;
    }, t("pressedSlow"));
  } },
  h("h2", {}, t("register")),
  note && (typeof note === "string" ? h("p", {}, note) : note),
  h("div", { class: "field" }, h("label", { for: "f-name" }, t("yourName")), name,
    h("span", { class: "hint", id: "f-name-hint" }, t("nameHint"))),
  h("button", { type: "submit", class: "primary", "data-testid": "register" }, t("register")));
  const adopt = h("details", { class: "panel" },
    h("summary", {}, t("useToken")),
    h("div", { class: "field" }, h("label", { for: "f-token" }, t("key")), paste),
    h("button", { type: "button", onclick: (e) => sentBy(e.currentTarget, async () => {
      showError("");
      try {
        await api.adopt(paste.value.trim());
      } catch (error) {
        showError(error.status === 401 ? t("badKey") : error.message);
        return false;
      }
      then();
      return true;
    }, t("pressedSlow")) }, t("useTokenButton")));
  return h("div", { class: "stack" }, form, adopt);
}

function hinted(field, option, hint) {
  if (!hint) return field;
  const id = `f-opt-${option}-hint`;
  field.querySelector("select, input").setAttribute("aria-describedby", id);
  field.append(h("small", { class: "hint", id }, hint));
  return field;
}

function choiceField(option, values, fallback) {
  const words = ruleWords(option);
  const chosen = JSON.stringify(fallback);
  return selectField(`opt-${option}`, words.label, values.map((v) => {
    const value = JSON.stringify(v);
    return [value, value === chosen ? `${words.value(v)} (${t("byDefault")})` : words.value(v)];
  }), chosen);
}

// first_dealer is "random" or a seat number; the form seats you at 0, so it offers you (0)
// and the player before you ("before_you", the last seat: sent as its number, createBody)
function firstDealerField(spec) {
  return choiceField("first_dealer", [spec.default, 0, "before_you"], spec.default);
}

// iron_hand_value is a range ("an integer from 1 to N") whose default is each ruleset's own
// base value: left blank it is not sent, so the server's default for the chosen ruleset holds
function ironHandField(rulesets, spec) {
  const words = ruleWords("iron_hand_value");
  const top = Number((String(spec.values).match(/(\d+)\D*$/) || [])[1]) || undefined;
  const defaults = rulesets.items.map((r) => `${r.options.iron_hand_value.default} `
    + `(${rulesetName(r.name)})`).join(" · ");
  return h("div", { class: "field" },
    h("label", { for: "f-opt-iron_hand_value" }, words.label),
    h("input", { id: "f-opt-iron_hand_value", name: "opt-iron_hand_value", type: "number",
      min: 1, max: top, step: 1, inputmode: "numeric", placeholder: defaults }));
}

function optionFields(rulesets) {
  // built from GET /v1/rulesets: an option or a value the client has no words for is shown
  // by its own name; what is sent is the value itself (JSON), whatever it is called here
  const paulista = rulesets.items.find((r) => r.name === "paulista") || rulesets.items[0];
  // (a value that is a description, such as first_dealer's "a seat number", is no choice;
  // an option left with fewer than two choices is not offered: the server's default holds,
  // but for the two the client knows how to ask for: first_dealer and iron_hand_value)
  const choices = (spec) => spec.values.filter((v) => typeof v !== "string" || !v.includes(" "));
  const special = {
    first_dealer: (spec) => Array.isArray(spec.values) && spec.values.includes("random")
      && firstDealerField(spec),
    iron_hand_value: (spec) => typeof spec.values === "string" && ironHandField(rulesets, spec),
  };
  const fields = Object.entries(paulista.options)
    .map(([option, spec]) => {
      if (special[option]) return [option, special[option](spec)];
      if (!Array.isArray(spec.values) || choices(spec).length < 2) return [option, null];
      return [option, choiceField(option, choices(spec), spec.default)];
    })
    .filter(([, field]) => field)
    .sort(([a], [b]) => ruleWords(a).order - ruleWords(b).order)
    .map(([option, field]) => {
      field.dataset.option = option;
      return hinted(field, option, ruleWords(option).hint);
    });
  return h("details", { class: "options" }, h("summary", {}, t("moreOptions")),
    h("div", { class: "fields" }, ...fields));
}

function createBody(form, humans, handles = []) {
  const data = new FormData(form);
  const players = Number(data.get("players"));
  const level = data.get("level");
  const timeout = data.get("turn_timeout");
  const options = {};
  for (const [key, value] of data.entries()) {
    if (!key.startsWith("opt-") || value === "") continue; // (a blank number: the default)
    options[key.slice(4)] = key === "opt-iron_hand_value" ? Number(value) : JSON.parse(value);
  }
  if (options.first_dealer === "before_you") options.first_dealer = players - 1;
  // friends sit first beside me (my partners), then across; bots take every other seat
  const order = [...Array(players).keys()].filter((s) => s !== 0)
    .sort((a, b) => (a % 2) - (b % 2) || a - b);
  const friendSeats = new Set(order.slice(0, humans));
  const bots = order.filter((s) => !friendSeats.has(s)).map((seat) => ({ seat, level }));
  // friends named by handle take the friends' seats in that order: theirs are kept for them
  const invite = handles.map((handle, i) => ({ seat: order[i], handle }));
  return {
    // (for friends, "Anyone may join" lists it in the lobby: its open seats are anyone's)
    players, ruleset: data.get("ruleset"), seat: 0, bots,
    visibility: humans && data.get("public") ? "public" : "private",
    turn_timeout: timeout === "" ? null : Number(timeout),
    on_timeout: data.get("on_timeout"), options, ...(invite.length ? { invite } : {}),
  };
}

/** `field` marked to take a whole row where fields sit two by two (a phone). */
function wide(field) {
  field.classList.add("wide");
  return field;
}

/** My matches in sight: the inbox's title scrolled to the top of the window and focused. */
function showMyMatches() {
  const title = document.getElementById("inbox-title");
  if (!title) return;
  title.setAttribute("tabindex", "-1");
  title.scrollIntoView({ block: "start" });
  title.focus({ preventScroll: true });
}

/** A creation (`body`, POST /v1/matches) the server refused for the player's own load, in
 * the player's words by its code: too many unfinished matches with bots (or hard bots in
 * them: `limit`), too many waiting for players, too many created at once (`retry_after`);
 * null for any other refusal. */
export function creationProblem(error, body = {}) {
  const problem = error.problem || {};
  if (error.code === "too_many_bot_matches") {
    const hard = (body.bots || []).some((bot) => bot.level === "hard");
    return t(hard ? "tooManyHardBots" : "tooManyBotMatches")(problem.limit);
  }
  if (error.code === "too_many_waiting_matches") return t("tooManyWaiting");
  if (error.code === "rate_limited" && problem.retry_after) {
    return t("tooManyCreated")(problem.retry_after);
  }
  return null;
}

/** The new-match form: bots in every other seat, or seats left for invited friends (those
 * named by handle get an invitation in their matches; "Anyone may join": listed in the lobby). */
export function newMatchForm(rulesets, go) {
  const friends = selectField("friends", t("friends"),
    ["1", "2", "3", "4", "5"].map((n) => [n, n]), "1");
  const handles = h("div", { class: "field" },
    h("label", { for: "f-handles" }, t("inviteHandles")),
    h("input", { id: "f-handles", name: "handles", "data-testid": "invite-handle",
      autocomplete: "off", autocapitalize: "none", spellcheck: "false",
      "aria-describedby": "f-handles-hint" }),
    h("small", { class: "hint", id: "f-handles-hint" }, t("inviteHandlesHint")));
  const form = h("form", { class: "panel", "data-testid": "new-match", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const humans = e.submitter && e.submitter.dataset.testid === "invite"
      ? Number(data.get("friends")) : 0;
    const named = humans ? friendHandles(data.get("handles") || "", humans) : [];
    if (named.problem) {
      showError(named.problem);
      return;
    }
    const body = createBody(form, humans, named);
    if (humans >= body.players) {
      showError(`${t("friends")}: ≤ ${body.players - 1}`);
      return;
    }
    showError("");
    await sentBy(e.submitter || form.querySelector("[type=submit]"), async () => {
      try {
        const view = await api.call("POST", "/v1/matches", body);
        go(`#/match/${view.id}`);
        return true;
      } catch (error) {
        // (the unfinished matches it is about are under My matches: a button there)
        const load = creationProblem(error, body);
        const point = ["too_many_bot_matches", "too_many_waiting_matches"].includes(error.code)
          ? { label: t("showMyMatches"), run: showMyMatches } : null;
        showError(load || await inviteProblem(error, named), point);
        return false;
      }
    }, t("pressedSlow"));
  } },
  h("h2", {}, t("newMatch")),
  h("div", { class: "fields basics" },
    selectField("players", t("players"), [["2", "2"], ["4", "4"], ["6", "6"]], "2"),
    selectField("ruleset", t("ruleset"), rulesets.items.map((r) => [r.name, rulesetName(r.name)]), "paulista"),
    selectField("level", t("level"), rulesets.bot_levels.map((l) => [l, t("levels")[l] || l]), "easy"),
    selectField("turn_timeout", t("turnTimeout"),
      TURN_TIMEOUTS.map((s) => [s === null ? "" : String(s), timeoutLabel(s)]), ""),
    wide(selectField("on_timeout", t("onTimeout"), [["auto_play", t("autoPlay")],
      ["forfeit", t("forfeit")]], "auto_play"))),
  optionFields(rulesets),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary", "data-testid": "start" }, t("start"))),
  h("div", { class: "fields friends" }, friends, handles,
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "public",
      "data-testid": "public" }), t("publicMatch")),
    h("button", { type: "submit", "data-testid": "invite" }, t("invite"))));
  return form;
}

/** "3 days", "5 hours", "12 minutes" in the page's language (null: less than a minute). */
function duration(seconds) {
  const language = lang() === "pt" ? "pt-BR" : "en";
  const [unit, size] = seconds >= 2 * 86400 ? ["day", 86400] : seconds >= 3600 ? ["hour", 3600]
    : seconds >= 60 ? ["minute", 60] : [null, 1];
  if (!unit) return null;
  return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "long" })
    .format(Math.floor(seconds / size));
}

/** How long the player to act has: "5 hours left" (mine), "they have 3 days" (another's). */
function timeLeft(item) {
  const left = (Date.parse(item.deadline) - Date.now()) / 1000;
  if (!(left > 0)) return t("overdue");
  const said = duration(left) || `< ${duration(60)}`;
  return item.your_turn ? t("youHave")(said) : t("theyHave")(said);
}

function inboxItem(item) {
  const mine = item.you ? item.you.team : 0; // my side first, as the table shows it
  const result = item.winner_team === null || item.winner_team === undefined ? t("finished")
    : item.winner_team === mine ? t("wonShort") : t("lostShort");
  // (another seat's turn: my partner's, or only the other side's, from the summary's to_act)
  const partnerActs = (item.to_act || []).some((s) => s % 2 === mine
    && (!item.you || s !== item.you.seat));
  const status = item.invitation ? t("invitation") : item.your_turn ? t("yourTurn")
    : { finished: result, cancelled: t("cancelled"), waiting: t("waitingSeats") }[item.status]
      || (partnerActs ? t("partnerTurn") : t("theirTurn"));
  // who plays: the summary's seats, mine left out (free seats too)
  const taken = othersSeated(item);
  const names = (list) => list.map(listedName).join(", ");
  const opponents = taken.filter((s) => s.team !== mine);
  const partners = taken.filter((s) => s.team === mine);
  const who = opponents.length ? [`${t("against")} ${names(opponents)}`,
    partners.length ? `${t("with")} ${names(partners)}` : null] : [];
  const clock = item.deadline && item.status === "active"
    ? h("span", { class: "due", title: new Date(item.deadline).toLocaleString(
      lang() === "pt" ? "pt-BR" : "en"), dataset: { deadline: item.deadline,
      yourTurn: String(item.your_turn) } }, timeLeft(item)) : null;
  // how a finished match ended when not by the score: "resigned", "ran out of time"
  const ending = item.status === "finished" && item.end_reason && item.end_reason !== "score"
    ? t("reasons")[item.end_reason] || null : null;
  const about = [...who, clock, ending].filter(Boolean);
  return h("li", { class: `inbox-item${item.your_turn ? " mine" : ""}`, dataset: {
    matchId: item.id, yourTurn: String(item.your_turn) } },
  h("a", { href: `#/match/${item.id}` },
    h("span", { class: "badge" }, status),
    h("span", { class: "about" },
      h("span", {}, matchKind(item)),
      about.length ? h("span", { class: "sub" }, about.flatMap((part, i) =>
        i ? [" · ", part] : [part])) : null),
    h("span", { class: "score", title: `${t("us")} × ${t("them")}` },
      `${item.score[mine]} × ${item.score[1 - mine]}`)));
}

const INBOX_PAGE = 50; // my matches a page of the list shows; More shows one page more
const INBOX_MOST = 200; // the longest list GET /v1/me/matches answers in one reading

/** My first `count` matches in the inbox's order, read 200 at a time (by `next_offset`); a
 * match that moved between two readings is listed once. `{items, more}`. */
async function inboxItems(count) {
  const items = [];
  const seen = new Set();
  let offset = 0;
  for (;;) {
    const limit = Math.min(INBOX_MOST, count - items.length);
    const page = await api.call("GET", `/v1/me/matches?limit=${limit}&offset=${offset}`);
    for (const item of page.items) {
      if (!seen.has(item.id)) { seen.add(item.id); items.push(item); }
    }
    const last = page.next_offset === null || page.next_offset === undefined;
    if (last || items.length >= count) return { items, more: !last };
    offset = page.next_offset;
  }
}

/** The inbox: all my matches (my turn first), refreshed on every `inbox` event. */
export function inboxPanel(reach = null) {
  const list = h("ul", { class: "inbox", "data-testid": "inbox", "aria-live": "polite" });
  let pages = 1; // pages shown: each reading asks for all of them, so a refresh keeps them
  let asked = 0; // the newest reading: an older answer that comes after it is dropped
  const more = h("button", { type: "button", class: "more", hidden: true,
    "data-testid": "inbox-more", onclick: () => { pages += 1; refresh(); } }, t("more"));
  const panel = h("section", { class: "panel inbox-panel", "aria-labelledby": "inbox-title" },
    h("h2", { id: "inbox-title" }, t("inbox")), list, more);
  async function refresh() {
    const turn = ++asked;
    try {
      const page = await inboxItems(INBOX_PAGE * pages);
      if (turn !== asked) return;
      if (reach) reach.ok("inbox");
      list.replaceChildren(...(page.items.length ? page.items.map(inboxItem)
        : [h("li", { class: "empty" }, t("noMatches"))]));
      more.hidden = !page.more;
    } catch (error) {
      if (turn === asked && !(reach && reach.failed("inbox", refresh, error))) {
        showError(error.message);
      }
    }
  }
  // (the page's one stream of the player, which also keeps the title: js/badge.js)
  const live = listen(() => refresh(), (state) => {
    // a dropped stream is said on the error line until it is back, as at the table
    const line = document.getElementById("error");
    // (not while the home screen's one line says the server is out of reach)
    if (state === "reconnecting" && (!line || !line.textContent) && !(reach && reach.down())) {
      showError(t("reconnecting"));
    }
    if (state === "open" && line && line.textContent === t("reconnecting")) showError("");
  });
  // the time left counts down between two readings of the list
  const ticker = setInterval(() => list.querySelectorAll(".due").forEach((el) => {
    el.textContent = timeLeft({ deadline: el.dataset.deadline,
      your_turn: el.dataset.yourTurn === "true" });
  }), 30000);
  return { panel, close: () => { live.close(); clearInterval(ticker); } };
}

/** Where I stand (GET /v1/players/me): my two ratings and my record, read whenever the
 * home screen is drawn, and again while a match that ended is still being counted. */
function standing(onProfile, reach) {
  const duel = ratingItem("duel");
  const teams = ratingItem("teams");
  const record = h("span", { class: "line" });
  const list = h("ul", { class: "standing", "data-testid": "standing", hidden: true },
    duel.item, teams.item, h("li", { dataset: { format: "record" } },
      h("span", { class: "term" }, t("record")), record));
  const hint = h("p", { class: "hint", hidden: true }, t("provisionalHint"));
  let timer = null;
  let tries = 0;
  let closed = false; // (the home screen left while a reading was on its way)
  async function refresh() {
    try {
      const me = await api.call("GET", "/v1/players/me");
      if (closed) return;
      if (reach) reach.ok("standing");
      onProfile(me);
      duel.show(me.ratings.duel);
      teams.show(me.ratings.teams);
      record.textContent = recordWords(me);
      list.hidden = false;
      hint.hidden = !me.ratings.duel.provisional && !me.ratings.teams.provisional;
      // a match finished a moment ago is counted by the server's worker about a second later
      if (me.stats && me.stats.finished > me.matches_played && tries < 10) {
        tries += 1;
        timer = setTimeout(refresh, 1500);
      }
    } catch (error) {
      if (!closed && !(reach && reach.failed("standing", refresh, error))) {
        showError(error.message);
      }
    }
  }
  refresh();
  return { nodes: [list, hint], close: () => { closed = true; clearTimeout(timer); } };
}

/** Closing my account for good (DELETE /v1/players/me), behind a disclosure that says what
 * it does; then home, without a key, says it is done. */
function deleteAccount(go) {
  const button = h("button", { type: "button", class: "danger", "data-testid": "delete-account",
    onclick: () => sentBy(button, async () => {
      showError("");
      try {
        await api.call("DELETE", "/v1/players/me");
      } catch (error) {
        showError(error.message);
        return false;
      }
      api.forget();
      if (go) go("#/", t("accountDeleted"));
      return true;
    }, t("pressedSlow")) }, t("deleteAccountButton"));
  return h("details", { class: "delete-account" },
    h("summary", {}, t("deleteAccount")),
    h("p", {}, t("deleteAccountHelp")), button);
}

/** Who I am and where I stand, with links to my page and the leaderboard (`panel`), and,
 * in a panel of their own (`settings`, after the new-match form on a phone, so that its
 * button is in sight), the notifications' toggle, my token to copy to another device (and a
 * way to forget it here) and my handle, to set or change; a reading that cannot reach the
 * server is said by `reach` (js/reach.js) when given. Returns `{panel, settings, close}`. */
export function whoAmI(rerender, reach = null, go = null) {
  const player = api.me();
  const handle = handleEditor();
  const stand = standing(handle.show, reach);
  const copyButton = h("button", { type: "button", onclick: (e) =>
    copyText(api.token(), e.currentTarget, t("copied")) }, t("copy"));
  const panel = h("section", { class: "panel who", "aria-labelledby": "who-title" },
    h("div", { class: "who-head" },
      h("h2", { id: "who-title" }, `${t("registered")} ${player ? player.name : "?"}`,
        " ", handle.shown),
      h("nav", { class: "who-links", "aria-label": t("whereNext") },
        player ? h("a", { href: `#/player/${player.id}`, "data-testid": "to-my-page" },
          t("myPage")) : null,
        h("a", { href: "#/leaderboard", "data-testid": "to-leaderboard" },
          `${t("leaderboard")} →`))),
    stand.nodes);
  const settings = h("section", { class: "panel who settings", "data-testid": "settings",
    "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, t("settings")),
    notifyToggle(),
    h("details", { class: "key" },
      h("summary", {}, t("yourKey")),
      h("p", {}, t("tokenHelp")),
      h("code", { class: "token", "data-testid": "token" }, api.token()), " ", copyButton, " ",
      h("button", { type: "button", onclick: () => {
        // without the key this browser forgets, the player cannot come back to their matches
        if (!window.confirm(t("signOutConfirm"))) return;
        api.forget();
        rerender();
      } }, t("signOut"))),
    handle.editor,
    deleteAccount(go));
  return { panel, settings, close: stand.close };
}
