// @ts-check
/* The phone's scorer: reads a game's rule book (scoring/rulebook.py writes it from the engine)
   and scores leftovers and games as the engine does, with no rule of its own. A differential
   test runs it against the engine on random hands and games of every rule set. Scores of a
   game are BigInt (pressures double without end); a player's leftovers are plain numbers. */

/** @typedef {{rank: string, suit: string | null}} Card a card: rank "A" to "K" or "JK", suit "S", "H", "D", "C" or none */

/**
 * One player's leftovers in a game's terms (RuleSet.leftover_terms, with the deck's).
 * @typedef {object} LeftoverTerms
 * @property {Record<string, number>} points a card's points by rank
 * @property {Record<string, number>} special suited cards of their own value ("QS")
 * @property {"cover" | "cancel" | null} threes
 * @property {"deuces_and_pairs" | null} steps
 * @property {"all" | null} suits "all" where every card needs its suit
 * @property {number} decks
 * @property {number} jokers_per_deck
 * @property {boolean} one_goes_out
 * @property {number} three_points
 * @property {number} only_threes_points
 */

/**
 * How a game ends (RuleSet.end_terms), one of {hands}, {target, bonus}, {loss_line, outright},
 * {columns, target}.
 * @typedef {object} End
 * @property {number} [hands]
 * @property {number} [target]
 * @property {number} [bonus]
 * @property {number} [loss_line]
 * @property {number | null} [outright]
 * @property {number} [columns]
 */

/**
 * A game's rule book (scoring/rulebook.py): all the phone scores by.
 * @typedef {object} Book
 * @property {number} format
 * @property {string} rules
 * @property {string[]} players
 * @property {{name: string, members: string[]}[]} sides
 * @property {LeftoverTerms} leftovers
 * @property {boolean} lowest_wins
 * @property {"points" | "cards" | null} collect
 * @property {{first: number, cap: number | null} | null} pressures
 * @property {string[]} no_pressure the players who never take a pressure
 * @property {number} same_pressure_seconds two pressures on one player this close are asked about (ask.js)
 * @property {string} name the rule set's name, as the engine's refusals say it
 * @property {{cards: Record<string, [string, string]>, pressures: Record<string, string>}} [refusals] the engine's words for what it refuses wherever it is held
 * @property {Record<string, number>} starts
 * @property {End} end
 */

/** @typedef {{total: number, covers: string, steps: string}} Scored one player's leftovers scored */
/** @typedef {Scored & {cards: number}} Counted scored, with how many cards were left */
/** @typedef {{leftovers: Record<string, Card[]>, pressures: string[]}} Hand a hand as played: each player's leftovers, the pressures taken */
/** @typedef {{totals: Record<string, bigint>, winner: string | null, wonIn: number | null}} Column one of Hollywood scoring's games */

/**
 * A side's score over the game.
 * @typedef {object} SideScore
 * @property {string} name
 * @property {bigint} start
 * @property {bigint} bonus
 * @property {bigint} total
 * @property {bigint[]} hands each hand's points, pressures included
 * @property {bigint[]} pressures what each hand's pressures added
 * @property {number} taken pressures taken in the game
 * @property {bigint} next what the next pressure costs
 * @property {number} gamesWon
 */

/**
 * A game scored (scoreGame).
 * @typedef {object} GameScore
 * @property {number} hands how many hands count
 * @property {boolean} finished
 * @property {SideScore[]} sides
 * @property {string[]} outright the sides past the outright line
 * @property {Column[]} columns
 * @property {string[]} leader
 * @property {{place: number, side: SideScore}[]} standings
 */

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
const SUITS = ["S", "H", "D", "C"];
/** @type {Record<string, string>} */
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export class Refused extends Error {}

