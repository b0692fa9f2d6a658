// The server out of reach from the home screen: one line says so ("Cannot reach the server.
// Retrying…") while any of its reads fails for want of a connection, and each such read is
// tried again every RETRY_MS until it works; the line goes once none is failing.

import { h, showError } from "./dom.js";
import { t } from "./i18n.js";

const RETRY_MS = 3000;

/** Whether `error` says the server was not reached (no answer, or a proxy's gateway error),
 * not that it refused. */
export function unreachable(error) {
  return !!error && (error.status === 0 || error.status === 502 || error.status === 504);
}

/** The line that says the server is out of reach (hidden: until a reading fails). */
export function reachLine(hidden) {
  return h("p", { class: "panel notice unreachable", "data-testid": "unreachable",
    role: "status", hidden }, t("unreachable"));
}

/** The line and the retries of one home screen: `failed(name, read, error)` (true when
 * `error` was the server out of reach: `read` is tried again), `ok(name)`, `down()`,
 * `close()`; `line` is the element to show. */
export function reachWatch() {
  const failing = new Map(); // the reads that could not reach the server, by name
  let timer = null;
  let closed = false;
  const line = reachLine(true);
  function tick() {
    timer = null;
    if (closed) return;
    [...failing.values()].forEach((read) => read());
  }
  return {
    line,
    failed(name, read, error) {
      if (closed || !unreachable(error)) {
        this.ok(name);
        return false;
      }
      if (!failing.size) {
        // this one line says it: not the error line's "No connection…" or "reconnecting…"
        const said = document.getElementById("error");
        if (said && [t("offline"), t("reconnecting")].includes(said.textContent)) showError("");
      }
      failing.set(name, read);
      line.hidden = false;
      if (!timer) timer = setTimeout(tick, RETRY_MS);
      return true;
    },
    ok(name) {
      failing.delete(name);
      if (!failing.size) line.hidden = true;
    },
    down: () => failing.size > 0,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** A screen that could not be read because the server is out of reach: the line, and
 * `retry()` every RETRY_MS (the route again) until it is left. Returns `{node, close}`. */
export function unreachableScreen(retry) {
  const timer = setTimeout(retry, RETRY_MS);
  return { node: h("div", { class: "home" }, reachLine(false)),
    close: () => clearTimeout(timer) };
}
