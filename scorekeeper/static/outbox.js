// @ts-check
/* The outbox: every change this phone makes waits in its storage until the server has it, sent in
   order (after a reload too), each with its idempotency key so a retry counts once. A refusal (4xx)
   leaves the queue for the refused list, or is shown beside the form that just sent it; a server
   error (5xx) holds back only the later changes of its game. The connection's state is kept here.

   The keys and the items' fields are stored as they always were ({id, url, body, from, label,
   replace, at, tries}; and settles, the refusal an item re-applies, where it does), so a phone
   upgrading mid-game keeps its queue. On `document`:
     scorekeeper:outbox      detail: the queue; whenever it (or the refused list) changes
     scorekeeper:delivered   detail: {item, result}; the server accepted an item
     scorekeeper:connection  detail: "live" | "reconnecting" | "offline" | "failing"; when it changes */

import { fetchWithin, formFields, timedOut } from "./net.js";
import { local } from "./storage.js";

/**
 * A change waiting to be sent, as kept in the phone's storage.
 * @typedef {object} Item
 * @property {string} id its idempotency key
 * @property {string} url the address it is posted to
 * @property {string} body its form, urlencoded
 * @property {string} [from] the page it was made on
 * @property {string | null} [label] what the outbox's list says of it
 * @property {boolean} [replace] it replaces a change to the same address that is not on its way
 * @property {number} [at] when it was made (Date.now())
 * @property {number} [tries] how many times the server failed it (5xx)
 * @property {string | null} [settles] the refused change it re-applies
 */

/** @typedef {{seat: number | string | null, player: string | null, entry?: number | null, cards: string[] | null}} Conflict a seat whose entry met another phone's: what stands now (entry and cards null: undone) */

/**
 * The server's answer to a change (JSON), or the outbox's own word for one it failed to save.
 * @typedef {object} Answer
 * @property {boolean} [ok]
 * @property {number} [status] the HTTP status of a refusal
 * @property {string} [error] the refusal, in words a player reads
 * @property {string} [field] the field it belongs beside
 * @property {string} [ask] a question: a second one, or the same?
 * @property {boolean} [locked] the director locked the game
 * @property {boolean} [csrf] the form's token was refused
 * @property {string} [redirect] the page to go on to, once saved
 * @property {number} [entry] the entry saved
 * @property {{entry: number, cards: string[]}} [current] what stands now for the one seat sent
 * @property {Conflict[]} [conflicts] each seat of a whole hand's save that met another phone's
 * @property {number | string} [seat] the seat the refusal is about
 */

/**
 * A change the server refused, listed as not saved.
 * @typedef {object} RefusedItem
 * @property {string} id
 * @property {string | null | undefined} label
 * @property {string | undefined} error
 * @property {Item | null} again the change to send again, when the answer asked
 * @property {string | null | undefined} [reapply] the address that brings the change back
 * @property {{player: string | null, recorded: string, yours: string}[] | null | undefined} [conflicts]
 */
/** @typedef {{reapply: string, conflicts: {player: string | null, recorded: string, yours: string}[]}} Read what a reader of refusals adds to one (onRefusal) */
/** @typedef {"live" | "reconnecting" | "offline" | "failing"} Connection */
/** @typedef {{delivered: number, leaving: boolean, locked?: boolean}} Round what a round of sending did */

const OUTBOX = "scorekeeper:outbox";
const REFUSED = "scorekeeper:refused";
const MAX_TRIES = 4;

let flushing = false;
let navigating = false;
/** @type {string | null} */
let inFlight = null;
/** @type {Connection | null} */
let state = null;
/** @type {((round: Round) => void)[]} */
const roundListeners = [];
/** @type {Map<number, ((item: Item, result: Answer) => Read | null)[]>} */
const refusalReaders = new Map();

