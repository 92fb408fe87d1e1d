// @ts-check
/* The game's pages drawn from the phone's copy as the server's templates draw them. Pure: a tree
   of plain elements, from the fold (copy.js), a route and PageFacts (tests/phone/draw.mjs). */

import { label, parseCard, scoreLeftovers } from "./rules.js";

/** @import { Entry, Leftovers, GameState } from "./copy.js" */
/**
 * A page of the game drawn here; "away": one saying the page at href needs the server.
 * @typedef {{page: "hand"} | {page: "scores"} | {page: "history"} | {page: "detail", hand: number} |
 *   {page: "pad", hand: number, seat: number} | {page: "away", href: string}} Route
 */
/** @typedef {{tag: string, attrs: Record<string, string>, children: Tree[]}} Element */
/** @typedef {Element | string} Tree */
/** @typedef {Tree | number | bigint | boolean | null | undefined | Child[]} Child */
/** @typedef {{base: string, csrf: string, key: () => string, waiting: number}} PageFacts the game's address, CSRF token, a new idempotency key, changes waiting */
/** @typedef {{item?: string, flash?: boolean, text?: string, fresh?: boolean, path?: string}} Notice what the server would say of the last change */

/** @param {string} base @param {Exclude<Route, {page: "away"}>} route @returns {string} */
export function addressOf(base, route) {
  if (route.page === "hand") { return base; }
  if (route.page === "detail") { return base + "hand/" + route.hand; }
  if (route.page === "pad") { return base + "hand/" + route.hand + "/seat/" + route.seat; }
  return base + route.page;
}

/** An element (null, undefined, false: no attribute, no child; true: an attribute present).
    @param {string} tag @param {Record<string, unknown> | null} [attrs] @param {...Child} children @returns {Element} */
export function h(tag, attrs, ...children) {
  /** @type {Record<string, string>} */
  const kept = {};
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) { kept[name] = value === true ? "" : String(value); }
  }
  const inside = /** @type {unknown[]} */ (children).flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);
  return { tag, attrs: kept, children: inside.map((child) => (typeof child === "object" ? /** @type {Element} */ (child) : String(child))) };
}

/** @param {PageFacts} facts */
function keys(facts) {
  return [h("input", { type: "hidden", name: "csrf_token", value: facts.csrf }), h("input", { type: "hidden", name: "idem", value: facts.key() })];
}

/* A form of one button that appends a change through the outbox (the change_button macro). */
/**
 * @param {PageFacts} facts @param {string} route @param {string} outbox its label in the outbox
 * @param {Record<string, unknown>} fields @param {Child} content
 * @param {{ask?: string, within?: number, formClass?: string, class?: string, label?: string, pressed?: boolean}} [options]
 */
function changeButton(facts, route, outbox, fields, content, options = {}) {
  return h("form", { method: "post", action: facts.base + route, "data-outbox": outbox, "data-ask": options.ask, "data-ask-within": options.within, class: options.formClass },
    keys(facts),
    Object.entries(fields).map(([name, value]) => h("input", { type: "hidden", name, value })),
    h("button", { type: "submit", class: options.class || "secondary", "aria-label": options.label,
      "aria-pressed": options.pressed === undefined ? null : String(options.pressed) }, content));
}

/* Undo: a change the server has is undone by a change; one still on this phone is taken out
   (offline.js binds data-take-out). */
/** @param {PageFacts} facts @param {Entry} entry @param {string} [text] @param {string} [back] */
function undoButton(facts, entry, text = "Undo", back = "hand") {
  if (entry.queued) {
    return h("button", { type: "button", class: "secondary small", "data-take-out": entry.id }, text);
  }
  return changeButton(facts, "undo", text, { target: entry.id, back }, text, { class: "secondary small", formClass: "inline" });
}

/** @type {(index: number) => Element} */
const swatch = (index) => h("span", { class: "swatch s" + index, "aria-hidden": "true" });
/** @type {(count: number | bigint, word: string) => string} */
const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
/** @type {(name: string) => Child[]} */
const words = (name) => name.split(" ").flatMap((word, i) => (i ? [" ", h("span", { class: "word" }, word)] : [h("span", { class: "word" }, word)]));
/** @type {(entry: Leftovers) => string} */
const cardsText = (entry) => entry.data.cards.map((t) => label(parseCard(t))).join(" ") || "went out";

