// The player's own stream, /v1/me/stream, held once per page while a player is known here: the
// window's title counts what waits for them ("(2) Truco": their turns and their invitations), on
// every screen, so that a tab left in the background says when to come back; what newly waits
// is notified when the person asked for it (notify.js); and whoever listens (the inbox) hears
// each `inbox` event and the stream's state.

import * as api from "./api.js";
import { forgetWaiting, heard } from "./notify.js";

const BASE = document.title;
let live = null; // the stream, while a player is known here
let holder = null; // whose token it was opened with
const listeners = new Set(); // {message(page), state(state)}
let last = null; // the stream's latest `inbox` page (null until it has said one)

/** The title for `count` things that wait for me. */
export function titled(count) {
  return count > 0 ? `(${count}) ${BASE}` : BASE;
}

/** Keep the stream (and the title) for the player of this browser: started when a token is
 * known, stopped (the plain title back) when it is forgotten or another one is adopted. */
export function followTurns() {
  const token = api.token();
  if (live && holder === token) return;
  if (live) live.close();
  live = null;
  last = null;
  forgetWaiting();
  holder = token;
  document.title = BASE;
  if (!token) return;
  live = api.stream("/v1/me/stream", (message) => {
    if (message.event !== "inbox" || !message.data) return;
    const page = JSON.parse(message.data);
    last = page;
    document.title = titled((page.awaiting || 0) + (page.invitations || 0));
    heard(page);
    listeners.forEach((l) => l.message(page));
  }, (state) => listeners.forEach((l) => l.state(state)));
}

/** Hear the player's stream: `message(page)` at each `inbox` event (at once with the latest,
 * when the stream has said one: a new stream says one as it opens), `state(state)` as it drops
 * and comes back. Returns `{close()}`. */
export function listen(message, state = () => {}) {
  const listener = { message, state };
  listeners.add(listener);
  followTurns();
  if (last) queueMicrotask(() => listeners.has(listener) && message(last));
  return { close: () => listeners.delete(listener) };
}
