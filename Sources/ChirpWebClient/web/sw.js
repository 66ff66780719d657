// The service worker, served at /sw.js so that its scope is the whole site (a classic script:
// every browser runs those). It keeps the app's shell for offline use, shows the push
// notifications the server sends, and opens their conversation when one is clicked.
// - Offline: at install it caches the page and every file of the client (the server writes
//   their list and a version made of their digests in place of SHELL's placeholder), so a
//   changed file is a new worker and a new cache; the page and its files come from that cache
//   first. /v1/ (the API, the event stream, attachments) never goes through the cache.
// - Push: the payload `{type: "message", conversation: {kind, peer | group}, sender, messageId,
//   text}` becomes a silent notification tagged with the conversation's key (`peer`, or `g:ID`
//   for a group), so a burst of messages collapses into one; the page posts `{type: 'notify',
//   payload}` for what arrives while its tab is hidden, and `{type: 'read', conversation}` when
//   a conversation is read, which closes its notifications.
const SHELL = '__CHIRP_SHELL__';
const BUILD = typeof SHELL === 'string' ? { version: 'dev', files: ['/'] } : SHELL;
const CACHE = `chirp-shell-${BUILD.version}`;
const ICON = '/web/icon-192.png';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(BUILD.files.map((f) => new Request(f, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('chirp-shell-') && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) return;
  const page = event.request.mode === 'navigate' && url.pathname === '/';
  if (!page && !url.pathname.startsWith('/web/')) return; // the API and anything else: the network
  event.respondWith((async () => {
    const cached = await caches.match(page ? '/' : event.request, { cacheName: CACHE, ignoreSearch: page, ignoreVary: true });
    return cached || fetch(event.request);
  })());
});

/** The store key of a payload's conversation: the peer's username, or `g:ID`. */
const keyOf = (c) => (c?.kind === 'group' ? `g:${c.group}` : String(c?.peer || '').toLowerCase());

/** The title of the group `id` from the lists the page keeps in IndexedDB, or null. */
async function groupTitle(id) {
  const names = (await indexedDB.databases?.() || []).map((d) => d.name).filter((n) => n?.startsWith('chirp-'));
  for (const name of names) {
    const db = await new Promise((resolve) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = open.onblocked = () => resolve(null);
      open.onupgradeneeded = () => open.transaction.abort(); // not a database the page made
    });
    if (!db) continue;
    try {
      const read = db.transaction('values').objectStore('values').get('conversations');
      const list = await new Promise((resolve) => { read.onsuccess = () => resolve(read.result); read.onerror = () => resolve(null); });
      const title = (list || []).find((c) => c.group?.id === id)?.group.title;
      if (title) return title;
    } catch { /* no such store */ } finally { db.close(); }
  }
  return null;
}

/** Shows the notification of one message (a push's payload, or one the page heard). */
async function notify(payload) {
  const c = payload?.conversation;
  const key = keyOf(c);
  const sender = payload?.sender || 'Chirp';
  const title = c?.kind === 'group' ? `${sender} in ${await groupTitle(c.group).catch(() => null) || 'Group'}` : sender;
  await self.registration.showNotification(title, {
    body: payload?.text || 'New message', tag: key || 'chirp', silent: true, icon: ICON,
    data: { conversation: c || null, key, messageId: payload?.messageId ?? null },
  });
}

/** The notifications still being shown, in arrival order: a group's title is read from
 * IndexedDB first, so without this queue an older message could replace a newer one under its
 * conversation's tag. */
let showing = Promise.resolve();

/** Shows `payload`'s notification after every one that arrived before it. */
function notifyInTurn(payload) {
  showing = showing.then(() => notify(payload)).catch(() => {});
  return showing;
}

self.addEventListener('push', (event) => {
  let payload = null;
  try { payload = event.data?.json(); } catch { /* not JSON: a plain notice */ }
  event.waitUntil(notifyInTurn(payload));
});

/** The page's URL of the conversation `key` (the whole list without one). */
const urlOf = (key) => (key ? `/#/c/${encodeURIComponent(key)}` : '/#/conversations');

/** Shows the conversation `key`: in an open window of the app (it routes when told, and is
 * focused), else in a new one. */
async function openConversation(key) {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const client = open.find((c) => c.focused) || open.find((c) => c.visibilityState === 'visible') || open[0];
  if (!client) return self.clients.openWindow(urlOf(key));
  client.postMessage({ type: 'open', conversation: key });
  return client.focus().catch(() => client);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openConversation(event.notification.data?.key || ''));
});

self.addEventListener('message', (event) => {
  const { type, conversation, payload } = event.data || {};
  if (type === 'read') {
    event.waitUntil(self.registration.getNotifications({ tag: conversation }).then((shown) => shown.forEach((n) => n.close())));
  } else if (type === 'notify') event.waitUntil(notifyInTurn(payload));
});