/** @param {PageFacts} facts */
function banner(facts) {
  const waiting = facts.waiting;
  return h("p", { class: "offline-banner", role: "status" },
    h("strong", {}, "Offline"), " · ", plural(waiting, "change"), " waiting",
    waiting ? h("span", {}, " · scores provisional until the server has them") : null);
}

/* The totals, and the game columns of a session (the totals macro of _partials.html). */
/** @param {GameState} table @returns {Child[]} */
function totals(table) {
  const { score, finished } = table.state;
  const begun = score.hands > 0 || score.sides.some((side) => side.start !== 0n);
  return [h("table", { class: "totals provisional", "aria-label": "Totals" },
    score.sides.map((side, i) => {
      const leads = begun && score.leader.includes(side.name);
      return h("tr", { class: leads ? "leads" : "" },
        h("th", { scope: "row" }, swatch(i), words(side.name)),
        table.book.end.columns ? h("td", { class: "num" }, plural(side.gamesWon, "game")) : null,
        h("td", { class: "num big" }, String(side.total)),
        h("td", { class: "lead-mark" }, leads ? (finished ? "★ winner" : "▲ leads") : ""));
    })), gamesTable(table)];
}

/* Hollywood scoring's games, each column's totals and who won it (the games_table macro). */
/** @param {GameState} table @returns {Child} */
function gamesTable(table) {
  const columns = table.state.score.columns;
  if (!columns.length) { return null; }
  const names = Object.keys(columns[0].totals);
  return [h("table", { class: "grid games", "aria-label": "Games" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), names.map((name) => h("th", { scope: "col", class: "num" }, name)),
      h("th", { scope: "col" }, "Won by"))),
    h("tbody", {}, columns.map((column, c) => h("tr", { class: column.winner ? "closed" : "" },
      h("th", { scope: "row" }, String(c + 1)),
      names.map((name) => h("td", { class: "num" + (column.winner === name ? " won" : "") }, String(column.totals[name]))),
      h("td", {}, column.winner ? ["★ " + column.winner + " ", h("small", { class: "muted" }, "(hand " + column.wonIn + ")")] : h("span", { class: "muted" }, "open")))))),
  h("p", { class: "muted small" }, "A player's 1st winning hand counts in game 1, the 2nd in games 1–2, later ones in every open game; a game closes when someone reaches the target in it.")];
}

