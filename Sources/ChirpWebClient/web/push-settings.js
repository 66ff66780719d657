// Settings' Notifications section. Turning them on asks the browser's permission (only here),
// then subscribes this browser to the server's Web Push (API.md part 4: the server's key from
// GET /v1/push/key, the subscription PUT under an id kept here) with the preview choice ("Show
// message text in notifications", PUT again when it changes); turning them off unsubscribes
// and deletes it. A server without push (404) or a browser that cannot subscribe still gets
// the notifications the page shows while a Chirp tab is open (page-notifications.js).
import { h } from './dom.js';
import { newClientId } from './api.js';
import { explain } from './errors.js';
import { activeRegistration } from './app-shell.js';
import { prefs, savePrefs } from './page-notifications.js';
import { decode as bytes } from './base64url.js';

const SUBSCRIBE_TIMEOUT_MS = 8000;

/** `promise`, or a rejection with `reason` after `ms`. */
function withTimeout(promise, ms, reason) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(reason)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const WHILE_OPEN = 'While a Chirp tab is open, even in the background, new messages still show as notifications.';
const NO_PUSH = `This server does not send push notifications yet, so nothing arrives while Chirp is closed. ${WHILE_OPEN}`;

const sameBytes = (a, b) => !!a && a.byteLength === b.byteLength && new Uint8Array(a).every((x, i) => x === b[i]);

export function notificationsSection(session) {
  const me = session.me;
  const status = h('p', { role: 'status', class: 'hint' });
  const toggle = h('button', { type: 'button', onclick: () => (prefs(me).on ? turnOff() : turnOn()) });
  const preview = h('input', { type: 'checkbox', id: 'notify-preview', onchange: async () => {
    savePrefs(me, { preview: preview.checked });
    if (prefs(me).on) show(await subscribe());
  } });

  function show(message) {
    const { on, preview: text } = prefs(me);
    toggle.textContent = on ? 'Turn off notifications' : 'Turn on notifications';
    preview.checked = text;
    if (message !== undefined) status.textContent = message;
  }

  async function turnOn() {
    if (typeof Notification === 'undefined') { show('This browser cannot show notifications.'); return; }
    if (await Notification.requestPermission() !== 'granted') {
      show("Chirp may not show notifications in this browser: allow them in the browser's settings for this site, then turn them on again.");
      return;
    }
    savePrefs(me, { on: true, id: prefs(me).id || newClientId() });
    show('Turning notifications on…');
    show(await subscribe());
  }

  /** Subscribes (or updates the subscription's preview); returns what to tell the user. */
  async function subscribe() {
    const { id, preview: text } = prefs(me);
    try {
      const { publicKey } = await session.api.call('GET', '/v1/push/key');
      const registration = await activeRegistration();
      if (!registration?.pushManager) return `This browser cannot receive push notifications. ${WHILE_OPEN}`;
      const key = bytes(publicKey);
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) { await subscription.unsubscribe(); subscription = null; }
      try {
        // A browser whose push service is out of reach (no network, no vendor push service)
        // may never settle the subscription: give up after a while and say so.
        subscription ||= await withTimeout(
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), SUBSCRIBE_TIMEOUT_MS,
          'its push service did not answer');
      } catch (error) {
        return `This browser could not subscribe to push notifications (${error.message}). ${WHILE_OPEN}`;
      }
      await session.api.call('PUT', `/v1/me/push-subscriptions/${encodeURIComponent(id)}`, { ...subscription.toJSON(), preview: text });
      return 'Notifications are on: new messages show on this device, also while Chirp is closed.';
    } catch (error) {
      return error.status === 404 ? NO_PUSH : `${explain(error)} ${WHILE_OPEN}`;
    }
  }

  async function turnOff() {
    const { id } = savePrefs(me, { on: false });
    show('Notifications are off.');
    const registration = await activeRegistration();
    await (await registration?.pushManager?.getSubscription())?.unsubscribe().catch(() => {});
    if (id) await session.api.call('DELETE', `/v1/me/push-subscriptions/${encodeURIComponent(id)}`).catch(() => {});
  }

  const { on } = prefs(me);
  show(on ? (typeof Notification !== 'undefined' && Notification.permission === 'granted' ? 'Notifications are on.'
    : "Notifications are on, but this browser blocks them: allow them in its settings for this site.") : 'Notifications are off.');
  const el = h('section', { class: 'card', 'aria-labelledby': 'notifications-heading' },
    h('h2', { id: 'notifications-heading' }, 'Notifications'),
    h('p', {}, 'New messages show as notifications, without sound, except in muted conversations.'),
    h('label', { class: 'choice' }, preview, ' Show message text in notifications'), toggle, status);
  return { el };
}
