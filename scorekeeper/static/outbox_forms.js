/* The forms that save a change (form[data-outbox]): a submit goes through the outbox instead of
   posting, one tap one change (its button held until the change is stored, refused or kept in the
   outbox); a refusal of it is shown beside its field. Without JavaScript they post as plain forms. */

import { ask, noteChange, tappedJustNow } from "./ask.js";
import { followChange } from "./follow.js";
import { afterRound, enqueue, flush } from "./outbox.js";
import { sentWasRefused } from "./typing.js";

function submitChange(form, button) {
  const item = enqueue(form);
  noteChange(form, item);
  form.removeAttribute("data-dirty");
  form.querySelectorAll("textarea, input:not([type=hidden])").forEach((field) => { field.defaultValue = field.value; });
  if (button) { button.disabled = true; button.setAttribute("data-busy", ""); }
  flush(item, (result) => form.isConnected && showRefusal(form, result) !== false);
}

function release() {
  document.querySelectorAll("button[data-busy]").forEach((button) => {
    button.disabled = false;
    button.removeAttribute("data-busy");
  });
}

afterRound(({ leaving }) => { if (!leaving) { release(); } });

/* Yes: the same change again, marked as a second one; no: what the other phone recorded shows. */
function askAbout(form, question) {
  ask(form, question, () => {
    form.querySelector("input[name=again]").value = "1";
    submitChange(form, null);
    form.querySelector("input[name=again]").value = "";
  }, () => followChange(false));
}

/* A refusal of what this page just sent: shown beside the field, the entry kept, a way to
   re-apply. The form hears it first (scorekeeper:refused, cancelable: the pad shows its own). */
function showRefusal(form, result) {
  form.querySelectorAll(".js-error").forEach((node) => node.remove());
  const message = document.createElement("p");
  message.className = "error js-error";
  message.setAttribute("role", "alert");
  message.textContent = result.error;
  if (!form.dispatchEvent(new CustomEvent("scorekeeper:refused", { detail: result, cancelable: true }))) { return; }
  sentWasRefused();
  if (result.ask) { askAbout(form, result.ask); return; }
  if (result.current) {
    message.textContent += " Now recorded: " + (result.current.cards.join(" ") || "went out") +
      ". Save again to replace it with your entry.";
    const replaces = form.querySelector("input[name=replaces]");
    if (replaces) { replaces.value = String(result.current.entry); }
  }
  const field = result.field && form.querySelector("[name=" + result.field + "]:not([type=hidden])");
  const box = field && field.closest(".field");
  if (box) {
    box.appendChild(message);
  } else {
    form.parentNode.querySelectorAll(".js-error").forEach((node) => node.remove());
    form.parentNode.insertBefore(message, form.nextSibling);
  }
  message.scrollIntoView({ block: "center" });
}

export function bindForms(root) {
  root.querySelectorAll("form[data-outbox]").forEach((form) => {
    form.addEventListener("input", () => form.setAttribute("data-dirty", ""));
    form.addEventListener("submit", (event) => {
      if (!window.fetch || !window.crypto) { return; }
      event.preventDefault();
      const button = event.submitter || form.querySelector("button[type=submit]");
      if (button && button.disabled) { return; }
      const question = form.getAttribute("data-ask");
      const again = form.querySelector("input[name=again]");
      if (question && tappedJustNow(form) && !(again && again.value === "1")) {
        askAbout(form, question);
        return;
      }
      submitChange(form, button);
    });
  });
}