/** @param {GameState} table @param {PageFacts} facts @returns {Child[]} */
function handPage(table, facts) {
  const copy = table.copy, book = table.book, { last, pending, next } = table.state;
  const number = last, deal = copy.deals[number - 1] || {};
  /** @type {Child[]} */
  const parts = [banner(facts),
    h("section", { class: "handhead", "aria-label": "This hand" },
      h("h1", {}, "Hand " + number, copy.max_hands ? h("span", { class: "of" }, " of " + copy.max_hands) : null,
        " · " + plural(deal.cards, "card") + " each"),
      h("p", { class: "deal" }, "Dealer: ", h("strong", {}, words(deal.dealer)), " · ", h("strong", {}, words(deal.first)), " plays first")),
  ];
  const entered = Object.keys(table.handLeftovers(number));
  parts.push(h("a", { class: "button wide endhand", href: addressOf(facts.base, { page: "pad", hand: number, seat: table.nextSeatToEnter(number) || 0 }) },
    h("span", {}, "END HAND ", h("span", { "aria-hidden": "true" }, "→"), " cards left")));
  if (entered.length) {
    parts.push(h("p", { class: "entered muted small" }, "Leftovers entered: " + entered.join(", ") + ". Waiting for: " +
      book.players.filter((p) => !entered.includes(p)).join(", ") + "."));
  }
  if (copy.has.pressures) {
    const sides = book.sides.map((side, i) => h("div", { class: "side-block", "data-ask-here": true },
      h("h2", { class: "side-name" + (copy.partnerships ? "" : " visually-hidden") }, h("span", {}, swatch(i), side.name), " ", h("span", { class: "next" }, "next: ", h("strong", {}, String(next[side.name])))),
      h("div", { class: "pressure-row" }, side.members.map((member) => {
        const taker = copy.takers[member];
        const cost = String(next[/** @type {{name: string}} */ (book.sides.find((s) => s.members.includes(taker))).name]);
        const fields = { hand: number, player: taker, again: "", waited: "0" };
        if (taker === member) {
          return changeButton(facts, "pressure", "Pressure: " + member + ", hand " + number, fields,
            ["PRESSURE", h("br"), h("span", { class: "who" }, words(member)), h("span", { class: "cost" }, "+" + cost)],
            { class: "pressure", label: "Pressure on " + member + ", plus " + cost, ask: "Another pressure on " + member + "?", within: book.same_pressure_seconds });
        }
        return changeButton(facts, "pressure", "Pressure on " + member + " to " + taker + ", hand " + number, fields,
          ["PRESSURE", h("br"), h("span", { class: "who" }, words(member), " ", h("span", {}, "→"), " ", words(taker)), h("span", { class: "cost" }, "+" + cost)],
          { class: "pressure passed", label: "Pressure on " + member + ", recorded on " + taker + ", plus " + cost, ask: "Another pressure on " + taker + "?", within: book.same_pressure_seconds });
      })),
      side.members.filter((member) => copy.takers[member] !== member).map((member) => h("p", { class: "muted small" },
        member + " never takes a pressure: one on " + member + " goes to the next player to play, " + copy.takers[member] + "."))));
    const list = pending.length ? h("ul", { class: "plain pending", "aria-label": "Pressures this hand" }, pending.map(({ entry, side, cost }) =>
      h("li", {}, h("span", {}, "Pressure: ", h("strong", {}, entry.player), side !== entry.player ? " (" + side + ")" : "", " ", h("strong", {}, "+" + cost),
        entry.queued ? h("span", { class: "muted small" }, " · waiting") : null), " ", undoButton(facts, entry)))) : null;
    parts.push(h("section", { class: "pressures" + (copy.partnerships ? "" : " solo"), "aria-label": "Pressures" }, sides, list));
  }
  parts.push(totals(table));
  if (copy.has.count) {
    const token = facts.base.split("/")[2];
    parts.push(h("section", { class: "count", "data-count-key": token + "-" + number, hidden: true, "aria-label": "The count" },
      h("h2", {}, "The count"),
      h("div", { class: "count-row" },
        h("button", { type: "button", class: "count-add", "data-add": "1", "aria-label": "Plus an ace" }, "+ A"),
        h("button", { type: "button", class: "count-add", "data-add": "2", "aria-label": "Plus a two" }, "+ 2"),
        h("output", { class: "count-total", "aria-live": "polite", "aria-label": "Count" }, "0"),
        h("button", { type: "button", class: "secondary count-reset", "aria-label": "Reset the count" }, "Reset")),
      h("p", { class: "count-help muted" }, "Tap each A or 2 as it is played. Whoever cannot continue draws ", h("strong", { class: "count-draw" }, "0"), ".")));
  }
  if (copy.has.one_card) {
    const owing = table.owing(number);
    parts.push(h("section", { "aria-label": "One card owed" }, h("h2", {}, "“One card” forgotten"),
      h("p", { class: "muted small" }, "Mark a player who owes two cards on their next turn. Cleared when the hand ends."),
      h("div", { class: "toggle-row" }, book.players.map((player) => {
        const owes = owing.includes(player);
        return changeButton(facts, "one-card", "One card: " + player, { hand: number, player, owes: owes ? "0" : "1" },
          h("span", { class: "words" }, words(player), owes ? " · owes 2" : ""), { class: "toggle" + (owes ? " on" : ""), pressed: owes });
      }))));
  }
  if (copy.has.pressures) { parts.push(shufflePanel(table, number, facts)); }
  parts.push(notesPanel(table, number, facts));
  parts.push(actionsPanel(table));
  return parts;
}

