// Cards as the API writes them (rank then suit: "7c", "Qd", "As"): their symbols, colours
// (a four-colour deck: each suit its own shape and colour) and spoken names.

import { lang } from "./i18n.js";

export const SUITS = {
  c: { symbol: "♣", en: "clubs", pt: "paus" },
  d: { symbol: "♦", en: "diamonds", pt: "ouros" },
  h: { symbol: "♥", en: "hearts", pt: "copas" },
  s: { symbol: "♠", en: "spades", pt: "espadas" },
};

const RANKS = {
  A: { en: "Ace", pt: "Ás" }, K: { en: "King", pt: "Rei" }, J: { en: "Jack", pt: "Valete" },
  Q: { en: "Queen", pt: "Dama" },
};

/** "7 of clubs" / "7 de paus". */
export function cardName(code) {
  if (!code) return "";
  const rank = code[0];
  const suit = SUITS[code[1]];
  const l = lang();
  const rankName = RANKS[rank] ? RANKS[rank][l] : rank;
  return l === "pt" ? `${rankName} de ${suit.pt}` : `${rankName} of ${suit.en}`;
}

/** A card face (or its back, for `null`) as an element with a text name. */
export function cardElement(code, { tag = "span", label = null, small = false } = {}) {
  const el = document.createElement(tag);
  el.classList.add("card");
  if (small) el.classList.add("small");
  if (!code) {
    el.classList.add("back");
    el.setAttribute("aria-label", label || "");
    if (tag === "span") el.setAttribute("role", "img");
    return el;
  }
  const suit = code[1];
  el.classList.add(`suit-${suit}`);
  el.dataset.card = code;
  el.setAttribute("aria-label", label || cardName(code));
  if (tag === "span") el.setAttribute("role", "img");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = `${code[0]}${SUITS[suit].symbol}`;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = SUITS[suit].symbol;
  el.append(corner, pip);
  return el;
}
