// The page's side of the service worker (sw.js): registering it once the page has loaded
// (after one visit the app then opens without the server), routing to the conversation of a
// clicked notification, and telling the worker what the page saw: a conversation read (its
// notifications close), a message that arrived while the tab was hidden (it shows one).
const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
const registered = !worker ? Promise.resolve(null) : new Promise((resolve) => {
  const register = () => worker.register('/sw.js').then(resolve, () => resolve(null));
  if (document.readyState === 'complete') register(); else addEventListener('load', register, { once: true });
});

/** The worker's registration once it is active; null where there is none. */
export async function activeRegistration() { return (await registered) ? worker.ready : null; }

/** Calls `open(key)` when a clicked notification asks for the conversation `key`. */
export function onOpen(open) {
  worker?.addEventListener('message', ({ data }) => { if (data?.type === 'open') open(data.conversation || ''); });
}

/** Posts `message` to the active worker; false when there is none yet. */
export async function post(message) {
  const active = (await registered)?.active;
  active?.postMessage(message);
  return !!active;
}

/** The conversation `key` was read: its notifications close. */
export const conversationRead = (key) => post({ type: 'read', conversation: key });
