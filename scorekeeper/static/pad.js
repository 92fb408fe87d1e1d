// @ts-check
/* The leftovers pad: tap ranks (and suits, where the game needs them) to add chips, tap a chip
   to remove it; the score comes from the server's engine. The tabs switch players without saving,
   so one phone may tap in the whole hand and save it once (each player still gets an entry of
   their own), or each phone only its own player. Without JavaScript the cards are typed. */

import { fetchWithin } from "./net.js";
import { onRefusal, settleRefused } from "./outbox.js";
import { Seats, refusedLeftovers, shown } from "./pad_seats.js";

/** @import { Answer, Conflict } from "./outbox.js" */
/** @typedef {{total?: number | string, covering?: string, error?: string}} Preview the score of what is tapped (total, the threes' covering), or why it cannot be scored (error) */

/** @type {Record<string, string>} */
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const BARE = /^(10|[2-9AJQKT])$/i;

/** @param {string} token @returns {string} */
function label(token) {
  const match = /^(10|[2-9AJQKT])([SHDC])$/i.exec(token);
  return match ? match[1].toUpperCase() + SUITS[match[2].toUpperCase()] : token.toUpperCase();
}

/* A save of leftovers refused because another phone's came first is listed with both entries of
   each player and a way back to the pad (on every page: the outbox sends from any of them). */
onRefusal(409, refusedLeftovers);

/** @type {(root: ParentNode, selector: string) => void} */
const drop = (root, selector) => root.querySelectorAll(selector).forEach((node) => node.remove());

/* A label that breaks between its words only, a word too long shortened (the words macro). */
/** @param {Element} node @param {string} text */
function sayInWords(node, text) {
  const box = document.createElement("span");
  box.className = "words";
  text.split(" ").forEach((word, index) => {
    const span = document.createElement("span");
    span.className = "word";
    span.textContent = word;
    box.append(index ? " " : "", span);
  });
  node.replaceChildren(box);
}

/* Scores what is tapped on the phone, from the game's rule book, once offline.js holds it:
   tokens → {total, covering} or {error}; null while it has no book. */
/** @type {((tokens: string[]) => Preview | null) | null} */
let scorer = null;
/** @param {(tokens: string[]) => Preview | null} score */
export function scoreHere(score) { scorer = score; }

/* The line under the chips: a message, or the score of what is tapped (worked out here, or
   else asked of the server's engine). Each message bumps the count said: a preview answered
   after a newer message is dropped. */
/** @param {HTMLElement} live @param {string} url @param {() => string} cards */
function liveLine(live, url, cards) {
  let said = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pending;
  /** @type {(className: string, text: string) => void} */
  const say = (className, text) => {
    said += 1;
    clearTimeout(pending);
    live.className = className;
    live.textContent = text;
  };
  /** @param {Preview} data */
  const show = (data) => {
    live.className = data.error ? "live bad" : "live";
    live.textContent = data.error || "";
    if (data.error) { return; }
    const total = document.createElement("span");
    total.className = "total";
    total.textContent = "= " + data.total;
    live.appendChild(total);
    if (data.covering) { live.appendChild(document.createTextNode("  (" + data.covering + ")")); }
  };
  const preview = () => {
    const asked = said;
    fetchWithin(url + "?cards=" + encodeURIComponent(cards()), { credentials: "same-origin" })
      .then((response) => response.json())
      .then((data) => { if (asked === said) { show(data); } })
      .catch(() => { if (asked === said) { say("live", "Score shown after saving (offline)."); } });
  };
  const score = () => {
    said += 1;
    clearTimeout(pending);
    const here = scorer && scorer(cards().split(/\s+/).filter(Boolean));
    if (here) { show(here); return; }
    pending = setTimeout(preview, 120);
  };
  return { say, score };
}

/* In a game that needs suits, the last rank tapped waits for its suit (shown so, and hinted). */
/** @param {Element | null} suits @returns {(token: string) => boolean} */
function suitRule(suits) {
  const ranks = suits ? (suits.getAttribute("data-suit-ranks") || "").trim().split(/\s+/) : [];
  return (token) => BARE.test(token) && (ranks[0] === "all" || ranks.includes(token.toUpperCase().replace("T", "10")));
}