/* "10h", "QS", "T", "a", "JK": a card {rank, suit}, or Refused. */
/** @param {string} token @returns {Card} */
export function parseCard(token) {
  const text = String(token).trim().toUpperCase();
  /** @type {(t: string) => string | null} */
  const rank = (t) => (t === "T" ? "10" : t === "JOKER" ? "JK" : RANKS.includes(t) ? t : null);
  const whole = rank(text);
  if (whole) { return { rank: whole, suit: null }; }
  const suit = text.slice(-1), bare = rank(text.slice(0, -1));
  if (text.length >= 2 && SUITS.includes(suit) && bare && bare !== "JK") { return { rank: bare, suit }; }
  throw new Refused("unknown card " + token);
}

/** @param {Card} card @returns {string} */
export function label(card) {
  return card.rank === "JK" ? "Joker" : card.rank + (card.suit ? SYMBOLS[card.suit] : "");
}

/** @type {(card: Card) => number} */
const order = (card) => RANKS.indexOf(card.rank) * 5 + (card.suit ? SUITS.indexOf(card.suit) + 1 : 0);
/** @type {(a: Card, b: Card) => number} */
const byOrder = (a, b) => order(a) - order(b);
/** @type {(a: Card, b: Card) => boolean} */
const same = (a, b) => a.rank === b.rank && a.suit === b.suit;

/* The holder of leftovers checked on their own (the calculator, the pad's live score): blank, which
   no player's name can be, as the engine's SINGLE_HAND (rulesets/base.py). */
export const SINGLE_HAND = "";

/* The engine's own words for a card it refuses wherever it is held (the rule book asks the engine),
   in one hand (SINGLE_HAND) or in a player's; null for a card it takes. */
/** @param {Book} book @param {string} player @param {Card} card @returns {string | null} */
function refusalOf(book, player, card) {
  const words = book.refusals && !card.suit ? book.refusals.cards[card.rank] : undefined;
  if (!words) { return null; }
  return player === SINGLE_HAND ? words[0] : words[1].split("{player}").join(player);
}

/* "5 × K in the leftovers, but one deck has only 4. Check Bob's and Di's cards." (rulesets/base.py) */
/**
 * @param {Record<string, Card[]>} leftovers @param {string} what @param {number} limit @param {number} decks
 * @param {(card: Card) => boolean} holds @returns {string}
 */
function tooMany(leftovers, what, limit, decks, holds) {
  const held = decks === 1 ? "one deck has" : decks + " decks have";
  const holders = Object.keys(leftovers).filter((player) => leftovers[player].some(holds));
  if (holders.length === 1 && holders[0] === SINGLE_HAND) { return what + " in one hand, but " + held + " only " + limit + "."; }
  return what + " in the leftovers, but " + held + " only " + limit + ". Check " +
    holders.map((player) => player + "'s").join(" and ") + " cards.";
}

/* A card's points by the book; threes under a threes rule are not looked up here. */
/** @param {LeftoverTerms} terms @param {Card} card @returns {number} */
function pointsOf(terms, card) {
  if (terms.suits === "all" && !card.suit) { throw new Refused("this game needs the suit of every card"); }
  for (const special of Object.keys(terms.special)) {
    const wanted = parseCard(special);
    if (wanted.rank === card.rank) {
      if (!card.suit) { throw new Refused(label(wanted) + " is a special card: give the suit"); }
      if (same(wanted, card)) { return terms.special[special]; }
    }
  }
  if (!(card.rank in terms.points)) { throw new Refused(label(card) + " is not in this game's deck"); }
  return terms.points[card.rank];
}

/* One player's leftovers scored: {total, covers (e.g. "3→6 3→2"), steps}. */
/** @param {Book} book @param {Card[]} cards @returns {Scored} */
export function scoreLeftovers(book, cards) {
  const terms = book.leftovers;
  if (terms.threes) { return threes(terms, cards); }
  let total = 0;
  for (const card of cards) { total += pointsOf(terms, card); }
  /** @type {string[]} */
  const steps = [];
  if (terms.steps === "deuces_and_pairs") {
    for (const card of cards) { if (card.rank === "2") { total *= 2; steps.push("×2"); } }
    /** @type {Card[]} */
    const seen = [];
    for (const card of cards) {
      if (seen.some((other) => same(other, card))) { continue; }
      seen.push(card);
      const count = cards.filter((other) => same(other, card)).length;
      for (let i = 0; i < Math.floor(count / 2); i += 1) { total = Math.floor(total / 2); steps.push("÷2"); }
    }
  }
  return { total, covers: "", steps: steps.join(" ") };
}

