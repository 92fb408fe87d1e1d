// @ts-check
/* The outbox as the page shows it: "N changes waiting to be sent" ([data-outbox-list]), the changes
   the server refused ([data-refused], with Dismiss, and Yes or Open it where one can act on it),
   and the connection in the header ([data-live-status]). Drawn again whenever outbox.js says. */

import { dismissRefused, queued, refused, sendAgain, waitingCount } from "./outbox.js";

/** @import { Connection } from "./outbox.js" */

const SHOW_AFTER_MS = 1200;
/* Past this many, the list folds into its count (one line, opened on a tap), so that a hand of many
   pressures taken offline keeps its PRESSURE buttons on the first screen. */
const LISTED = 2;
let listOpen = false;
/** @type {Record<Connection, string>} */
const STATUS = {
  live: "● Live", reconnecting: "Reconnecting…", offline: "Offline: changes kept on this phone",
  failing: "Server error: a change is waiting (kept on this phone)",
};
/** @type {ReturnType<typeof setTimeout> | undefined} */
let drawLater;

/** @param {string} className @param {string} text */
function button(className, text) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.textContent = text;
  return node;
}

/** @param {HTMLElement} list */
function drawWaiting(list) {
  let box = queued();
  /* A change being sent at once while online is not news: the box shows what is still waiting
     after a moment, or anything while offline or after a failed try. */
  const now = Date.now();
  const waiting = box.some((item) => item.tries || now - (item.at || 0) >= SHOW_AFTER_MS);
  if (box.length && !waiting && navigator.onLine) {
    clearTimeout(drawLater);
    drawLater = setTimeout(drawOutbox, SHOW_AFTER_MS);
    box = [];
  }
  const count = box.length ? waitingCount() : 0;
  list.hidden = !count;
  list.textContent = "";
  list.classList.toggle("folded", count > LISTED);
  if (!count) { return; }
  const said = count + (count === 1 ? " change" : " changes") + " waiting to be sent";
  const ul = document.createElement("ul");
  box.forEach((item) => {
    const li = document.createElement("li");
    li.textContent = item.label ?? null;
    ul.appendChild(li);
  });
  if (count <= LISTED) {
    const title = document.createElement("strong");
    title.textContent = said + ":";
    list.append(title, ul);
    return;
  }
  const details = document.createElement("details"), summary = document.createElement("summary");
  summary.textContent = said;
  details.open = listOpen;
  details.addEventListener("toggle", () => { listOpen = details.open; });
  details.append(summary, ul);
  list.appendChild(details);
}

/** @param {HTMLElement} where */
function drawRefused(where) {
  /* A refusal being re-applied on this page is shown there (the pad's two entries), not twice. */
  const here = document.querySelector("form[data-settles]");
  const all = refused().map((item, index) => ({ item, index })).filter(({ item }) => !here || item.id !== here.getAttribute("data-settles"));
  where.hidden = !all.length;
  where.textContent = "";
  all.forEach(({ item, index }) => {
    const p = document.createElement("p");
    p.textContent = "Not saved: " + item.label + ". " + item.error + " ";
    where.appendChild(p);
    let actions = p;
    if (item.conflicts && item.conflicts.length) {  /* each player's two entries: the one recorded, and this phone's */
      const ul = document.createElement("ul");
      item.conflicts.forEach((conflict) => {
        const li = document.createElement("li");
        li.textContent = (conflict.player ? conflict.player + ": " : "") + "Recorded: " + conflict.recorded + " / Yours: " + conflict.yours;
        ul.appendChild(li);
      });
      actions = document.createElement("p");
      where.append(ul, actions);
    }
    if (item.again) {
      const yes = button("small", "Yes, record it");
      const again = item.again;
      yes.addEventListener("click", () => { dismissRefused(index); sendAgain(again); });
      actions.append(yes, " ");
    }
    if (item.reapply) {
      const a = document.createElement("a");
      a.href = item.reapply;
      a.textContent = "Open it to re-apply";
      actions.append(a, " ");
    }
    const dismiss = button("secondary small", "Dismiss");
    dismiss.addEventListener("click", () => dismissRefused(index));
    actions.appendChild(dismiss);
  });
}

export function drawOutbox() {
  /** @type {HTMLElement | null} */
  const list = document.querySelector("[data-outbox-list]");
  if (list) { drawWaiting(list); }
  /** @type {HTMLElement | null} */
  const where = document.querySelector("[data-refused]");
  if (where) { drawRefused(where); }
}

/** @param {Connection} state */
function drawConnection(state) {
  /** @type {HTMLElement | null} */
  const status = document.querySelector("[data-live-status]");
  if (!status) { return; }
  status.hidden = false;
  status.className = "live-status " + state;
  status.textContent = STATUS[state];
}

document.addEventListener("scorekeeper:outbox", drawOutbox);
document.addEventListener("scorekeeper:connection", (event) => drawConnection(/** @type {CustomEvent<Connection>} */ (event).detail));
