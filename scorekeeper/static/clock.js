// @ts-check
/* A round's clock: the page carries the seconds left as the server knew them when it made the
   page ([data-round-clock][data-left]); the phone counts down from there by its own monotonic
   time (performance.now), so its wall clock, wrong or not, never matters, and it goes on offline.
   At zero it says what the event says happens: the hand in play is finished, then the table is
   locked (by the server). A page swapped in (follow.js) brings the server's seconds anew. */

const TIME = "Time: finish the hand in play";

/* Seconds as the clock shows them: 12:05, or 1:02:05 past an hour. */
/** @param {number} seconds @returns {string} */
export function shown(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600), minutes = Math.floor((whole % 3600) / 60), secs = whole % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/** @typedef {{element: Element, text: Element, left: number, from: number}} Clock a clock counting: its seconds left at from (performance.now()) */
/** @type {Set<Clock>} */
const ticking = new Set();
/* Clocks counting already: one kept on a page drawn offline (offline.js) counts on from where it was. */
/** @type {WeakSet<Element>} */
const started = new WeakSet();
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;

function tick() {
  ticking.forEach((clock) => {
    if (!clock.element.isConnected) { ticking.delete(clock); return; }
    const left = clock.left - (performance.now() - clock.from) / 1000;
    const text = left <= 0 ? TIME : shown(left);
    if (clock.text.textContent !== text) { clock.text.textContent = text; }
    if (left <= 0) { clock.element.setAttribute("data-state", "time"); ticking.delete(clock); }
  });
  if (!ticking.size && timer) { clearInterval(timer); timer = null; }
}

/* Every running clock under root counts down from the seconds it was sent. */
/** @param {ParentNode} root */
export function setUpClocks(root) {
  root.querySelectorAll("[data-round-clock][data-state='running']").forEach((element) => {
    if (started.has(element)) { return; }
    started.add(element);
    const text = element.querySelector("[data-clock-text]");
    const left = Number(element.getAttribute("data-left"));
    if (!text || !Number.isFinite(left)) { return; }
    ticking.add({ element, text, left, from: performance.now() });
  });
  if (ticking.size && !timer) { timer = setInterval(tick, 250); }
  tick();
}
