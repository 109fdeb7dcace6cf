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
      .then(async (cache) => {
        await cache.addAll(SHELL);
        const page = await cache.match('/');
        if (page) await keepNamed(cache, await page.text());
      })
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
    event.respondWith(networkFirst(request, '/', event));
  } else if (url.pathname.startsWith('/assets/')) {
    // Built assets carry a content hash in their name: a cached copy is never stale.
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkFirst(request, null));
  }
});

/** The page itself: fresh from the bridge when it answers (so a new build shows), else the cached shell. */
async function networkFirst(request, fallbackPath, event) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(fallbackPath ?? request, response.clone());
      if (request.mode === 'navigate') {
        const html = await response.clone().text();
        await pruneAssets(cache, html);
        event?.waitUntil(keepNamed(cache, html));
      }
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

/**
 * Keeps every asset the page names, its scripts and the pages it names as `prefetch` links
 * (loaded on first use), so each page opens while the bridge is away.
 */
async function keepNamed(cache, html) {
  const named = [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? [])];
  for (const path of named) {
    if (await cache.match(path)) continue;
    await cache.add(path).catch(() => undefined);
  }
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

// ---- Web Push (the bridge's `push.show` and `push.withdraw` payloads; docs/push.md) ----

/** The payload, checked field by field: the push service delivers whatever a sender encrypted. */
function readPush(data) {
  let p = null;
  try {
    p = data ? data.json() : null;
  } catch {
    return null;
  }
  if (!p || typeof p !== 'object' || p.v !== 1 || typeof p.tag !== 'string' || p.tag.length > 200) return null;
  if (p.type === 'push.withdraw') return { type: p.type, tag: p.tag };
  if (p.type !== 'push.show' || typeof p.title !== 'string' || typeof p.body !== 'string' || typeof p.url !== 'string') return null;
  // Only the app's own hash routes open from a notification.
  const url = /^#\/[\w%:.@/-]*$/.test(p.url) ? p.url : '#/';
  return { type: p.type, tag: p.tag, kind: String(p.kind), title: p.title.slice(0, 200), body: p.body.slice(0, 1000), url, answer: readAnswer(p.answer) };
}

const optionNumber = (n) => Number.isInteger(n) && n > 0 && n < 100;

/** Lock-screen answers (docs/push.md): the pane, the card's signature, Deny's and Allow's option numbers. */
function readAnswer(a) {
  if (!a || typeof a !== 'object' || typeof a.pane !== 'string' || typeof a.signature !== 'string') return null;
  if (a.pane.length > 300 || a.signature.length > 200 || !optionNumber(a.deny) || (a.allow !== null && !optionNumber(a.allow))) return null;
  return { pane: a.pane, signature: a.signature, deny: a.deny, allow: a.allow };
}

self.addEventListener('push', (event) => {
  const p = readPush(event.data);
  if (!p) return;
  event.waitUntil(p.type === 'push.withdraw' ? withdraw(p.tag) : show(p));
});

function show(p) {
  // Allow only when the bridge found the whole ask in the text; Always allow stays in the app.
  // A browser shows at most Notification.maxActions (2 in Chrome): with Allow, Open is the tap on
  // the notification itself.
  const actions = !p.answer ? [] : p.answer.allow !== null ? [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }] : [{ action: 'deny', title: 'Deny' }, { action: 'open', title: 'Open' }];
  return self.registration.showNotification(p.title, {
    body: p.body,
    tag: p.tag,
    // A reminder replaces the first push of the same question and sounds again; a new push of the same tag too.
    renotify: true,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: p.url, answer: p.answer },
    actions,
  });
}

const ASK_CHANGED = 'not sent: the ask changed';
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A tap on Allow or Deny: the same signature-guarded answer the card posts
 * (`POST /api/panes/:id/answer`, with this device's cookie), with its own request id. The same
 * request again returns its receipt and presses nothing, so it is repeated until the receipt is
 * final; then the notification says what happened.
 */
async function answerFromLockScreen(tag, url, a, choice) {
  const option = choice === 'allow' ? a.allow : a.deny;
  const body = JSON.stringify({ signature: a.signature, request_id: `lock-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`, option });
  const say = (title, text) => self.registration.showNotification(title, { tag, body: text, silent: true, renotify: false, icon: '/icons/icon-192.png', data: { url } });
  let receipt = null;
  for (let i = 0; i < 30; i++) {
    let res;
    try {
      res = await fetch(`/api/panes/${encodeURIComponent(a.pane)}/answer`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body });
    } catch {
      return say('Not answered', 'Collie could not be reached. Tap to open the ask.');
    }
    const json = await res.json().catch(() => ({}));
    if (!res.ok) return say('Not answered', `${(json.error && json.error.message) || `The bridge answered ${res.status}.`} Tap to open the ask.`);
    receipt = json.receipt;
    if (!receipt || receipt.final) break;
    await pause(500);
  }
  if (receipt && receipt.outcome === ASK_CHANGED) return say('This ask changed', 'Tap to open it and read it again.');
  if (receipt && receipt.state === 'typed') return say(choice === 'allow' ? 'Allowed' : 'Denied', 'Answered from the lock screen.');
  return say('Not answered', `${(receipt && receipt.outcome) || 'No receipt came back.'} Tap to open the ask.`);
}

/**
 * The question was answered: close its notification. Every push must show something (Safari
 * revokes a subscription whose pushes show nothing), so a silent "Answered" takes the tag's
 * place for a moment and is closed with it.
 */
async function withdraw(tag) {
  await self.registration.showNotification('Answered', { tag, silent: true, body: '', data: { url: '#/' } });
  const open = await self.registration.getNotifications({ tag });
  for (const n of open) n.close();
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  if ((event.action === 'allow' || event.action === 'deny') && data.answer) {
    event.waitUntil(answerFromLockScreen(event.notification.tag, data.url || '#/', data.answer, event.action));
    return;
  }
  const url = new URL(`/${(event.notification.data && event.notification.data.url) || '#/'}`, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      // navigate() works only on a window this worker controls; otherwise a new window. Focus
      // is best effort (a browser may refuse it).
      return open
        .navigate(url)
        .then((w) => (w || open).focus().catch(() => w))
        .catch(() => self.clients.openWindow(url));
    }),
  );
});
