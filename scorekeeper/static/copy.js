// @ts-check
/* The phone's copy of a game: its log as last heard from the server (/t/<token>/copy.json) with
   this phone's unsent changes (the outbox) folded on, as gamelog/state.py folds a log, and scored
   by rules.js from the engine's rule book. Pure: no page, no storage; the offline pages read it.
   A queued change the server would refuse is left out here too (the server has the last word
   when it comes back). A differential test folds random logs here and in the engine. */

import { Refused, checkLeftovers, parseCard, pressureValue, scoreGame } from "./rules.js";

/** @import { Book, Card, GameScore } from "./rules.js" */
/** @import { Item } from "./outbox.js" */

/**
 * A line of the game's log (gamelog/phone_copy.entry_data), or one of this phone's changes
 * folded on: then its id is "q<seq>" and queued is its outbox item's id.
 * @typedef {object} Entry
 * @property {number | string} id
 * @property {number} seq
 * @property {string} kind "leftovers", "pressure", "note", "one_card", "confirm" or "void"
 * @property {number | null} hand
 * @property {string | null} player
 * @property {{cards?: string[], text?: string, owes?: boolean}} data
 * @property {number | null} target the entry a void undoes, or a leftovers entry corrects
 * @property {string} at
 * @property {string} [queued]
 * @property {number} [part]
 */
/** @typedef {Entry & {hand: number, player: string, data: {cards: string[]}}} Leftovers a leftovers entry: one player's cards in a hand */

/**
 * The game as this phone keeps it: copy.json (gamelog/phone_copy.py), with the head of the game's
 * record (export.json without its hands) and the name its file takes.
 * @typedef {object} Copy
 * @property {number} format
 * @property {number} version
 * @property {Book} book
 * @property {string} name
 * @property {boolean} partnerships
 * @property {number | null} max_hands
 * @property {{cards: number, dealer: string, first: string}[]} deals hand by hand
 * @property {Record<string, string>} takers who takes a pressure on each player
 * @property {{pressures: boolean, count: boolean, one_card: boolean, suits: boolean, jokers: boolean}} has
 * @property {{pressures_in_a_hand: number, note: number}} limits
 * @property {[string, string][]} actions what each card does
 * @property {string} threes_verb
 * @property {Entry[]} entries
 * @property {Record<string, string>} set_aside why an entry is set aside, by id
 * @property {{title?: string, created_at?: string} & Record<string, unknown>} record
 * @property {string} file_name
 */
/** @typedef {{format: number, version: number, since: number, entries: Entry[], set_aside: Record<string, string>}} Since copy.json's entries after the version the phone holds */

/**
 * A change an outbox item asks for, read off its address and form as the server reads it.
 * @typedef {object} Change
 * @property {string} kind
 * @property {number | null} [hand]
 * @property {string | null} [player]
 * @property {{text?: string, owes?: boolean}} [data]
 * @property {number | null} [target]
 * @property {() => Card[]} [cards] leftovers' cards, read as they are folded (Refused when one names no card)
 */

/** @typedef {{entry: Entry, side: string, cost: bigint}} Pending a pressure of the hand in play, and what it costs */
/**
 * What stands now (GameState.state).
 * @typedef {object} Worked
 * @property {number} complete the hands scored
 * @property {number | null} current the hand in play; null once the game is decided
 * @property {number} last the hand in play, else the last scored
 * @property {boolean} finished
 * @property {GameScore} score
 * @property {Pending[]} pending
 * @property {Record<string, bigint>} next what each side's next pressure costs
 */

/* The copy's shape this code reads (gamelog/phone_copy.FORMAT): a copy of another is asked for whole. */
export const FORMAT = 2;

/* The copy held, brought up to date with an answer of copy.json (whole, or entries since). */
/** @param {Copy | null} held @param {Copy | Since} answer @returns {Copy | null} */
export function merge(held, answer) {
  if (!("since" in answer) || !answer.since) { return /** @type {Copy} */ (answer); }
  if (!held || held.version !== answer.since) { return null; }  /* a gap: ask for the whole copy */
  return { ...held, version: answer.version, entries: held.entries.concat(answer.entries), set_aside: answer.set_aside };
}

