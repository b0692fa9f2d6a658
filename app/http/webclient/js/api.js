// The public HTTP API as the client uses it: JSON calls with the stored token, problems as
// errors, and Server-Sent Events read with fetch (EventSource cannot send a bearer token).

import { t } from "./i18n.js";

/** How long the client waits, in ms: for a call's whole answer (a half-open connection, after
 * a phone changes networks, answers nothing and never fails by itself), and for any line of a
 * stream (the server sends one at least every 25 s). An object, so that a test can shorten
 * them. */
export const limits = { call: 20000, silence: 40000 };

const TOKEN_KEY = "truco.token";
const PLAYER_KEY = "truco.player";

/** A problem+json answer (RFC 9457): `code`, `status`, `detail` and the rest of its body. */
export class ApiError extends Error {
  constructor(problem) {
    super(problem.detail || problem.title || "request failed");
    this.problem = problem;
    this.code = problem.code;
    this.status = problem.status;
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function me() {
  const raw = localStorage.getItem(PLAYER_KEY);
  return raw ? JSON.parse(raw) : null;
}

export function remember(player, tokenValue) {
  localStorage.setItem(TOKEN_KEY, tokenValue);
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, name: player.name }));
}

export function forget() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(PLAYER_KEY);
}

function headers(extra = {}) {
  const out = { Accept: "application/json", ...extra };
  const t = token();
  if (t) out.Authorization = `Bearer ${t}`;
  return out;
}

const unanswered = () => new ApiError({ status: 0, code: "network_error", detail: t("offline") });

/** `fetch` and the answer's text, within `limits.call`: `{response, text}`, with a network
 * failure or no whole answer in time as an ApiError of status 0 that says so in words (the
 * text is null when the body broke off after the status came). */
async function request(path, init) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.call);
  try {
    let response;
    try {
      response = await fetch(path, { ...init, signal: controller.signal });
    } catch {
      throw unanswered();
    }
    try {
      return { response, text: await response.text() };
    } catch {
      return { response, text: null };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** `method path` with a JSON `body`; the parsed answer, or an ApiError. */
export async function call(method, path, body, extra = {}) {
  return (await answered(method, path, body, extra)).data;
}

/** `GET path`: the parsed answer and its ETag (null when none), to send back in If-Match. */
export async function getTagged(path) {
  const { data, response } = await answered("GET", path);
  return { data, tag: response.headers.get("ETag") };
}

/** `method path` with a JSON `body`: `{data, response}`, or an ApiError. */
async function answered(method, path, body, extra = {}) {
  const init = { method, headers: headers(extra) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const { response, text } = await request(path, init);
  let data = null;
  try {
    if (text === null) throw new Error("cut off");
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy's error page) or cut off: the status says what happened
    if (response.ok) throw unanswered();
  }
  if (!response.ok) {
    throw new ApiError(data || { status: response.status,
      detail: `${t("serverError")} (${response.status} ${response.statusText})`.trim() });
  }
  return { data, response };
}

/** Register `name`; the token is kept in this browser. */
export async function register(name) {
  const player = await call("POST", "/v1/players", { name });
  remember(player, player.token);
  return player;
}

/** Use a token copied from another device (checked with GET /v1/players/me). */
export async function adopt(tokenValue) {
  const { response, text } = await request("/v1/players/me", {
    headers: { Accept: "application/json", Authorization: `Bearer ${tokenValue}` },
  });
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw response.ok ? unanswered() : new ApiError({ status: response.status,
      detail: `${t("serverError")} (${response.status} ${response.statusText})`.trim() });
  }
  if (!response.ok) throw new ApiError(data);
  remember(data, tokenValue);
  return data;
}

function parseMessage(block) {
  const message = { event: "message", data: "", id: null };
  let seen = false;
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const at = line.indexOf(":");
    const name = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    seen = true;
    if (name === "event") message.event = value;
    else if (name === "data") message.data = message.data ? `${message.data}\n${value}` : value;
    else if (name === "id") message.id = value;
    else if (name === "retry") message.retry = Number(value);
  }
  return seen ? message : null;
}

/**
 * Hold the SSE stream at `path`, calling `onMessage({event, data, id})` for each message and
 * reconnecting with Last-Event-ID after a drop. Returns `{close()}`.
 */
export function stream(path, onMessage, onState = () => {}) {
  let closed = false;
  let lastId = null;
  let retry = 2000;
  let controller = null;

  async function once() {
    controller = new AbortController();
    const extra = { Accept: "text/event-stream" };
    if (lastId !== null) extra["Last-Event-ID"] = lastId;
    // a stream that says nothing for limits.silence (its answer included) is dead: anew
    let silent = null;
    const listen = () => {
      clearTimeout(silent);
      silent = setTimeout(() => controller.abort(), limits.silence);
    };
    try {
      listen();
      const response = await fetch(path, { headers: headers(extra), signal: controller.signal });
      if (!response.ok) {
        const problem = await response.json().catch(() => ({ status: response.status }));
        throw new ApiError(problem);
      }
      onState("open");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        listen();
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = parseMessage(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!message) continue;
          if (message.retry) retry = message.retry;
          if (message.id !== null) lastId = message.id;
          if (message.event !== "message" || message.data) onMessage(message);
        }
      }
    } finally {
      clearTimeout(silent);
    }
  }

  (async () => {
    while (!closed) {
      try {
        await once();
      } catch (error) {
        if (closed) return;
        if (error instanceof ApiError && error.status && error.status < 500
            && error.status !== 429) {
          onState("failed", error);
          return;
        }
      }
      if (closed) return;
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, retry));
    }
  })();

  return {
    close() {
      closed = true;
      if (controller) controller.abort();
    },
  };
}
