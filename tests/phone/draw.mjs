// @ts-check
// Reads [{copy, base, items, routes}] on stdin and writes, for each route, the page the phone
// draws from its copy (static/offline_pages.js) as HTML, with its title and the route drawn, for
// tests/phone/test_phone_draws_the_pages.py. Node has no document: the pages are plain trees.
import { fold } from "../../scorekeeper/static/copy.js";
import { pageOf } from "../../scorekeeper/static/offline_pages.js";

/** @import { Copy } from "../../scorekeeper/static/copy.js" */
/** @import { Item } from "../../scorekeeper/static/outbox.js" */
/** @import { Route, Tree } from "../../scorekeeper/static/offline_pages.js" */

/* Elements without content or an end tag (the ones the pages draw among them). */
const VOID = new Set(["br", "hr", "img", "input", "link", "meta"]);

/** @type {(text: string) => string} */
const escaped = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** @param {Tree} tree @returns {string} */
function html(tree) {
  if (typeof tree === "string") { return escaped(tree); }
  const attrs = Object.entries(tree.attrs).map(([name, value]) => " " + name + '="' + escaped(value) + '"').join("");
  if (VOID.has(tree.tag)) { return "<" + tree.tag + attrs + ">"; }
  return "<" + tree.tag + attrs + ">" + tree.children.map(html).join("") + "</" + tree.tag + ">";
}

const chunks = [];
for await (const chunk of process.stdin) { chunks.push(chunk); }
/** @type {{copy: Copy, base: string, items: Item[], routes: Route[]}[]} */
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

let keys = 0;
const results = cases.map(({ copy, base, items, routes }) => routes.map((route) => {
  const page = pageOf(fold(copy, base, items), route, { base, csrf: "csrf-of-the-page", key: () => "key-" + (keys += 1), waiting: items.length });
  return { route: page.route, title: page.title, html: html(page.main) };
}));
process.stdout.write(JSON.stringify(results));
