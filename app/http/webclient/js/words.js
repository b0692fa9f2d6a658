// How the table names things: the calls of a raise ladder, the answers, seats and teams,
// the rules and the time per turn, and a sentence for each event.

import * as api from "./api.js";
import { cardName } from "./cards.js";
import { t } from "./i18n.js";

const RULESET_NAMES = { paulista: "Paulista", mineiro: "Mineiro" };

/** "Paulista", "Mineiro" (a ruleset the client does not know: its own name). */
export function rulesetName(name) {
  return RULESET_NAMES[name] || name;
}

/** The times per turn a player chooses from, in seconds (null: no limit). */
export const TURN_TIMEOUTS = [null, 30, 120, 600, 3600, 86400, 604800];

/** A time per turn: "30 s", "2 min", "1 h", "1 d", "7 d"; null: "No limit". */
export function timeoutLabel(seconds) {
  if (seconds === null || seconds === undefined) return t("noLimit");
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** A built-in level as a list names it: "Bot (easy)". */
export function levelName(level) {
  return `${t("bot")} (${t("levels")[level] || level})`;
}

/** The built-in levels by their players' ids, from GET /v1/rulesets (`bots`); empty without
 * it. */
export function levelsOf(rulesets) {
  return Object.fromEntries(((rulesets && rulesets.bots) || []).map((b) => [b.player_id, b.level]));
}

/** The seats of a match summary that someone other than me holds (a person or a level). */
export function othersSeated(item) {
  const mine = item.you ? item.you.seat : null;
  return (item.seats || []).filter((s) => s.seat !== mine && (s.player || s.bot_level));
}

/** A seat of a match summary or view as a list names it: a level as "Bot (easy)", a person
 * by name, a seat nobody holds as "free seat". */
export function listedName(seat) {
  return seat.bot_level ? levelName(seat.bot_level) : seat.player ? seat.player.name
    : t("emptySeat");
}

/** A match's size and rules: "2 players · Paulista". */
export function matchKind(match) {
  return `${match.players} ${t("seatCount")} · ${rulesetName(match.ruleset)}`;
}

/** "1 d per turn", or null without a time per turn. */
export function perTurn(seconds) {
  return seconds ? t("perTurn")(timeoutLabel(seconds)) : null;
}

const CALLS = {
  paulista: { 3: "Truco!", 6: "Seis!", 9: "Nove!", 12: "Doze!" },
  mineiro: { 4: "Truco!", 6: "Seis!", 10: "Dez!", 12: "Doze!" },
};

/** "Truco!" for a raise to 3 in Paulista, "Dez!" for 10 in Mineiro... */
export function callWord(ruleset, to) {
  return (CALLS[ruleset] || CALLS.paulista)[to] || `Truco! (${to})`;
}

/** The button text of a non-card action, as the table says it. */
export function actionLabel(view, action) {
  const eleven = view.hand && view.hand.pending && view.hand.pending.kind === "mao_de_onze";
  if (action.type === "raise") return callWord(view.ruleset, action.to);
  if (action.type === "accept") return eleven ? "Jogo" : "Desce";
  if (action.type === "refuse") return "Corro";
  return action.type;
}

/** What a non-card action's Portuguese word means, in English ("accept", "fold"...); null
 * in Portuguese, where the word says it. */
export function actionHint(view, action) {
  const eleven = view.hand && view.hand.pending && view.hand.pending.kind === "mao_de_onze";
  const hints = t("hints");
  if (action.type === "raise") return hints.raise ? hints.raise(action.to) : null;
  if (action.type === "accept") return eleven ? hints.play11 : hints.accept;
  if (action.type === "refuse") return hints.refuse;
  return null;
}

/** "Mão de onze" (Mineiro: "Mão de dez"), or "Mão de ferro" with a word on blind cards. */
export function specialName(view) {
  const hand = view.hand;
  if (!hand || !hand.special) return null;
  if (hand.special === "mao_de_onze") {
    return view.ruleset === "mineiro" ? "Mão de dez" : "Mão de onze";
  }
  if (hand.special === "mao_de_ferro") {
    const blind = (hand.cards || []).some((c) => c === null);
    return blind ? `Mão de ferro: ${t("blind")}` : "Mão de ferro";
  }
  return hand.special.replaceAll("_", " ");
}

/** "ana", "you", "computer (easy)" for a seat of `view`. */
export function seatName(view, seat) {
  if (view.you && view.you.seat === seat) return t("you");
  const s = view.seats[seat];
  if (!s) return `${t("seat")} ${seat + 1}`;
  if (s.player && !s.player.bot) return s.player.name;
  if (s.bot_level) return `${t("bot")} ${seat + 1}`;
  if (s.player) return s.player.name;
  return `${t("seat")} ${seat + 1} (${s.invited ? t("invited") : t("emptySeat")})`;
}

/** My team at `view`'s table: my seat's, else that of the seat reserved for me (an invitation
 * is seen from it), else null (a spectator). */
export function myTeam(view) {
  if (view.you) return view.you.team;
  const me = api.token() ? api.me() : null;
  const held = me && (view.seats || []).find((s) => s.invited && s.player
    && s.player.id === me.id);
  return held ? held.seat % 2 : null;
}

/** "Us" / "Them" (or "Team 1" / "Team 2" for a spectator). */
export function teamName(view, team) {
  if (team === null || team === undefined) return t("tie");
  const mine = myTeam(view);
  if (mine === null) return `${t("table")} ${team + 1}`;
  return team === mine ? t("us") : t("them");
}

/** A side of the table as a sentence's subject: {we, name, one, you} (`we`: my side; `name`:
 * "They", "Team 2", or the one player of that side who is a person when `person` asks for
 * it; `one`: a singular subject; `you`: that player is me). */
export function sideOf(view, team, person = false) {
  const mine = myTeam(view);
  const we = mine === team;
  if (person) {
    const people = view.seats.filter((s) => s.team === team && !s.bot_level
      && !(s.player && s.player.bot));
    if (people.length === 1) {
      const you = !!view.you && view.you.seat === people[0].seat;
      return { we, you, one: true, name: seatName(view, people[0].seat) };
    }
  }
  return { we, you: false, one: mine === null, name: mine !== null ? t("they")
    : teamName(view, team) };
}

/** One sentence for an event, or null for those a person need not hear. */
export function describe(view, event) {
  const words = t("events");
  const who = event.seat !== undefined ? seatName(view, event.seat) : "";
  switch (event.type) {
    case "card_played":
      return words.played(who, !event.card ? t("faceDown")
        : event.face_down ? `${cardName(event.card)} (${t("faceDown")})` : cardName(event.card));
    case "raised": return words.raised(who, callWord(view.ruleset, event.to));
    case "raise_accepted": return words.accepted(who);
    case "raise_refused": return words.refused(who);
    case "eleven_decided": return words.eleven(who, event.accept);
    case "trick_won": return words.trickWon(event.trick, teamName(view, event.winner_team));
    case "trick_tied": return words.trickTied(event.trick);
    case "hand_won": return words.handWon(teamName(view, event.winner_team), event.points);
    case "match_won": return words.matchWon(sideOf(view, event.winner_team));
    case "hand_dealt": return words.dealt(event.hand);
    case "player_joined": return words.joined(who);
    case "player_resigned": return words.resigned(who);
    case "turn_timed_out": return words.timedOut(who, event.outcome === "forfeit",
      event.timeouts_in_row);
    case "match_forfeited": return words.forfeited(sideOf(view, event.team));
    default: return null;
  }
}