/* Crates' covering and Creights' cancelling (scoring/threes.py): the lowest total. */
/** @param {LeftoverTerms} terms @param {Card[]} cards @returns {Scored} */
function threes(terms, cards) {
  const three = cards.filter((card) => card.rank === "3").sort(byOrder);
  const others = cards.filter((card) => card.rank !== "3");
  if (!cards.length) { return { total: 0, covers: "", steps: "" }; }
  if (!others.length) { return { total: terms.only_threes_points * three.length, covers: "", steps: "" }; }
  const points = (/** @type {Card} */ card) => pointsOf(terms, card);
  /** @type {(a: Card, b: Card) => number} */
  const byValue = (a, b) => points(b) - points(a) || byOrder(a, b);
  const sorted = others.slice().sort(byValue);
  const eligible = sorted.filter((card) => card.rank !== "8");
  const fixed = sorted.filter((card) => card.rank === "8");
  /** @type {{threes: Card[], base: Card | null}[]} */
  let piles = [];
  /** @type {number} */
  let covered;
  if (terms.threes === "cover") {
    const worth = eligible.filter((card) => points(card) > terms.three_points).length;
    covered = Math.min(three.length, worth) || Math.min(three.length, eligible.length, 1);
    if (covered) {
      piles = eligible.slice(0, covered).map((base, i) => ({ threes: [three[i]], base }));
      piles[0].threes = three.slice(covered).concat(piles[0].threes);
    } else if (three.length) {
      piles = [{ threes: three, base: null }];
    }
  } else {
    /** @type {[number, number, number]} saving, threes paired, threes cancelling a card: none paired to start with */
    let best = [-Infinity, 0, 0];
    for (let paired = 0; paired <= Math.floor(three.length / 2); paired += 1) {
      const cancelled = Math.min(eligible.length, three.length - 2 * paired);
      const saving = terms.three_points * paired + eligible.slice(0, cancelled).reduce((sum, card) => sum + points(card), 0);
      if (saving > best[0]) { best = [saving, paired, cancelled]; }
    }
    const paired = best[1];
    covered = best[2];
    piles = eligible.slice(0, covered).map((base, i) => ({ threes: [three[i]], base }));
    const spare = three.slice(covered);
    for (let i = 0; i < paired; i += 1) { piles.push({ threes: [spare[2 * i]], base: spare[2 * i + 1] }); }
    spare.slice(2 * paired).forEach((card) => piles.push({ threes: [card], base: null }));
  }
  const rest = eligible.slice(covered).concat(fixed).sort(byValue);
  const total = terms.three_points * piles.length + rest.reduce((sum, card) => sum + points(card), 0);
  const covers = piles
    .filter((pile) => pile.base || pile.threes.length > 1)
    .map((pile) => pile.threes.concat(pile.base ? [pile.base] : []).map(label).join("→"))
    .join(" ");
  return { total, covers, steps: "" };
}

/* One hand's leftovers checked and scored on their own, outside any game. */
/** @param {Book} book @param {Card[]} cards @returns {Scored} */
export function checkOneHand(book, cards) {
  return checkLeftovers(book, { [SINGLE_HAND]: cards })[SINGLE_HAND];
}

