// @ts-check
/* What makes the app work from a phone's home screen: the service worker registered where the
   origin is secure (https, or this machine; plain http gets none, by the browser's rule), which
   keeps the pages this phone opened for a reload without the server; and, on the home page, the
   games this phone holds (offline.js keeps them), each of which can be forgotten here, and a
   notice while the server cannot be reached, where the app opened from there starts. */

import { forgetTaps } from "./ask.js";
import { fetchWithin } from "./net.js";
import { dismissRefused, pending, refused, withdraw } from "./outbox.js";
import { local, session } from "./storage.js";

/** @import { Copy } from "./copy.js" */
/** @import { Connection } from "./outbox.js" */

const COPY = "scorekeeper:copy:";
const RECHECK_MS = 5000;

export function keepPages() {
  const url = document.body.getAttribute("data-worker");
  if (url && window.isSecureContext && navigator.serviceWorker) {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => { /* the open page still works */ });
  }
}

/** @param {string} tag @param {string} [className] @param {string} [text] @returns {HTMLElement} */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (node instanceof HTMLButtonElement) { node.type = "button"; }
  if (className) { node.className = className; }
  if (text) { node.textContent = text; }
  return node;
}

/* Whether an address (of a change, a refused change's link) is one of the game's: "/t/<token>/…". */
/** @type {(base: string, url: string | null | undefined) => boolean} */
const inGame = (base, url) => !!url && new URL(url, location.href).pathname.startsWith(base);

/* Everything this phone keeps of a game, each holding its record link: the copy, the count and the
   pad's drafts, its changes not yet sent and those refused, what this tab kept typed and tapped, and the
   game's pages the service worker kept. */
/** @param {string} base */
async function forget(base) {
  const token = base.split("/")[2];
  local.forget(COPY + base);
  local.keys("drafts:" + base).forEach((key) => local.forget(key));
  local.keys("count:" + token + "-").forEach((key) => local.forget(key));
  session.keys("scorekeeper:typed:" + base).forEach((key) => session.forget(key));
  forgetTaps(base);
  pending(base).forEach((item) => withdraw(item.id));
  refused().map((item, index) => /** @type {const} */ ([item, index])).reverse().forEach(([item, index]) => {
    if (inGame(base, item.reapply) || inGame(base, item.again && item.again.url)) { dismissRefused(index); }
  });
  if (!window.caches) { return; }
  try {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        if (inGame(base, request.url)) { await cache.delete(request); }
      }
    }
  } catch { /* no cache to clear */ }
}

/* Forget this game: asked first, in place (Yes, forget it / Keep it), saying what goes. */
/** @param {string} base @param {HTMLElement} item @param {HTMLElement} section */
function forgetButton(base, item, section) {
  const button = el("button", "secondary small", "Forget this game");
  button.addEventListener("click", () => {
    const waiting = pending(base).length;
    const box = el("div", "ask"), row = el("div", "ask-row");
    const yes = /** @type {HTMLButtonElement} */ (el("button", "", "Yes, forget it")), no = el("button", "secondary", "Keep it");
    box.setAttribute("role", "alert");
    box.append(el("p", "", "Forget this game on this phone? Its copy and the pages kept of it go" +
      (waiting ? ", and its " + waiting + (waiting === 1 ? " change" : " changes") + " not yet sent with them" : "") +
      ". The game stays on the server: its record link still opens it."), row);
    row.append(yes, no);
    const place = /** @type {ParentNode} */ (button.parentNode);
    button.remove();
    item.append(box);
    yes.focus();
    no.addEventListener("click", () => { box.remove(); place.append(button); button.focus(); });
    yes.addEventListener("click", () => {
      yes.disabled = true;
      forget(base).then(() => {
        item.remove();
        section.hidden = !section.querySelector("li");
      });
    });
  });
  return button;
}

