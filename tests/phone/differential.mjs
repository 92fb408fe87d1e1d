// @ts-check
// Reads {book, leftovers: [[token]], games: [{hands, untilDecided}]} on stdin and writes what the
// phone's scorer (static/rules.js) makes of each, for tests/phone/test_phone_scores_as_the_engine.py.
import { parseCard, checkOneHand, scoreGame, Refused } from "../../scorekeeper/static/rules.js";

/** @import { Book } from "../../scorekeeper/static/rules.js" */
/** @typedef {{hands: {leftovers: Record<string, string[]>, pressures: string[]}[], untilDecided: boolean}} Game */
/** @typedef {{book: Book, leftovers: string[][], games: Game[]}} Case */

const chunks = [];
for await (const chunk of process.stdin) { chunks.push(chunk); }
/** @type {Case[]} */
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

/** @template T @param {() => T} work @returns {T | {refused: string}} the result, or the refusal in its words */
function attempt(work) {
  try { return work(); } catch (error) {
    if (error instanceof Refused) { return { refused: error.message }; }
    throw error;
  }
}

const results = cases.map(({ book, leftovers, games }) => ({
  leftovers: leftovers.map((tokens) => attempt(() => {
    const scored = checkOneHand(book, tokens.map(parseCard));
    return { total: scored.total, covers: scored.covers, steps: scored.steps };
  })),
  games: games.map(({ hands, untilDecided }) => attempt(() => {
    const cards = hands.map((hand) => ({
      leftovers: Object.fromEntries(Object.entries(hand.leftovers).map(([p, tokens]) => [p, tokens.map(parseCard)])),
      pressures: hand.pressures,
    }));
    const score = scoreGame(book, cards, untilDecided);
    return {
      hands: score.hands,
      finished: score.finished,
      totals: Object.fromEntries(score.sides.map((side) => [side.name, String(side.total)])),
      next: Object.fromEntries(score.sides.map((side) => [side.name, String(side.next)])),
      leader: score.leader,
      pressures: Object.fromEntries(score.sides.map((side) => [side.name, side.pressures.map(String)])),
      bonus: Object.fromEntries(score.sides.map((side) => [side.name, String(side.bonus)])),
      standings: score.standings.map(({ place, side }) => [place, side.name]),
      columns: score.columns.map((column) => [column.winner, column.wonIn,
        Object.fromEntries(Object.entries(column.totals).map(([name, total]) => [name, String(total)]))]),
    };
  })),
}));
process.stdout.write(JSON.stringify(results));
