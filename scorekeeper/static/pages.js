// @ts-check
/* Small page helpers: the first dealer chosen by name, a game's options shown for the rules
   chosen, times in the phone's own time zone, a job's progress followed in place, and a PDF
   refused as busy asked for again. */

import { fetchWithin } from "./net.js";

function dealerNames() {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("first_dealer"));
  if (!select) { return; }
  let any = false;
  /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("input[name^='players-']")).forEach((field, i) => {
    const option = select.options[i];
    if (!option) { return; }
    const name = field.value.trim();
    option.textContent = name || "Player " + (i + 1);
    option.hidden = !name;
    any = any || !!name;
  });
  if (!any) { [...select.options].forEach((option) => { option.hidden = false; }); }
}

/* A game's form shows only the options of the game chosen (all are shown without JavaScript). */
/** @param {HTMLSelectElement} select */
function ruleChoice(select) {
  const show = () => {
    /** @type {NodeListOf<HTMLElement>} */ (/** @type {HTMLFormElement} */ (select.form).querySelectorAll("[data-games]")).forEach((field) => {
      field.hidden = !(field.getAttribute("data-games") || "").split(" ").includes(select.value);
    });
  };
  select.addEventListener("change", show);
  show();
}

/** @param {ParentNode} root */
export function setUpRuleChoices(root) { /** @type {NodeListOf<HTMLSelectElement>} */ (root.querySelectorAll("select[name=rules]")).forEach(ruleChoice); }

/* The server writes times in UTC; shown in the phone's own time zone, on load and in content
   swapped in later (main.js sets up both). */
/** @param {ParentNode} root */
export function localTimes(root) {
  root.querySelectorAll("time[data-local]").forEach((time) => {
    const when = new Date(time.getAttribute("datetime") || "");
    if (Number.isNaN(when.getTime())) { return; }
    time.textContent = when.toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  });
}

/* A page that follows a job (a booklet being rendered) brings its progress in place. */
function followJob() {
  const every = Number.parseFloat(document.body.getAttribute("data-refresh-every") || "");
  if (!every) { return; }
  setTimeout(() => {
    fetchWithin(location.href, { credentials: "same-origin", cache: "no-store" }).then((response) => response.text()).then((html) => {
      const fresh = new DOMParser().parseFromString(html, "text/html");
      const main = /** @type {HTMLElement} */ (fresh.querySelector("main"));
      /** @type {HTMLElement} */ (document.querySelector("main")).replaceWith(main);
      localTimes(main);
      document.body.setAttribute("data-refresh-every", fresh.body.getAttribute("data-refresh-every") || "");
      followJob();
    }, followJob);
  }, every * 1000);
}

/* A PDF refused as busy (503): asked for again after its Retry-After, with jitter. */
function retryLater() {
  const after = Number.parseFloat(document.body.getAttribute("data-retry-after") || "");
  if (!after) { return; }
  setTimeout(() => location.reload(), after * 1000 * (1 + Math.random() * 0.5));
}

document.addEventListener("input", (event) => {
  const field = /** @type {HTMLInputElement} */ (event.target);
  if (field.name && field.name.startsWith("players-")) { dealerNames(); }
});

export function startPages() {
  dealerNames();
  followJob();
  retryLater();
}