class Pad {
  /** @param {HTMLFormElement} form a pad's (form[data-preview]), as templates/play/leftovers.html draws it */
  constructor(form) {
    const $ = (/** @type {string} */ selector) => form.querySelector(selector);
    this.form = form;
    this.input = /** @type {HTMLInputElement} */ ($("input[name=cards]"));
    this.wentOut = /** @type {HTMLInputElement} */ ($("input[name=went_out]"));
    this.replaces = /** @type {HTMLInputElement} */ ($("input[name=replaces]"));
    this.chips = /** @type {HTMLElement} */ ($("[data-chips]"));
    this.keys = /** @type {HTMLElement} */ ($("[data-pad]"));
    this.suits = /** @type {HTMLElement | null} where the game needs suits */ ($("[data-suits]"));
    this.hand = form.getAttribute("data-hand");
    this.seat = /** @type {string} */ (form.getAttribute("data-seat"));
    this.seats = new Seats(form);
    this.needsSuit = suitRule(this.suits);
    this.line = liveLine(/** @type {HTMLElement} */ ($("[data-live]")), form.getAttribute("data-preview") || "", () => this.tokens().join(" "));
  }

  /** An element of the pad's markup. @param {string} selector @returns {HTMLElement} */
  $(selector) { return /** @type {HTMLElement} */ (this.form.querySelector(selector)); }

  /** @returns {string[]} */
  tokens() { return this.input.value.replace(/,/g, " ").split(/\s+/).filter(Boolean); }

  /** @param {string[]} list */
  setTokens(list) {
    this.input.value = list.join(" ");
    this.render();
  }

  /** @param {string[]} list @returns {string | null} */
  waitingRank(list) { return list.length && this.needsSuit(list[list.length - 1]) ? list[list.length - 1] : null; }

  /* The tabs show what waits to be saved; the one Save says whose entries it saves, and names
     the player shown when it saves others' only and that player has nothing recorded yet (as
     after OUT, which moves on to the next player). */
  showState() {
    const list = this.seats.waiting(), { seats, seat } = this;
    seats.mark();
    if (list.length) { this.form.setAttribute("data-dirty", ""); } else { this.form.removeAttribute("data-dirty"); }
    const saved = list.length > 1 ? list.length + " players'" : seats.player(list.length ? list[0] : seat) + "'s";
    const without = list.length && !list.includes(seat) && !seats.recorded(seat).entry ? ", without " + seats.player(seat) + "'s" : "";
    sayInWords(this.$("[data-save]"), "Save " + saved + " leftovers" + without);
  }

  /* The suits sit in the pad under the row of the rank that waits for one (hidden while none
     waits), so the finger that tapped the rank finds its suit beside it. */
  /** @param {string | null} rank */
  placeSuits(rank) {
    const { suits, keys } = this;
    if (!suits) { return; }
    const key = rank && keys.querySelector("button[data-card='" + rank.toUpperCase().replace(/^T$/, "10") + "']");
    suits.hidden = !key;
    if (!key) { return; }
    const top = key.getBoundingClientRect().top;
    const row = [...keys.querySelectorAll(":scope > button")].filter((button) => Math.abs(button.getBoundingClientRect().top - top) < 2);
    row[row.length - 1].after(suits);
  }

  render() {
    const list = this.tokens(), { chips, wentOut } = this;
    this.seats.drafts[this.seat] = { cards: this.input.value, out: wentOut.checked };
    /** @type {Element} */ (this.keys.querySelector("[data-out]")).setAttribute("aria-pressed", String(wentOut.checked));
    chips.textContent = "";
    if (wentOut.checked && !list.length) {
      const out = document.createElement("span");
      out.className = "chip out";
      out.textContent = "OUT";
      chips.appendChild(out);
    }
    list.forEach((token, index) => {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip" + (this.needsSuit(token) ? " waiting" : "");
      chip.textContent = label(token) + (this.needsSuit(token) ? "?" : "");
      chip.setAttribute("aria-label", "Remove " + label(token));
      chip.addEventListener("click", () => {
        this.clearErrors();
        const next = this.tokens();
        next.splice(index, 1);
        this.setTokens(next);
      });
      chips.appendChild(chip);
    });
    this.seats.keep();
    this.showState();
    this.placeSuits(this.waitingRank(list));
    if (this.waitingRank(list)) {
      this.line.say("live", "Now the suit of " + this.waitingRank(list) + ".");
    } else if (list.length) {
      this.line.score();
    } else {
      this.line.say("live", wentOut.checked ? "Went out: 0" : "Tap the cards left, or OUT.");
    }
  }

  /* A tap answers the last refusal (an empty save, five kings): its message goes; the next save
     brings its own. */
  clearErrors() { drop(this.form, ".error"); }

  /** @param {string} card */
  tapCard(card) {
    this.clearErrors();
    if (this.wentOut.checked) {  /* a tap never silently replaces an OUT */
      this.line.say("live", this.$("[data-player-name]").textContent + " went out. Tap OUT again to give cards instead.");
    } else if (this.waitingRank(this.tokens())) {  /* the suit goes to the rank that waits for it, never to the next */
      this.line.say("live", "First the suit of " + this.waitingRank(this.tokens()) + ", then the next card.");
    } else {
      this.setTokens([...this.tokens(), card]);
    }
  }

