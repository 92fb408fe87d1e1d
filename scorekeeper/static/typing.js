/* Kept typing: what the player typed and has not sent survives a swap of the page's content
   (follow.js) and a reload (kept for this page in this tab). A form sent is forgotten once the
   next page shows no refusal; a refused one keeps what was typed. And a save's confirmation in
   the address (?saved=&said=, or an undo's ?said=) is shown once, then taken out. */

import { session } from "./storage.js";

/* The page's address when it was loaded (the pad's tabs change the address, not the page). */
const TYPED = "scorekeeper:typed:" + location.pathname;
const SENT = TYPED + ":sent";
const FIELDS = "form textarea, form input:not([type=hidden]):not([type=password]):not([type=file]), form select";

function changed(field) {
  if (field.type === "checkbox") { return field.checked !== field.defaultChecked; }
  if (field.tagName === "SELECT") {
    const first = [...field.options].find((option) => option.defaultSelected) || field.options[0];
    return field.value !== (first ? first.value : "");
  }
  return field.value !== field.defaultValue;
}

const valueOf = (field) => (field.type === "checkbox" ? field.checked : field.value);

/* What was typed under root and not sent, by form and field: {"<action>|<name>": value}. */
export function typed(root) {
  const kept = {};
  root.querySelectorAll(FIELDS).forEach((field) => {
    if (field.name && changed(field) && !field.closest("[data-preview]")) {
      kept[(field.form.getAttribute("action") || "") + "|" + field.name] = valueOf(field);
    }
  });
  return kept;
}

function fieldOf(root, key) {
  const at = key.indexOf("|"), action = key.slice(0, at), name = key.slice(at + 1);
  let found = null;
  root.querySelectorAll("form").forEach((form) => {
    const field = (form.getAttribute("action") || "") === action && form.elements.namedItem(name);
    if (field && field.tagName) { found = field; }
  });
  return found;
}

/* What typed() kept, typed again into the forms under root. */
export function retype(root, kept) {
  Object.keys(kept).forEach((key) => {
    const field = fieldOf(root, key);
    if (!field) { return; }
    if (field.type === "checkbox") { field.checked = kept[key]; } else { field.value = kept[key]; }
    field.form.setAttribute("data-dirty", "");
    if (field.closest("details")) { field.closest("details").open = true; }
  });
}

function keepTyped(event) {
  const before = session.read(TYPED, {}), kept = typed(document);
  Object.keys(before).forEach((key) => {  /* restored after a refusal, still as typed */
    const field = fieldOf(document, key);
    if (!(key in kept) && field && valueOf(field) === before[key]) { kept[key] = before[key]; }
  });
  session.write(TYPED, kept);
  if (event && event.type === "submit") { session.write(SENT, event.target.getAttribute("action") || ""); }
}

/* The form just sent was refused on this page: what it had typed stays kept. */
export function sentWasRefused() { session.forget(SENT); }

export function restoreTyped() {
  const kept = session.read(TYPED, {}), sent = session.read(SENT, null);
  session.forget(SENT);
  if (sent !== null && !document.querySelector("main .has-error, main .error, main .flash.error, main .conflict")) {
    Object.keys(kept).forEach((key) => { if (key.startsWith(sent + "|")) { delete kept[key]; } });
    session.write(TYPED, kept);
  }
  retype(document, kept);
}

export function forgetConfirmation() {
  if (!/[?&]said=/.test(location.search) || !window.URLSearchParams || !history.replaceState) { return; }
  const params = new URLSearchParams(location.search);
  params.delete("saved");
  params.delete("said");
  const rest = params.toString();
  history.replaceState(history.state, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
}

/* Kept as it is typed, when a form is sent, and when the page goes (typed before this script ran). */
export function keepTyping() {
  document.addEventListener("input", keepTyped);
  document.addEventListener("change", keepTyped);
  document.addEventListener("submit", keepTyped, true);
  window.addEventListener("pagehide", () => keepTyped());
}
