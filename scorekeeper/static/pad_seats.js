/* The leftovers pad's seats: a tab a player, what is recorded for each (the tab's data-recorded
   and data-entry), and what was tapped for each and not saved yet (a draft: {cards, out}). Drafts
   are kept in this phone's storage per hand, so a refresh or a trip back loses nothing, unless
   what is recorded changed meanwhile. */

import { local } from "./storage.js";

const norm = (entry) => entry.cards.toUpperCase().split(/[\s,]+/).filter(Boolean).join(" ") + "|" + entry.out;

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