  /** @param {string} suit */
  tapSuit(suit) {
    this.clearErrors();
    const list = this.tokens(), last = list.length - 1;
    if (last < 0 || !BARE.test(list[last])) {
      this.line.say("live", "Tap a rank first, then its suit.");
      return;
    }
    list[last] += suit;
    this.setTokens(list);
  }

  /* OUT moves on to the next player with nothing recorded or tapped; OUT again takes it back. */
  tapOut() {
    this.clearErrors();
    if (this.wentOut.checked) {
      this.wentOut.checked = false;
      this.render();
      return;
    }
    this.wentOut.checked = true;
    this.setTokens([]);
    const order = this.seats.order();
    for (let step = 1; step < order.length; step += 1) {
      const which = order[(order.indexOf(this.seat) + step) % order.length];
      if (!this.seats.drafts[which] && !this.seats.at(which).hasAttribute("data-entry")) {
        this.switchTo(which);
        return;
      }
    }
  }

  /* Another player, without saving: what was tapped for this one stays in its tab. */
  /** @param {string | number} which a seat at this table */
  switchTo(which) {
    const { form, seats } = this, tab = seats.at(which);
    this.seat = String(which);
    const entry = seats.drafts[this.seat] || seats.recorded(this.seat);
    this.input.value = entry.cards;
    this.wentOut.checked = entry.out;
    this.replaces.value = seats.recorded(this.seat).entry;
    form.setAttribute("data-seat", this.seat);
    form.setAttribute("action", tab.href);
    form.setAttribute("data-outbox", "Leftovers: " + seats.player(this.seat) + ", hand " + this.hand);
    sayInWords(this.$("[data-player-name]"), seats.player(this.seat));
    drop(form, "[data-correcting], .error");
    seats.tabs.forEach((other) => {
      other.classList.toggle("current", other === tab);
      if (other === tab) { other.setAttribute("aria-current", "page"); } else { other.removeAttribute("aria-current"); }
    });
    try { history.replaceState(null, "", tab.href); } catch { /* the address stays */ }
    this.render();
  }

  /* Several players tapped: one save of them all through the hand's route, each with its own fields. */
  prepareSubmit() {
    const { form, seats } = this, list = seats.waiting();
    drop(form, "[data-hand-field]");
    form.setAttribute("action", seats.at(this.seat).href);
    if (!list.length || (list.length === 1 && list[0] === this.seat)) { return; }
    /** @type {(name: string, value: string) => void} */
    const add = (name, value) => {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = name;
      field.value = value;
      field.setAttribute("data-hand-field", "");
      form.appendChild(field);
    };
    add("seats", String(list));
    list.forEach((which) => {
      add("cards-" + which, seats.drafts[which].cards);
      add("out-" + which, seats.drafts[which].out ? "y" : "");
      add("replaces-" + which, seats.recorded(which).entry);
    });
    form.setAttribute("action", /** @type {string} */ (form.getAttribute("data-hand-url")));
    form.setAttribute("data-outbox", "Leftovers: " + list.map((which) => seats.player(which)).join(", ") + ", hand " + this.hand);
  }

  /* A refused save: its player is shown, every tap kept. A conflict (another phone's entries came
     first: for one player, or several of a whole hand) marks what stands now on each tab and
     shows both entries of each of those players. */
  /** @param {CustomEvent<Answer>} event */
  refused(event) {
    const result = event.detail;
    if (result.seat !== undefined) { this.switchTo(result.seat); }
    /** @type {Pick<Conflict, "seat" | "entry" | "cards">[]} */
    const conflicts = result.conflicts || (result.current ? [{ seat: this.seat, entry: result.current.entry, cards: result.current.cards }] : []);
    if (!conflicts.length || !document.querySelector("[data-versus-template]")) { return; }
    event.preventDefault();
    conflicts.forEach((conflict) => this.seats.stands(conflict.seat, conflict.entry, conflict.cards));
    this.replaces.value = this.seats.recorded(this.seat).entry;
    this.render();
    this.showConflicts(conflicts.map((conflict) => String(conflict.seat)), "Not saved: " + result.error);
  }

