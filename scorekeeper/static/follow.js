// @ts-check
/* Following the game live: changes made on other phones come by the live stream (server-sent
   events), else by a 2 s poll of the game's version (with its ETag); a failed stream is tried
   again after a random wait under a doubling cap (full jitter), never a storm. What changed is
   brought in by fetching the page again and swapping its <main> in place, keeping what was typed;
   while the player is busy, a notice ([data-stale]) offers it instead. Nothing here navigates: a
   page that moves on (an entry page of a hand another phone completed, a game that ended) takes
   its next page's <main> and address in place, so a link tapped meanwhile goes where it was tapped.

   The connection's state (outbox.js keeps it): live while the stream is open or the poll is
   answered; offline only when both fail. A failed poll while the stream is open only has the
   stream opened again, to learn whether it still holds. A poll not answered within its time limit
   (net.js) is a server that hangs (a laptop asleep, or off the Wi-Fi): its stream is silent too,
   whatever its state says, so the phone goes offline at once. The poll goes on while the stream is
   open, every few seconds, for that: the stream's heartbeat is a comment no page can hear. */

import { fetchWithin, timedOut } from "./net.js";
import { afterRound, connection, flush, leaving, queued, sending, setConnection } from "./outbox.js";
import { retype, typed } from "./typing.js";

/** @import { Round } from "./outbox.js" */

const POLL_MS = 2000;
/* With the live stream open, the poll checks that nothing was missed and that the server still
   answers: a server that hangs is noticed within this and the time limit of a request. */
const STREAM_POLL_MS = 3000;
const STREAM_RETRY_CAP_MS = 60000;
const body = document.body;
/** @type {string | null} */
let etag = null;
/** @type {ReturnType<typeof setInterval> | null} */
let pollTimer = null;
/** @type {EventSource | null} */
let stream = null;
let streamFailures = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let streamRetry = null;
/* A page asked for and not brought in (no answer in time): asked for again at the next news. */
let missed = false;

const here = () => location.pathname + location.search;
/* The address the <main> shown belongs to: a swap here or a page drawn offline (offline.js) moves it. */
let shownAt = here();
document.addEventListener("scorekeeper:content", () => { shownAt = here(); });

function busy() {
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
  if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "hidden") { return true; }
  if (document.querySelector("form[data-dirty], main .js-error, main .conflict, main .ask, main [data-versus]")) { return true; }
  return queued().length > 0;
}

/* The server's page at url, its <main> swapped in for this one (what was typed kept); unless forced,
   not while the player is busy. An entry page of a hand another phone completed brings in the page
   it moves on to instead, and the address becomes that of the page shown. An error, or no answer,
   leaves the page as it is (the next version heard tries again); so does a page moved meanwhile
   (the back button, a page drawn offline). The swapped content is announced as scorekeeper:content
   (detail: the new <main>), for the page's scripts to set it up. */
/** @param {string} url @param {boolean} [forced] */
function swapIn(url, forced) {
  const asked = location.href;
  fetchWithin(url, { credentials: "same-origin", cache: "no-store" }).then((response) => {
    if (!response.ok) { return null; }
    return response.text().then((html) => ({ html, at: response.url }));
  }).then((answer) => {
    if (answer === null || leaving() || location.href !== asked || (busy() && !forced)) { return; }
    const fresh = new DOMParser().parseFromString(answer.html, "text/html");
    const main = document.querySelector("main");
    const freshMain = fresh.querySelector("main");
    if (!main || !freshMain) { return; }
    const done = fresh.querySelector("form[data-follow]:not([data-open])");
    if (done && main.querySelector("form[data-follow][data-open]")) {
      swapIn(done.getAttribute("data-follow") || "", forced);
      return;
    }
    const kept = typed(main), focused = document.activeElement && document.activeElement.id;
    main.replaceWith(freshMain);
    retype(freshMain, kept);
    const refocus = focused && document.getElementById(focused);
    if (refocus) { refocus.focus(); }
    ["data-version", "data-version-url"].forEach((name) => {
      const value = fresh.body.getAttribute(name);
      if (value !== null) { body.setAttribute(name, value); }
    });
    if (answer.at && answer.at !== asked.split("#")[0]) { history.replaceState(null, "", answer.at); }
    document.title = fresh.title;
    document.dispatchEvent(new CustomEvent("scorekeeper:content", { detail: freshMain }));
  }).catch(() => { missed = true; /* no page in time: the next version heard, even the same, tries again */ });
}

/* Bring in what changed. */
/** @param {boolean} [shown] */
export function followChange(shown) {
  if (leaving() || sending()) { return; }  /* its own change is on the way (and then, maybe, to its next page) */
  if (busy() && !shown) {
    /** @type {HTMLElement | null} */
    const stale = document.querySelector("[data-stale]");
    if (stale) { stale.hidden = false; }
    return;
  }
  swapIn(location.href, shown);
}

