// Handles, the names players find each other by: mine shown and changed under "Playing as"
// (PATCH /v1/players/me), friends' read from the new-match form to reserve their seats, and
// what the server refuses about either, said in words.

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const HANDLE = /^[A-Za-z0-9_-]{3,20}$/; // (the server's rule: 3 to 20 of a-z 0-9 _ -)
let mine = null; // my handle as last read (GET /v1/players/me), to catch a self-invitation

/**
 * My handle: `shown` ("@ana", hidden while I have none) and `editor`, a <details> with a
 * field and Save. `show(profile)` fills both from a profile read (the field only while the
 * person has not typed in it).
 */
export function handleEditor() {
  const shown = h("span", { class: "my-handle", "data-testid": "my-handle", hidden: true });
  const input = h("input", { id: "f-handle", name: "handle", "data-testid": "handle",
    maxlength: 20, autocomplete: "off", autocapitalize: "none", spellcheck: "false",
    "aria-describedby": "f-handle-hint f-handle-said" });
  const said = h("p", { id: "f-handle-said", class: "said", "data-testid": "handle-said",
    "aria-live": "polite" });
  let typed = false;
  input.addEventListener("input", () => { typed = true; });

  function show(profile) {
    mine = profile.handle;
    shown.textContent = profile.handle ? `@${profile.handle}` : "";
    shown.hidden = !profile.handle;
    if (!typed) input.value = profile.handle || "";
  }

  function say(text, bad) {
    said.textContent = text;
    said.classList.toggle("bad", bad);
    if (bad) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  const save = h("button", { type: "submit", "data-testid": "save-handle" }, t("save"));
  const form = h("form", { class: "handle-form", "data-testid": "handle-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const wanted = input.value.trim().replace(/^@/, "");
      if (wanted && !HANDLE.test(wanted)) {
        say(t("handleRule"), true);
        return;
      }
      save.disabled = true;
      try {
        // (empty: give it up)
        const profile = await api.call("PATCH", "/v1/players/me", { handle: wanted || null });
        typed = false;
        show(profile);
        say(profile.handle ? t("handleSaved")(profile.handle) : t("handleRemoved"), false);
      } catch (error) {
        say(error.code === "handle_taken" ? t("handleTaken")
          : error.code === "validation_error" ? t("handleRule") : error.message, true);
      } finally {
        save.disabled = false;
      }
    } },
  h("label", { for: "f-handle" }, t("handle")),
  h("div", { class: "row" },
    h("span", { class: "at-field" }, h("span", { class: "at", "aria-hidden": "true" }, "@"),
      input), save));
  const editor = h("details", { class: "handle-edit" },
    h("summary", {}, t("myHandle")),
    h("p", { id: "f-handle-hint", class: "hint" }, t("handleHint")),
    form, said);
  return { shown, editor, show };
}

/** The handles written in `text` ("@ana, bia caio"), in order: a list, or `{problem}` in
 * words (not a handle, named twice, more than `friends`, my own). */
export function friendHandles(text, friends) {
  const handles = text.split(/[\s,;]+/).map((w) => w.replace(/^@/, "")).filter(Boolean);
  const bad = handles.find((handle) => !HANDLE.test(handle));
  if (bad) return { problem: t("badHandle")(bad) };
  const seen = new Set();
  for (const handle of handles) {
    if (seen.has(handle.toLowerCase())) return { problem: t("handleTwice")(handle) };
    seen.add(handle.toLowerCase());
  }
  if (handles.length > friends) return { problem: t("tooManyHandles")(handles.length, friends) };
  if (mine && seen.has(mine.toLowerCase())) return { problem: t("inviteSelf") };
  return handles;
}

/** The player of each handle (GET /v1/players?handle=), null for a handle nobody has
 * (undefined: not known, the look-up failed). */
function lookUp(handles) {
  return Promise.all(handles.map((handle) => api.call("GET",
    `/v1/players?handle=${encodeURIComponent(handle)}`)
    .catch((error) => (error.code === "player_not_found" ? null : undefined))));
}

/** A creation with `handles` invited that the server refused, in words: a handle nobody
 * has, my own, a player who blocked me or has too many invitations (named by handle). */
export async function inviteProblem(error, handles) {
  const problem = error.problem || {};
  const about = ["validation_error", "blocked", "too_many_invitations"].includes(error.code);
  if (!handles.length || !about || (error.code === "validation_error" && !(problem.errors
      && problem.errors.invite))) return error.message;
  const players = await lookUp(handles);
  if (players.includes(undefined)) return error.message;
  if (error.code === "validation_error") {
    const nobody = handles.find((_, i) => players[i] === null);
    if (nobody) return t("noSuchHandle")(nobody);
    const me = api.me();
    if (me && players.some((p) => p.id === me.id)) return t("inviteSelf");
    return error.message;
  }
  const at = players.findIndex((p) => p && p.id === problem.player_id);
  const who = at >= 0 ? `@${handles[at]}` : t("someoneInvited");
  return error.code === "blocked" ? t("blockedBy")(who) : t("tooManyInvitations")(who);
}