/* Both piles empty: a pressure that ends the hand at once, and on to the leftovers. */
/** @param {GameState} table @param {number} number @param {PageFacts} facts */
function shufflePanel(table, number, facts) {
  const { book, copy } = table;
  return h("details", { class: "panel" }, h("summary", {}, "Both piles empty? (shuffle pressure ends the hand)"),
    h("p", { class: "small" }, "If a player must draw and there is no card in the stock nor under the top of the pile, they take a pressure and the hand ends at once (Craits rules)."),
    h("div", { class: "pressure-row" }, book.players.map((player) => {
      const taker = copy.takers[player];
      return changeButton(facts, "pressure", "Pressure (hand ends): " + taker, { hand: number, player: taker, ends_hand: "y", again: "", waited: "0" },
        [player + ": pressure", taker !== player ? " (to " + taker + ")" : "", ", end hand"], { ask: "Another pressure on " + taker + "?", within: book.same_pressure_seconds });
    })));
}

/* What each card does, for this many players. */
/** @param {GameState} table */
function actionsPanel(table) {
  return h("details", { class: "panel" }, h("summary", {}, "Card actions (" + table.book.players.length + " players)"),
    h("table", { class: "actions-table" }, (table.copy.actions || []).map(([card, action]) => h("tr", {}, h("th", { scope: "row" }, card), h("td", {}, action)))));
}

/** @param {GameState} table @param {number} number @param {PageFacts} facts */
function notesPanel(table, number, facts) {
  const notes = table.notes.get(number) || [];
  return h("details", { class: "panel" }, h("summary", {}, "Ruling note" + (notes.length ? " (" + notes.length + ")" : "")),
    notes.map((entry) => h("div", { class: "note" }, "✎ " + entry.data.text, " ", undoButton(facts, entry, "Remove"))),
    h("form", { method: "post", action: facts.base + "note", class: "stack", "data-outbox": "Ruling note, hand " + number },
      keys(facts), h("input", { type: "hidden", name: "hand", value: number }),
      h("div", { class: "field" }, h("label", { for: "offline-note" }, "Ruling note"), h("textarea", { id: "offline-note", name: "text", maxlength: table.copy.limits.note })),
      h("button", { class: "secondary", type: "submit" }, "Save note")));
}

