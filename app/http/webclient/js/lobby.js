// Open matches: the lobby (GET /v1/matches), public waiting matches with a seat anyone may
// take, each with a seat to take; those I already sit in are left out (they are my matches).

import * as api from "./api.js";
import { h, pager, showError } from "./dom.js";
import { t } from "./i18n.js";
import { listedName, matchKind, perTurn } from "./words.js";

const EVERY = 20000; // the list read again while home is shown
const SIZES = ["", "2", "4", "6"]; // the filter by players: any, 2, 4, 6
const PAGE = 20; // matches a page of the list shows; More shows one page more
const MOST = 100; // the longest list the lobby answers in one reading (limit 1 to 100)

/** Who sits at it already: "bia, Bot (easy)" (the invited, not yet there, left out). */
function present(item) {
  return (item.seats || []).filter((s) => s.bot_level || (s.player && !s.invited))
    .map(listedName).join(", ");
}

function lobbyItem(item, take) {
  const who = present(item);
  const about = [who ? t("lobbyWaiting")(who) : null,
    perTurn(item.turn_timeout),
    t("seatsFree")(item.seats_free)].filter(Boolean).join(" · ");
  return h("li", { class: "lobby-item", dataset: { matchId: item.id } },
    h("span", { class: "about" },
      h("span", {}, matchKind(item)),
      h("span", { class: "sub" }, about)),
    h("button", { type: "button", "data-testid": "lobby-join",
      onclick: () => take(item.id) }, t("takeSeat")));
}

/** The Open matches panel: `go(hash)` leads to a seat taken; a reading that cannot reach the
 * server is said by `reach` (js/reach.js) when given. Returns `{panel, close}`. */
export function lobbyPanel(go, reach = null) {
  let players = "";
  let shown = null; // what the list shows (not drawn again when nothing changed)
  let asked = 0; // the newest reading: an older answer that comes after it is dropped
  let closed = false;
  const list = h("ul", { class: "lobby", "data-testid": "lobby", "aria-busy": "true" });
  const sizes = SIZES.map((value) => h("button", { type: "button", name: "lobby-players", value,
    "aria-pressed": String(value === players), onclick: () => {
      players = value;
      more.reset();
      sizes.forEach((b) => b.setAttribute("aria-pressed", String(b.value === players)));
      refresh();
    } }, value || t("anyPlayers")));
  const more = pager("lobby-more", t("more"), PAGE, MOST, () => refresh());
  const panel = h("section", { class: "panel lobby-panel", "aria-labelledby": "lobby-title" },
    h("div", { class: "lobby-head" },
      h("h2", { id: "lobby-title" }, t("lobby")),
      h("div", { class: "switch", role: "group", "aria-label": t("players") }, sizes),
      h("button", { type: "button", class: "refresh", "data-testid": "lobby-refresh",
        onclick: () => refresh() }, t("refresh"))),
    list, more.button);

  // a seat is taken as a join link takes it (#/join/<id>: a name asked first when this browser
  // has no key; a refusal said on the home screen, whose list is then read again)
  const take = (matchId) => go(`#/join/${matchId}`);

  async function refresh() {
    const turn = ++asked;
    list.setAttribute("aria-busy", "true");
    try {
      const limit = more.limit();
      const query = `limit=${limit}${players ? `&players=${players}` : ""}`;
      const page = await api.call("GET", `/v1/matches?${query}`);
      if (closed || turn !== asked) return;
      if (reach) reach.ok("lobby");
      const items = page.items.filter((item) => !item.you);
      more.shown(page, limit);
      const key = JSON.stringify(items.map((i) => [i.id, i.seats_free, present(i)]));
      if (key !== shown) {
        shown = key;
        list.replaceChildren(...(items.length ? items.map((item) => lobbyItem(item, take))
          : [h("li", { class: "empty" }, t("noOpenMatches"))]));
      }
    } catch (error) {
      if (!closed && !(reach && reach.failed("lobby", refresh, error))) showError(error.message);
    } finally {
      if (turn === asked) list.setAttribute("aria-busy", "false");
    }
  }

  refresh();
  const timer = setInterval(refresh, EVERY);
  return { panel, close: () => { closed = true; clearInterval(timer); } };
}
