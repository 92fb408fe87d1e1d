// @ts-check
/* The count helper (the 2-sequence): a running total kept per game and hand in this phone's
   storage, so a refresh loses nothing. Hidden without JavaScript. */

import { local } from "./storage.js";

/** @param {Element} section */
function setUpCount(section) {
  const key = "count:" + section.getAttribute("data-count-key");
  const total = /** @type {Element} */ (section.querySelector(".count-total"));
  const draw = /** @type {Element} */ (section.querySelector(".count-draw"));
  const read = () => Number.parseInt(String(local.read(key, 0)), 10) || 0;
  const write = (/** @type {number} */ value) => {
    local.write(key, value);  /* without storage it is kept on screen only */
    total.textContent = String(value);
    draw.textContent = String(value);
  };
  /** @type {HTMLElement} */ (section).hidden = false;
  write(read());
  section.querySelectorAll(".count-add").forEach((button) => {
    button.addEventListener("click", () => write(read() + Number.parseInt(button.getAttribute("data-add") || "", 10)));
  });
  /** @type {Element} */ (section.querySelector(".count-reset")).addEventListener("click", () => write(0));
}

/** @param {ParentNode} root */
export function setUpCounts(root) { root.querySelectorAll("[data-count-key]").forEach(setUpCount); }
