// @ts-check
/* The table plays on without the server. A game page keeps the game's copy on this phone
   (copy.json, refreshed as the game changes); when the server cannot be reached, the game's
   own links (the hand, the leftovers pad, scores, history, a hand's detail) open from that copy
   with this phone's unsent changes folded on (copy.js), drawn with the same markup and forms as
   the server's pages, so a tap still goes through the outbox and counts once. The scores they
   show are provisional until the server has the changes. */

import { FORMAT, fold, merge, record } from "./copy.js";
import { heardAt, showAddressedPage } from "./follow.js";
import { LIMIT_MS, fetchWithin, formFields } from "./net.js";
import { Refused, checkLeftovers, label, parseCard, scoreLeftovers } from "./rules.js";
import { newKey, pending as queuedFor, setConnection, waitingCount, withdraw } from "./outbox.js";
import { scoreHere } from "./pad.js";
import { said, undone } from "./said.js";
import { local } from "./storage.js";

/** @import { Copy, Entry, Leftovers, Since, GameState } from "./copy.js" */
/** @import { Item } from "./outbox.js" */
/**
 * A page of the game this phone draws: the hand, the leftovers pad of a seat, scores, history, a
 * hand's detail; or one saying the page at href needs the server.
 * @typedef {{page: "hand"} | {page: "scores"} | {page: "history"} | {page: "detail", hand: number} |
 *   {page: "pad", hand: number, seat: number} | {page: "away", href: string}} Route
 */
/** @typedef {Node | string | number | bigint | boolean | null | undefined | Child[]} Child what h() puts in an element: nodes, text, nothing, or lists of them */
/**
 * What the server would say of this phone's last change: the item's confirmation, or a flash.
 * @typedef {{item?: string, flash?: boolean, text?: string, fresh?: boolean, path?: string}} Notice
 */

const body = document.body;
const copyUrl = body.getAttribute("data-copy-url");
/** The game's record-link address ("/t/<token>/"): offline.js runs on a game's pages only. */
const base = /** @type {string} */ (body.getAttribute("data-game-base"));
const KEPT = "scorekeeper:copy:" + base;
/** @type {Copy | null} */
let held = copyUrl ? local.read(KEPT, /** @type {Copy | null} */ (null)) : null;
let offline = false;
/** @type {Route | null} */
let shown = null;  /* the route drawn here, while offline */
let csrf = "";
/** @type {Notice | null} */
let notice = null;  /* what the server would say of this phone's last change: {item or flash, text, path} */

/* --- the copy, kept up to date ------------------------------------------------------------ */

async function refresh() {
  if (!copyUrl) { return; }
  const since = held && held.format === FORMAT ? held.version : 0;
  try {
    const answer = await fetchJson(copyUrl + (since ? "?since=" + since : ""));
    if (answer === null) { return; }
    let next = merge(held, answer);
    if (next === null) { next = /** @type {Copy | null} */ (await fetchJson(copyUrl)); }  /* asked whole */
    if (next) { held = next; local.write(KEPT, held); offerSaving(document); }
  } catch (error) { /* unreachable: the copy held stands */ }
}

/* The copy may be long (a long game's first copy): a longer limit than a ping's, but a limit. */
/** @param {string} url @returns {Promise<Copy | Since | null>} */
async function fetchJson(url) {
  const response = await fetchWithin(url, { credentials: "same-origin", cache: "no-store" }, 4 * LIMIT_MS);
  if (response.status === 304) { return null; }
  if (!response.ok) { throw new Error("copy " + response.status); }
  return response.json();
}

/* --- routes: which page an address of this game is ---------------------------------------- */

/** @param {string} href @returns {Route | null} */
function routeOf(href) {
  const url = new URL(href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(base)) { return null; }
  const rest = url.pathname.slice(base.length).replace(/\/$/, "");
  let match;
  if (rest === "") { return { page: "hand" }; }
  if (rest === "scores" || rest === "history") { return { page: rest }; }
  if ((match = /^hand\/(\d+)$/.exec(rest))) { return { page: "detail", hand: Number(match[1]) }; }
  if ((match = /^hand\/(\d+)\/seat\/(\d+)$/.exec(rest))) { return { page: "pad", hand: Number(match[1]), seat: Number(match[2]) }; }
  return null;
}

/* The page at this address: one of the game's drawn here, or else (a page of the game only the
   server makes, served offline by the service worker as the hand page) one saying so. */
/** @returns {Route | null} */
function routeHere() {
  return routeOf(location.href) || (location.pathname.startsWith(base) ? { page: "away", href: location.href } : null);
}

