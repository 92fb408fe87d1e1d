/* What makes the app work from a phone's home screen: the service worker registered where the
   origin is secure (https, or this machine; plain http gets none, by the browser's rule), which
   keeps the pages this phone opened for a reload without the server; and, on the home page,
   the games this phone holds (offline.js keeps them), where the app opened from there starts. */

import { local } from "./storage.js";

const COPY = "scorekeeper:copy:";

export function keepPages() {
  const url = document.body.getAttribute("data-worker");
  if (url && window.isSecureContext && navigator.serviceWorker) {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => { /* the open page still works */ });
  }
}

export function listMyGames() {
  const section = document.querySelector("[data-my-games]");
  if (!section) { return; }
  const games = local.keys(COPY).map((key) => [key.slice(COPY.length), local.read(key, null)]).filter(([, copy]) => copy && copy.record);
  games.sort((a, b) => (b[1].record.created_at || "").localeCompare(a[1].record.created_at || ""));
  const list = section.querySelector("ul");
  for (const [base, copy] of games) {
    const link = document.createElement("a"), item = document.createElement("li"), when = document.createElement("small");
    link.href = base;
    link.textContent = (copy.record.title ? copy.record.title + ": " : "") + copy.book.players.join(", ");
    when.className = "muted";
    when.textContent = copy.name + " · started " + (copy.record.created_at || "").slice(0, 10);
    item.append(link, " ", when);
    list.appendChild(item);
  }
  section.hidden = !games.length;
}