/** @param {GameState} table @param {number} number @param {number} seat @param {PageFacts} facts @returns {Child[]} */
function padPage(table, number, seat, facts) {
  const base = facts.base;
  const book = table.book, copy = table.copy, player = book.players[seat];
  const entered = table.handLeftovers(number), existing = entered[player];
  const fields = { cards: existing ? existing.data.cards.join(" ") : "", out: existing ? !existing.data.cards.length : false };
  const target = existing ? (existing.queued ? existing.target : existing.id) : null;
  /** @type {(p: string, i: number) => Element} */
  const tab = (p, i) => {
    const recorded = entered[p];
    return h("a", { href: addressOf(facts.base, { page: "pad", hand: number, seat: i }), class: "seat-tab" + (i === seat ? " current" : ""),
      "aria-current": i === seat ? "page" : null, "data-seat": i, "data-player": p,
      "data-entry": recorded ? (recorded.queued ? recorded.target || "" : recorded.id) : null,
      "data-recorded": recorded ? recorded.data.cards.join(" ") : null },
    h("span", { class: "words" }, words(p)), h("span", { "data-tab-mark": true }, recorded ? [" ✓", h("span", { class: "visually-hidden" }, " entered")] : ""));
  };
  const terms = book.leftovers;
  const suitRanks = terms.suits === "all" ? "all" : Object.keys(terms.special).map((k) => k.slice(0, -1).toUpperCase()).join(" ");
  /** @type {[string, string?][]} */
  const ranks = [["A", "Ace"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"], ["8"], ["9"], ["10"], ["J", "Jack"], ["Q", "Queen"], ["K", "King"]];
  const form = h("form", { method: "post", novalidate: true, class: "stack leftovers-form", id: "leftovers-form", action: addressOf(facts.base, { page: "pad", hand: number, seat }), "data-preview": base + "preview",
    "data-outbox": "Leftovers: " + player + ", hand " + number, "data-outbox-replace": true,
    "data-hand-url": base + "hand/" + number + "/leftovers", "data-hand": number, "data-seat": seat,
    "data-follow": base, "data-open": table.nextSeatToEnter(number) !== null },
    keys(facts), h("input", { type: "hidden", name: "replaces", value: target === null ? "" : target }),
    h("div", { class: "who-row" }, h("h2", { class: "player-name" }, h("span", { "data-player-name": true }, h("span", { class: "words" }, words(player))),
      existing ? h("span", { class: "muted small", "data-correcting": true }, " (correcting: " + cardsText(existing) + ")") : null),
    h("p", { class: "live", "data-live": true, "aria-live": "polite" })),
    h("div", { class: "chips", "data-chips": true, "aria-live": "polite" }),
    h("div", { class: "field-cards" }, h("div", { class: "field" }, h("label", { for: "cards" }, "Cards left"),
      h("input", { id: "cards", name: "cards", type: "text", value: fields.out ? "" : fields.cards, autocomplete: "off" }))),
    copy.has.suits ? h("p", { class: "hint small", "data-suits-hint": true, hidden: true }, "Suits count in this game: tap the rank, then its suit.") : null,
    h("div", { class: "pad", "data-pad": true, hidden: true },
      ranks.map(([rank, spoken]) => h("button", { type: "button", "data-card": rank, "aria-label": spoken }, rank)),
      copy.has.jokers ? h("button", { type: "button", "data-card": "JK", "aria-label": "Joker" }, "JK") : null,
      h("button", { type: "button", class: "out", "data-out": true, "aria-label": "Out: no cards left" }, "OUT"),
      copy.has.suits ? h("div", { class: "suits", "data-suits": true, "data-suit-ranks": suitRanks, hidden: true },
        [["s", "♠", "spades"], ["h", "♥", "hearts"], ["d", "♦", "diamonds"], ["c", "♣", "clubs"]].map(([letter, symbol, name]) =>
          h("button", { type: "button", class: "hd".includes(letter) ? "red" : "", "data-suit": letter, "aria-label": name }, symbol + " ", h("span", { class: "letter", "aria-hidden": "true" }, letter.toUpperCase())))) : null),
    h("div", { "data-no-pad": true }, h("div", { class: "field" }, h("label", { class: "check" },
      h("input", { type: "checkbox", id: "went_out", name: "went_out", value: "y", checked: fields.out }), " ", h("span", {}, "Went out (no cards left)")))),
    h("button", { class: "wide", type: "submit", "data-save": true }, h("span", { class: "words" }, words("Save " + player + "'s leftovers"))));
  const neighbours = h("nav", { class: "prevnext", "data-no-pad": true },
    seat > 0 ? h("a", { class: "button secondary", href: addressOf(facts.base, { page: "pad", hand: number, seat: seat - 1 }) }, "← " + book.players[seat - 1]) : h("span"),
    seat + 1 < book.players.length ? h("a", { class: "button secondary", href: addressOf(facts.base, { page: "pad", hand: number, seat: seat + 1 }) }, book.players[seat + 1] + " →") : null);
  return [banner(facts), h("h1", {}, "Leftovers · hand " + number),
    h("nav", { class: "seats", "aria-label": "Players" }, book.players.map(tab)),
    form, neighbours, h("p", {}, h("a", { href: base }, "Back to the hand"))];
}

/* The Scores page (templates/game/scores.html): the final standings once the game is decided,
   every hand's points with what its pressures added (P), the bonus, the running totals. */
/** @param {GameState} table @param {PageFacts} facts @returns {Child[]} */
function scoresPage(table, facts) {
  const book = table.book, copy = table.copy, { score, finished } = table.state, title = titleOf(table);
  const sides = score.sides, crowded = sides.length > 3;
  const running = sides.map((side) => side.start);
  const rows = [];
  for (let n = 1; n <= score.hands; n += 1) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, h("a", { href: addressOf(facts.base, { page: "detail", hand: n }) }, String(n)), " ",
      h("small", { class: "muted dealt" }, plural((copy.deals[n - 1] || {}).cards, "card")),
      (table.notes.get(n) || []).length ? [" ", h("span", { title: "ruling note" }, "✎")] : null),
    sides.map((side, i) => {
      running[i] += side.hands[n - 1];
      const pressures = side.pressures[n - 1];
      return h("td", { class: "num" }, h("span", { class: "pts" }, String(side.hands[n - 1])),
        pressures ? [" ", h("span", { class: "pmark", title: "pressures" }, "P" + pressures)] : null,
        h("small", { class: "running" }, String(running[i])));
    })));
  }
  const head = h("tr", {}, h("th", { scope: "col" }, "Hand"), sides.map((side, i) => h("th", { scope: "col", class: "num", title: side.name }, swatch(i),
    crowded && side.name.length > 4 ? [h("span", { class: "short", "aria-hidden": "true" }, side.name.slice(0, 3) + "…"), h("span", { class: "visually-hidden" }, side.name)] : words(side.name))));
  const withStart = sides.some((side) => side.start !== 0n), withBonus = sides.some((side) => side.bonus !== 0n);
  const grid = h("div", { class: "scroll", role: "region", tabindex: "0", "aria-label": "Every hand" },
    h("table", { class: "grid hands provisional" + (crowded ? " crowded" : "") }, h("thead", {}, head),
      h("tbody", {}, withStart ? h("tr", { class: "start" }, h("th", { scope: "row" }, "Start"), sides.map((side) => h("td", { class: "num" }, String(side.start)))) : null, rows),
      h("tfoot", {},
        withBonus ? h("tr", { class: "bonus" }, h("th", { scope: "row" }, "Bonus"),
          sides.map((side) => h("td", { class: "num" }, side.bonus ? "+" + side.bonus : h("span", { class: "muted" }, "–")))) : null,
        h("tr", {}, h("th", { scope: "row" }, "Total"), sides.map((side) => h("td", { class: "num big" }, String(side.total)))))));
  const played = score.hands + (copy.max_hands ? " of " + copy.max_hands + " hands" : " " + (score.hands === 1 ? "hand" : "hands")) + " played";
  const standings = h("ol", { class: "standings" }, score.standings.map(({ place, side }) => h("li", {},
    h("span", { class: "place" }, String(place)), " ", h("span", { class: "name" }, side.name),
    book.end.columns ? [" ", h("span", { class: "num" }, plural(side.gamesWon, "game"))] : null, " ", h("span", { class: "num big" }, String(side.total)))));
  return [banner(facts), h("h1", {}, finished ? "Final standings" : "Scores", title ? " · " + title : ""),
    h("p", { class: "muted" }, copy.name + " · " + played + (book.lowest_wins ? "" : " · highest total wins")),
    finished ? [standings, gamesTable(table)] : totals(table), inPlay(table), grid,
    h("p", { class: "muted small" }, "Each cell: the hand's points" + (copy.has.pressures ? " (P = pressures in it)" : "") +
      " and, below, the running total." + (withBonus ? " The bonus is added once the game is decided." : "") + " Tap a hand number to see or correct it."),
    h("p", { class: "small" }, h("button", { type: "button", class: "secondary small", "data-save-game": true }, "Save this game, with this phone's unsent changes"))];
}