/* A card token as the engine writes it: "10h", "Q", "JK". */
/** @param {Card} card @returns {string} */
export function token(card) { return card.rank + (card.suit ? card.suit.toLowerCase() : ""); }

/* The cards typed or tapped for one player (forms.parse_leftovers): a list of cards, or Refused. */
/** @param {string | null} text @param {boolean} wentOut @returns {Card[]} */
export function readLeftovers(text, wentOut) {
  const tokens = String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);
  if (wentOut && tokens.length) { throw new Refused("Either tap the cards left or OUT, not both."); }
  if (!wentOut && !tokens.length) { throw new Refused("Tap the cards left in the hand, or OUT if the player went out."); }
  return tokens.map(parseCard);
}

/** @type {(text: string | null) => number | null} */
const rowId = (text) => (/^\d+$/.test(String(text || "").trim()) ? Number(text) : null);

/* The changes an outbox item asks for ({kind, hand, player, data, target}), read off its address
   and form body as the server reads them; [] for anything that is not a change to this game. */
/** @param {Copy} copy @param {string} base @param {Item} item @returns {Change[]} */
export function changesOf(copy, base, item) {
  const path = new URL(item.url, "http://phone.invalid/").pathname;
  if (!path.startsWith(base)) { return []; }
  const route = path.slice(base.length).replace(/^\//, ""), form = new URLSearchParams(item.body);
  const hand = rowId(form.get("hand")), player = form.get("player");
  const players = copy.book.players;
  /** @type {RegExpExecArray | null} */
  let match;
  /** @type {(number: number, seat: number, cards: string | null, out: boolean, replaces: string | null) => Change} */
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
    const number = Number(match[1]);
    return seats.map((seat) => leftovers(number, seat, form.get("cards-" + seat), !!form.get("out-" + seat), form.get("replaces-" + seat)));
  }
  return [];
}

