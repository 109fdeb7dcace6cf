// Collie's service worker: keeps the app shell so the page opens from the home screen while
// the bridge is restarting or the network is flaky. It never touches /api/*: the snapshot and
// the event stream must always be live, and a cached answer there would show a stale model.
'use strict';

const SHELL_CACHE = 'collie-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== SHELL_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirst(request, '/'));
  } else if (url.pathname.startsWith('/assets/')) {
    // Built assets carry a content hash in their name: a cached copy is never stale.
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkFirst(request, null));
  }
});

/** The page itself: fresh from the bridge when it answers (so a new build shows), else the cached shell. */
async function networkFirst(request, fallbackPath) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(fallbackPath ?? request, response.clone());
      if (request.mode === 'navigate') await pruneAssets(cache, await response.clone().text());
    }
    return response;
  } catch (error) {
    const cached = (await cache.match(fallbackPath ?? request)) ?? (await cache.match(request));
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Drops cached builds of earlier versions: every asset the current page does not name. */
async function pruneAssets(cache, html) {
  const named = new Set(html.match(/\/assets\/[\w.-]+/g) ?? []);
  const keys = await cache.keys();
  await Promise.all(
    keys
      .filter((key) => {
        const path = new URL(key.url).pathname;
        return path.startsWith('/assets/') && !named.has(path);
      })
      .map((key) => cache.delete(key)),
  );
}
