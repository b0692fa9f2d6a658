// The window's title counts what waits for me ("(2) Truco": my turns and my invitations), on
// every screen, from /v1/me/stream: a tab left open in the background says when to come back.

import * as api from "./api.js";

const BASE = document.title;
let live = null; // the stream, while a player is known here
let holder = null; // whose token it was opened with

/** The title for `count` things that wait for me. */
export function titled(count) {
  return count > 0 ? `(${count}) ${BASE}` : BASE;
}

/** Keep the title current for the player of this browser: started when a token is known,
 * stopped (the plain title back) when it is forgotten or another one is adopted. */
export function followTurns() {
  const token = api.token();
  if (live && holder === token) return;
  if (live) live.close();
  live = null;
  holder = token;
  document.title = BASE;
  if (!token) return;
  live = api.stream("/v1/me/stream", (message) => {
    if (message.event !== "inbox" || !message.data) return;
    const page = JSON.parse(message.data);
    document.title = titled((page.awaiting || 0) + (page.invitations || 0));
  });
}
