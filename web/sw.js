/* Service worker: keeps a copy of the whole site (Pyodide, numpy and our wheel included),
 * so that a second visit works without the network.
 *
 * build.py fills in the two constants below in dist/sw.js: BUILD (the build id from
 * build-info.json plus the Pyodide version) and FILES (every file of the site). A new
 * build therefore changes this script; the browser installs the new worker, which fills a
 * new cache "gomoku-<BUILD>", takes over and deletes every older "gomoku-*" cache.
 *
 * Requests are answered from the cache first (query strings ignored: index.html?test=1 is
 * index.html, engine/worker.js?role=search is engine/worker.js); anything not cached goes to the network.
 */
"use strict";

const BUILD = "dev"; // filled in by build.py
const FILES = []; // filled in by build.py
const CACHE = "gomoku-" + BUILD;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": the files from the server, not from the HTTP cache
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("gomoku-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    if (!hit) return fetch(req);
    // A worker's location is the URL of the response it was served: the cached one has no
    // query string, and engine/worker.js reads its own (test=1, role=search, snapshot=0). A
    // response made here has no URL of its own, so the request's (with its query) is kept.
    if (new URL(req.url).search && hit.url !== req.url) return new Response(hit.body, hit);
    return hit;
  })());
});