/* A link of this site to a page drawn only by the server (Share, Print, the home page, a
   download): while offline, a page saying so stands in for the browser's error page. */
/** @param {HTMLAnchorElement} link @returns {Route | null} */
function awayRoute(link) {
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol) || link.hasAttribute("download")) { return null; }
  if (url.hash && url.pathname === location.pathname && url.search === location.search) { return null; }
  return { page: "away", href: url.href };
}

/** @param {Route} route @returns {string} */
function pathOf(route) {
  if (route.page === "away") { return location.pathname; }  /* Back leaves it for the page it was opened from */
  if (route.page === "hand") { return base; }
  if (route.page === "detail") { return base + "hand/" + route.hand; }
  if (route.page === "pad") { return base + "hand/" + route.hand + "/seat/" + route.seat; }
  return base + route.page;
}

/* --- drawing ------------------------------------------------------------------------------- */

/** An element: its attributes (class, or any; null, undefined or false: none; true: present)
    and its children. @param {string} tag @param {Record<string, unknown> | null} [attrs]
    @param {...Child} children @returns {HTMLElement} */
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) { continue; }
    if (name === "class") { node.className = String(value); } else { node.setAttribute(name, value === true ? "" : String(value)); }
  }
  for (const child of /** @type {(Node | string | number | bigint | boolean | null | undefined)[]} */ (/** @type {unknown[]} */ (children).flat(Infinity))) {
    if (child === null || child === undefined || child === false) { continue; }
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function keys() {
  return [h("input", { type: "hidden", name: "csrf_token", value: csrf }), h("input", { type: "hidden", name: "idem", value: newKey() })];
}

/* A form of one button that appends a change through the outbox (the change_button macro). */
/**
 * @param {string} route @param {string} outbox its label in the outbox @param {Record<string, unknown>} fields
 * @param {Child} content
 * @param {{ask?: string, within?: number, formClass?: string, class?: string, label?: string, pressed?: boolean}} [options]
 */
function changeButton(route, outbox, fields, content, options = {}) {
  return h("form", { method: "post", action: base + route, "data-outbox": outbox, "data-ask": options.ask, "data-ask-within": options.within, class: options.formClass },
    keys(),
    Object.entries(fields).map(([name, value]) => h("input", { type: "hidden", name, value })),
    h("button", { type: "submit", class: options.class || "secondary", "aria-label": options.label,
      "aria-pressed": options.pressed === undefined ? null : String(options.pressed) }, content));
}

/* Undo: a change the server has is undone by a change; one still on this phone is taken out
   (and the page says so, as the server's does after an undo). */
/** @param {Entry} entry @param {string} [text] @param {string} [back] */
function undoButton(entry, text = "Undo", back = "hand") {
  const queued = entry.queued;
  if (queued) {
    const button = h("button", { type: "button", class: "secondary small" }, text);
    button.addEventListener("click", () => { takeOut(queued, entry); });
    return button;
  }
  return changeButton("undo", text, { target: entry.id, back }, text, { class: "secondary small", formClass: "inline" });
}

/** @type {(index: number) => HTMLElement} */
const swatch = (index) => h("span", { class: "swatch s" + index, "aria-hidden": "true" });
/** @type {(count: number | bigint, word: string) => string} */
const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
/** @type {(name: string) => Child[]} */
const words = (name) => name.split(" ").flatMap((word, i) => (i ? [" ", h("span", { class: "word" }, word)] : [h("span", { class: "word" }, word)]));
/** @type {(entry: Leftovers) => string} */
const cardsText = (entry) => entry.data.cards.map((t) => label(parseCard(t))).join(" ") || "went out";

/** @param {GameState} table */
function banner(table) {
  const waiting = waitingCount();  /* the count the outbox's list says */
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

/** @param {GameState} table @returns {Child[]} */
function handPage(table) {
  const copy = table.copy, book = table.book, { last, pending, next } = table.state;
  const number = last, deal = copy.deals[number - 1] || {};
  /** @type {Child[]} */
  const parts = [banner(table),
    h("section", { class: "handhead", "aria-label": "This hand" },
      h("h1", {}, "Hand " + number, copy.max_hands ? h("span", { class: "of" }, " of " + copy.max_hands) : null,
        " · " + plural(deal.cards, "card") + " each"),
      h("p", { class: "deal" }, "Dealer: ", h("strong", {}, words(deal.dealer)), " · ", h("strong", {}, words(deal.first)), " plays first")),
  ];
  const entered = Object.keys(table.handLeftovers(number));
  parts.push(h("a", { class: "button wide endhand", href: pathOf({ page: "pad", hand: number, seat: table.nextSeatToEnter(number) || 0 }) },
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
          return changeButton("pressure", "Pressure: " + member + ", hand " + number, fields,
            ["PRESSURE", h("br"), h("span", { class: "who" }, words(member)), h("span", { class: "cost" }, "+" + cost)],
            { class: "pressure", label: "Pressure on " + member + ", plus " + cost, ask: "Another pressure on " + member + "?", within: book.same_pressure_seconds });
        }
        return changeButton("pressure", "Pressure on " + member + " to " + taker + ", hand " + number, fields,
          ["PRESSURE", h("br"), h("span", { class: "who" }, words(member), " ", h("span", {}, "→"), " ", words(taker)), h("span", { class: "cost" }, "+" + cost)],
          { class: "pressure passed", label: "Pressure on " + member + ", recorded on " + taker + ", plus " + cost, ask: "Another pressure on " + taker + "?", within: book.same_pressure_seconds });
      })),
      side.members.filter((member) => copy.takers[member] !== member).map((member) => h("p", { class: "muted small" },
        member + " never takes a pressure: one on " + member + " goes to the next player to play, " + copy.takers[member] + "."))));
    const list = pending.length ? h("ul", { class: "plain pending", "aria-label": "Pressures this hand" }, pending.map(({ entry, side, cost }) =>
      h("li", {}, h("span", {}, "Pressure: ", h("strong", {}, entry.player), side !== entry.player ? " (" + side + ")" : "", " ", h("strong", {}, "+" + cost),
        entry.queued ? h("span", { class: "muted small" }, " · waiting") : null), " ", undoButton(entry)))) : null;
    parts.push(h("section", { class: "pressures" + (copy.partnerships ? "" : " solo"), "aria-label": "Pressures" }, sides, list));
  }
  parts.push(totals(table));
  if (copy.has.count) {
    const token = base.split("/")[2];
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
        return changeButton("one-card", "One card: " + player, { hand: number, player, owes: owes ? "0" : "1" },
          h("span", { class: "words" }, words(player), owes ? " · owes 2" : ""), { class: "toggle" + (owes ? " on" : ""), pressed: owes });
      }))));
  }
  if (copy.has.pressures) { parts.push(shufflePanel(table, number)); }
  parts.push(notesPanel(table, number));
  parts.push(actionsPanel(table));
  return parts;
}