/* The hand in play's pressures: in no hand's row yet, already in what the next one costs. */
/** @param {GameState} table */
function inPlay(table) {
  const { current, pending } = table.state;
  if (current === null || !pending.length) { return null; }
  return h("p", { class: "in-play" }, "Hand " + current + " in play: ",
    pending.map(({ entry, side, cost }, i) => [i ? ", " : "", "pressure on " + entry.player + (side !== entry.player ? " (" + side + ")" : "") + " +" + cost]),
    " (counted when the hand is complete).");
}

/* A hand's row opened up (templates/play/hand_detail.html): each player's cards and covering,
   the hand's score, its pressures, its notes; corrections. */
/** @param {GameState} table @param {number} number @param {PageFacts} facts @returns {Child[]} */
function detailPage(table, number, facts) {
  const book = table.book, copy = table.copy, deal = copy.deals[number - 1] || {}, entered = table.handLeftovers(number);
  const { score } = table.state;
  const scored = number <= score.hands;
  const points = Object.fromEntries(Object.entries(entered).map(([player, entry]) => [player, scoreLeftovers(book, entry.data.cards.map(parseCard))]));
  const covered = Object.values(points).some((found) => found.covers);
  const pressures = table.handPressures(number), notes = table.notes.get(number) || [];
  const legend = copy.threes_verb === "cancels"
    ? "Threes: “3→K” means the 3 cancels the K (the 3 counts 3, the K nothing)."
    : "Threes: “3→K” means the 3 covers the K (the pair counts 3); in “3→3→K” a second 3 covers that pair.";
  return [banner(facts),
    h("h1", {}, "Hand " + number + " ", h("span", { class: "of" }, "· " + plural(deal.cards, "card") + " · dealer " + deal.dealer)),
    scored ? null : h("p", { class: "muted" }, "This hand is not complete yet."),
    h("ul", { class: "plain players" }, book.players.map((player, seat) => {
      const entry = entered[player];
      return h("li", {}, h("div", { class: "row-between" }, h("strong", {}, player),
        entry ? h("span", { class: "num big" }, String(points[player].total)) : h("span", { class: "muted" }, "not entered")),
      entry ? h("div", {}, entry.data.cards.length ? entry.data.cards.map((t) => h("span", { class: "chip" }, label(parseCard(t)))) : h("span", { class: "chip out" }, "OUT")) : null,
      entry && points[player].covers ? h("p", { class: "covering small" }, "Threes: " + points[player].covers) : null,
      h("a", { class: "button secondary small", href: addressOf(facts.base, { page: "pad", hand: number, seat }) }, entry ? "Correct" : "Enter"));
    })),
    covered ? h("p", { class: "muted small legend" }, legend) : null,
    scored ? [h("h2", {}, "The hand's score"), h("ul", { class: "plain hand-sides" }, score.sides.map((side) => {
      const total = side.hands[number - 1], pressed = side.pressures[number - 1];
      return h("li", {}, h("span", {}, h("strong", {}, side.name), h("span", { class: "parts" }, "cards " + (total - pressed) + " + pressures " + pressed)),
        h("span", { class: "num big" }, String(total)));
    }))] : null,
    h("h2", {}, "Pressures"),
    h("ul", { class: "plain" }, pressures.length
      ? pressures.map((entry) => h("li", { class: "row-between" }, h("span", {}, entry.player), undoButton(facts, entry, "Remove", "detail")))
      : h("li", { class: "muted" }, "None")),
    copy.has.pressures ? h("details", { class: "panel" }, h("summary", {}, "Add a pressure that was missed"),
      h("div", { class: "pressure-row" }, book.players.map((player) => {
        const taker = copy.takers[player];
        return changeButton(facts, "pressure", "Pressure: " + taker + ", hand " + number, { hand: number, player: taker, back: "detail" },
          [player, taker !== player ? " → " + taker : ""]);
      }))) : null,
    h("h2", {}, "Ruling notes"),
    notes.length ? notes.map((entry) => h("p", { class: "note" }, "✎ " + entry.data.text)) : h("p", { class: "muted" }, "None"),
    h("form", { method: "post", action: facts.base + "note", class: "stack", "data-outbox": "Ruling note, hand " + number },
      keys(facts), h("input", { type: "hidden", name: "hand", value: number }), h("input", { type: "hidden", name: "back", value: "detail" }),
      h("div", { class: "field" }, h("label", { for: "offline-detail-note" }, "Ruling note"),
        h("textarea", { id: "offline-detail-note", name: "text", maxlength: copy.limits.note })),
      h("button", { class: "secondary", type: "submit" }, "Add note"))];
}

