// @ts-check
/* The leftovers pad's seats: a tab a player, what is recorded for each (the tab's data-recorded
   and data-entry), and what was tapped for each and not saved yet (a draft: {cards, out}). Drafts
   are kept in this phone's storage per hand, so a refresh or a trip back loses nothing, unless
   what is recorded changed meanwhile. And a save of them the server refused, as the outbox lists it. */

import { local } from "./storage.js";

/** @import { Answer, Item, Read } from "./outbox.js" */
/** @typedef {{cards: string, out: boolean}} Leftovers what one player has left: the cards as typed, or out */
/** @typedef {Leftovers & {base?: string}} Draft what was tapped for a seat and not saved; kept with the record it was tapped over (base) */
/** @typedef {Leftovers & {entry: string}} Recorded what is recorded for a seat, and its entry ("" for none) */

/** @type {(entry: Leftovers) => string} */
const norm = (entry) => entry.cards.toUpperCase().split(/[\s,]+/).filter(Boolean).join(" ") + "|" + entry.out;
const LEFTOVERS_URL = /^(.*\/hand\/\d+\/)(?:seat\/(\d+)|leftovers)$/;

/* An entry as a player reads it: its cards, or "went out". */
/** @type {(entry: Leftovers) => string} */
export const shown = (entry) => (entry.out ? "went out" : entry.cards);

/* A save of leftovers the server refused because another phone's entries came first (one seat's,
   or a whole hand's), as the outbox keeps it: each seat in conflict ({player, recorded, yours}),
   and the address that brings every entry of the save back onto the pad, those seats shown both
   ways (?reapply=<id>: Pad.reapply). Null for any other change or refusal. */
/** @param {Item} item @param {Answer} result @returns {Read | null} */
export function refusedLeftovers(item, result) {
  const match = LEFTOVERS_URL.exec(new URL(item.url, location.href).pathname);
  if (!match || result.status !== 409) { return null; }
  const id = item.id;
  const body = new URLSearchParams(item.body), whole = body.has("seats");
  const held = whole ? (body.get("seats") || "").split(",").filter(Boolean) : [match[2]];
  /** @type {(seat: string) => Leftovers} */
  const mine = (seat) => (whole ? { cards: body.get("cards-" + seat) || "", out: !!body.get("out-" + seat) }
    : { cards: body.get("cards") || "", out: !!body.get("went_out") });
  const conflicts = result.conflicts || [{ seat: match[2], player: null, cards: result.current ? result.current.cards : null }];
  const query = new URLSearchParams({ reapply: id, seats: held.join(","), conflicts: conflicts.map((c) => c.seat).join(",") });
  held.forEach((seat) => {
    query.set("cards-" + seat, mine(seat).cards);
    if (mine(seat).out) { query.set("out-" + seat, "y"); }
  });
  return {
    reapply: match[1] + "seat/" + conflicts[0].seat + "?" + query,
    conflicts: conflicts.map((c) => ({
      player: c.player, yours: shown(mine(String(c.seat))),
      recorded: c.cards === null || c.cards === undefined ? "nothing (undone)" : c.cards.join(" ") || "went out",
    })),
  };
}

export class Seats {
  /** @param {HTMLFormElement} form the pad's */
  constructor(form) {
    /** @type {HTMLAnchorElement[]} */
    this.tabs = [.../** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll(".seat-tab[data-seat]"))];
    this.key = "drafts:" + form.getAttribute("data-hand-url");
    /** @type {Record<string, Draft>} by seat */
    this.drafts = {};
  }

  /** @returns {string[]} */
  order() { return this.tabs.map((tab) => /** @type {string} */ (tab.getAttribute("data-seat"))); }

  /** The tab of a seat, where the seat is at this table. @param {string | number} which @returns {HTMLAnchorElement | undefined} */
  tab(which) { return this.tabs.find((tab) => tab.getAttribute("data-seat") === String(which)); }

  /** The tab of a seat at this table. @param {string | number | null} which @returns {HTMLAnchorElement} */
  at(which) { return /** @type {HTMLAnchorElement} */ (this.tab(String(which))); }

  /** @param {string} which @returns {string} */
  player(which) { return this.at(which).getAttribute("data-player") || ""; }

  /** @param {string} which @returns {Recorded} */
  recorded(which) {
    const tab = this.at(which), cards = tab.getAttribute("data-recorded") || "";
    return { cards, out: tab.hasAttribute("data-entry") && !cards, entry: tab.getAttribute("data-entry") || "" };
  }

  /* What another phone recorded meanwhile stands now for this seat (entry null: nothing, undone). */
  /** @param {string | number | null} which @param {number | null | undefined} entry @param {string[] | null | undefined} cards */
  stands(which, entry, cards) {
    const tab = this.at(which);
    if (entry === null || entry === undefined) {
      tab.removeAttribute("data-entry");
      tab.removeAttribute("data-recorded");
      return;
    }
    tab.setAttribute("data-entry", String(entry));
    tab.setAttribute("data-recorded", (cards || []).join(" "));
  }

  /* Tapped and different from what is recorded. */
  /** @param {string} which @returns {boolean} */
  dirty(which) { return !!this.drafts[which] && norm(this.drafts[which]) !== norm(this.recorded(which)); }

  /* The seats whose taps wait to be saved, in seat order. */
  waiting() { return this.order().filter((which) => this.dirty(which)); }

  keep() {
    /** @type {Record<string, Draft>} */
    const kept = {};
    this.waiting().forEach((which) => {
      kept[which] = this.drafts[which];
      this.drafts[which].base = norm(this.recorded(which));
    });
    local.write(this.key, kept);
  }

  /* The drafts kept for seats whose record has not changed since; the seat shown keeps what its
     form holds when that differs from the record (typed, or sent back refused). */
  /** @param {string} seat @param {Leftovers} shown @param {boolean} refused @returns {Draft} */
  restore(seat, shown, refused) {
    const stored = local.read(this.key, /** @type {Record<string, Draft>} */ ({}));
    this.order().forEach((which) => {
      if (stored[which] && stored[which].base === norm(this.recorded(which))) { this.drafts[which] = stored[which]; }
    });
    if (norm(shown) !== norm(this.recorded(seat)) || refused || !this.drafts[seat]) { this.drafts[seat] = shown; }
    return this.drafts[seat];
  }

  /* Each tab shows what waits on it (a count of cards, or out), else ✓ when recorded. */
  mark() {
    this.tabs.forEach((tab) => {
      const which = /** @type {string} */ (tab.getAttribute("data-seat")), draft = this.dirty(which) && this.drafts[which];
      tab.classList.toggle("tapped", !!draft);
      /** @type {Element} */ (tab.querySelector("[data-tab-mark]")).textContent = draft ? " (" + (draft.out ? "out" : draft.cards.split(/\s+/).filter(Boolean).length) + ")"
        : (tab.hasAttribute("data-entry") ? " \u2713" : "");
    });
  }
}