/** @type {(name: string, detail: unknown) => void} */
const tell = (name, detail) => document.dispatchEvent(new CustomEvent(name, { detail }));
const changed = () => tell("scorekeeper:outbox", queued());
/** @type {(box: Item[]) => void} */
const save = (box) => local.write(OUTBOX, box);
/** @type {(id: string) => void} */
const remove = (id) => save(queued().filter((item) => item.id !== id));
/** @type {(item: Item) => void} */
const update = (item) => save(queued().map((other) => (other.id === item.id ? item : other)));
/** @type {(url: string) => string} */
const path = (url) => new URL(url, location.href).pathname;

/* Every change waiting to be sent, oldest first. */
/* What waits, as kept: only well-formed changes for this site (storage edited by hand, or
   left by another version, must not stop the outbox). */
/** @returns {Item[]} */
export const queued = () => {
  const box = local.read(OUTBOX, /** @type {unknown} */ ([]));
  return Array.isArray(box) ? box.filter(wellFormed) : [];
};

/** @param {any} item as kept, of any shape @returns {item is Item} */
function wellFormed(item) {
  if (!item || typeof item !== "object" || typeof item.id !== "string" || typeof item.url !== "string") { return false; }
  try { return new URL(item.url, location.href).origin === location.origin; } catch { return false; }
}

/* How many changes wait to be sent: the one count every page says (the outbox's list, the banner of
   a page drawn offline). A change is one save, whatever it holds: a whole hand's leftovers count once. */
export const waitingCount = () => queued().length;

/* The changes waiting for one game: those whose address starts with its prefix ("/t/<token>/"). */
/** @type {(gameUrlPrefix: string) => Item[]} */
export const pending = (gameUrlPrefix) => queued().filter((item) => path(item.url).startsWith(path(gameUrlPrefix)));

/* Changes the server refused, to be shown as not saved: {id, label, error, reapply, conflicts, again}
   (conflicts: the players whose entries met another phone's, {player, recorded, yours}). */
/** @returns {RefusedItem[]} */
export const refused = () => local.read(REFUSED, /** @type {RefusedItem[]} */ ([]));

/** @param {number} index */
export function dismissRefused(index) {
  const all = refused();
  all.splice(index, 1);
  local.write(REFUSED, all);
  changed();
}

/* A refused change is settled (re-applied and saved, or what is recorded kept): it is not shown any more. */
/** @param {string | null | undefined} id */
export function settleRefused(id) {
  const all = refused();
  if (!id || !all.some((item) => item.id === id)) { return; }
  local.write(REFUSED, all.filter((item) => item.id !== id));
  changed();
}

/* The connection as last seen: "live", "reconnecting", "offline", "failing" (null before any news). */
export const connection = () => state;

/** @param {Connection} news */
export function setConnection(news) {
  if (news === state) { return; }
  state = news;
  tell("scorekeeper:connection", news);
}

/* The page is on its way elsewhere (after its own change, or with the table): it follows no more. */
export const leaving = () => navigating;
export const sending = () => flushing;

/** @param {string} url */
export function leave(url) {
  navigating = true;
  location.assign(url);
}

/* Called with {delivered, leaving} whenever a round of sending ends. */
/** @param {(round: Round) => void} listener */
export function afterRound(listener) { roundListeners.push(listener); }

/* A page's part that knows some refusals reads them for the refused list: reader(item, result) for
   each refusal of that status (409: something changed meanwhile) gives {reapply, conflicts} (the
   address that brings the change back, each player's two entries), or null when it is not one it
   knows. The pad reads its leftovers' conflicts so (pad_seats.js). */
/** @param {number} status @param {(item: Item, result: Answer) => Read | null} reader */
export function onRefusal(status, reader) {
  refusalReaders.set(status, [...(refusalReaders.get(status) || []), reader]);
}

/* A fresh idempotency key: the one way a change gets its key, here or on a page drawn offline. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/* A form's change, queued with the key its form carries; the form gets a new key for the next one.
   A change marked data-outbox-replace replaces a queued one to the same address (not on its way);
   one marked data-settles re-applies a refused change, which is settled once it is saved. */