/* The address changed without its page (the back button, over pages drawn while offline): the
   server's page for it, swapped in. Never a reload, which would drop a link being opened. */
export function showAddressedPage() {
  if (here() !== shownAt) { swapIn(location.href, true); }
}

/* The notice's Show swaps even while busy, keeping what was typed. */
/** @param {ParentNode} root */
export function bindStale(root) {
  const show = root.querySelector("[data-stale] button");
  if (show) { show.addEventListener("click", () => followChange(true)); }
}

/* When the server was last heard from (Date.now()): the page itself came from it, a version, a save. */
let lastHeard = Date.now();
export const heardAt = () => lastHeard;
document.addEventListener("scorekeeper:delivered", () => { lastHeard = Date.now(); });

/* Heard from the server: what waits is sent (or all is well). */
function heard() {
  lastHeard = Date.now();
  if (queued().length) { flush(); } else { setConnection("live"); }
}

/** @param {number | string} version */
function followVersion(version) {
  if (String(version) !== body.getAttribute("data-version") || missed) { missed = false; followChange(); }
}

const streamOpen = () => stream !== null && stream.readyState === EventSource.OPEN;

/* Unanswered: offline when the stream is down too; an open stream is opened again, and its own
   failure, if it fails, says so. */
function unanswered() {
  if (streamOpen()) { closeStream(); openStream(); } else { setConnection("offline"); }
}

/* No answer in time: the server hangs. Its stream is closed (and tried again later) and the phone
   plays on offline, polling, until the server answers again. */
function gone() {
  if (stream) { closeStream(); retryStream(); }
  pollEvery(POLL_MS);
  setConnection("offline");
}

function poll() {
  const url = body.getAttribute("data-version-url");
  if (!url) { return; }
  /** @type {Record<string, string>} */
  const headers = etag ? { "If-None-Match": etag } : {};
  fetchWithin(url, { credentials: "same-origin", headers, cache: "no-store" }).then((response) => {
    heard();
    if (response.status === 304) { if (missed) { missed = false; followChange(); } return; }
    etag = response.headers.get("ETag");
    return response.json().then((data) => followVersion(data.version));
  }, (error) => { if (timedOut(error)) { gone(); } else { unanswered(); } }).catch(() => { /* a body cut short: the next poll asks again */ });
}

/** @param {number} ms */
function pollEvery(ms) {
  if (pollTimer) { clearInterval(pollTimer); }
  pollTimer = setInterval(poll, ms);
}

/* A failed stream falls back on the poll at once (whose answer, or silence, sets the state) and is
   tried again later. */
function openStream() {
  const url = body.getAttribute("data-live-url");
  if (!url || !window.EventSource || stream || document.hidden) { return; }
  stream = new EventSource(url);
  stream.addEventListener("version", (event) => {
    streamFailures = 0;
    pollEvery(STREAM_POLL_MS);
    heard();
    followVersion(/** @type {MessageEvent<string>} */ (event).data);
  });
  stream.addEventListener("error", () => {
    closeStream();
    pollEvery(POLL_MS);
    poll();
    retryStream();
  });
}

function retryStream() {
  streamFailures += 1;
  const cap = Math.min(STREAM_RETRY_CAP_MS, 1000 * 2 ** streamFailures);
  streamRetry = setTimeout(openStream, Math.random() * cap);
}

function closeStream() {
  if (streamRetry) { clearTimeout(streamRetry); streamRetry = null; }
  if (stream) { stream.close(); stream = null; }
}

/* After a round of sending that delivered something, the page shows what stands now; one the
   server refused because the director locked the game shows the lock at once (the refusal is
   listed as not saved, so nothing beside a button is left to read). */
afterRound((/** @type {Round} */ { delivered, leaving: away, locked }) => {
  if (away) { return; }
  if (locked) {
    document.querySelectorAll("main .js-error").forEach((node) => node.remove());
    followChange(true);
  } else if (delivered) { followChange(); }
});

/* A change that could not be sent (outbox.js says "reconnecting"): the server is out of reach
   unless the stream still holds, which is then put to the test. Decided once the news has been
   told to every listener, so that none hears it after the answer. */
document.addEventListener("scorekeeper:connection", (event) => {
  if (/** @type {CustomEvent<string>} */ (event).detail !== "reconnecting") { return; }
  setTimeout(() => {
    if (connection() === "reconnecting") { unanswered(); }
  }, 0);
});

/* A game's page follows it (live, else polled; paused while hidden); any page sends what waits
   once the phone is back online. */
export function startFollowing() {
  if (body.getAttribute("data-version-url")) {
    setConnection(navigator.onLine ? "live" : "offline");
    pollEvery(POLL_MS);
    openStream();
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) { closeStream(); pollEvery(POLL_MS); return; }
      poll();
      openStream();
    });
  }
  window.addEventListener("online", () => { flush(); poll(); openStream(); });
}