  /* Both entries of each seat in conflict (from the page's template), this phone's still tapped:
     Keep it takes the recorded one (this phone's is dropped); Save yours saves every entry this
     phone holds for the hand, each replacing what stands. */
  /** @param {string[]} list the seats @param {string} why */
  showConflicts(list, why) {
    const { seats } = this;
    /** @type {HTMLTemplateElement | null} */
    const template = document.querySelector("[data-versus-template]");
    drop(document, "[data-versus], .js-error");
    const differing = list.filter((which) => seats.tab(which) && seats.dirty(which));
    if (!differing.length || !template) { return; }
    /** @type {(root: ParentNode, selector: string) => HTMLElement} an element the template always holds */
    const part = (root, selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    const box = /** @type {HTMLElement} */ (/** @type {Element} */ (template.content.firstElementChild).cloneNode(true));
    const theirsCell = part(box, "[data-theirs-cell]"), mineCell = part(box, "[data-mine-cell]");
    part(box, ".why").textContent = why;
    differing.forEach((which) => {
      const recorded = seats.recorded(which);
      const theirs = /** @type {HTMLElement} */ (theirsCell.cloneNode(true)), mine = /** @type {HTMLElement} */ (mineCell.cloneNode(true));
      [theirs, mine].forEach((cell) => {  /* whose, where there are several */
        const who = part(cell, "[data-who]");
        who.textContent = seats.player(which);
        who.hidden = differing.length < 2;
      });
      part(theirs, "[data-theirs]").textContent = recorded.entry ? shown(recorded) : "nothing";
      part(mine, "[data-mine]").textContent = shown(seats.drafts[which]);
      part(theirs, "[data-keep]").addEventListener("click", () => {
        theirs.remove();
        mine.remove();
        delete seats.drafts[which];
        if (which === this.seat) { this.switchTo(which); } else { this.render(); }
        if (!box.querySelector("[data-keep]")) {
          box.remove();
          if (!seats.waiting().length) { settleRefused(this.form.getAttribute("data-settles")); }
        }
      });
      theirsCell.before(theirs, mine);
    });
    theirsCell.remove();
    mineCell.remove();
    part(box, "[data-use]").addEventListener("click", () => {
      box.remove();
      this.form.requestSubmit();
    });
    /** @type {ParentNode} */ (this.form.parentNode).insertBefore(box, this.form);
    box.scrollIntoView({ block: "nearest" });
  }

  /* Opened by a refusal's "Open it to re-apply" (?reapply=<id>, from pad_seats.js): every entry of
     the refused save is tapped in again, the seats in conflict show both entries, and the refusal
     is settled once this phone's entries are saved (or the recorded ones kept). */
  reapply() {
    const query = new URLSearchParams(location.search), { seats } = this;
    if (!query.has("reapply")) { return; }
    (query.get("seats") || "").split(",").filter((which) => seats.tab(which)).forEach((which) => {
      seats.drafts[which] = { cards: query.get("cards-" + which) || "", out: query.get("out-" + which) === "y" };
    });
    if (seats.drafts[this.seat]) {
      this.input.value = seats.drafts[this.seat].cards;
      this.wentOut.checked = seats.drafts[this.seat].out;
    }
    this.form.setAttribute("data-settles", /** @type {string} */ (query.get("reapply")));
    try { history.replaceState(null, "", location.pathname); } catch { /* the address stays */ }
    this.render();
    this.showConflicts((query.get("conflicts") || "").split(","),
      "Entered meanwhile on another phone. Your entries are tapped in again: keep what is recorded, or save yours.");
  }

  /* The pad shown instead of typing, its keys, tabs and form listened to, the drafts brought back. */
  start() {
    const { form, keys, suits, input, wentOut } = this;
    keys.hidden = false;
    form.classList.add("js-pad");
    this.$(".field-cards label").className = "visually-hidden";
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-no-pad]")).forEach((node) => { node.hidden = true; });
    keys.querySelectorAll("button[data-card]").forEach((button) => {
      button.addEventListener("click", () => this.tapCard(button.getAttribute("data-card") || ""));
    });
    if (suits) {
      this.$("[data-suits-hint]").hidden = false;
      suits.querySelectorAll("button[data-suit]").forEach((button) => {
        button.addEventListener("click", () => this.tapSuit(button.getAttribute("data-suit") || ""));
      });
    }
    /** @type {Element} */ (keys.querySelector("[data-out]")).addEventListener("click", () => this.tapOut());
    this.seats.tabs.forEach((tab) => {
      tab.addEventListener("click", (event) => {
        event.preventDefault();
        this.switchTo(/** @type {string} */ (tab.getAttribute("data-seat")));
      });
    });
    wentOut.addEventListener("change", () => { if (wentOut.checked) { this.setTokens([]); } else { this.render(); } });
    input.addEventListener("input", () => this.render());
    form.addEventListener("submit", () => this.prepareSubmit());
    form.addEventListener("scorekeeper:refused", (event) => this.refused(/** @type {CustomEvent<Answer>} */ (event)));
    const restored = this.seats.restore(this.seat, { cards: input.value, out: wentOut.checked }, !!this.$(".error"));
    input.value = restored.cards;
    wentOut.checked = restored.out;
    this.render();
    this.reapply();
  }
}

/** @param {ParentNode} root */
export function setUpPads(root) { /** @type {NodeListOf<HTMLFormElement>} */ (root.querySelectorAll("form[data-preview]")).forEach((form) => new Pad(form).start()); }