/* The deck's limits and who may go out, over some or all players' leftovers (by name). */
/** @param {Book} book @param {Record<string, Card[]>} leftovers @returns {Record<string, Scored>} */
export function checkLeftovers(book, leftovers) {
  const terms = book.leftovers, held = Object.values(leftovers).flat();
  /** @type {Record<string, Scored>} */
  const scored = {};
  for (const [player, cards] of Object.entries(leftovers)) {
    for (const card of cards) {
      const refused = refusalOf(book, player, card);
      if (refused) { throw new Refused(refused); }
    }
    scored[player] = scoreLeftovers(book, cards);
  }
  for (const rank of new Set(held.map((card) => card.rank))) {
    const count = held.filter((card) => card.rank === rank).length;
    const limit = terms.decks * (rank === "JK" ? terms.jokers_per_deck : 4);
    if (count > limit) {
      throw new Refused(tooMany(leftovers, count + " × " + rank, limit, terms.decks, (card) => card.rank === rank));
    }
  }
  for (const card of held) {
    const count = held.filter((other) => same(other, card)).length;
    if (card.suit && count > terms.decks) {
      throw new Refused(tooMany(leftovers, count + " × " + label(card), terms.decks, terms.decks, (other) => same(other, card)));
    }
  }
  const out = Object.keys(leftovers).filter((player) => !leftovers[player].length);
  if (terms.one_goes_out && out.length > 1 && !(SINGLE_HAND in leftovers)) {
    throw new Refused("only one player can go out, but " + out.join(" and ") + " have no cards.");
  }
  return scored;
}

/* The value of a side's n-th pressure of the game (1 is the first). */
/** @param {Book} book a book with pressures @param {number} n @returns {bigint} */
export function pressureValue(book, n) {
  const terms = /** @type {{first: number, cap: number | null}} */ (book.pressures);
  const cap = terms.cap === null ? null : BigInt(terms.cap);
  let value = BigInt(terms.first);
  for (let i = 1; i < n; i += 1) { value += cap === null || value < cap ? value : cap; }
  return value;
}

/** @param {Book} book @param {string} player a player of the game @returns {{name: string, members: string[]}} */
function sideOf(book, player) { return /** @type {{name: string, members: string[]}} */ (book.sides.find((side) => side.members.includes(player))); }

/** @param {Book} book @param {Record<string, Counted>} scored @returns {Record<string, number>} */
function handPoints(book, scored) {
  /** @type {Record<string, number>} */
  const points = {};
  book.players.forEach((player) => { points[player] = scored[player].total; });
  if (!book.collect) { return points; }
  /** @type {Record<string, number>} */
  const counts = {};
  book.players.forEach((player) => {
    counts[player] = book.collect === "cards" ? scored[player].cards : scored[player].total;
    points[player] = 0;
  });
  const out = book.players.filter((player) => scored[player].cards === 0);
  if (out.length) {
    points[out[0]] = book.players.filter((p) => p !== out[0]).reduce((sum, p) => sum + counts[p], 0);
    return points;
  }
  const lowest = Math.min(...Object.values(counts));
  const gap = Object.values(counts).reduce((sum, count) => sum + count - lowest, 0);
  book.players.forEach((player) => { if (counts[player] === lowest) { points[player] = gap; } });
  return points;
}

/* Hollywood scoring: a winner's first hand counts in game 1, the second in 1 and 2, ... */
/** @param {Book} book @param {Record<string, bigint>[]} history each hand's points by side @returns {Column[]} */
function columns(book, history) {
  const end = book.end, goal = BigInt(/** @type {number} */ (end.target));
  /** @type {Record<string, bigint>[]} */
  const totals = [];
  /** @type {([string, number] | null)[]} each game's winner and the hand it was won in */
  const winners = [];
  /** @type {Record<string, number>} */
  const wins = {};
  const count = /** @type {number} */ (end.columns);
  for (let c = 0; c < count; c += 1) {
    totals.push(Object.fromEntries(book.players.map((p) => [p, 0n])));
    winners.push(null);
  }
  history.forEach((points, index) => {
    for (const [player, scored] of Object.entries(points)) {
      if (scored <= 0n) { continue; }
      wins[player] = (wins[player] || 0) + 1;
      for (let c = 0; c < Math.min(wins[player], count); c += 1) {
        if (winners[c] === null) { totals[c][player] += scored; }
      }
    }
    totals.forEach((column, c) => {
      const leader = book.players.reduce((best, p) => (column[p] > column[best] ? p : best), book.players[0]);
      if (winners[c] === null && column[leader] >= goal) { winners[c] = [leader, index + 1]; }
    });
  });
  return totals.map((column, c) => {
    const won = winners[c];
    return { totals: column, winner: won && won[0], wonIn: won && won[1] };
  });
}

