/* The leftovers pad's seats: a tab a player, what is recorded for each (the tab's data-recorded
   and data-entry), and what was tapped for each and not saved yet (a draft: {cards, out}). Drafts
   are kept in this phone's storage per hand, so a refresh or a trip back loses nothing, unless
   what is recorded changed meanwhile. And a save of them the server refused, as the outbox lists it. */

import { local } from "./storage.js";

const norm = (entry) => entry.cards.toUpperCase().split(/[\s,]+/).filter(Boolean).join(" ") + "|" + entry.out;
const LEFTOVERS_URL = /^(.*\/hand\/\d+\/)(?:seat\/(\d+)|leftovers)$/;

/* An entry as a player reads it: its cards, or "went out". */
export const shown = (entry) => (entry.out ? "went out" : entry.cards);

/* A save of leftovers the server refused because another phone's entries came first (one seat's,
   or a whole hand's), as the outbox keeps it: each seat in conflict ({player, recorded, yours}),
   and the address that brings every entry of the save back onto the pad, those seats shown both
   ways (?reapply=<id>: Pad.reapply). Null for any other change or refusal. */
export function refusedLeftovers(item, result) {
  const match = LEFTOVERS_URL.exec(new URL(item.url, location.href).pathname);
  if (!match || result.status !== 409) { return null; }
  const id = item.id;
  const body = new URLSearchParams(item.body), whole = body.has("seats");
  const held = whole ? body.get("seats").split(",").filter(Boolean) : [match[2]];
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
  constructor(form) {
    this.tabs = [...document.querySelectorAll(".seat-tab[data-seat]")];
    this.key = "drafts:" + form.getAttribute("data-hand-url");
    this.drafts = {};
  }

  order() { return this.tabs.map((tab) => tab.getAttribute("data-seat")); }

  tab(which) { return this.tabs.find((tab) => tab.getAttribute("data-seat") === String(which)); }

  player(which) { return this.tab(which).getAttribute("data-player"); }

  recorded(which) {
    const tab = this.tab(which), cards = tab.getAttribute("data-recorded") || "";
    return { cards, out: tab.hasAttribute("data-entry") && !cards, entry: tab.getAttribute("data-entry") || "" };
  }

  /* What another phone recorded meanwhile stands now for this seat (entry null: nothing, undone). */
  stands(which, entry, cards) {
    const tab = this.tab(which);
    if (entry === null || entry === undefined) {
      tab.removeAttribute("data-entry");
      tab.removeAttribute("data-recorded");
      return;
    }
    tab.setAttribute("data-entry", String(entry));
    tab.setAttribute("data-recorded", (cards || []).join(" "));
  }

  /* Tapped and different from what is recorded. */
  dirty(which) { return this.drafts[which] && norm(this.drafts[which]) !== norm(this.recorded(which)); }

  /* The seats whose taps wait to be saved, in seat order. */
  waiting() { return this.order().filter((which) => this.dirty(which)); }

  keep() {
    const kept = {};
    this.waiting().forEach((which) => {
      kept[which] = this.drafts[which];
      this.drafts[which].base = norm(this.recorded(which));
    });
    local.write(this.key, kept);
  }

  /* The drafts kept for seats whose record has not changed since; the seat shown keeps what its
     form holds when that differs from the record (typed, or sent back refused). */
  restore(seat, shown, refused) {
    const stored = local.read(this.key, {});
    this.order().forEach((which) => {
      if (stored[which] && stored[which].base === norm(this.recorded(which))) { this.drafts[which] = stored[which]; }
    });
    if (norm(shown) !== norm(this.recorded(seat)) || refused || !this.drafts[seat]) { this.drafts[seat] = shown; }
    return this.drafts[seat];
  }

  /* Each tab shows what waits on it (a count of cards, or out), else ✓ when recorded. */
  mark() {
    this.tabs.forEach((tab) => {
      const which = tab.getAttribute("data-seat"), draft = this.dirty(which) && this.drafts[which];
      tab.classList.toggle("tapped", !!draft);
      tab.querySelector("[data-tab-mark]").textContent = draft ? " (" + (draft.out ? "out" : draft.cards.split(/\s+/).filter(Boolean).length) + ")"
        : (tab.hasAttribute("data-entry") ? " \u2713" : "");
    });
  }
}
