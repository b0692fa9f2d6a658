// A match waiting for players, above its table: to a seated player, who is awaited and the
// link to share; to the player a seat is reserved for, the invitation to accept or decline;
// to anyone else, a seat to take in a public match. And a join refused, said in words.

import * as api from "./api.js";
import { copyText, h, showError } from "./dom.js";
import { lang, ruleWords, t } from "./i18n.js";
import { listedName, matchKind, perTurn, rulesetName } from "./words.js";

// a join (or a decline) refused: what the player is told
const JOIN_PROBLEMS = { match_not_waiting: "joinClosed", seat_taken: "joinClosed",
  invalid_invite_code: "joinBadCode", match_not_found: "notFound" };
// the same for an invitation: whatever became of it, it no longer holds (it expired, the
// match was withdrawn or started: the seat is not kept, or the code is not known)
const INVITATION_PROBLEMS = { match_not_waiting: "invitationClosed",
  seat_taken: "invitationClosed", invalid_invite_code: "invitationClosed",
  not_a_player: "invitationClosed", match_not_found: "notFound" };

/** A join (or an invitation's answer, `invited`) refused, in the player's words. */
export function joinProblem(error, invited = false) {
  const words = (invited ? INVITATION_PROBLEMS : JOIN_PROBLEMS)[error.code];
  return words ? t(words) : error.message;
}

/** "ana", "ana and bia", "ana, bia e caio" in the page's language. */
function listed(names) {
  return new Intl.ListFormat(lang() === "pt" ? "pt-BR" : "en", { type: "conjunction" })
    .format(names);
}

/** A person at the table as an invitation names them: "bia (@bia)". */
function named(player) {
  return player.handle ? `${player.name} (@${player.handle})` : player.name;
}

/** A seat nobody holds or is invited to: anyone may take it (with the code, if private). */
function open(seat) {
  return !seat.player && !seat.bot_level && !seat.invited;
}

/** The match's kind: "2 players · Paulista · 1 d per turn · best of three (queda)". */
function kind(view) {
  const games = view.rules && view.rules.games_to_win > 1
    ? ruleWords("games_to_win").value(view.rules.games_to_win) : null;
  return [matchKind(view), perTurn(view.turn_timeout), games].filter(Boolean).join(" · ");
}

/** Who else sits at a 4- or 6-player table, by side, from the reserved seat: "with bia · vs
 * Bot (easy), Bot (easy)" (null with two players: the invitation names the other). */
function company(view, mine) {
  if (view.players <= 2) return null;
  const others = view.seats.filter((s) => s.seat !== mine.seat);
  const partners = others.filter((s) => s.team === mine.team).map(listedName);
  const opponents = others.filter((s) => s.team !== mine.team).map(listedName);
  return [partners.length ? `${t("with")} ${partners.join(", ")}` : null,
    `${t("against")} ${opponents.join(", ")}`].filter(Boolean).join(" · ");
}

/**
 * What a join link says to a person who has no key yet, above the name to give (`view`: the
 * match as anyone may see it): who invites them to what ("ana invites you to a 2-player
 * match, Paulista."; `code` absent, a public match's seat: "ana is waiting for players in
 * ..."), the time per turn and the match's length when they are said, and how to join.
 */
export function joinNote(view, code) {
  const hosts = view.seats.filter((s) => s.player && !s.invited).map((s) => named(s.player));
  const match = t("aMatchOf")(view.players, rulesetName(view.ruleset));
  const said = !hosts.length ? t("invitedTo")(match)
    : (code ? t("invitesYouTo") : t("waitsIn"))(listed(hosts), hosts.length, match);
  const games = view.rules && view.rules.games_to_win > 1
    ? ruleWords("games_to_win").value(view.rules.games_to_win) : null;
  const more = [perTurn(view.turn_timeout), games].filter(Boolean).join(" · ");
  return h("div", { class: "join-note", "data-testid": "join-note" },
    h("p", { class: "from" }, said),
    more ? h("p", { class: "kind" }, more) : null,
    h("p", {}, t("joinHow")));
}

/**
 * The waiting panel of match `matchId`'s table. `go(hash, notice)` navigates (a decline leads
 * home with a notice); `show(view)` draws a view answered here (an accepted invitation, a seat
 * taken). Returns `panel(view)`: the panel for a waiting view, or null.
 */