/* The game's log folded: the server's entries, then the outbox's items in order. */
/** @param {Copy} copy @param {string} [base] @param {Item[]} [items] @returns {GameState} */
export function fold(copy, base = "", items = []) {
  const table = new GameState(copy);
  for (const entry of copy.entries) { table.apply(entry); }
  let seq = copy.entries.length;
  for (const item of items) {
    const changes = changesOf(copy, base, item);
    if (!changes.length) { continue; }
    try {
      const entries = changes.map((change, index) => {
        seq += 1;
        const data = change.kind === "leftovers" ? { cards: /** @type {() => Card[]} */ (change.cards)().map(token) } : change.data || {};
        return { id: "q" + seq, seq, kind: change.kind, hand: change.hand ?? null, player: change.player ?? null, data,
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

/** @type {(hand: number | null, player: string | null) => string} */
const key = (hand, player) => hand + "|" + player;

/**
 * What a table's entries leave standing, kept to go back to (GameState.snapshot).
 * @typedef {Pick<GameState, "entries" | "voided" | "byId" | "leftovers" | "stacks" | "pressures" | "notes" | "confirmations" | "owes" | "oweStacks" | "setAside">} Kept
 */

export class GameState {
  /** @param {Copy} copy */
  constructor(copy) {
    this.copy = copy;
    this.book = copy.book;
    /** @type {Entry[]} */
    this.entries = [];
    /** @type {Map<number | string, Entry>} */
    this.byId = new Map();
    /** @type {Map<string, Leftovers>} each player's leftovers standing, by hand and player */
    this.leftovers = new Map();
    /** @type {Map<string, Leftovers[]>} */
    this.stacks = new Map();
    /** @type {Map<number, Entry[]>} by hand */
    this.pressures = new Map();
    /** @type {Map<number, Entry[]>} by hand */
    this.notes = new Map();
    /** @type {Map<number, Entry[]>} by hand */
    this.confirmations = new Map();
    /** @type {Map<string, boolean>} */
    this.owes = new Map();
    /** @type {Map<string, Entry[]>} */
    this.oweStacks = new Map();
    /** @type {Set<number | string>} */
    this.voided = new Set();
    /** @type {Map<number | string, string>} */
    this.setAside = new Map(Object.entries(copy.set_aside || {}).map(([id, why]) => [Number(id), why]));
    /** @type {{item: Item, reason: string}[]} */
    this.refusedItems = [];
    /** @type {Worked | null} */
    this.worked = null;
  }

  /* How many of the entries are this phone's, not yet heard back from the server. */
  get queued() { return this.entries.filter((entry) => entry.queued).length; }

  /** @param {Entry} entry */
  apply(entry) {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.worked = null;
    if (entry.kind === "void") { if (entry.target !== null) { this.withdraw(entry.target); } return; }
    if (this.setAside.has(entry.id) || entry.hand === null) { return; }
    const hand = entry.hand;
    /** @type {<K>(map: Map<K, Entry[]>, k: K) => void} */
    const push = (map, k) => map.set(k, (map.get(k) || []).concat([entry]));
    if (entry.kind === "leftovers") {
      const leftovers = /** @type {Leftovers} */ (entry);
      this.stacks.set(key(hand, entry.player), (this.stacks.get(key(hand, entry.player)) || []).concat([leftovers]));
      this.leftovers.set(key(hand, entry.player), leftovers);
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

  /** @param {number | string} targetId */
  withdraw(targetId) {
    this.voided.add(targetId);
    this.setAside.delete(targetId);
    const target = this.byId.get(targetId);
    if (!target || target.hand === null) { return; }
    /** @type {<E extends Entry>(list: E[] | undefined) => E[]} */
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
      /** @type {Record<string, Map<number, Entry[]>>} */
      const listings = { pressure: this.pressures, note: this.notes, confirm: this.confirmations };
      const listing = listings[target.kind];
      if (listing && listing.has(target.hand)) { listing.set(target.hand, without(listing.get(target.hand))); }
    }
  }

  /* Entries of one change (several for a whole hand's leftovers), each checked against what
     stands and the result run through the scorer, as the server checks them: all, or none. */
  /** @param {Entry[]} entries */
  accept(entries) {
    const before = this.snapshot();
    try {
      for (const entry of entries) { this.check(entry); this.apply(entry); this.verify(); }
    } catch (error) {
      this.restore(before);
      throw error;
    }
  }

  /** @returns {Kept} */
  snapshot() {
    return {
      entries: this.entries.slice(), voided: new Set(this.voided),
      byId: new Map(this.byId), leftovers: new Map(this.leftovers), stacks: new Map(this.stacks),
      pressures: new Map(this.pressures), notes: new Map(this.notes), confirmations: new Map(this.confirmations),
      owes: new Map(this.owes), oweStacks: new Map(this.oweStacks), setAside: new Map(this.setAside),
    };
  }

  /** @param {Kept} kept */
  restore(kept) { Object.assign(this, kept); this.worked = null; }

  /* What stands now, worked out once per change: the complete hands scored, the hand in play. */
  /** @returns {Worked} */
  get state() {
    if (this.worked) { return this.worked; }
    const book = this.book, most = this.copy.max_hands;
    let complete = 0;
    while ((most === null || complete < most) && this.handIsComplete(complete + 1)) { complete += 1; }
    let score = scoreGame(book, this.hands(complete), most === null);
    complete = score.hands;
    const current = score.finished ? null : complete + 1;
    const taken = Object.fromEntries(score.sides.map((side) => [side.name, side.taken]));
    /** @type {Pending[]} */
    const pending = [];
    if (current !== null) {
      for (const entry of this.handPressures(current)) {
        const side = book.sides.find((s) => s.members.includes(/** @type {string} */ (entry.player)));
        if (!side) { throw new Refused(entry.player + " is not a player of this game"); }
        taken[side.name] += 1;
        pending.push({ entry, side: side.name, cost: pressureValue(book, taken[side.name]) });
      }
    }
    const next = Object.fromEntries(book.sides.map((side) => [side.name, book.pressures ? pressureValue(book, taken[side.name] + 1) : 0n]));
    this.worked = { complete, current, last: current === null ? complete : current, finished: score.finished, score, pending, next };
    return this.worked;
  }

  /** @param {number} number */
  handIsComplete(number) { return this.book.players.every((player) => this.leftovers.has(key(number, player))); }

  /** The first count hands, complete. @param {number} count @returns {import("./rules.js").Hand[]} */
  hands(count) {
    const hands = [];
    for (let n = 1; n <= count; n += 1) {
      hands.push({
        leftovers: Object.fromEntries(this.book.players.map((p) => [p, this.standing(n, p).data.cards.map(parseCard)])),
        pressures: this.handPressures(n).map((entry) => /** @type {string} */ (entry.player)),
      });
    }
    return hands;
  }

  /** The leftovers standing for a player of a complete hand. @param {number} number @param {string} player @returns {Leftovers} */
  standing(number, player) { return /** @type {Leftovers} */ (this.leftovers.get(key(number, player))); }

  /** @param {number} number @returns {Entry[]} */
  handPressures(number) { return this.pressures.get(number) || []; }

  /** @param {number} number @returns {Record<string, Leftovers>} */
  handLeftovers(number) {
    /** @type {Record<string, Leftovers>} */
    const found = {};
    for (const player of this.book.players) { if (this.leftovers.has(key(number, player))) { found[player] = this.standing(number, player); } }
    return found;
  }

  /** @param {number} number @returns {string[]} */
  owing(number) { return this.book.players.filter((player) => this.owes.get(key(number, player))); }

  /** @param {number} number @returns {number | null} */
  nextSeatToEnter(number) {
    const seat = this.book.players.findIndex((player) => !this.leftovers.has(key(number, player)));
    return seat === -1 ? null : seat;
  }

  /** @param {number} number @returns {Entry | null} */
  lastChange(number) {
    const changes = this.entries.filter((e) => e.hand === number && (e.kind === "leftovers" || e.kind === "pressure"));
    const voids = this.entries.filter((e) => {
      const target = e.kind === "void" && e.target !== null ? this.byId.get(e.target) : undefined;
      return target !== undefined && changes.includes(target);
    });
    return changes.concat(voids).reduce((/** @type {Entry | null} */ last, e) => (last === null || e.seq > last.seq ? e : last), null);
  }

  /** @param {number} number @returns {Entry | null} */
  confirmedBy(number) {
    const last = this.lastChange(number);
    return (this.confirmations.get(number) || []).find((c) => last === null || c.seq > last.seq) || null;
  }

  /** @returns {number[]} */
  get unconfirmedHands() {
    const hands = [];
    for (let n = 1; n <= this.state.complete; n += 1) { if (!this.confirmedBy(n)) { hands.push(n); } }
    return hands;
  }

  /* gamelog/checks.check: the change as a change (open hand, a player, the entry it corrects). */
  /** @param {Entry} entry */
  check(entry) {
    const players = this.book.players, last = this.state.last;
    const openHand = () => {
      if (entry.hand === null || !Number.isInteger(entry.hand) || entry.hand < 1 || entry.hand > last) {
        throw new Refused("hand " + entry.hand + " is not open: hands 1 to " + last + " are");
      }
    };
    const aPlayer = () => { if (entry.player === null || !players.includes(entry.player)) { throw new Refused(entry.player + " is not a player of this game"); } };
    if (this.entries.length >= 2000) { throw new Refused("This game holds 2000 changes, the most one game can: start a new game."); }
    if (entry.kind === "leftovers") {
      openHand(); aPlayer();
      const current = this.leftovers.get(key(entry.hand, entry.player)) || null;
      if ((current ? current.id : null) !== entry.target) {
        throw new Refused(entry.player + "'s leftovers for hand " + entry.hand + " were changed meanwhile");
      }
      const { hand, player, data } = /** @type {Leftovers} */ (entry);
      /** @type {Record<string, Card[]>} */
      const trial = {};
      for (const [who, standing] of Object.entries(this.handLeftovers(hand))) { trial[who] = standing.data.cards.map(parseCard); }
      trial[player] = data.cards.map(parseCard);
      checkLeftovers(this.book, trial);
    } else if (entry.kind === "pressure") {
      openHand(); aPlayer();
      if (this.handPressures(/** @type {number} */ (entry.hand)).length >= this.copy.limits.pressures_in_a_hand) {
        throw new Refused("Hand " + entry.hand + " has " + this.copy.limits.pressures_in_a_hand + " pressures already, the most a hand can: " +
          "undo the ones that were mistakes.");
      }
      if (!this.book.pressures) { throw new Refused("this game has no pressures"); }
      if (this.book.no_pressure.includes(/** @type {string} */ (entry.player))) { throw new Refused(entry.player + " never takes a pressure"); }
    } else if (entry.kind === "note") {
      openHand();
      const text = String(entry.data.text || "").trim();
      if (!text) { throw new Refused("write the ruling first"); }
      if (text.length > this.copy.limits.note) { throw new Refused("a note holds at most " + this.copy.limits.note + " characters"); }
    } else if (entry.kind === "one_card") {
      if (entry.hand !== this.state.current) { throw new Refused("one-card reminders are for the hand in play"); }
      aPlayer();
    } else if (entry.kind === "confirm") {
      if (!(entry.hand !== null && entry.hand >= 1 && entry.hand <= this.state.complete)) { throw new Refused("hand " + entry.hand + " is not complete yet: enter every player's leftovers first"); }
      aPlayer();
      if (this.confirmedBy(entry.hand)) { throw new Refused("hand " + entry.hand + " is already confirmed"); }
    } else if (entry.kind === "void") {
      const target = entry.target === null ? undefined : this.byId.get(entry.target);
      if (!target || target.kind === "void") { throw new Refused("there is no such change to undo"); }
      if (this.voided.has(target.id)) { throw new Refused("that change was already undone"); }
      if (this.setAside.has(target.id)) { return; }
      if (target.kind === "leftovers") {
        const current = this.leftovers.get(key(target.hand, target.player));
        if (!current || current.id !== target.id) { throw new Refused("those leftovers were corrected since: undo the correction instead"); }
        if (/** @type {number} */ (target.hand) < this.state.complete) { throw new Refused("hand " + target.hand + " is followed by complete hands: correct it instead of undoing it"); }
      }
    } else {
      throw new Refused("unknown change " + entry.kind);
    }
  }

  /* gamelog/checks.verify: what stands, run through the scorer. */
  verify() {
    const { score, current } = this.state;
    if (current === null) {
      const counted = /** @type {Entry[]} */ (Array.from(this.leftovers.values())).concat(Array.from(this.pressures.values()).flat());
      const later = counted.map((e) => /** @type {number} */ (e.hand)).filter((hand) => hand > score.hands).sort((a, b) => a - b);
      if (later.length) {
        throw new Refused("The game was decided in hand " + score.hands + ", but hand " + later[0] + " was played after it: " +
          "correct or undo the change that decided it early.");
      }
      return;
    }
    /** @type {Record<string, Card[]>} */
    const entered = {};
    for (const [player, entry] of Object.entries(this.handLeftovers(current))) { entered[player] = entry.data.cards.map(parseCard); }
    if (Object.keys(entered).length) { checkLeftovers(this.book, entered); }
    for (const entry of this.handPressures(current)) {
      if (!this.book.pressures) { throw new Refused("this game has no pressures"); }
      if (this.book.no_pressure.includes(/** @type {string} */ (entry.player))) { throw new Refused(entry.player + " never takes a pressure"); }
    }
  }
}

/* The game record (scorekeeper-game/1, as export.json writes it) of what this phone holds,
   its unsent changes included: "Save this game", for when the server is gone for good. */
/** @param {GameState} table @returns {Record<string, unknown>} */
export function record(table) {
  const { complete, current } = table.state;
  const notes = (/** @type {number} */ number) => (table.notes.get(number) || []).map((entry) => entry.data.text);
  const hands = [];
  for (let n = 1; n <= complete; n += 1) {
    /** @type {{leftovers: Record<string, string[]>, pressures: (string | null)[], notes?: (string | undefined)[]}} */
    const hand = {
      leftovers: Object.fromEntries(table.book.players.map((p) => [p, table.standing(n, p).data.cards.slice()])),
      pressures: table.handPressures(n).map((entry) => entry.player),
    };
    if (notes(n).length) { hand.notes = notes(n); }
    hands.push(hand);
  }
  /** @type {Record<string, unknown>} */
  const saved = { ...table.copy.record, hands };
  if (current !== null && (table.handPressures(current).length || notes(current).length)) {
    saved.in_play = { hand: current, pressures: table.handPressures(current).map((entry) => entry.player), notes: notes(current) };
  }
  return saved;
}
