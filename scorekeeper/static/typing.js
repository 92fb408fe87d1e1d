// @ts-check
/* Kept typing: what the player typed and has not sent survives a swap of the page's content
   (follow.js) and a reload (kept for this page in this tab). A form sent is forgotten once the
   next page shows no refusal; a refused one keeps what was typed. And a save's confirmation in
   the address (?saved=&said=, or an undo's ?said=) is shown once, then taken out. */

import { session } from "./storage.js";

/* The page's address when it was loaded (the pad's tabs change the address, not the page). */
const TYPED = "scorekeeper:typed:" + location.pathname;
const SENT = TYPED + ":sent";
const FIELDS = "form textarea, form input:not([type=hidden]):not([type=password]):not([type=file]), form select";

/** @typedef {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} Field a field of a form (FIELDS) */
/** @typedef {Record<string, string | boolean>} Typed what was typed, by "<action>|<name>": a value, or a box ticked */

/** @param {ParentNode} root @returns {Field[]} */
const fieldsIn = (root) => [.../** @type {NodeListOf<Field>} */ (root.querySelectorAll(FIELDS))];
/** @param {Field} field @returns {HTMLFormElement} (every field of FIELDS is in one) */
const formOf = (field) => /** @type {HTMLFormElement} */ (field.form);

/** @param {Field} field */
function changed(field) {
  if (field instanceof HTMLInputElement && field.type === "checkbox") { return field.checked !== field.defaultChecked; }
  if (field instanceof HTMLSelectElement) {
    const first = [...field.options].find((option) => option.defaultSelected) || field.options[0];
    return field.value !== (first ? first.value : "");
  }
  return field.value !== field.defaultValue;
}

/** @param {Field} field @returns {string | boolean} */
const valueOf = (field) => (field instanceof HTMLInputElement && field.type === "checkbox" ? field.checked : field.value);

/* What was typed under root and not sent, by form and field: {"<action>|<name>": value}. */
/** @param {ParentNode} root @returns {Typed} */
export function typed(root) {
  /** @type {Typed} */
  const kept = {};
  fieldsIn(root).forEach((field) => {
    if (field.name && changed(field) && !field.closest("[data-preview]")) {
      kept[(formOf(field).getAttribute("action") || "") + "|" + field.name] = valueOf(field);
    }
  });
  return kept;
}

/** @param {ParentNode} root @param {string} key @returns {Field | null} */
function fieldOf(root, key) {
  const at = key.indexOf("|"), action = key.slice(0, at), name = key.slice(at + 1);
  /** @type {Field | null} */
  let found = null;
  root.querySelectorAll("form").forEach((form) => {
    const field = (form.getAttribute("action") || "") === action && form.elements.namedItem(name);
    if (field && "tagName" in field && field.tagName) { found = /** @type {Field} */ (field); }
  });
  return found;
}

/* What typed() kept, typed again into the forms under root. */
/** @param {ParentNode} root @param {Typed} kept */
export function retype(root, kept) {
  Object.keys(kept).forEach((key) => {
    const field = fieldOf(root, key);
    if (!field) { return; }
    if (field instanceof HTMLInputElement && field.type === "checkbox") { field.checked = !!kept[key]; } else { field.value = String(kept[key]); }
    formOf(field).setAttribute("data-dirty", "");
    const details = field.closest("details");
    if (details) { details.open = true; }
  });
}

/** @param {Event} [event] */
function keepTyped(event) {
  const before = session.read(TYPED, /** @type {Typed} */ ({})), kept = typed(document);
  Object.keys(before).forEach((key) => {  /* restored after a refusal, still as typed */
    const field = fieldOf(document, key);
    if (!(key in kept) && field && valueOf(field) === before[key]) { kept[key] = before[key]; }
  });
  session.write(TYPED, kept);
  if (event && event.type === "submit") { session.write(SENT, /** @type {HTMLFormElement} */ (event.target).getAttribute("action") || ""); }
}

/* The form just sent was refused on this page: what it had typed stays kept. */
export function sentWasRefused() { session.forget(SENT); }

export function restoreTyped() {
  const kept = session.read(TYPED, /** @type {Typed} */ ({})), sent = session.read(SENT, /** @type {string | null} */ (null));
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
