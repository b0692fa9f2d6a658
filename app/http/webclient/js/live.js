// Live now: the public matches being played (GET /v1/matches?status=active) that I do not
// play in (mine, those the server gives a `you`, are under My matches), the one that moved
// last first, each with Watch, which opens its table as a spectator sees it (no hidden card);
// ten at first, More shows ten more. The panel shows only while there is something to watch.

import * as api from "./api.js";
import { h, pager } from "./dom.js";
import { t } from "./i18n.js";
import { listedName, matchKind } from "./words.js";

const EVERY = 20000; // the list read again while home is shown
const PAGE = 10; // matches a page of the list shows; More shows one page more
const MOST = 100; // the longest list the lobby answers in one reading (limit 1 to 100)

function liveItem(item) {
  const sides = [0, 1].map((team) => (item.seats || []).filter((s) => s.team === team)
    .map(listedName).join(", "));
  return h("li", { class: "lobby-item", dataset: { matchId: item.id } },
    h("span", { class: "about" },
      h("span", {}, matchKind(item)),
      h("span", { class: "sub" }, `${sides[0]} ${item.score[0]} × ${item.score[1]} ${sides[1]}`)),
    h("a", { class: "button", href: `#/match/${item.id}`, "data-testid": "watch" }, t("watch")));
}

/** The Live now panel. Returns `{panel, close}`. */
export function livePanel() {
  const list = h("ul", { class: "lobby", "data-testid": "live" });
  const more = pager("live-more", t("more"), PAGE, MOST, () => refresh());
  const panel = h("section", { class: "panel lobby-panel live-panel", hidden: true,
    "aria-labelledby": "live-title" }, h("h2", { id: "live-title" }, t("liveNow")), list,
  more.button);
  let shown = null;
  let closed = false;
  async function refresh() {
    try {
      const limit = more.limit();
      const page = await api.call("GET", `/v1/matches?status=active&limit=${limit}`);
      if (closed) return;
      more.shown(page, limit);
      const key = JSON.stringify(page.items.map((i) => [i.id, i.score]));
      if (key === shown) return;
      shown = key;
      const others = page.items.filter((i) => !i.you);
      list.replaceChildren(...others.map(liveItem));
      panel.hidden = !others.length;
    } catch {
      // (a panel less: the home screen stands without it)
    }
  }
  refresh();
  const timer = setInterval(refresh, EVERY);
  return { panel, close: () => { closed = true; clearInterval(timer); } };
}
