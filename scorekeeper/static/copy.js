/* The phone's copy of a game: its log as last heard from the server (/t/<token>/copy.json) with
   this phone's unsent changes (the outbox) folded on, as gamelog/state.py folds a log, and scored
   by rules.js from the engine's rule book. Pure: no page, no storage; the offline pages read it.
   A queued change the server would refuse is left out here too (the server has the last word
   when it comes back). A differential test folds random logs here and in the engine. */

import { Refused, checkLeftovers, parseCard, pressureValue, scoreGame } from "./rules.js";

/* The copy's shape this code reads (gamelog/phone_copy.FORMAT): a copy of another is asked for whole. */
export const FORMAT = 2;

/* The copy held, brought up to date with an answer of copy.json (whole, or entries since). */
export function merge(held, answer) {
  if (!answer.since) { return answer; }
  if (!held || held.version !== answer.since) { return null; }  /* a gap: ask for the whole copy */
  return { ...held, version: answer.version, entries: held.entries.concat(answer.entries), set_aside: answer.set_aside };
}

/* A card token as the engine writes it: "10h", "Q", "JK". */
export function token(card) { return card.rank + (card.suit ? card.suit.toLowerCase() : ""); }

/* The cards typed or tapped for one player (forms.parse_leftovers): a list of cards, or Refused. */
export function readLeftovers(text, wentOut) {
  const tokens = String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);
  if (wentOut && tokens.length) { throw new Refused("Either tap the cards left or OUT, not both."); }
  if (!wentOut && !tokens.length) { throw new Refused("Tap the cards left in the hand, or OUT if the player went out."); }
  return tokens.map(parseCard);
}

const rowId = (text) => (/^\d+$/.test(String(text || "").trim()) ? Number(text) : null);

/* The changes an outbox item asks for ({kind, hand, player, data, target}), read off its address
   and form body as the server reads them; [] for anything that is not a change to this game. */
