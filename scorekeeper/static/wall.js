// @ts-check
/* The wall screen's pages: a TV shows some twenty rows, a field of 300 is fifteen screens. At a
   TV's width (or a laptop's), the standings are cut into pages of as many rows as fit under the
   headings, each shown for the wall's seconds (body[data-page-seconds]) in turn, and the page
   says which it is, by the places its rows hold ("Page 2 of 15 · places 20–38": shared places
   repeat across a page's edge; "· 12 without a place yet" for the rows still without one), every
   player on one page, once. A live update (follow.js
   swaps <main> and says scorekeeper:content) is cut again at once, before it is painted, and
   stays on the page it was showing; the pages go on turning on their own clock. Narrower (a
   phone), and without JavaScript, every row is on the one long page, to scroll. At a laptop, the
   arrow keys turn the page too. */

const TV = "(min-width: 64rem)";
let shown = 0;
/** @type {[number, number][]} the rows of each page: [first, end) */
let pages = [];
/** @type {ReturnType<typeof setInterval> | undefined} */
let timer;

const body = document.body;
/** @returns {HTMLTableRowElement[]} */
const rowsOf = () => [.../** @type {NodeListOf<HTMLTableRowElement>} */ (document.querySelectorAll("main .standings-grid tbody tr"))];
/** @returns {HTMLElement | null} */
const label = () => document.querySelector("main [data-wall-page]");

/* The rows' ranges [first, end) that each fit the screen below the table's head, with room for
   what follows the table. */
/** @param {HTMLTableRowElement[]} rows @returns {[number, number][]} */
function cut(rows) {
  rows.forEach((row) => { row.hidden = false; });
  const tag = label();
  if (tag) { tag.hidden = false; tag.textContent = "Page 1 of 1 · places 1–1"; }
  window.scrollTo(0, 0);
  const rowsBox = /** @type {HTMLElement} */ (rows[0].parentElement).getBoundingClientRect();
  /* What the page holds below the rows: the notes after the table, and the margins to the page's end. */
  const main = /** @type {HTMLElement} */ (rows[0].closest("main"));
  /** @type {(element: Element, side: "marginBottom" | "paddingBottom") => number} */
  const margin = (element, side) => parseFloat(getComputedStyle(element)[side]) || 0;
  const below = main.getBoundingClientRect().bottom - rowsBox.bottom + margin(main, "marginBottom")
    + margin(document.body, "paddingBottom") + margin(document.body, "marginBottom");
  const room = window.innerHeight - rowsBox.top - below - 2;
  /** @type {[number, number][]} */
  const cuts = [];
  let first = 0, used = 0;
  rows.forEach((row, index) => {
    const height = row.getBoundingClientRect().height;
    if (index > first && used + height > room) { cuts.push([first, index]); first = index; used = 0; }
    used += height;
  });
  cuts.push([first, rows.length]);
  return cuts;
}

/** @param {HTMLTableRowElement[]} rows */
function show(rows) {
  const [first, end] = pages[shown];
  rows.forEach((row, index) => { row.hidden = index < first || index >= end; });
  const tag = label();
  if (!tag) { return; }
  tag.hidden = pages.length < 2;
  tag.textContent = [`Page ${shown + 1} of ${pages.length}`, ...held(rows.slice(first, end))].join(" · ");
}

/* What a page's rows hold, in the label's words: "places 20–38", "12 without a place yet". */
/** @param {HTMLTableRowElement[]} rows @returns {string[]} */
function held(rows) {
  const places = rows.map((row) => parseInt(row.cells[0].textContent, 10)).filter((place) => place > 0);
  const without = rows.length - places.length;
  /** @type {string[]} */
  const words = [];
  if (places.length) { words.push(places[0] === places.at(-1) ? `place ${places[0]}` : `places ${places[0]}–${places.at(-1)}`); }
  if (without) { words.push(`${without} without a place yet`); }
  return words;
}

/* Cut the standings shown now into pages, staying on the page shown (or the last, if fewer). */
function layOut() {
  const rows = rowsOf();
  if (!rows.length || !window.matchMedia(TV).matches) {
    pages = [];
    rows.forEach((row) => { row.hidden = false; });
    const tag = label();
    if (tag) { tag.hidden = true; }
    return;
  }
  pages = cut(rows);
  shown = Math.min(shown, pages.length - 1);
  show(rows);
}

function turn(by = 1) {
  if (pages.length < 2) { return; }
  shown = (shown + by + pages.length) % pages.length;
  show(rowsOf());
}

/* At a laptop: the arrow keys (or Page Up, Page Down) turn the page at once, and the next turns
   come at the usual pace from then. */
/** @type {Record<string, number>} */
const KEYS = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 };

function startWall() {
  const seconds = Number(body.getAttribute("data-page-seconds"));
  if (!body.classList.contains("wall") || !seconds) { return; }
  layOut();
  const every = () => { clearInterval(timer); timer = setInterval(turn, seconds * 1000); };
  every();
  document.addEventListener("keydown", (event) => {
    const by = KEYS[event.key];
    if (!by || !pages.length || event.altKey || event.ctrlKey || event.metaKey) { return; }
    event.preventDefault();
    turn(by);
    every();
  });
  document.addEventListener("scorekeeper:content", layOut);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let resized;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(layOut, 150); });
}

/* Its own entry, on the wall screen alone (templates/wall/wall.html): the phones never fetch it. */
document.addEventListener("DOMContentLoaded", startWall);
