// @ts-check
/* The table plays on without the server. A game page keeps the game's copy on this phone
   (copy.json, refreshed as the game changes); when the server cannot be reached, the game's
   own links open from it, drawn by offline_pages.js (here: routed, swapped in for <main>), so a
   tap still goes through the outbox and counts once. */

import { FORMAT, fold, merge, record } from "./copy.js";
import { heardAt, showAddressedPage } from "./follow.js";
import { LIMIT_MS, fetchWithin, formFields } from "./net.js";
import { addressOf, h, noticeBox, pageOf } from "./offline_pages.js";
import { Refused, checkOneHand, parseCard } from "./rules.js";
import { newKey, pending as queuedFor, setConnection, waitingCount, withdraw } from "./outbox.js";
import { scoreHere } from "./pad.js";
import { said, undone } from "./said.js";
import { local } from "./storage.js";

/** @import { Copy, Entry, Since, GameState } from "./copy.js" */
/** @import { Item } from "./outbox.js" */
/** @import { Notice, PageFacts, Route, Tree } from "./offline_pages.js" */

const body = document.body;
const copyUrl = body.getAttribute("data-copy-url");
/** The game's record-link address ("/t/<token>/"). */
const base = /** @type {string} */ (body.getAttribute("data-game-base"));
const KEPT = "scorekeeper:copy:" + base;
/** @type {Copy | null} */
let held = copyUrl ? local.read(KEPT, /** @type {Copy | null} */ (null)) : null;
let offline = false;
/** @type {Route | null} */
let shown = null;  /* the route drawn here, while offline */
let csrf = "";
/** @type {Notice | null} */
let notice = null;

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

/* A long game's copy is long: a longer limit than a ping's, but a limit. */
/** @param {string} url @returns {Promise<Copy | Since | null>} */
async function fetchJson(url) {
  const response = await fetchWithin(url, { credentials: "same-origin", cache: "no-store" }, 4 * LIMIT_MS);
  if (response.status === 304) { return null; }
  if (!response.ok) { throw new Error("copy " + response.status); }
  return response.json();
}

/* --- routes: the page an address of the game is --- */

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

/* The page at this address, or one saying it needs the server. */
/** @returns {Route | null} */
function routeHere() {
  return routeOf(location.href) || (location.pathname.startsWith(base) ? { page: "away", href: location.href } : null);
}

/* A link to a page only the server draws (Share, Print, home): offline, a page saying so. */
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
  return addressOf(base, route);
}

/** @returns {GameState | null} */
function table() { return held ? fold(held, base, queuedFor(base)) : null; }

/** @type {() => PageFacts} what the pages drawn here need of this page */
const facts = () => ({ base, csrf, key: newKey, waiting: waitingCount() });

/** @param {Tree} tree @returns {Node} */
function nodeOf(tree) {
  if (typeof tree === "string") { return document.createTextNode(tree); }
  const node = document.createElement(tree.tag);
  for (const [name, value] of Object.entries(tree.attrs)) { node.setAttribute(name, value); }
  node.append(...tree.children.map(nodeOf));
  return node;
}

/* A change still on this phone: taken out of the outbox, as the page then says. */
/** @param {ParentNode} root @param {GameState} game */
function bindTakingOut(root, game) {
  root.querySelectorAll("[data-take-out]").forEach((button) => {
    const entry = game.entries.find((found) => String(found.id) === button.getAttribute("data-take-out"));
    const item = entry && entry.queued;
    if (!entry || !item) { return; }
    button.addEventListener("click", () => {
      notice = { flash: true, text: undone(entry, /** @type {GameState} */ (table())), fresh: true };
      withdraw(item);
    });
  });
}

/** @param {Route} route @param {boolean} push @returns {boolean} */
function draw(route, push) {
  const game = table();
  if (!game) { return false; }
  const page = pageOf(game, route, facts());
  route = page.route;
  const main = /** @type {HTMLElement} */ (document.querySelector("main"));
  /* The round's clock (clock.js) goes on counting on the pages drawn here: the same element, kept. */
  const kept = /** @type {Element[]} */ (["[data-outbox-list]", "[data-refused]", "[data-round-clock]"].map((selector) => main.querySelector(selector)).filter(Boolean));
  const fresh = /** @type {HTMLElement} */ (nodeOf(page.main));
  fresh.prepend(...kept);
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
    /** @type {Element} */ (fresh.querySelector(".offline-banner")).after(nodeOf(noticeBox(game, notice)));
  }
  bindTakingOut(fresh, game);
  main.replaceWith(fresh);
  retype(fresh, typed);
  shown = route;
  if (push) { history.pushState({ offline: true }, "", path); } else if (location.pathname !== path) { history.replaceState({ offline: true }, "", path); }
  document.title = page.title;
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

/* A change the server would refuse is refused here, in its words, and not kept: once, beside the
   field or under the tapped button's row. */
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
  const message = nodeOf(h("p", { class: "error js-error", role: "alert", "data-refused-here": true }, refused.reason));
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
let kept = null;  /* the change this page last queued, until its sending is tried */

/* A new change is drawn at once offline (the page the server would have gone on to); online, once
   its sending fails (the server's question or refusal shows beside its form). One taken out, at once. */
document.addEventListener("scorekeeper:outbox", (event) => {
  const mine = queuedFor(base);
  const added = mine.filter((item) => !known.has(item.id));
  known = new Set(mine.map((item) => item.id));
  if (added.length) { notice = { item: added[added.length - 1].id, fresh: true }; }
  if (added.length && !offline) { kept = added[added.length - 1]; return; }
  if (offline && shown) { draw(added.length ? /** @type {Route} */ (after(added[added.length - 1])) : shown, false); }
});

/* Offline (follow.js decides): drawn from the copy. Live again: follow.js swaps the server's page
   in, never reloads. */
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

/* Offline, a link opens from the copy, or a page saying it needs the server. */
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

/* Online, never blind (docs/architecture.md): the server is asked first unless heard within
   FRESH_MS; a page not begun in ARRIVE_MS is stopped (not a download); else opened as offline.
   Heard after the page's own handlers (the pad's tabs). */
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

/* The page left (or kept for Back): its link no longer watched. */
window.addEventListener("pagehide", () => {
  if (opening && opening.timer) { clearTimeout(opening.timer); }
  opening = null;
});

/* Back and forward: drawn again offline; online, the server's page swapped in (a reload would
   drop a link tapped meanwhile). */
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

/* The pad's live score, from the rule book: no round trip. */
scoreHere((tokens) => {
  if (!held) { return null; }
  try {
    const scored = checkOneHand(/** @type {Copy} */ (held).book, tokens.map(parseCard));
    return { total: scored.total, covering: scored.covers };
  } catch (error) {
    if (error instanceof Refused) { return { error: error.message }; }
    throw error;
  }
});

/* Save this game: the record this phone holds, unsent changes included, as a file. */
/** @param {ParentNode} root */
function offerSaving(root) {
  /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-save-game]")).forEach((button) => {
    button.hidden = !held;
    if (button.hasAttribute("data-bound")) { return; }
    button.setAttribute("data-bound", "");
    button.addEventListener("click", () => {
      const copy = /** @type {Copy} */ (held);  /* the button shows only once a copy is held */
      const saved = record(fold(copy, base, queuedFor(base)));
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([JSON.stringify(saved, null, 1)], { type: "application/json" }));
      link.download = copy.file_name || "game-" + new Date().toISOString().slice(0, 10) + ".json";
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