/* A page this phone cannot draw: the game is here all the same, and a way back to it. */
/** @param {GameState} table @param {string} href @param {PageFacts} facts @returns {Child[]} */
function awayPage(table, href, facts) {
  return [banner(facts), h("h1", {}, "This page needs the server"),
    h("p", {}, "This page is made by the server, which cannot be reached. The game is kept on this phone: its hand, scores and history open without the server, and what is recorded here is sent when it is back."),
    h("p", {}, h("a", { class: "button wide", href: facts.base }, "Back to hand " + table.state.last)),
    h("p", { class: "muted small" }, "Once the server is back: ", h("a", { href }, "open this page again"), ".")];
}

/* The server's confirmation of this phone's last change (base.html's saved box, or its flash). */
/** @param {GameState} table @param {Notice} notice @returns {Element} */
export function noticeBox(table, notice) {
  if (notice.flash) { return h("p", { class: "flash ok", role: "status" }, notice.text); }
  const entries = table.entries.filter((entry) => entry.queued === notice.item);
  return h("div", { class: "saved", role: "status" }, h("span", {}, "✓ " + notice.text),
    h("button", { type: "button", class: "secondary", "data-take-out": entries.length ? entries[entries.length - 1].id : null }, "Undo"));
}

/** @param {GameState} table @param {PageFacts} facts @returns {Child[]} */
function historyPage(table, facts) {
  /** @type {(entry: Entry) => [string, string]} */
  const what = (entry) => {
    const hand = entry.hand ? ", hand " + entry.hand : "";
    if (entry.kind === "leftovers") { return ["Leftovers: " + entry.player + hand, cardsText(/** @type {Leftovers} */ (entry))]; }
    if (entry.kind === "pressure") { return ["Pressure: " + entry.player + hand, ""]; }
    if (entry.kind === "note") { return ["Ruling note" + hand, /** @type {string} */ (entry.data.text)]; }
    if (entry.kind === "one_card") { return ["One card: " + entry.player + hand, entry.data.owes ? "owes two cards" : "cleared"]; }
    if (entry.kind === "confirm") { return ["Hand " + entry.hand + " confirmed by " + entry.player, ""]; }
    const target = entry.target === null ? undefined : table.byId.get(entry.target);
    return ["Undo" + (target ? ": " + what(target)[0] : ""), ""];
  };
  const lines = table.entries.slice().reverse().map((entry) => {
    const [title, detail] = what(entry);
    return h("li", { class: table.voided.has(entry.id) ? "undone" : "" },
      h("div", { class: "what" }, h("strong", {}, title), table.voided.has(entry.id) ? [" ", h("span", { class: "badge" }, "undone")] : null,
        entry.queued ? [" ", h("span", { class: "badge" }, "waiting to be sent")] : null),
      detail ? h("div", { class: "change" }, detail) : null,
      h("div", { class: "meta muted small" }, entry.queued ? "on this phone" : "#" + entry.seq));
  });
  return [banner(facts), h("h1", {}, "History"),
    h("p", { class: "muted small" }, "Every change, newest first, as this phone holds it."),
    h("ol", { class: "history", reversed: true }, lines.length ? lines : h("li", { class: "muted" }, "Nothing recorded yet."))];
}