/** @param {HTMLFormElement} form @returns {Item} */
export function enqueue(form) {
  const data = formFields(form);
  /** @type {Item} */
  const item = {
    id: /** @type {string} */ (data.get("idem")), url: form.action, body: data.toString(), from: location.pathname,
    label: form.getAttribute("data-outbox"), replace: form.hasAttribute("data-outbox-replace"), at: Date.now(),
  };
  if (form.hasAttribute("data-settles")) { item.settles = form.getAttribute("data-settles"); }
  let box = queued();
  if (!box.some((other) => other.id === item.id)) {
    if (item.replace) {
      box = box.filter((other) => !(other.replace && other.url === item.url && other.id !== inFlight));
    }
    box.push(item);
    save(box);
  }
  const idem = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=idem]"));
  if (idem) { idem.value = newKey(); }
  changed();
  return item;
}

/* Take a change back before it is sent: false when it is already on its way (or gone). */
/** @param {string} id @returns {boolean} */
export function withdraw(id) {
  if (id === inFlight || !queued().some((item) => item.id === id)) { return false; }
  remove(id);
  changed();
  return true;
}

/* The player said it was a second one: the same change again, marked as confirmed. */
/** @param {Item} item */
export function sendAgain(item) {
  const params = new URLSearchParams(item.body);
  item.id = newKey();
  params.set("again", "1");
  params.set("idem", item.id);
  item.body = params.toString();
  item.at = Date.now();
  save([...queued(), item]);
  changed();
  flush();
}

/** @returns {Promise<string>} */
async function freshCsrf() {
  const response = await fetchWithin(document.body.getAttribute("data-csrf-url") || "", { credentials: "same-origin", cache: "no-store" });
  return (await response.json()).token;
}

/* Send one item: the server's answer, or "later" (a server error), "offline" (no connection) or
   "timeout" (no answer within the time limit: a server that hangs is as gone as one that is down).
   Every change says how long it waited here, so the server stamps it with the time it was made.
   One that timed out may still be saved when the server wakes: its key makes the retry count once. */
/** @param {Item} item @param {boolean} [retried] @returns {Promise<Answer | "later" | "offline" | "timeout">} */
async function send(item, retried = false) {
  const params = new URLSearchParams(item.body);
  params.set("waited", String(Math.max(0, Date.now() - (item.at || 0))));
  item.body = params.toString();
  /** @type {Response} */
  let response;
  /** @type {Answer} */
  let data;
  try {
    response = await fetchWithin(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json", "X-Requested-With": "outbox" },
      body: item.body,
    });
    data = await response.json().catch((error) => { if (timedOut(error)) { throw error; } return {}; });
  } catch (error) {
    return timedOut(error) ? "timeout" : "offline";
  }
  if (response.status === 400 && data.csrf && !retried) {
    let token;
    try { token = await freshCsrf(); } catch (error) { return timedOut(error) ? "timeout" : "offline"; }
    const fresh = new URLSearchParams(item.body);
    fresh.set("csrf_token", token);
    item.body = fresh.toString();
    update(item);
    return send(item, true);
  }
  if (response.ok) { return data; }
  if (response.status >= 500 || response.status === 0) { return "later"; }
  if (!data || typeof data !== "object") { data = {}; }
  data.ok = false;
  data.status = response.status;
  if (!data.error) { data.error = "refused by the server (" + response.status + ")"; }
  return data;
}

/* The game an item changes (its link's token): one game's failing change never holds up another's. */
/** @param {Item} item @returns {string} */
function gameOf(item) {
  const match = /\/t\/[^/]+\//.exec(item.url);
  return match ? match[0] : item.url;
}

/* Listed as not saved, with what a reader of its refusal adds (onRefusal): leftovers that met
   another phone's entries are listed with each player's two entries and an address that brings
   every one of this phone's back. */