/** @param {Book} book @param {Record<string, bigint>} totals @param {Record<string, bigint>[]} history @returns {boolean} */
function decided(book, totals, history) {
  const end = book.end, values = Object.values(totals);
  if ("hands" in end) { return history.length === end.hands; }
  if ("columns" in end) { return columns(book, history).every((column) => column.winner !== null); }
  if ("target" in end) { return values.some((total) => total >= BigInt(/** @type {number} */ (end.target))); }
  const below = values.filter((total) => total < BigInt(/** @type {number} */ (end.loss_line))).length;
  return below <= 1 || outright(book, totals).length > 0;
}

/** @param {Book} book @param {Record<string, bigint>} totals @returns {string[]} */
function outright(book, totals) {
  const line = book.end.outright;
  if (line === undefined || line === null) { return []; }
  return Object.keys(totals).filter((side) => totals[side] >= BigInt(line));
}

/* A game scored hand by hand: hands are {leftovers: {player: [card]}, pressures: [player]}.
   Refused on the first broken rule, as the engine refuses it (or, untilDecided, the hands
   after the game was decided are left out). Each side has its start, each hand's points and
   what its pressures added in it, its bonus and total; the standings place the sides. */
/** @param {Book} book @param {Hand[]} hands @param {boolean} untilDecided @returns {GameScore} */
export function scoreGame(book, hands, untilDecided) {
  const most = "hands" in book.end ? /** @type {number} */ (book.end.hands) : null;
  if (most !== null && hands.length > most) {
    throw new Refused("Hand " + (most + 1) + ": " + book.name + " has only " + most + " hands.");
  }
  /** @type {Record<string, bigint>} */
  const starts = {};
  /** @type {Record<string, bigint>} */
  const totals = {};
  /** @type {Record<string, number>} */
  const taken = {};
  /** @type {Record<string, bigint[]>} */
  const sideHands = {};
  /** @type {Record<string, bigint[]>} */
  const sidePressures = {};
  book.sides.forEach((side) => {
    starts[side.name] = side.members.reduce((sum, p) => sum + BigInt(book.starts[p]), 0n);
    totals[side.name] = starts[side.name];
    taken[side.name] = 0;
    sideHands[side.name] = [];
    sidePressures[side.name] = [];
  });
  /** @type {Record<string, bigint>[]} */
  const history = [];
  let over = false;
  for (const [index, hand] of hands.entries()) {
    if (over) {
      if (untilDecided) { break; }
      throw new Refused("Hand " + (index + 1) + ": the game was already decided after hand " + index + ".");
    }
    const scored = checkHand(book, hand, index + 1);
    const points = handPoints(book, scored);
    /** @type {Record<string, bigint>} */
    const pressures = {};
    book.sides.forEach((side) => { pressures[side.name] = 0n; });
    for (const player of hand.pressures) {
      const side = sideOf(book, player).name;
      taken[side] += 1;
      pressures[side] += pressureValue(book, taken[side]);
    }
    /** @type {Record<string, bigint>} */
    const row = {};
    book.sides.forEach((side) => {
      row[side.name] = side.members.reduce((sum, p) => sum + BigInt(points[p]), 0n) + pressures[side.name];
      totals[side.name] += row[side.name];
      sideHands[side.name].push(row[side.name]);
      sidePressures[side.name].push(pressures[side.name]);
    });
    history.push(row);
    over = decided(book, totals, history);
  }
  /** @type {Record<string, bigint>} */
  const bonus = {};
  book.sides.forEach((side) => {
    const end = book.end;
    bonus[side.name] = over && "target" in end && end.bonus && totals[side.name] >= BigInt(/** @type {number} */ (end.target)) ? BigInt(end.bonus) : 0n;
  });
  const won = over ? outright(book, totals) : [];
  const games = "columns" in book.end ? columns(book, history) : [];
  const sides = book.sides.map((side) => ({
    name: side.name,
    start: starts[side.name],
    bonus: bonus[side.name],
    total: totals[side.name] + bonus[side.name],
    hands: sideHands[side.name],
    pressures: sidePressures[side.name],
    taken: taken[side.name],
    next: book.pressures ? pressureValue(book, taken[side.name] + 1) : 0n,
    gamesWon: games.filter((game) => game.winner === side.name).length,
  }));
  return { hands: history.length, finished: over, sides, outright: won, columns: games,
    leader: leaders(book, sides, won), standings: standings(book, sides, won) };
}