/* Both piles empty: a pressure that ends the hand at once, and on to the leftovers. */
/** @param {GameState} table @param {number} number */
function shufflePanel(table, number) {
  const { book, copy } = table;
  return h("details", { class: "panel" }, h("summary", {}, "Both piles empty? (shuffle pressure ends the hand)"),
    h("p", { class: "small" }, "If a player must draw and there is no card in the stock nor under the top of the pile, they take a pressure and the hand ends at once (Craits rules)."),
    h("div", { class: "pressure-row" }, book.players.map((player) => {
      const taker = copy.takers[player];
      return changeButton("pressure", "Pressure (hand ends): " + taker, { hand: number, player: taker, ends_hand: "y", again: "", waited: "0" },
        [player + ": pressure", taker !== player ? " (to " + taker + ")" : "", ", end hand"], { ask: "Another pressure on " + taker + "?", within: book.same_pressure_seconds });
    })));
}

/* What each card does, for this many players. */
/** @param {GameState} table */
function actionsPanel(table) {
  return h("details", { class: "panel" }, h("summary", {}, "Card actions (" + table.book.players.length + " players)"),
    h("table", { class: "actions-table" }, (table.copy.actions || []).map(([card, action]) => h("tr", {}, h("th", { scope: "row" }, card), h("td", {}, action)))));
}

/** @param {GameState} table @param {number} number */
function notesPanel(table, number) {
  const notes = table.notes.get(number) || [];
  return h("details", { class: "panel" }, h("summary", {}, "Ruling note" + (notes.length ? " (" + notes.length + ")" : "")),
    notes.map((entry) => h("div", { class: "note" }, "✎ " + entry.data.text, " ", undoButton(entry, "Remove"))),
    h("form", { method: "post", action: base + "note", class: "stack", "data-outbox": "Ruling note, hand " + number },
      keys(), h("input", { type: "hidden", name: "hand", value: number }),
      h("div", { class: "field" }, h("label", { for: "offline-note" }, "Ruling note"), h("textarea", { id: "offline-note", name: "text", maxlength: table.copy.limits.note })),
      h("button", { class: "secondary", type: "submit" }, "Save note")));
}

