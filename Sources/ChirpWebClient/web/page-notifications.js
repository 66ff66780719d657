// Notifications while a Chirp tab is open but hidden: a message that arrives over the event
// stream shows one, through the service worker (the same notification a push shows), or with
// `new Notification` where there is no worker. Never for my own messages, in a muted
// conversation, or before the user turned notifications on in Settings (the only place that
// asks the browser's permission). No sound. The choices are kept per user in this browser.
import { post } from './app-shell.js';

const KEY = (me) => `chirp.notify.${me.toLowerCase()}`;

/** `me`'s notification choices here: `on`, `preview` (show the text) and `id` (the push
 * subscription's, once there is one). */
export function prefs(me) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(KEY(me))); } catch { /* none */ }
  return { on: false, preview: true, id: null, ...saved };
}

export function savePrefs(me, change) {
  const next = { ...prefs(me), ...change };
  localStorage.setItem(KEY(me), JSON.stringify(next));
  return next;
}

/** Shows a notification for each of `messages` (local messages that just arrived live) when
 * the tab is hidden. */
export function notifyArrived(session, messages) {
  if (document.visibilityState !== 'hidden' || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const { on, preview } = prefs(session.me);
  if (!on) return;
  for (const m of messages) {
    if (m.state !== 'received' || session.store.state.conversations[m.peer]?.muted) continue;
    const conversation = m.peer.startsWith('g:') ? { kind: 'group', group: m.peer.slice(2) } : { kind: 'direct', peer: m.sender };
    const payload = { type: 'message', conversation, sender: m.sender, messageId: m.id, text: preview && m.text ? m.text : null };
    post({ type: 'notify', payload }).then((shown) => {
      if (shown) return;
      try { new Notification(m.sender, { body: payload.text || 'New message', tag: m.peer, silent: true, icon: '/web/icon-192.png' }); } catch { /* pages may not (Android) */ }
    });
  }
}