/* Smaller is better (GameScore._rank): an outright win, then more games won, then the total. */
/** @type {(book: Book, won: string[]) => (side: SideScore) => [bigint, bigint]} */
const ranker = (book, won) => (side) => (won.includes(side.name)
  ? [-1n, 0n]
  : [BigInt(-side.gamesWon), book.lowest_wins ? side.total : -side.total]);
/** @type {(a: [bigint, bigint], b: [bigint, bigint]) => boolean} */
const before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
/** @type {(a: [bigint, bigint], b: [bigint, bigint]) => boolean} */
const level = (a, b) => a[0] === b[0] && a[1] === b[1];

/* The side(s) ahead (GameScore.leader). */
/** @param {Book} book @param {SideScore[]} sides @param {string[]} won @returns {string[]} */
function leaders(book, sides, won) {
  const rank = ranker(book, won);
  const best = sides.map(rank).reduce((low, r) => (before(r, low) ? r : low));
  return sides.filter((side) => level(rank(side), best)).map((side) => side.name);
}

/* The sides best first, each with its place; tied sides share one (GameScore.standings: 1, 1, 3). */
/** @param {Book} book @param {SideScore[]} sides @param {string[]} won @returns {{place: number, side: SideScore}[]} */
function standings(book, sides, won) {
  const rank = ranker(book, won);
  const ordered = sides.slice().sort((a, b) => (before(rank(a), rank(b)) ? -1 : before(rank(b), rank(a)) ? 1 : 0));
  /** @type {{place: number, side: SideScore}[]} */
  const places = [];
  ordered.forEach((side, index) => {
    const tied = places.length && level(rank(places[places.length - 1].side), rank(side));
    places.push({ place: tied ? places[places.length - 1].place : index + 1, side });
  });
  return places;
}

/* Hand ``number`` refereed as the engine does (scorer.check_hand), refused in its words. */
/** @param {Book} book @param {Hand} hand @param {number} number @returns {Record<string, Counted>} */
function checkHand(book, hand, number) {
  const at = "Hand " + number + ": ";
  for (const player of Object.keys(hand.leftovers)) {
    if (!book.players.includes(player)) { throw new Refused(at + "'" + player + "' is not a player of this game."); }
  }
  for (const player of book.players) {
    if (!(player in hand.leftovers)) {
      throw new Refused("Hand " + number + ", " + player + ": no leftovers given (an empty list if " + player + " went out).");
    }
  }
  /** @type {Record<string, Counted>} */
  let scored;
  try {
    scored = /** @type {Record<string, Counted>} */ (checkLeftovers(book, hand.leftovers));
  } catch (error) {
    if (error instanceof Refused) { throw new Refused(at + error.message); }
    throw error;
  }
  for (const player of book.players) { scored[player].cards = hand.leftovers[player].length; }
  for (const player of hand.pressures) {
    if (!book.pressures) { throw new Refused(at + book.name + " has no pressures."); }
    if (!book.players.includes(player)) { throw new Refused(at + "pressure to '" + player + "', who is not a player of this game."); }
    if (book.no_pressure.includes(player)) {
      const words = book.refusals && book.refusals.pressures[player];
      throw new Refused(words ? words.split("1000000007").join(String(number)) : player + " never takes a pressure");
    }
  }
  if (book.players.every((player) => !hand.leftovers[player].length)) {
    throw new Refused(at + "nobody has any cards left, but a hand ends with someone still holding cards " +
      "(even the count ends with a player drawing).");
  }
  return scored;
}