/** @param {GameState} table @param {number} number @param {number} seat @returns {Child[]} */
function padPage(table, number, seat) {
  const book = table.book, copy = table.copy, player = book.players[seat];
  const entered = table.handLeftovers(number), existing = entered[player];
  const fields = { cards: existing ? existing.data.cards.join(" ") : "", out: existing ? !existing.data.cards.length : false };
  const target = existing ? (existing.queued ? existing.target : existing.id) : null;
  /** @type {(p: string, i: number) => HTMLElement} */
  const tab = (p, i) => {
    const recorded = entered[p];
    return h("a", { href: pathOf({ page: "pad", hand: number, seat: i }), class: "seat-tab" + (i === seat ? " current" : ""),
      "aria-current": i === seat ? "page" : null, "data-seat": i, "data-player": p,
      "data-entry": recorded ? (recorded.queued ? recorded.target || "" : recorded.id) : null,
      "data-recorded": recorded ? recorded.data.cards.join(" ") : null },
    h("span", { class: "words" }, words(p)), h("span", { "data-tab-mark": true }, recorded ? [" ✓", h("span", { class: "visually-hidden" }, " entered")] : ""));
  };
  const terms = book.leftovers;
  const suitRanks = terms.suits === "all" ? "all" : Object.keys(terms.special).map((k) => k.slice(0, -1).toUpperCase()).join(" ");
  /** @type {[string, string?][]} */
  const ranks = [["A", "Ace"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"], ["8"], ["9"], ["10"], ["J", "Jack"], ["Q", "Queen"], ["K", "King"]];
  const form = h("form", { method: "post", novalidate: true, class: "stack leftovers-form", id: "leftovers-form", action: pathOf({ page: "pad", hand: number, seat }), "data-preview": base + "preview",
    "data-outbox": "Leftovers: " + player + ", hand " + number, "data-outbox-replace": true,
    "data-hand-url": base + "hand/" + number + "/leftovers", "data-hand": number, "data-seat": seat,
    "data-follow": base, "data-open": table.nextSeatToEnter(number) !== null },
    keys(), h("input", { type: "hidden", name: "replaces", value: target === null ? "" : target }),
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
    seat > 0 ? h("a", { class: "button secondary", href: pathOf({ page: "pad", hand: number, seat: seat - 1 }) }, "← " + book.players[seat - 1]) : h("span"),
    seat + 1 < book.players.length ? h("a", { class: "button secondary", href: pathOf({ page: "pad", hand: number, seat: seat + 1 }) }, book.players[seat + 1] + " →") : null);
  return [banner(table), h("h1", {}, "Leftovers · hand " + number),
    h("nav", { class: "seats", "aria-label": "Players" }, book.players.map(tab)),
    form, neighbours, h("p", {}, h("a", { href: base }, "Back to the hand"))];
}

/* The Scores page (templates/game/scores.html): the final standings once the game is decided,
   every hand's points with what its pressures added (P), the bonus, the running totals. */
/** @param {GameState} table @returns {Child[]} */
function scoresPage(table) {
  const book = table.book, copy = table.copy, { score, finished } = table.state;
  const sides = score.sides, crowded = sides.length > 3;
  const running = sides.map((side) => side.start);
  const rows = [];
  for (let n = 1; n <= score.hands; n += 1) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, h("a", { href: pathOf({ page: "detail", hand: n }) }, String(n)), " ",
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
  return [banner(table), h("h1", {}, finished ? "Final standings" : "Scores", title() ? " · " + title() : ""),
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
/** @param {GameState} table @param {number} number @returns {Child[]} */
function detailPage(table, number) {
  const book = table.book, copy = table.copy, deal = copy.deals[number - 1] || {}, entered = table.handLeftovers(number);
  const { score } = table.state;
  const scored = number <= score.hands;
  const points = Object.fromEntries(Object.entries(entered).map(([player, entry]) => [player, scoreLeftovers(book, entry.data.cards.map(parseCard))]));
  const covered = Object.values(points).some((found) => found.covers);
  const pressures = table.handPressures(number), notes = table.notes.get(number) || [];
  const legend = copy.threes_verb === "cancels"
    ? "Threes: “3→K” means the 3 cancels the K (the 3 counts 3, the K nothing)."
    : "Threes: “3→K” means the 3 covers the K (the pair counts 3); in “3→3→K” a second 3 covers that pair.";
  return [banner(table),
    h("h1", {}, "Hand " + number + " ", h("span", { class: "of" }, "· " + plural(deal.cards, "card") + " · dealer " + deal.dealer)),
    scored ? null : h("p", { class: "muted" }, "This hand is not complete yet."),
    h("ul", { class: "plain players" }, book.players.map((player, seat) => {
      const entry = entered[player];
      return h("li", {}, h("div", { class: "row-between" }, h("strong", {}, player),
        entry ? h("span", { class: "num big" }, String(points[player].total)) : h("span", { class: "muted" }, "not entered")),
      entry ? h("div", {}, entry.data.cards.length ? entry.data.cards.map((t) => h("span", { class: "chip" }, label(parseCard(t)))) : h("span", { class: "chip out" }, "OUT")) : null,
      entry && points[player].covers ? h("p", { class: "covering small" }, "Threes: " + points[player].covers) : null,
      h("a", { class: "button secondary small", href: pathOf({ page: "pad", hand: number, seat }) }, entry ? "Correct" : "Enter"));
    })),
    covered ? h("p", { class: "muted small legend" }, legend) : null,
    scored ? [h("h2", {}, "The hand's score"), h("ul", { class: "plain hand-sides" }, score.sides.map((side) => {
      const total = side.hands[number - 1], pressed = side.pressures[number - 1];
      return h("li", {}, h("span", {}, h("strong", {}, side.name), h("span", { class: "parts" }, "cards " + (total - pressed) + " + pressures " + pressed)),
        h("span", { class: "num big" }, String(total)));
    }))] : null,
    h("h2", {}, "Pressures"),
    h("ul", { class: "plain" }, pressures.length
      ? pressures.map((entry) => h("li", { class: "row-between" }, h("span", {}, entry.player), undoButton(entry, "Remove", "detail")))
      : h("li", { class: "muted" }, "None")),
    copy.has.pressures ? h("details", { class: "panel" }, h("summary", {}, "Add a pressure that was missed"),
      h("div", { class: "pressure-row" }, book.players.map((player) => {
        const taker = copy.takers[player];
        return changeButton("pressure", "Pressure: " + taker + ", hand " + number, { hand: number, player: taker, back: "detail" },
          [player, taker !== player ? " → " + taker : ""]);
      }))) : null,
    h("h2", {}, "Ruling notes"),
    notes.length ? notes.map((entry) => h("p", { class: "note" }, "✎ " + entry.data.text)) : h("p", { class: "muted" }, "None"),
    h("form", { method: "post", action: base + "note", class: "stack", "data-outbox": "Ruling note, hand " + number },
      keys(), h("input", { type: "hidden", name: "hand", value: number }), h("input", { type: "hidden", name: "back", value: "detail" }),
      h("div", { class: "field" }, h("label", { for: "offline-detail-note" }, "Ruling note"),
        h("textarea", { id: "offline-detail-note", name: "text", maxlength: copy.limits.note })),
      h("button", { class: "secondary", type: "submit" }, "Add note"))];
}

/* A page this phone cannot draw: the game is here all the same, and a way back to it. */
/** @param {GameState} table @param {string} href @returns {Child[]} */
function awayPage(table, href) {
  return [banner(table), h("h1", {}, "This page needs the server"),
    h("p", {}, "This page is made by the server, which cannot be reached. The game is kept on this phone: its hand, scores and history open without the server, and what is recorded here is sent when it is back."),
    h("p", {}, h("a", { class: "button wide", href: base }, "Back to hand " + table.state.last)),
    h("p", { class: "muted small" }, "Once the server is back: ", h("a", { href }, "open this page again"), ".")];
}

/* The server's confirmation of this phone's last change (base.html's saved box, or its flash). */
/** @param {GameState} table @param {Notice} notice */
function noticeBox(table, notice) {
  if (notice.flash) { return h("p", { class: "flash ok", role: "status" }, notice.text); }
  const undo = h("button", { type: "button", class: "secondary" }, "Undo");
  const item = /** @type {string} */ (notice.item), entries = table.entries.filter((entry) => entry.queued === item);
  undo.addEventListener("click", () => { takeOut(item, entries[entries.length - 1]); });
  return h("div", { class: "saved", role: "status" }, h("span", {}, "✓ " + notice.text), undo);
}

/* A change still on this phone is taken out of the outbox: undone, as the page then says. */
/** @param {string} item the outbox item's id @param {Entry} entry one of its entries */
function takeOut(item, entry) {
  const game = /** @type {GameState} */ (table());
  notice = { flash: true, text: undone(entry, game), fresh: true };
  withdraw(item);
}

/** @param {GameState} table @returns {Child[]} */
function historyPage(table) {
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
  return [banner(table), h("h1", {}, "History"),
    h("p", { class: "muted small" }, "Every change, newest first, as this phone holds it."),
    h("ol", { class: "history", reversed: true }, lines.length ? lines : h("li", { class: "muted" }, "Nothing recorded yet."))];
}

/* --- showing a page from the copy --------------------------------------------------------- */

/** @returns {GameState | null} */
function table() { return held ? fold(held, base, queuedFor(base)) : null; }

const title = () => (held && held.record && held.record.title) || "";
const gameTitle = () => title() || "Scorekeeper";

/* The page of a route, with the title the server's page has. */
/** @type {Record<Route["page"], (game: GameState, route: any) => [Child, string]>} each page's route is its own (Route) */
const PAGES = {
  hand: (game) => [handPage(game), "Hand " + game.state.last + " · " + gameTitle()],
  pad: (game, route) => [padPage(game, route.hand, route.seat), "Leftovers · hand " + route.hand + " · " + game.book.players[route.seat]],
  scores: (game) => [scoresPage(game), "Scores · " + gameTitle()],
  history: (game) => [historyPage(game), "History · " + gameTitle()],
  detail: (game, route) => [detailPage(game, route.hand), "Hand " + route.hand + " · " + gameTitle()],
  away: (game, route) => [awayPage(game, route.href), "This page needs the server · " + gameTitle()],
};

/** @param {Route} route @param {boolean} push @returns {boolean} */
function draw(route, push) {
  const game = table();
  if (!game) { return false; }
  const { last, current } = game.state;
  /* Where the server sends an address it does not show: a hand not open, a seat not at the
     table, the hand page once the game is over. */
  if (route.page === "pad" && (route.hand < 1 || route.hand > last || route.seat >= game.book.players.length)) { route = { page: "hand" }; }
  if (route.page === "detail" && (route.hand < 1 || route.hand > last)) { route = { page: "scores" }; }
  if (route.page === "hand" && current === null) { route = { page: "scores" }; }
  const [content, pageTitle] = PAGES[route.page](game, route);
  const main = /** @type {HTMLElement} */ (document.querySelector("main"));
  /* The round's clock (clock.js) goes on counting on the pages drawn here: the same element, kept. */
  const kept = ["[data-outbox-list]", "[data-refused]", "[data-round-clock]"].map((selector) => main.querySelector(selector)).filter(Boolean);
  const fresh = h("main", { "data-offline": true }, kept, content);
  const typed = typedIn(main);
  const path = pathOf(route);
  if (push) { notice = null; }
  if (notice && notice.fresh) {
    const item = notice.item;
    const words = notice.flash ? { text: notice.text, undo: true } : said(game, queuedFor(base).find((queued) => queued.id === item) || { id: null });
    notice = words ? { ...notice, text: words.text, flash: notice.flash || !words.undo, fresh: false, path } : null;
  }
  const item = notice && notice.item;
  if (notice && notice.path === path && (notice.flash || queuedFor(base).some((queued) => queued.id === item))) {
    /** @type {Element} */ (fresh.querySelector(".offline-banner")).after(noticeBox(game, notice));
  }
  main.replaceWith(fresh);
  retype(fresh, typed);
  shown = route;
  if (push) { history.pushState({ offline: true }, "", path); } else if (location.pathname !== path) { history.replaceState({ offline: true }, "", path); }
  document.title = pageTitle;
  document.dispatchEvent(new CustomEvent("scorekeeper:content", { detail: fresh }));
  return true;
}

/* What is typed and not sent (a note), carried over a redraw: by form and field. */
const TYPED = "form textarea, form input[type=text]";
/** @typedef {HTMLInputElement | HTMLTextAreaElement} Typing a field of TYPED, in a form */
/** @type {(root: ParentNode) => Typing[]} */
const typingIn = (root) => Array.from(/** @type {NodeListOf<Typing>} */ (root.querySelectorAll(TYPED)));
/** @type {(field: Typing) => HTMLFormElement} */
const formOf = (field) => /** @type {HTMLFormElement} */ (field.form);
/** @type {(field: Typing) => string} */
const fieldKey = (field) => (formOf(field).getAttribute("action") || "") + "|" + field.name;
/** @param {ParentNode} root @returns {Map<string, string>} */
function typedIn(root) {
  return new Map(typingIn(root).filter((field) => field.value !== field.defaultValue).map((field) => [fieldKey(field), field.value]));
}
/** @param {ParentNode} root @param {Map<string, string>} typed */
function retype(root, typed) {
  typingIn(root).forEach((field) => {
    const value = typed.get(fieldKey(field));
    if (value !== undefined) { field.value = value; formOf(field).setAttribute("data-dirty", ""); }
  });
}
/* Typing, or reading a question or refusal: the page is not redrawn under the player. */
const busy = () => (!!document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) ||
  document.querySelector("form[data-dirty], main .js-error, main .conflict, main .ask, main [data-versus]") !== null;

/* A change drawn here that the server would refuse is refused here, in the server's words, and
   not kept: an empty save, a card the deck does not hold, a pressure past the most a hand takes.
   Once on the page: beside the field, or under the row of buttons the tapped one is in. */
document.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!held || !form.closest("main[data-offline]") || !form.hasAttribute("data-outbox")) { return; }
  /** @type {Item} */
  const item = { id: "trial", url: new URL(form.getAttribute("action") || "", location.href).href, body: formFields(form).toString() };
  const refused = fold(held, base, queuedFor(base).concat([item])).refusedItems.find((found) => found.item === item);
  document.querySelectorAll("main [data-refused-here]").forEach((node) => node.remove());
  if (!refused) { return; }
  event.preventDefault();
  event.stopImmediatePropagation();
  const message = h("p", { class: "error js-error", role: "alert", "data-refused-here": true }, refused.reason);
  const field = form.querySelector(".field");
  if (field) { field.append(message); } else { (form.closest(".pressure-row, .toggle-row") || form).after(message); }
}, true);

/* After a change is kept on this phone: the page the server would have gone on to. */
/** @param {Item} item @returns {Route | null} */
function after(item) {
  const game = table();
  if (!game) { return null; }
  const form = new URLSearchParams(item.body);
  const leftovers = /\/hand\/(\d+)\/(seat\/\d+|leftovers)$/.exec(new URL(item.url, location.href).pathname);
  if (leftovers) {
    const number = Number(leftovers[1]), seat = game.nextSeatToEnter(number);
    if (seat !== null) { return { page: "pad", hand: number, seat }; }
    return form.get("replaces") ? { page: "detail", hand: number } : { page: "hand" };
  }
  if (form.get("ends_hand")) { return { page: "pad", hand: Number(form.get("hand")), seat: game.nextSeatToEnter(Number(form.get("hand"))) || 0 }; }
  return shown || routeOf(location.href);
}

let known = new Set(queuedFor(base).map((item) => item.id));
/** @type {Item | null} */
let kept = null;  /* the change this page last put in the outbox, until its sending is tried */

/* A new change is drawn at once while the server is known to be away (the page the server would
   have gone on to); else once its sending fails, for the server's answer (a question, a refusal)
   has its form to show beside until then. A change taken out of the outbox is drawn at once. */
document.addEventListener("scorekeeper:outbox", (event) => {
  const mine = queuedFor(base);
  const added = mine.filter((item) => !known.has(item.id));
  known = new Set(mine.map((item) => item.id));
  if (added.length) { notice = { item: added[added.length - 1].id, fresh: true }; }
  if (added.length && !offline) { kept = added[added.length - 1]; return; }
  /* after() has a route for a change of a game whose copy is held, as it is once one was drawn */
  if (offline && shown) { draw(added.length ? /** @type {Route} */ (after(added[added.length - 1])) : shown, false); }
});

/* Offline (the stream and the poll both failed, or a change could not be sent; follow.js decides):
   the page is drawn from the copy, headed Offline as the header is. Live again: the server's page
   is swapped in for the phone's, in place (follow.js, once it hears the version), never reloaded. */
document.addEventListener("scorekeeper:connection", (event) => {
  const state = /** @type {CustomEvent<string>} */ (event).detail;
  if (state === "offline") {
    const route = kept ? after(kept) : routeHere();
    const redraw = kept !== null || (!offline && !busy());
    offline = true;
    kept = null;
    if (route && held && redraw) { draw(route, false); }
  } else if (state === "live" && offline) {
    offline = false;
    kept = null;
    refresh();
    if (shown) { body.setAttribute("data-version", "-1"); }
  }
});

/* The game's own links: opened from the copy while the server cannot be reached (the live
   stream and the poll find that out within a few seconds of losing it); the site's other
   links open a page saying they need the server, instead of the browser's error page. */
/** @type {(event: MouseEvent) => boolean} */
const plainClick = (event) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
/** @type {(event: Event) => HTMLAnchorElement | null} the link a click is on */
const linkOf = (event) => {
  const target = /** @type {Element} */ (event.target);
  return target.closest && target.closest("a[href]");
};
document.addEventListener("click", (event) => {
  const link = linkOf(event);
  if (!offline || !link || !held || event.defaultPrevented || !plainClick(event)) { return; }
  const route = routeOf(link.href) || awayRoute(link);
  if (!route) { return; }
  event.preventDefault();
  draw(route, true);
}, true);

/* Online, the same links are never handed to the browser blind: the server may have gone a moment
   ago, before the page noticed, and the browser would show its error page (a server down) or wait
   for minutes (a server that hangs, as a laptop asleep). Unless the server was heard from in the
   last FRESH_MS (the page itself, a version, a save), it is asked first (the game's version, within
   the time limit of a request), and the link opens only once it answers. Either way the browser's
   way there is watched: a page that has not begun to come within ARRIVE_MS is stopped. No answer,
   or no page, and the link opens as it does offline: from the copy, or a page saying it needs the
   server. A download (a file's name: the sheet's PDF, the export) never replaces the page, so it
   is not watched. Heard after the page's own handlers (the pad's tabs switch players in place). */
const FRESH_MS = LIMIT_MS;
const ARRIVE_MS = 2 * LIMIT_MS;
/** @type {{timer: ReturnType<typeof setTimeout> | null} | null} */
let opening = null;  /* {timer}: a link on its way */

/** @param {Route} route */
function openOffline(route) {
  opening = null;
  setConnection("offline");
  draw(route, true);
}

/* The browser is on its way to a link of the game: watched. */
/** @param {Route} route */
function watch(route) {
  /** @type {{timer: ReturnType<typeof setTimeout> | null}} */
  const going = { timer: null };
  opening = going;
  going.timer = setTimeout(() => {
    if (opening !== going) { return; }
    window.stop();
    openOffline(route);
  }, ARRIVE_MS);
}

document.addEventListener("click", (event) => {
  const link = linkOf(event);
  if (offline || !link || !held || event.defaultPrevented || !plainClick(event) || link.target) { return; }
  const route = routeOf(link.href) || awayRoute(link);
  const ping = body.getAttribute("data-version-url");
  if (!route || !ping) { return; }
  const href = link.href, download = /\.[a-z0-9]+$/i.test(new URL(href).pathname);
  if (opening) { event.preventDefault(); return; }  /* one link at a time: a second tap waits for the first */
  if (Date.now() - heardAt() < FRESH_MS) {
    if (!download) { watch(route); }
    return;
  }
  event.preventDefault();
  opening = { timer: null };
  fetchWithin(ping, { credentials: "same-origin", cache: "no-store" }).then(() => {
    opening = null;
    location.assign(href);
    if (!download) { watch(route); }
  }, () => { if (!offline) { openOffline(route); } else { opening = null; draw(route, true); } });
});

/* The page left (or kept for Back, bfcache): the link it was opening is no longer watched. */
window.addEventListener("pagehide", () => {
  if (opening && opening.timer) { clearTimeout(opening.timer); }
  opening = null;
});

/* Back and forward over the pages drawn here: drawn again while offline; online, the server's
   page for the address is swapped in (a reload would drop a link tapped meanwhile). */
window.addEventListener("popstate", () => {
  const route = routeOf(location.href);
  if (offline && route && held) { draw(route, false); } else { showAddressedPage(); }
});

/** @type {(event: Event) => HTMLElement} the <main> swapped in */
const content = (event) => /** @type {CustomEvent<HTMLElement>} */ (event).detail;
document.addEventListener("scorekeeper:content", (event) => {
  /** @type {HTMLInputElement | null} */
  const token = content(event).querySelector("input[name=csrf_token]");
  if (token && token.value) { csrf = token.value; }
  if (!content(event).hasAttribute("data-offline")) { shown = null; refresh(); }
});
document.addEventListener("scorekeeper:delivered", () => { refresh(); });

/* The pad's live score, worked out here from the rule book: no round trip, and none needed offline. */
scoreHere((tokens) => {
  if (!held) { return null; }
  try {
    const scored = checkLeftovers(/** @type {Copy} */ (held).book, { hand: tokens.map(parseCard) }).hand;
    return { total: scored.total, covering: scored.covers };
  } catch (error) {
    if (error instanceof Refused) { return { error: error.message }; }
    throw error;
  }
});

/* Save this game: the record of what this phone holds, unsent changes included, as a file. */
/** @param {ParentNode} root */
function offerSaving(root) {
  /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-save-game]")).forEach((button) => {
    button.hidden = !held;
    if (button.hasAttribute("data-bound")) { return; }
    button.setAttribute("data-bound", "");
    button.addEventListener("click", () => {
      const copy = /** @type {Copy} */ (held);  /* the button shows only once a copy is held */
      const saved = record(fold(copy, base, queuedFor(base)));
      const link = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(saved, null, 1)], { type: "application/json" })),
        download: copy.file_name || "game-" + new Date().toISOString().slice(0, 10) + ".json" });
      document.body.append(link);
      link.click();
      link.remove();
    });
  });
}
document.addEventListener("scorekeeper:content", (event) => offerSaving(content(event)));

/** @type {HTMLInputElement | null} */
const first = document.querySelector("input[name=csrf_token]");
csrf = first ? first.value : "";
refresh();
