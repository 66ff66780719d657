// Starts the client: restores the saved session, routes by the URL's hash to one screen at a
// time, renders it from the store on every change, and shows the banner. Every screen but the
// first two (log in, conversations) is loaded when first opened, which keeps the first load
// small. The conversation list and a conversation share the page in two panes on a wide
// screen (style.css puts them side by side at 900 px and up, else shows one). Also: the unread
// count in the title and icon, notifications for what arrives while the tab is hidden, and
// the service worker (app-shell.js) that keeps the app for offline use and opens the
// conversation of a clicked notification.
import { h } from './dom.js';
import { Store } from './store.js';
import { UserSession } from './session.js';
import { explain, UNREACHABLE } from './errors.js';
import { applyTheme } from './theme.js';
import { loginView } from './view-login.js';
import { conversationsView } from './view-conversations.js';
import { conversationRead, onOpen } from './app-shell.js';
import { showUnread } from './unread.js';
import { notifyArrived } from './page-notifications.js';

applyTheme();
const store = new Store();
const main = document.getElementById('main');
const nav = document.getElementById('nav');
const banner = document.getElementById('banner');
const bannerText = document.getElementById('banner-text');
let session = null;
let view = null;
let list = null; // the conversation list while signed in, kept across routes (its rows keep focus)
let loginMessage = null;
const placeholder = h('section', { class: 'screen placeholder' }, h('p', { class: 'hint' }, 'Choose a conversation, or start one with New message.'));

document.getElementById('banner-dismiss').addEventListener('click', () => store.dispatch({ type: 'banner', banner: null }));
const navigate = (hash) => { if (location.hash === hash) route(); else location.hash = hash; };

/** Shows the screen `next`; `peer`: a conversation (its key) or '' (the list alone), shown
 * beside the list in two panes, or undefined for a screen of its own. */
function show(next, peer) {
  view = next;
  const split = peer !== undefined && list;
  main.classList.toggle('split', !!split);
  main.classList.toggle('open', !!peer);
  if (split) {
    list.select(peer || null);
    if (main.firstElementChild !== list.el) main.replaceChildren(list.el); // kept in place: its rows keep focus
    const pane = peer ? next.el : placeholder;
    if (main.children[1] !== pane) { main.children[1]?.remove(); main.append(pane); }
    list.update(store.state);
  } else main.replaceChildren(next.el);
  next.update?.(store.state);
  (next.focus ? next.focus() : next.el.querySelector('h1')?.focus());
}

let routing = 0;
async function route() {
  if (!session?.ready) return; // begin() routes once the session has started
  const hash = location.hash || '#/conversations';
  const peer = hash.match(/^#\/c\/([^/]+)(?:\/([^/]+))?$/);
  const search = hash.match(/^#\/search\/(.+)$/);
  for (const link of nav.querySelectorAll('a')) {
    const current = hash === link.getAttribute('href') || ((peer || search) && link.getAttribute('href') === '#/conversations');
    if (current) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  const turn = ++routing;
  const key = peer && decodeURIComponent(peer[1]).toLowerCase();
  if (key) conversationRead(key);
  /** Shows the screen `make` builds from `module` (in the pane beside the list for `pane`, a
   * conversation's key), unless another route came first. */
  const later = async (module, make, pane) => {
    let loaded;
    try { loaded = await import(module); } catch { store.dispatch({ type: 'banner', banner: UNREACHABLE }); return; }
    if (turn === routing && session?.ready) show(make(loaded), pane);
  };
  if (peer) await later('./view-conversation.js', (m) => m.conversationView(session, key, peer[2] ? decodeURIComponent(peer[2]) : null), key);
  else if (search) await later('./view-search.js', (m) => m.searchView(session, navigate, decodeURIComponent(search[1])));
  else if (hash === '#/requests') await later('./view-requests.js', (m) => m.requestsView(session));
  else if (hash === '#/new-group') await later('./view-new-group.js', (m) => m.newGroupView(session, navigate));
  else if (hash === '#/new') await later('./view-new-message.js', (m) => m.newMessageView(session, navigate));
  else if (hash === '#/timeline') await later('./view-timeline.js', (m) => m.timelineView(session));
  else if (hash === '#/settings') await later('./view-settings.js', (m) => m.settingsView(session));
  else if (hash === '#/moderation') await later('./view-moderation.js', (m) => m.moderationView(session));
  else show(list, '');
}

function render(state) {
  const text = state.banner || (session && state.stream === 'offline' ? UNREACHABLE : null);
  banner.hidden = !text;
  banner.classList.toggle('notice', !state.banner); // offline: what this browser has still shows
  bannerText.textContent = text || '';
  document.documentElement.dataset.stream = state.stream;
  if (list && list !== view && main.contains(list.el)) list.update(state);
  view?.update?.(state);
  showUnread(state.conversations);
}
store.subscribe(render);

async function begin(saved) {
  session = new UserSession(saved, store, (message) => { session = null; loginMessage = message; signedOut(); });
  session.onArrived = (messages) => notifyArrived(session, messages);
  list = conversationsView(session, navigate);
  nav.hidden = false;
  await session.start();
  showModerationLink(session);
  route();
}

/** The moderation screen's link, for operators only (`operator` in `GET /v1/me`). */
async function showModerationLink(current) {
  const link = document.getElementById('nav-moderation');
  link.hidden = true;
  try { link.hidden = !(await current.api.me()).operator; } catch { /* stays hidden */ }
}

function signedOut() {
  nav.hidden = true;
  list = null;
  store.dispatch({ type: 'signedIn', me: null });
  store.dispatch({ type: 'stream', mode: 'offline' });
  store.dispatch({ type: 'banner', banner: loginMessage });
  history.replaceState(null, '', '/');
  show(loginView({ onSignIn: async (username, password, create) => {
    if (!username || !password) { store.dispatch({ type: 'banner', banner: 'Enter a username and a password.' }); return; }
    try {
      const saved = await UserSession.signIn(username, password, create);
      store.dispatch({ type: 'banner', banner: null });
      location.hash = '#/conversations';
      await begin(saved);
    } catch (error) {
      store.dispatch({ type: 'banner', banner: explain(error) });
    }
  } }));
}

addEventListener('hashchange', route);
// A clicked notification: its conversation (the worker focused this window).
onOpen((key) => navigate(key ? `#/c/${encodeURIComponent(key)}` : '#/conversations'));
// Back in a hidden tab: the screen renders again (a conversation then marks what arrived as read).
document.addEventListener('visibilitychange', () => { if (!document.hidden) view?.update?.(store.state); });
addEventListener('storage', (event) => { if (event.key === 'chirp.session' && !event.newValue && session) session.signOut(false, true); });
const saved = UserSession.saved();
if (saved) begin(saved); else signedOut();
