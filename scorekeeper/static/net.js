// @ts-check
/* Every request a page makes has a time limit. A phone's fetch has none of its own: a server that
   hangs (a laptop asleep, or off the Wi-Fi) would leave it waiting for minutes, the page saying
   "Live" all the while. A request unanswered within its limit fails as a lost connection does,
   and says so (Timeout), so that the page plays on offline instead. */

/* How long a request may take before the server counts as gone: a ping, a save, a page. */
export const LIMIT_MS = 2000;

/* The error of a request that got no answer in time. */
export class Timeout extends Error {
  /** @param {string} url */
  constructor(url) {
    super("no answer from " + url + " within " + LIMIT_MS + " ms");
    this.name = "Timeout";
  }
}

/* A signal that aborts after ms: AbortSignal.timeout where the engine has it, else a controller
   and a timer (older Safari). */
/** @param {number} ms @returns {AbortSignal} */
function after(ms) {
  if (typeof AbortSignal !== "undefined" && typeof AbortSignal.timeout === "function") { return AbortSignal.timeout(ms); }
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

/* fetch(url, options), failing with Timeout when the answer (its body too, read through the
   response this returns) has not come within ms. */
/** @param {string | URL} url @param {RequestInit} [options] @param {number} [ms] @returns {Promise<Response>} */
export function fetchWithin(url, options = {}, ms = LIMIT_MS) {
  const signal = after(ms);
  return fetch(url, { ...options, signal }).catch((error) => {
    if (signal.aborted) { throw new Timeout(String(url)); }
    throw error;
  });
}

/** A form's fields as a request's body (or a change's, kept as text). The DOM's types leave out
   that URLSearchParams takes a FormData (its fields are its pairs; a file goes by its name).
   @param {HTMLFormElement} form @returns {URLSearchParams} */
export const formFields = (form) => new URLSearchParams(/** @type {string[][]} */ (/** @type {unknown} */ (new FormData(form))));

/* Whether a failed request (or the reading of its answer) ran out of time. */
/** @type {(error: unknown) => boolean} */
export const timedOut = (error) => error instanceof Timeout ||
  (typeof error === "object" && error !== null && "name" in error && (error.name === "AbortError" || error.name === "TimeoutError"));
