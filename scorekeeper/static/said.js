// @ts-check
/* What the server says of a change, in its words, worked out from the phone's copy (copy.js's
   fold): the confirmation a save shows with its Undo (views/play.py), and a change as the history
   and an undo describe it (gamelog/history.py). Pure: no page, no storage; the pages drawn
   offline (offline.js) show them where the server's pages would. */

import { label, parseCard, scoreLeftovers } from "./rules.js";

/** @import { Entry, Leftovers, GameState } from "./copy.js" */
/** @import { Item } from "./outbox.js" */

/** @type {(entry: Leftovers) => string} */
const cardsText = (entry) => entry.data.cards.map((t) => label(parseCard(t))).join(" ") || "went out";
/** @type {(table: GameState, entry: Entry) => number} */
const points = (table, entry) => scoreLeftovers(table.book, /** @type {Leftovers} */ (entry).data.cards.map(parseCard)).total;

/* A line of the log as the history reads it (history.describe): [what, old value, new value]. */
/** @param {Entry} entry @param {GameState} table @returns {[string, string, string]} */
export function describe(entry, table) {
  const hand = entry.hand ? "Hand " + entry.hand : "Game";
  if (entry.kind === "leftovers") {
    const previous = /** @type {Leftovers | null | undefined} */ (entry.target !== null ? table.byId.get(entry.target) : null);
    const cards = cardsText(/** @type {Leftovers} */ (entry));
    if (previous) { return [hand + " · " + entry.player + "'s leftovers corrected", cardsText(previous), cards]; }
    return [hand + " · " + entry.player + "'s leftovers", "", cards];
  }
  if (entry.kind === "pressure") { return [hand + " · pressure", "", String(entry.player)]; }
  if (entry.kind === "note") { return [hand + " · ruling note", "", String(entry.data.text || "")]; }
  if (entry.kind === "confirm") { return [hand + " · confirmed", "", "by " + entry.player]; }
  if (entry.kind === "one_card") { return [hand + " · one card: " + entry.player, "", entry.data.owes ? "owes two cards" : "reminder cleared"]; }
  const target = entry.target === null ? undefined : table.byId.get(entry.target);
  if (!target) { return ["Undo", "", ""]; }
  const [what, , value] = describe(target, table);
  return ["Undone: " + what, value, "removed"];
}

/* What the page says once ``entry`` is undone (views/play.undo's message). */
/** @param {Entry} entry @param {GameState} table @returns {string} */
export function undone(entry, table) {
  const [what, , value] = describe(entry, table);
  return "Undone: " + what + (value ? " (" + value + ")" : "") + ".";
}

/* The confirmation of an outbox item folded into ``table``: {text, undo} (undo: whether it
   comes with an Undo, as a save's does, or stands alone, as an undo's does); null if the item
   was refused. */
/** @param {GameState} table @param {{id: string | null, url?: string}} item @returns {{text: string, undo: boolean} | null} */
export function said(table, item) {
  const entries = table.entries.filter((entry) => entry.queued === item.id);
  if (!entries.length) { return null; }
  const last = entries[entries.length - 1], state = table.state;
  if (last.kind === "pressure") {
    const side = /** @type {{name: string}} */ (table.book.sides.find((s) => s.members.includes(/** @type {string} */ (last.player)))).name;
    const pending = state.pending.find((p) => p.entry.id === last.id);
    return { text: "Pressure to " + last.player + (pending ? ": " + pending.cost : "") + ". " + side + "'s next costs " + state.next[side] + ".", undo: true };
  }
  if (last.kind === "note") { return { text: "Ruling noted on hand " + last.hand + ".", undo: true }; }
  if (last.kind === "one_card") { return { text: last.player + (last.data.owes ? " owes two cards." : "'s reminder cleared."), undo: true }; }
  if (last.kind === "confirm") { return { text: "Hand " + last.hand + " confirmed by " + last.player + ".", undo: true }; }
  if (last.kind === "void") {
    const [what, old] = describe(last, table);
    return { text: what + (old ? " (" + old + ")" : "") + ".", undo: false };
  }
  return { text: leftoversSaved(table, /** @type {Item} */ (item), entries), undo: true };
}

/* views/play_leftovers._after_leftovers (one player's pad) and _after_hand_leftovers (a whole hand's save). */
/** @param {GameState} table @param {Item} item @param {Entry[]} entries @returns {string} */
function leftoversSaved(table, item, entries) {
  const last = entries[entries.length - 1], number = /** @type {number} */ (last.hand);
  const wholeHand = /\/leftovers$/.test(new URL(item.url, "http://phone.invalid/").pathname);
  let text = wholeHand
    ? "Leftovers " + (entries.length === 1 && last.target !== null ? "corrected" : "saved") + ": " +
      entries.map((entry) => entry.player + " " + points(table, entry)).join(", ") + "."
    : last.player + "'s leftovers " + (last.target !== null ? "corrected" : "saved") + " (" + points(table, last) + ").";
  const { score } = table.state;
  if (table.nextSeatToEnter(number) === null && number <= score.hands) {
    text += " Hand " + number + " is complete: " + score.sides.map((side) => side.name + " " + side.hands[number - 1]).join(", ") + ".";
  }
  return text;
}
