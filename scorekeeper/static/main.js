/* The phone's scripts, wired: one module a job (docs/architecture.md lists them), set up on
   each page and again on content swapped in by sync.js. No framework, no build step; without
   JavaScript every form posts as a plain form. */

import { setUpCounts } from "./count.js";
import { setUpPads } from "./pad.js";
import { setUpRuleChoices, startPages } from "./pages.js";

/* The pad first: its submit handler prepares the form before the outbox reads it. */
function setUp(root) {
  setUpRuleChoices(root);
  setUpCounts(root);
  setUpPads(root);
}

/* Each job its own listener: one that fails leaves the others working. */
document.addEventListener("DOMContentLoaded", () => setUp(document));
document.addEventListener("DOMContentLoaded", startPages);
document.addEventListener("scorekeeper:content", (event) => setUp(event.detail));
