// The client's screens by the URL's hash: "#/" home (register, new match, inbox, lobby, live),
// "#/match/<id>" a table, "#/join/<id>/<invite code>" an invitation (without the code: a seat
// in a public match), "#/leaderboard", "#/player/<id>" a player's page.

import * as api from "./api.js";
import { followTurns } from "./badge.js";
import { announce, h, showError } from "./dom.js";
import { lang, setLang, t } from "./i18n.js";
import { inboxPanel, newMatchForm, registerForm, whoAmI } from "./home.js";
import { leaderboardScreen } from "./leaderboard.js";
import { livePanel } from "./live.js";
import { lobbyPanel } from "./lobby.js";
import { profileScreen } from "./profile.js";
import { reachWatch, unreachable, unreachableScreen } from "./reach.js";
import { tableScreen } from "./table.js";
import { joinNote, joinProblem } from "./waiting.js";

const main = document.getElementById("main");
let screen = null;
let routes = 0; // the screens asked for: only the newest is shown
let rulesets = null;
let carried = null; // an error said on the next screen (a join that failed leads home)
let noticed = null; // a word on the next screen that is no error ("Invitation declined.")

const SLOW_SCREEN = 300; // ms a screen may take before "Loading…" stands in for it

function loadingNote() {
  return h("p", { class: "panel notice", role: "status", "data-testid": "loading" },
    t("loading"));
}

/** Go to `hash`, with a `notice` to show there (home shows it above the rest). */
function go(hash, notice = null) {
  noticed = notice;
  if (location.hash === hash) route();
  else location.hash = hash;
}

/** GET /v1/rulesets, read once per page (the forms' choices, the levels' players). */
async function knownRulesets() {
  rulesets = rulesets || await api.call("GET", "/v1/rulesets");
  return rulesets;
}

async function home(notice = null) {
  // the server out of reach: one line says so, and the readings that failed are tried again
  const reach = reachWatch();
  const said = notice ? h("p", { class: "panel notice", "data-testid": "notice" }, notice)
    : null;
  if (notice) announce(notice);
  if (!api.token()) {
    // a newcomer sees who is waiting for a player, and takes a seat by registering first
    const open = lobbyPanel(go, reach);
    const watch = livePanel();
    return { node: h("div", { class: "newcomer" }, reach.line, said, registerForm(route),
      open.panel, watch.panel), close: () => { reach.close(); open.close(); watch.close(); } };
  }
  await knownRulesets();
  const who = whoAmI(route, reach, go);
  const inbox = inboxPanel(reach);
  const lobby = lobbyPanel(go, reach);
  const watch = livePanel();
  // (my matches, my settings and the open ones in one column beside the form on a wide
  // screen; on a phone, the form right after who I am, and my matches before it only when
  // one waits for me: style.css)
  const node = h("div", { class: "home" }, reach.line, said, who.panel,
    newMatchForm(rulesets, go), h("div", { class: "side" }, inbox.panel, who.settings,
      lobby.panel, watch.panel));
  return { node, close: () => {
    reach.close(); who.close(); inbox.close(); lobby.close(); watch.close();
  } };
}

async function join(matchId, code) {
  const enter = async () => {
    try {
      await api.call("POST", `/v1/matches/${matchId}/join`, code ? { invite_code: code } : {});
      go(`#/match/${matchId}`);
    } catch (error) {
      // (home, under the error line: the new-match form and the inbox are what is left to do)
      carried = joinProblem(error);
      go("#/");
    }
  };
  if (!api.token()) {
    // who invites, to what match (its view as anyone may see it); the plain prompt when it
    // cannot be read or no longer waits (the join then says why)
    const view = await api.call("GET", `/v1/matches/${matchId}`).catch(() => null);
    const note = view && view.status === "waiting" ? joinNote(view, code) : t("joinPrompt");
    return { node: registerForm(enter, note), close() {} };
  }
  await enter();
  return null;
}

async function route() {
  const turn = ++routes;
  if (screen) screen.close();
  screen = null;
  showError(carried || "");
  carried = null;
  const notice = noticed;
  noticed = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  let made = null;
  // a screen slow to come says so in place of the one before it, which would otherwise stay
  // (closed: its buttons alive, its news stopped) as if nothing had been asked
  const slow = setTimeout(() => {
    if (turn === routes) main.replaceChildren(loadingNote());
  }, SLOW_SCREEN);
  try {
    if (parts[0] === "match" && parts[1]) made = tableScreen(parts[1], go);
    else if (parts[0] === "join" && parts[1]) made = await join(parts[1], parts[2]);
    else if (parts[0] === "leaderboard") made = await leaderboardScreen(await knownRulesets());
    else if (parts[0] === "player" && parts[1]) {
      made = await profileScreen(parts[1], await knownRulesets(), go);
    } else made = await home(notice);
  } catch (error) {
    if (error.status === 401) api.forget();
    if (turn !== routes) return;
    if (unreachable(error)) {
      // the server out of reach: one line says so, and this screen is read again until it is
      made = unreachableScreen(() => { if (turn === routes) route(); });
    } else {
      showError(error.message);
      // (a screen that cannot be drawn, an unknown player say: home under the error line, not
      // the screen before it)
      made = await home().catch(() => null);
    }
  } finally {
    clearTimeout(slow);
  }
  // a screen that took its time to come (its first reading) while the person went elsewhere
  // is not shown over the newer one
  if (turn !== routes) {
    if (made) made.close();
    return;
  }
  screen = made;
  if (screen) main.replaceChildren(screen.node);
  const focus = main.querySelector("h1, h2, [data-testid=table]");
  if (focus) focus.setAttribute("tabindex", "-1");
  followTurns(); // (after a registration, a key adopted or forgotten: the title follows)
}

function header() {
  const switcher = document.getElementById("lang");
  switcher.textContent = t("language");
  switcher.setAttribute("lang", lang() === "pt" ? "en" : "pt-BR");
  switcher.onclick = () => {
    setLang(lang() === "pt" ? "en" : "pt");
    header();
    route();
  };
  document.getElementById("tagline").textContent = t("tagline");
  // the rules as the server plays them, in the page's language: docs/rules.md, served at
  // /docs/rules, or its Portuguese version docs/regras.md at /docs/regras
  const rules = document.getElementById("rules");
  const portuguese = lang() === "pt";
  rules.href = portuguese ? "../docs/regras" : "../docs/rules";
  rules.setAttribute("hreflang", portuguese ? "pt-BR" : "en");
  rules.textContent = t("rulesLink");
  rules.title = t("rulesLinkTitle");
  const close = document.getElementById("error-close"); // (the error line's ×)
  close.setAttribute("aria-label", t("closeError"));
  close.title = t("closeError");
  close.onclick = () => showError("");
}

setLang(lang());
header();
window.addEventListener("hashchange", route);
route();
