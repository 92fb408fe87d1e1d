// @ts-check
/* The service worker, where the origin is secure (https, or this machine): a reload, or a cold
   start from the home screen, shows a page this phone has opened even when the server cannot be
   reached; the page's own scripts then draw it from the phone's copy of the game (offline.js).
   Served at /sw.js with the release's version written in: a new release is a new worker, which
   drops the old release's caches, so no phone is left running stale scripts. */

/* The worker's global scope: a service worker's (the lib has a worker's in general). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const VERSION = "{{ version }}";
const STATIC = "static-" + VERSION;
const PAGES = "pages-" + VERSION;
const WAIT_MS = 4000;

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(PAGES).then((cache) => cache.add(new Request("/", { cache: "reload" }))).catch(() => null)
    .then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== STATIC && name !== PAGES).map((name) => caches.delete(name))))
    .then(() => worker.clients.claim()));
});

/* A page a phone may open: the home page (the games on this phone) and a game's record-link
   pages, every one of them (not its downloads, which have a file name): one the phone cannot
   draw (Share, Print) is answered offline by the hand page, whose script says it needs the server. */
/** @param {URL} url */
function keptPage(url) {
  return url.pathname === "/" || /^\/t\/[^/]+\/[^.]*$/.test(url.pathname);
}

/** @param {URL} url @returns {string | null} */
function gameBase(url) {
  const match = /^\/t\/[^/]+\//.exec(url.pathname);
  return match ? match[0] : null;
}

/* The network, unless it has not answered in WAIT_MS. */
/** @param {Request} request @returns {Promise<Response>} */
function network(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("slow")), WAIT_MS);
    fetch(request).then((response) => { clearTimeout(timer); resolve(response); }, (error) => { clearTimeout(timer); reject(error); });
  });
}

/** @param {Request} request @returns {Promise<Response>} */
async function page(request) {
  const url = new URL(request.url);
  const cache = await caches.open(PAGES);
  const key = url.origin + url.pathname;
  try {
    const response = await network(request);
    if (response.ok && !response.redirected) { await cache.put(key, response.clone()); }
    return response;
  } catch (error) {
    /* This page as last seen; else the game's hand page (its script draws the page asked for
       from the phone's copy); else the home page. */
    const base = gameBase(url);
    const kept = (await cache.match(key)) || (base && (await cache.match(url.origin + base))) || (await cache.match(url.origin + "/"));
    if (kept) { return kept; }
    return new Response("<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'><title>Offline</title>" +
      "<p style='font:1.2rem system-ui;padding:1rem'>The server cannot be reached, and this phone has not opened this page before.</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

/** @param {Request} request @returns {Promise<Response>} */
async function staticFile(request) {
  const cache = await caches.open(STATIC);
  const kept = await cache.match(request);
  if (kept) { return kept; }
  const response = await network(request);
  if (response.ok) { await cache.put(request, response.clone()); }
  return response;
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== worker.location.origin) { return; }
  if (request.mode === "navigate" && keptPage(url)) { event.respondWith(page(request)); return; }
  if (url.pathname.startsWith("/static/")) { event.respondWith(staticFile(request)); }
});
