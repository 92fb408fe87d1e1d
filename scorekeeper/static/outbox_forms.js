// @ts-check
/* The forms that save a change (form[data-outbox]): a submit goes through the outbox instead of
   posting, one tap one change (its button held until the change is stored, refused or kept in the
   outbox); a refusal of it is shown beside its field. Without JavaScript they post as plain forms. */

import { ask, noteChange, tappedJustNow } from "./ask.js";
import { followChange } from "./follow.js";
import { afterRound, enqueue, flush } from "./outbox.js";
import { sentWasRefused } from "./typing.js";

/** @import { Answer } from "./outbox.js" */

/** @param {HTMLFormElement} form @param {HTMLButtonElement | null} button */
function submitChange(form, button) {
  const item = enqueue(form);
  noteChange(form, item);
  form.removeAttribute("data-dirty");
  /** @type {NodeListOf<HTMLInputElement | HTMLTextAreaElement>} */ (form.querySelectorAll("textarea, input:not([type=hidden])"))
    .forEach((field) => { field.defaultValue = field.value; });
  if (button) { button.disabled = true; button.setAttribute("data-busy", ""); }
  /* A refusal is shown beside the form, unless the form is gone (redrawn meanwhile): then listed. */
  flush(item, (result) => {
    if (!form.isConnected) { return false; }
    showRefusal(form, result);
    return true;
  });
}

function release() {
  /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-busy]")).forEach((button) => {
    button.disabled = false;
    button.removeAttribute("data-busy");
  });
}

afterRound(({ leaving }) => { if (!leaving) { release(); } });

/* Yes: the same change again, marked as a second one; no: what the other phone recorded shows. */
/** @param {HTMLFormElement} form @param {string} question */
function askAbout(form, question) {
  const again = () => /** @type {HTMLInputElement} */ (form.querySelector("input[name=again]"));
  ask(form, question, () => {
    again().value = "1";
    submitChange(form, null);
    again().value = "";
  }, () => followChange(false));
}

/* A refusal of what this page just sent: shown beside the field, the entry kept, a way to
   re-apply. The form hears it first (scorekeeper:refused, cancelable: the pad shows its own). */
/** @param {HTMLFormElement} form @param {Answer} result */
function showRefusal(form, result) {
  form.querySelectorAll(".js-error").forEach((node) => node.remove());
  const message = document.createElement("p");
  message.className = "error js-error";
  message.setAttribute("role", "alert");
  message.textContent = result.error || "";
  if (!form.dispatchEvent(new CustomEvent("scorekeeper:refused", { detail: result, cancelable: true }))) { return; }
  sentWasRefused();
  if (result.ask) { askAbout(form, result.ask); return; }
  if (result.current) {
    message.textContent += " Now recorded: " + (result.current.cards.join(" ") || "went out") +
      ". Save again to replace it with your entry.";
    const replaces = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=replaces]"));
    if (replaces) { replaces.value = String(result.current.entry); }
  }
  const field = result.field && form.querySelector("[name=" + result.field + "]:not([type=hidden])");
  const box = field && field.closest(".field");
  if (box) {
    box.appendChild(message);
  } else {
    const parent = /** @type {ParentNode & Node} */ (form.parentNode);
    parent.querySelectorAll(".js-error").forEach((node) => node.remove());
    parent.insertBefore(message, form.nextSibling);
  }
  message.scrollIntoView({ block: "center" });
}

/** @param {ParentNode} root */
export function bindForms(root) {
  /** @type {NodeListOf<HTMLFormElement>} */ (root.querySelectorAll("form[data-outbox]")).forEach((form) => {
    form.addEventListener("input", () => form.setAttribute("data-dirty", ""));
    form.addEventListener("submit", (event) => {
      if (!window.fetch || !window.crypto) { return; }
      event.preventDefault();
      const button = /** @type {HTMLButtonElement | null} */ (event.submitter || form.querySelector("button[type=submit]"));
      if (button && button.disabled) { return; }
      const question = form.getAttribute("data-ask");
      const again = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=again]"));
      if (question && tappedJustNow(form) && !(again && again.value === "1")) {
        askAbout(form, question);
        return;
      }
      submitChange(form, button);
    });
  });
}