export function waitingRoom(matchId, go, show) {
  let busy = false; // an answer on its way: the buttons wait for it (drawn again meanwhile too)

  async function answer(path, body, invited, then) {
    if (busy) return;
    busy = true;
    showError("");
    document.querySelectorAll(".waiting button.answer").forEach((b) => { b.disabled = true; });
    try {
      then(await api.call("POST", `/v1/matches/${matchId}/${path}`, body));
    } catch (error) {
      showError(joinProblem(error, invited));
      // (the table as it stands now: the invitation gone, the match started...)
      api.call("GET", `/v1/matches/${matchId}`).then(show, () => {});
    } finally {
      busy = false;
      document.querySelectorAll(".waiting button.answer").forEach((b) => { b.disabled = false; });
    }
  }

  function button(text, attrs) {
    return h("button", { type: "button", class: "answer", disabled: busy, ...attrs }, text);
  }

  function invitation(view, mine) {
    // who invites: the people who have taken their seats (the creator among them)
    const hosts = view.seats.filter((s) => s.player && !s.invited).map((s) => named(s.player));
    const about = company(view, mine);
    return h("section", { class: "waiting panel invitation", "data-testid": "invitation",
      "aria-labelledby": "invitation-title" },
    h("h2", { id: "invitation-title" }, t("invitation")),
    h("p", { class: "from" }, hosts.length ? t("invitesYou")(listed(hosts), hosts.length)
      : t("invitedHere")),
    h("p", { class: "kind" }, kind(view)),
    about ? h("p", { class: "company" }, about) : null,
    h("div", { class: "buttons" },
      button(t("accept"), { class: "answer primary", "data-testid": "accept-invitation",
        onclick: () => answer("join", {}, true, show) }),
      button(t("decline"), { "data-testid": "decline-invitation",
        onclick: () => answer("leave", undefined, true, () => go("#/", t("declined"))) })));
  }

  function seated(view) {
    // who is awaited: the invited players by name, and the open seats by the link that fills
    // them (a private match's join link with its code; a public match's own address)
    const invited = view.seats.filter((s) => s.invited && s.player).map((s) => s.player.name);
    const free = view.seats.some(open);
    const link = !free ? null : view.invite_code
      ? `${location.origin}/play/#/join/${view.id}/${view.invite_code}`
      : view.visibility === "public" ? `${location.origin}/play/#/match/${view.id}` : null;
    return h("div", { class: "waiting panel" },
      invited.length ? h("p", {}, t("waitingFor")(listed(invited))) : null,
      link ? [h("p", {}, t("waitingShare")),
        h("p", {}, h("code", { "data-testid": "invite-link" }, link), " ",
          h("button", { type: "button", onclick: (e) => copyText(link, e.currentTarget,
            t("copied")) }, t("copy"))),
        view.invite_code ? null : h("p", { class: "hint" }, t("publicLink"))]
        : invited.length ? null : h("p", {}, t("waitingOpen")),
      // nobody came: the seat given up (the last person's leave cancels the match)
      h("div", { class: "buttons" }, button(t("leaveMatch"), { "data-testid": "leave-match",
        onclick: () => window.confirm(t("leaveConfirm"))
          && answer("leave", undefined, false, () => go("#/", t("left"))) })));
  }

  function visitor(view) {
    // not seated, not invited: a public match's free seat is anyone's (a person without a
    // key registers first, as with a join link); a private one needs its link
    const free = view.visibility === "public" && view.seats.some(open);
    return h("div", { class: "waiting panel" }, h("p", {}, t("waitingOpen")),
      free ? h("div", { class: "buttons" }, button(t("takeSeat"), { class: "answer primary",
        "data-testid": "take-seat", onclick: () => (api.token()
          ? answer("join", {}, false, show) : go(`#/join/${view.id}`)) })) : null);
  }

  return function panel(view) {
    if (view.status !== "waiting") return null;
    if (view.you) return seated(view);
    const me = api.token() ? api.me() : null;
    const mine = me && view.seats.find((s) => s.invited && s.player && s.player.id === me.id);
    return mine ? invitation(view, mine) : visitor(view);
  };
}
