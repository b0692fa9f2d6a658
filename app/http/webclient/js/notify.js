// The browser's notifications of what waits for me: when the player's stream (badge.js) says
// that a match became my turn, or that an invitation came, a system notification says so,
// and clicking it opens that match. Asked for by a toggle under "Playing as"; only for what
// arrives while the page is open (not what already waited when it opened), and never for the
// match whose table is in sight.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { listedName, matchKind, othersSeated } from "./words.js";

const KEY = "truco.notify"; // "on" once the person asked for them (and the browser allowed)
let waiting = null; // the ids of what waited for me at the stream's last page (null: none yet)

function supported() {
  return "Notification" in window;
}

function wanted() {
  return supported() && Notification.permission === "granted"
    && localStorage.getItem(KEY) === "on";
}

/** Forget what waited (another player in this browser, or no player). */
export function forgetWaiting() {
  waiting = null;
}

/** The notification of `item` (a match summary of the stream's page), unless its table is in
 * sight on a page in view. */
function notify(item) {
  const shown = location.hash === `#/match/${item.id}` && document.visibilityState === "visible";
  if (shown) return;
  const others = othersSeated(item).map(listedName).join(", ");
  const note = new Notification(item.invitation ? t("noteInvitation") : t("noteTurn"), {
    body: [matchKind(item), others].filter(Boolean).join(" · "),
    tag: `truco-${item.id}`, // (a newer one for the same match replaces it)
  });
  note.onclick = () => {
    window.focus();
    location.hash = `#/match/${item.id}`;
    note.close();
  };
}

/** At each `inbox` page of the player's stream: a notification for each match newly there. */
export function heard(page) {
  const now = new Set(page.items.map((item) => item.id));
  if (waiting !== null && wanted()) {
    page.items.filter((item) => !waiting.has(item.id)).forEach(notify);
  }
  waiting = now;
}

/** The toggle under "Playing as" (null where the browser has no notifications). */
export function notifyToggle() {
  if (!supported()) return null;
  const said = h("span", { class: "hint", "data-testid": "notify-said", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "toggle", "data-testid": "notify",
    onclick: async () => {
      if (wanted()) localStorage.removeItem(KEY);
      else if ((await Notification.requestPermission()) === "granted") {
        localStorage.setItem(KEY, "on");
      }
      show();
    } }, h("span", { class: "box", "aria-hidden": "true" }), t("notifyMe"));
  function show() {
    button.setAttribute("aria-pressed", String(wanted()));
    const blocked = Notification.permission === "denied";
    button.disabled = blocked;
    said.textContent = blocked ? t("notifyBlocked") : "";
  }
  show();
  return h("div", { class: "notify" }, button, " ", said);
}