/** @param {Item} item @param {Answer} result */
function refuse(item, result) {
  /** @type {Read | null} */
  let read = null;
  for (const reader of (result.status !== undefined && refusalReaders.get(result.status)) || []) {
    read = reader(item, result);
    if (read) { break; }
  }
  local.write(REFUSED, [...refused(), {
    id: item.id, label: item.label, error: result.error, again: result.ask ? item : null,
    reapply: read && read.reapply, conflicts: read && read.conflicts,
  }]);
}

/* One round: what waits, oldest first, until the queue is through or the server cannot be reached. */
/** @param {Item | null} justSent @param {((result: Answer) => boolean) | null} refusedHere
    @returns {Promise<{delivered: number, serverError: boolean, unreachable: boolean, locked: boolean}>} */
async function round(justSent, refusedHere) {
  const held = new Set();
  const outcome = { delivered: 0, serverError: false, unreachable: false, locked: false };
  for (;;) {
    /** @type {Item | undefined} */
    const item = queued().find((waiting) => !held.has(gameOf(waiting)));
    if (!item) { return outcome; }
    inFlight = item.id;
    let result = await send(item);
    inFlight = null;
    if (result === "offline" || result === "timeout") {
      outcome.unreachable = true;
      setConnection(navigator.onLine && result !== "timeout" ? "reconnecting" : "offline");
      return outcome;
    }
    if (result === "later") {
      outcome.serverError = true;
      item.tries = (item.tries || 0) + 1;
      if (item.tries < MAX_TRIES) {
        update(item);
        held.add(gameOf(item));
        changed();
        continue;
      }
      result = { ok: false, status: 500, error: "The server failed to save it " + MAX_TRIES + " times. Check the game's page, then enter it again." };
    }
    remove(item.id);
    const mine = justSent && item.id === justSent.id;
    if (result.ok) {
      outcome.delivered += 1;
      settleRefused(item.settles);
      tell("scorekeeper:delivered", { item, result });
    } else if (mine && !result.locked && refusedHere && refusedHere(result) !== false) {
      /* shown beside its form */
    } else {
      refuse(item, result);
    }
    /* The director locked the game: listed as not saved, and the page (follow.js) shows the lock. */
    if (!result.ok && result.locked) { outcome.locked = true; }
    changed();
    if (result.ok && mine) {
      leave(/** @type {string} */ (result.redirect));
      return outcome;
    }
  }
}

/* Send what waits. A refusal is shown and leaves the queue; a server error holds back only the
   later changes of the same game, and after MAX_TRIES it is shown as not saved; no answer at all
   (offline) stops the round until the next try. The page's own change (justSent), once stored,
   takes the page to its next page; refused, it goes to refusedHere(result) instead of the list
   (unless that answers false: its form is gone from the page, redrawn meanwhile). */
/** @param {Item | null} [justSent] @param {((result: Answer) => boolean) | null} [refusedHere] */
export function flush(justSent = null, refusedHere = null) {
  if (flushing) { return; }
  flushing = true;
  round(justSent, refusedHere).then(({ delivered, serverError, unreachable, locked }) => {
    flushing = false;
    if (!navigating && !unreachable) { setConnection(serverError ? "failing" : "live"); }
    roundListeners.forEach((listener) => listener({ delivered, leaving: navigating, locked }));
  }, () => {
    flushing = false;
    roundListeners.forEach((listener) => listener({ delivered: 0, leaving: false }));
  });
}

/* Sent after a reload too, and when the phone is back online (follow.js asks then); what another
   tab changes in the outbox is news here as well. */
export function startSending() {
  window.addEventListener("offline", () => setConnection("offline"));
  window.addEventListener("storage", (event) => {
    if (event.key === OUTBOX || event.key === REFUSED) { changed(); }
  });
  if (queued().length) { flush(); }
}
