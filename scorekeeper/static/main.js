// @ts-check
/* The phone's scripts, wired: one module a job (docs/architecture.md lists them), set up on
   each page and again on content swapped in by follow.js. No framework, no build step; without
   JavaScript every form posts as a plain form. */

import { setUpClocks } from "./clock.js";
import { setUpCounts } from "./count.js";
import { bindStale, startFollowing } from "./follow.js";
import { keepPages, listMyGames, noticeOffline } from "./home_screen.js";
import { bindForms } from "./outbox_forms.js";
import { startSending } from "./outbox.js";
import { drawOutbox } from "./outbox_view.js";
import { setUpPads } from "./pad.js";
import { localTimes, setUpRuleChoices, startPages } from "./pages.js";
import { startPicking } from "./pick.js";
import { forgetConfirmation, keepTyping, restoreTyped } from "./typing.js";

/* The pad first: its submit handler prepares the form before the outbox reads it. */
/** @param {ParentNode} root */
function setUp(root) {
  localTimes(root);
  setUpRuleChoices(root);
  setUpCounts(root);
  setUpPads(root);
  setUpClocks(root);
}

/** @param {ParentNode} root */
function bind(root) {
  drawOutbox();
  bindForms(root);
  bindStale(root);
}

/* Each job its own listener, in this order: one that fails leaves the others working. */
keepTyping();
document.addEventListener("DOMContentLoaded", () => setUp(document));
document.addEventListener("DOMContentLoaded", () => {
  forgetConfirmation();
  restoreTyped();
  bind(document);
  startFollowing();
  startSending();
});
document.addEventListener("DOMContentLoaded", startPages);
document.addEventListener("DOMContentLoaded", startPicking);
document.addEventListener("DOMContentLoaded", () => { keepPages(); listMyGames(); noticeOffline(); });
/** @type {(event: Event) => HTMLElement} the <main> swapped in */
const content = (event) => /** @type {CustomEvent<HTMLElement>} */ (event).detail;
document.addEventListener("scorekeeper:content", (event) => setUp(content(event)));
document.addEventListener("scorekeeper:content", (event) => bind(content(event)));
