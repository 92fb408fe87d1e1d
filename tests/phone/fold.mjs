// @ts-check
// Reads [{copy, base, items}] on stdin and writes what the phone's copy of each game
// (static/copy.js) makes of it, for tests/phone/test_phone_folds_as_the_table.py.
import { fold, record } from "../../scorekeeper/static/copy.js";

/** @import { Copy } from "../../scorekeeper/static/copy.js" */
/** @import { Item } from "../../scorekeeper/static/outbox.js" */

const chunks = [];
for await (const chunk of process.stdin) { chunks.push(chunk); }
/** @type {{copy: Copy, base: string, items: Item[]}[]} */
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const results = cases.map(({ copy, base, items }) => {
  const table = fold(copy, base, items);
  const state = table.state;
  /** @type {Record<number, number>} */
  const notes = {};
  for (const [hand, entries] of table.notes) { if (entries.length) { notes[hand] = entries.length; } }
  return {
    complete: state.complete,
    current: state.current,
    finished: state.finished,
    totals: Object.fromEntries(state.score.sides.map((side) => [side.name, String(side.total)])),
    next: Object.fromEntries(Object.entries(state.next).map(([side, cost]) => [side, String(cost)])),
    leader: state.score.leader,
    pending: state.pending.map(({ entry, side, cost }) => [entry.player, side, String(cost)]),
    next_seat: state.current === null ? null : table.nextSeatToEnter(state.current),
    owing: state.current === null ? [] : table.owing(state.current),
    notes,
    unconfirmed: table.unconfirmedHands,
    refused: table.refusedItems.map(({ item }) => items.indexOf(item)),
    record: record(table),
  };
});
process.stdout.write(JSON.stringify(results));