export function changesOf(copy, base, item) {
  const path = new URL(item.url, "http://phone.invalid/").pathname;
  if (!path.startsWith(base)) { return []; }
  const route = path.slice(base.length).replace(/^\//, ""), form = new URLSearchParams(item.body);
  const hand = rowId(form.get("hand")), player = form.get("player");
  const players = copy.book.players;
  let match;
  const leftovers = (number, seat, cards, out, replaces) => ({
    kind: "leftovers", hand: number, player: players[seat] === undefined ? null : players[seat],
    cards: () => readLeftovers(cards, out), target: rowId(replaces),
  });
  if (route === "pressure") { return [{ kind: "pressure", hand, player }]; }
  if (route === "note") { return [{ kind: "note", hand, data: { text: form.get("text") || "" } }]; }
  if (route === "one-card") { return [{ kind: "one_card", hand, player, data: { owes: form.get("owes") === "1" } }]; }
  if (route === "confirm") { return [{ kind: "confirm", hand, player }]; }
  if (route === "undo") { return [{ kind: "void", target: rowId(form.get("target")) }]; }
  if ((match = /^hand\/(\d+)\/seat\/(\d+)$/.exec(route))) {
    return [leftovers(Number(match[1]), Number(match[2]), form.get("cards"), !!form.get("went_out"), form.get("replaces"))];
  }
  if ((match = /^hand\/(\d+)\/leftovers$/.exec(route))) {
    const seats = String(form.get("seats") || "").split(",").filter((s) => s.trim()).map(Number);
    return seats.map((seat) => leftovers(Number(match[1]), seat, form.get("cards-" + seat), !!form.get("out-" + seat), form.get("replaces-" + seat)));
  }
  return [];
}

/* The game's log folded: the server's entries, then the outbox's items in order. */
export function fold(copy, base = "", items = []) {
  const table = new Table(copy);
  for (const entry of copy.entries) { table.apply(entry); }
  let seq = copy.entries.length;
  for (const item of items) {
    const changes = changesOf(copy, base, item);
    if (!changes.length) { continue; }
    try {
      const entries = changes.map((change, index) => {
        seq += 1;
        const data = change.kind === "leftovers" ? { cards: change.cards().map(token) } : change.data || {};
        return { id: "q" + seq, seq, kind: change.kind, hand: change.hand, player: change.player, data,
          target: change.target === undefined ? null : change.target, at: new Date(item.at || 0).toISOString(),
          queued: item.id, part: index };
      });
      table.accept(entries);
    } catch (error) {
      if (!(error instanceof Refused)) { throw error; }
      table.refusedItems.push({ item, reason: error.message });
    }
  }
  return table;
}

const key = (hand, player) => hand + "|" + player;

export class Table {
  constructor(copy) {
    this.copy = copy;
    this.book = copy.book;
    this.entries = [];
    this.byId = new Map();
    this.leftovers = new Map();
    this.stacks = new Map();
    this.pressures = new Map();
    this.notes = new Map();
    this.confirmations = new Map();
    this.owes = new Map();
    this.oweStacks = new Map();
    this.voided = new Set();
    this.setAside = new Map(Object.entries(copy.set_aside || {}).map(([id, why]) => [Number(id), why]));
    this.refusedItems = [];
    this.worked = null;
  }

  /* How many of the entries are this phone's, not yet heard back from the server. */
  get queued() { return this.entries.filter((entry) => entry.queued).length; }

  apply(entry) {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.worked = null;
    if (entry.kind === "void") { if (entry.target !== null) { this.withdraw(entry.target); } return; }
    if (this.setAside.has(entry.id) || entry.hand === null) { return; }
    const hand = entry.hand, push = (map, k) => map.set(k, (map.get(k) || []).concat([entry]));
    if (entry.kind === "leftovers") {
      push(this.stacks, key(hand, entry.player));
      this.leftovers.set(key(hand, entry.player), entry);
    } else if (entry.kind === "pressure") {
      push(this.pressures, hand);
    } else if (entry.kind === "note") {
      push(this.notes, hand);
    } else if (entry.kind === "confirm") {
      push(this.confirmations, hand);
    } else if (entry.kind === "one_card") {
      push(this.oweStacks, key(hand, entry.player));
      this.owes.set(key(hand, entry.player), !!entry.data.owes);
    }
  }

  withdraw(targetId) {
    this.voided.add(targetId);
    this.setAside.delete(targetId);
    const target = this.byId.get(targetId);
    if (!target || target.hand === null) { return; }
    const without = (list) => (list || []).filter((entry) => entry.id !== targetId);
    const k = key(target.hand, target.player);
    if (target.kind === "leftovers") {
      const stack = without(this.stacks.get(k));
      this.stacks.set(k, stack);
      if (stack.length) { this.leftovers.set(k, stack[stack.length - 1]); } else { this.leftovers.delete(k); }
    } else if (target.kind === "one_card") {
      const marks = without(this.oweStacks.get(k));
      this.oweStacks.set(k, marks);
      if (marks.length) { this.owes.set(k, !!marks[marks.length - 1].data.owes); } else { this.owes.delete(k); }
    } else {
      const listing = { pressure: this.pressures, note: this.notes, confirm: this.confirmations }[target.kind];
      if (listing && listing.has(target.hand)) { listing.set(target.hand, without(listing.get(target.hand))); }
    }
  }

  /* Entries of one change (several for a whole hand's leftovers), each checked against what
     stands and the result run through the scorer, as the server checks them: all, or none. */
  accept(entries) {
    const before = this.snapshot();
    try {
      for (const entry of entries) { this.check(entry); this.apply(entry); this.verify(); }
    } catch (error) {
      this.restore(before);
      throw error;
    }
  }

  snapshot() {
    const maps = ["byId", "leftovers", "stacks", "pressures", "notes", "confirmations", "owes", "oweStacks", "setAside"];
    const kept = { entries: this.entries.slice(), voided: new Set(this.voided) };
    maps.forEach((name) => { kept[name] = new Map(this[name]); });
    return kept;
  }

  restore(kept) { Object.assign(this, kept); this.worked = null; }

  /* What stands now, worked out once per change: the complete hands scored, the hand in play. */
  get state() {
    if (this.worked) { return this.worked; }
    const book = this.book, most = this.copy.max_hands;
    let complete = 0;
    while ((most === null || complete < most) && this.handIsComplete(complete + 1)) { complete += 1; }
    let score = scoreGame(book, this.hands(complete), most === null);
    complete = score.hands;
    const current = score.finished ? null : complete + 1;
    const taken = Object.fromEntries(score.sides.map((side) => [side.name, side.taken]));
    const pending = [];
    if (current !== null) {
      for (const entry of this.handPressures(current)) {
        const side = book.sides.find((s) => s.members.includes(entry.player));
        if (!side) { throw new Refused(entry.player + " is not a player of this game"); }
        taken[side.name] += 1;
        pending.push({ entry, side: side.name, cost: pressureValue(book, taken[side.name]) });
      }
    }
    const next = Object.fromEntries(book.sides.map((side) => [side.name, book.pressures ? pressureValue(book, taken[side.name] + 1) : 0n]));
    this.worked = { complete, current, last: current === null ? complete : current, finished: score.finished, score, pending, next };
    return this.worked;
  }

  handIsComplete(number) { return this.book.players.every((player) => this.leftovers.has(key(number, player))); }

  hands(count) {
    const hands = [];
    for (let n = 1; n <= count; n += 1) {
      hands.push({
        leftovers: Object.fromEntries(this.book.players.map((p) => [p, this.leftovers.get(key(n, p)).data.cards.map(parseCard)])),
        pressures: this.handPressures(n).map((entry) => entry.player),
      });
    }
    return hands;
  }

  handPressures(number) { return this.pressures.get(number) || []; }

  handLeftovers(number) {
    const found = {};
    for (const player of this.book.players) { if (this.leftovers.has(key(number, player))) { found[player] = this.leftovers.get(key(number, player)); } }
    return found;
  }

  owing(number) { return this.book.players.filter((player) => this.owes.get(key(number, player))); }

  nextSeatToEnter(number) {
    const seat = this.book.players.findIndex((player) => !this.leftovers.has(key(number, player)));
    return seat === -1 ? null : seat;
  }

  lastChange(number) {
    const changes = this.entries.filter((e) => e.hand === number && (e.kind === "leftovers" || e.kind === "pressure"));
    const voids = this.entries.filter((e) => e.kind === "void" && changes.includes(this.byId.get(e.target)));
    return changes.concat(voids).reduce((last, e) => (last === null || e.seq > last.seq ? e : last), null);
  }

  confirmedBy(number) {
    const last = this.lastChange(number);
    return (this.confirmations.get(number) || []).find((c) => last === null || c.seq > last.seq) || null;
  }

  get unconfirmedHands() {
    const hands = [];
    for (let n = 1; n <= this.state.complete; n += 1) { if (!this.confirmedBy(n)) { hands.push(n); } }
    return hands;
  }

  /* gamelog/checks.check: the change as a change (open hand, a player, the entry it corrects). */
  check(entry) {
    const players = this.book.players, last = this.state.last;
    const openHand = () => {
      if (!Number.isInteger(entry.hand) || entry.hand < 1 || entry.hand > last) {
        throw new Refused("hand " + entry.hand + " is not open: hands 1 to " + last + " are");
      }
    };
    const aPlayer = () => { if (!players.includes(entry.player)) { throw new Refused(entry.player + " is not a player of this game"); } };
    if (this.entries.length >= 2000) { throw new Refused("This game holds 2000 changes, the most one game can: start a new game."); }
    if (entry.kind === "leftovers") {
      openHand(); aPlayer();
      const current = this.leftovers.get(key(entry.hand, entry.player)) || null;
      if ((current ? current.id : null) !== entry.target) {
        throw new Refused(entry.player + "'s leftovers for hand " + entry.hand + " were changed meanwhile");
      }
      const trial = {};
      for (const [player, standing] of Object.entries(this.handLeftovers(entry.hand))) { trial[player] = standing.data.cards.map(parseCard); }
      trial[entry.player] = entry.data.cards.map(parseCard);
      checkLeftovers(this.book, trial);
    } else if (entry.kind === "pressure") {
      openHand(); aPlayer();
      if (this.handPressures(entry.hand).length >= this.copy.limits.pressures_in_a_hand) {
        throw new Refused("Hand " + entry.hand + " has " + this.copy.limits.pressures_in_a_hand + " pressures already, the most a hand can: " +
          "undo the ones that were mistakes.");
      }
      if (!this.book.pressures) { throw new Refused("this game has no pressures"); }
      if (this.book.no_pressure.includes(entry.player)) { throw new Refused(entry.player + " never takes a pressure"); }
    } else if (entry.kind === "note") {
      openHand();
      const text = String(entry.data.text || "").trim();
      if (!text) { throw new Refused("write the ruling first"); }
      if (text.length > this.copy.limits.note) { throw new Refused("a note holds at most " + this.copy.limits.note + " characters"); }
    } else if (entry.kind === "one_card") {
      if (entry.hand !== this.state.current) { throw new Refused("one-card reminders are for the hand in play"); }
      aPlayer();
    } else if (entry.kind === "confirm") {
      if (!(entry.hand >= 1 && entry.hand <= this.state.complete)) { throw new Refused("hand " + entry.hand + " is not complete yet: enter every player's leftovers first"); }
      aPlayer();
      if (this.confirmedBy(entry.hand)) { throw new Refused("hand " + entry.hand + " is already confirmed"); }
    } else if (entry.kind === "void") {
      const target = this.byId.get(entry.target);
      if (!target || target.kind === "void") { throw new Refused("there is no such change to undo"); }
      if (this.voided.has(target.id)) { throw new Refused("that change was already undone"); }
      if (this.setAside.has(target.id)) { return; }
      if (target.kind === "leftovers") {
        const current = this.leftovers.get(key(target.hand, target.player));
        if (!current || current.id !== target.id) { throw new Refused("those leftovers were corrected since: undo the correction instead"); }
        if (target.hand < this.state.complete) { throw new Refused("hand " + target.hand + " is followed by complete hands: correct it instead of undoing it"); }
      }
    } else {
      throw new Refused("unknown change " + entry.kind);
    }
  }

  /* gamelog/checks.verify: what stands, run through the scorer. */
  verify() {
    const { score, current } = this.state;
    if (current === null) {
      const counted = Array.from(this.leftovers.values()).concat(Array.from(this.pressures.values()).flat());
      const later = counted.filter((e) => e.hand > score.hands).map((e) => e.hand).sort((a, b) => a - b);
      if (later.length) {
        throw new Refused("The game was decided in hand " + score.hands + ", but hand " + later[0] + " was played after it: " +
          "correct or undo the change that decided it early.");
      }
      return;
    }
    const entered = {};
    for (const [player, entry] of Object.entries(this.handLeftovers(current))) { entered[player] = entry.data.cards.map(parseCard); }
    if (Object.keys(entered).length) { checkLeftovers(this.book, entered); }
    for (const entry of this.handPressures(current)) {
      if (!this.book.pressures) { throw new Refused("this game has no pressures"); }
      if (this.book.no_pressure.includes(entry.player)) { throw new Refused(entry.player + " never takes a pressure"); }
    }
  }
}

/* The game record (scorekeeper-game/1, as export.json writes it) of what this phone holds,
   its unsent changes included: "Save this game", for when the server is gone for good. */
export function record(table) {
  const { complete, current } = table.state;
  const notes = (number) => (table.notes.get(number) || []).map((entry) => entry.data.text);
  const hands = [];
  for (let n = 1; n <= complete; n += 1) {
    const hand = {
      leftovers: Object.fromEntries(table.book.players.map((p) => [p, table.leftovers.get(key(n, p)).data.cards.slice()])),
      pressures: table.handPressures(n).map((entry) => entry.player),
    };
    if (notes(n).length) { hand.notes = notes(n); }
    hands.push(hand);
  }
  const saved = { ...table.copy.record, hands };
  if (current !== null && (table.handPressures(current).length || notes(current).length)) {
    saved.in_play = { hand: current, pressures: table.handPressures(current).map((entry) => entry.player), notes: notes(current) };
  }
  return saved;
}