/** @type {(table: GameState) => string} */
const titleOf = (table) => (table.copy.record && table.copy.record.title) || "";
/** @type {(table: GameState) => string} */
const gameTitle = (table) => titleOf(table) || "Scorekeeper";

/* The page of a route, with the title the server's page has. */
/** @type {Record<Route["page"], (game: GameState, route: any, facts: PageFacts) => [Child[], string]>} each page's route is its own (Route) */
const PAGES = {
  hand: (game, route, facts) => [handPage(game, facts), "Hand " + game.state.last + " · " + gameTitle(game)],
  pad: (game, route, facts) => [padPage(game, route.hand, route.seat, facts), "Leftovers · hand " + route.hand + " · " + game.book.players[route.seat]],
  scores: (game, route, facts) => [scoresPage(game, facts), "Scores · " + gameTitle(game)],
  history: (game, route, facts) => [historyPage(game, facts), "History · " + gameTitle(game)],
  detail: (game, route, facts) => [detailPage(game, route.hand, facts), "Hand " + route.hand + " · " + gameTitle(game)],
  away: (game, route, facts) => [awayPage(game, route.href, facts), "This page needs the server · " + gameTitle(game)],
};

/* The <main> a route shows, its title and the route drawn: where the server sends an address it
   does not show (a hand not open, a seat not at the table, the hand page once the game is over). */
/** @param {GameState} game @param {Route} route @param {PageFacts} facts @returns {{route: Route, title: string, main: Element}} */
export function pageOf(game, route, facts) {
  const { last, current } = game.state;
  if (route.page === "pad" && (route.hand < 1 || route.hand > last || route.seat >= game.book.players.length)) { route = { page: "hand" }; }
  if (route.page === "detail" && (route.hand < 1 || route.hand > last)) { route = { page: "scores" }; }
  if (route.page === "hand" && current === null) { route = { page: "scores" }; }
  const [content, title] = PAGES[route.page](game, route, facts);
  return { route, title, main: h("main", { "data-offline": true }, content) };
}
