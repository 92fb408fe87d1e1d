// @ts-check
/* A slip of the finger: a tap that may repeat the one before (the same pressure twice within
   seconds) is asked about first, one tap either way; the server asks the same when the first
   came from another phone. Only a change that still stands counts as "one moments ago": one
   waiting in the outbox, or saved and not undone since; one undone (or taken out of the outbox
   before it was sent, refused, or never sent because the answer was "No, the same one") does not,
   as on the server (views/play.py's second-pressure guard counts the pressures that stand). */

import { queued } from "./outbox.js";
import { session } from "./storage.js";

/** @import { Answer, Item } from "./outbox.js" */
/** @typedef {{key: string, at: number, within: number, id: string, entry?: number}} Tap a change tapped here: its form's key, when, how long a second tap is asked about (ms), its idempotency key, the server's entry once saved */

const TAPS = "scorekeeper:taps";

/** @param {string} tag @param {string} className @param {string} text @returns {HTMLElement} */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (node instanceof HTMLButtonElement) { node.type = "button"; }
  node.className = className;
  node.textContent = text;
  return node;
}

/* The changes tapped here in the last seconds, as kept over the reload after a save (this tab's
   storage): [{key, at, id, entry}] (id: the change's idempotency key; entry: the server's entry,
   once saved). Every recent tap is kept, not only the last: Bob, Cy, Bob within seconds asks about Bob. */
/** @param {number} now @returns {Tap[]} */
function recentTaps(now) {
  const taps = session.read(TAPS, /** @type {unknown} */ ([]));
  return Array.isArray(taps) ? taps.filter((tap) => tap && typeof tap.key === "string" && now - tap.at <= tap.within) : [];
}

/** @param {HTMLFormElement} form @returns {string} */
const keyOf = (form) => {
  const data = new FormData(form);
  return form.action + "|" + data.get("hand") + "|" + data.get("player");
};

/* Still stands: waiting to be sent (or on its way), or saved (and not undone, which forgets it). */
/** @param {Tap} tap */
function stands(tap) {
  return tap.entry !== undefined || queued().some((item) => item.id === tap.id);
}

/* True when the same change was tapped moments ago on this phone and still stands. */
/** @param {HTMLFormElement} form @returns {boolean} */
export function tappedJustNow(form) {
  const now = Date.now(), key = keyOf(form);
  return recentTaps(now).some((tap) => tap.key === key && stands(tap));
}

/* A change this page put in the outbox: a tap that may be asked about is kept; an undo forgets
   the tap of the entry it undoes. */
/** @param {HTMLFormElement} form @param {Item} item */
export function noteChange(form, item) {
  const now = Date.now();
  let taps = recentTaps(now);
  const target = /\/undo$/.test(new URL(form.action, location.href).pathname) && new FormData(form).get("target");
  if (target) { taps = taps.filter((tap) => String(tap.entry) !== String(target)); }
  if (form.hasAttribute("data-ask")) {
    // The rule book's window (scoring/rulebook.py's SAME_PRESSURE_SECONDS), written on the form.
    const within = 1000 * Number(form.getAttribute("data-ask-within"));
    taps.push({ key: keyOf(form), at: now, within, id: item.id });
  }
  session.write(TAPS, taps);
}

/* Saved: the tap knows its entry (which an Undo names). */
document.addEventListener("scorekeeper:delivered", (event) => {
  const { item, result } = /** @type {CustomEvent<{item: Item, result: Answer}>} */ (event).detail;
  const taps = recentTaps(Date.now());
  const tap = taps.find((found) => found.id === item.id);
  if (!tap || !result || result.entry === undefined) { return; }
  tap.entry = result.entry;
  session.write(TAPS, taps);
});

/* Forget this game: its taps go too (each names the game's address). */
/** @param {string} base */
export function forgetTaps(base) {
  const taps = session.read(TAPS, /** @type {unknown} */ ([]));
  if (!Array.isArray(taps)) { session.forget(TAPS); return; }
  /** @param {any} tap as kept, of any shape */
  const inGame = (tap) => tap && typeof tap.key === "string" && new URL(tap.key.split("|")[0], location.href).pathname.startsWith(base);
  session.write(TAPS, taps.filter((tap) => !inGame(tap)));
}

/* The question beside the form (or its [data-ask-here]): yes() for a second one, no() for the same one. */
/** @param {HTMLFormElement} form @param {string} question @param {() => void} yes @param {() => void} no */
export function ask(form, question, yes, no) {
  const where = /** @type {Element} */ (form.closest("[data-ask-here]") || form.parentNode);
  /** @type {ParentNode} */ (where.parentNode).querySelectorAll(".ask").forEach((node) => node.remove());
  const box = el("div", "ask", ""), row = el("div", "ask-row", "");
  const second = el("button", "", "Yes, a second one"), same = el("button", "secondary", "No, the same one");
  box.setAttribute("role", "alert");
  second.addEventListener("click", () => { box.remove(); yes(); });
  same.addEventListener("click", () => { box.remove(); no(); });
  row.append(second, same);
  box.append(el("p", "", question), row);
  where.after(box);
  box.scrollIntoView({ block: "nearest" });
  second.focus();
}