export function listMyGames() {
  /** @type {HTMLElement | null} */
  const section = document.querySelector("[data-my-games]");
  if (!section) { return; }
  const games = /** @type {[string, Copy][]} */ (local.keys(COPY)
    .map((key) => /** @type {const} */ ([key.slice(COPY.length), local.read(key, /** @type {Copy | null} */ (null))]))
    .filter(([, copy]) => copy && copy.record));
  games.sort((a, b) => (b[1].record.created_at || "").localeCompare(a[1].record.created_at || ""));
  const list = /** @type {HTMLUListElement} */ (section.querySelector("ul"));
  for (const [base, copy] of games) {
    const link = /** @type {HTMLAnchorElement} */ (el("a")), item = el("li"), when = el("small", "muted"), row = el("div", "row-between");
    link.href = base;
    link.textContent = (copy.record.title ? copy.record.title + ": " : "") + copy.book.players.join(", ");
    when.textContent = copy.name + " · started " + (copy.record.created_at || "").slice(0, 10);
    const about = el("span");
    about.append(link, " ", when);
    row.append(about, forgetButton(base, item, section));
    item.append(row);
    list.appendChild(item);
  }
  section.hidden = !games.length;
}

/* The home page says so when the server cannot be reached (opened from the service worker's copy,
   or the connection lost since): the games on this phone still open, where a service worker keeps
   their pages (a secure address); a new game needs the server. Asked on load, when the phone is
   back online or the page shown again, and every few seconds while the notice shows. */
export function noticeOffline() {
  const heading = document.querySelector("[data-my-games]") && document.querySelector("main h1");
  if (!heading) { return; }
  const notice = el("p", "offline-banner");
  notice.setAttribute("role", "status");
  notice.setAttribute("data-offline-notice", "");
  notice.hidden = true;
  heading.before(notice);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let again;
  /** @param {boolean} away */
  const show = (away) => {
    const kept = window.isSecureContext && navigator.serviceWorker && navigator.serviceWorker.controller;
    notice.replaceChildren(el("strong", "", "Offline"), kept ? ": games on this phone still open; new games need the server."
      : ": a game's page left open plays on; opening a game, or a new one, needs the server at this address.");
    notice.hidden = !away;
    clearTimeout(again);
    if (away) { again = setTimeout(check, RECHECK_MS); }
  };
  function check() {
    if (!navigator.onLine) { show(true); return; }
    fetchWithin(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then((response) => show(!response.ok), () => show(true));
  }
  needsServer(show);
  window.addEventListener("offline", () => show(true));
  window.addEventListener("online", check);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { check(); } });
  document.addEventListener("scorekeeper:connection", (event) => {
    const state = /** @type {CustomEvent<Connection>} */ (event).detail;
    if (state === "offline") { show(true); } else if (state === "live") { show(false); }
  });
  check();
}

/* The home page's links to pages only the server makes (Start a game, Join with a code, …) are not
   handed to the browser blind: the server is asked first, within the time limit of a request.
   No answer, and the page says so beside the link, as Share and Print do on a game's pages,
   instead of the browser's error page (an app opened from the home screen has no Back button).
   A game's own link (/t/…) opens as ever: the service worker keeps its pages where it can. */
/** @param {(away: boolean) => void} show */
function needsServer(show) {
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const link = target.closest && /** @type {HTMLAnchorElement | null} */ (target.closest("main a[href]"));
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey ||
      link.target || link.hasAttribute("download")) { return; }
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/t/") || (url.pathname === location.pathname && url.hash)) { return; }
    event.preventDefault();
    document.querySelectorAll("[data-needs-server]").forEach((node) => node.remove());
    fetchWithin(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin" }).then((response) => {
      if (!response.ok) { throw new Error("the server answered " + response.status); }
      location.assign(link.href);
    }).catch(() => {
      show(true);
      const said = el("p", "error", "“" + link.textContent.trim() + "” needs the server, which cannot be reached: try again once it is back.");
      said.setAttribute("role", "alert");
      said.setAttribute("data-needs-server", "");
      (link.closest("p, li, .actions") || link).after(said);
    });
  });
}
