/* A slip of the finger: a tap that may repeat the one before (the same pressure twice within
   seconds) is asked about first, one tap either way; the server asks the same when the first
   came from another phone. */

import { session } from "./storage.js";

const TAPS = "scorekeeper:taps";
const SAME_TAP_MS = 5000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (tag === "button") { node.type = "button"; }
  node.className = className;
  node.textContent = text;
  return node;
}

/* True when the same change was tapped moments ago on this phone (kept over the reload after a save).
   Every recent tap is kept, not only the last: Bob, Cy, Bob within seconds asks about Bob. */
export function tappedJustNow(form) {
  const now = Date.now(), data = new FormData(form);
  const key = form.action + "|" + data.get("hand") + "|" + data.get("player");
  const taps = {};
  Object.entries(session.read(TAPS, {})).forEach(([other, at]) => { if (now - at <= SAME_TAP_MS) { taps[other] = at; } });
  const before = taps[key];
  taps[key] = now;
  session.write(TAPS, taps);
  return before !== undefined && now - before <= SAME_TAP_MS;
}

/* The question beside the form (or its [data-ask-here]): yes() for a second one, no() for the same one. */
export function ask(form, question, yes, no) {
  const where = form.closest("[data-ask-here]") || form.parentNode;
  where.parentNode.querySelectorAll(".ask").forEach((node) => node.remove());
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
