// Settings: the theme, notifications (push-settings.js, loaded with this screen), who may
// message you first, log out, the account's sessions, password, data export and deletion.
import { h, field } from './dom.js';
import { downloadMyData } from './data-export.js';
import { THEMES, currentTheme, applyTheme } from './theme.js';
import { notificationsSection } from './push-settings.js';

export function settingsView(session) {
  const themes = h('fieldset', {}, h('legend', {}, 'Theme'),
    ...THEMES.map(([value, label]) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name: 'theme', value, checked: currentTheme() === value, onchange: () => applyTheme(value) }), ` ${label}`)));
  // Message requests (API.md part 3): `followers` (the default) or `everyone`, saved at once.
  const requests = h('select', { onchange: async () => {
    try { await session.api.call('PATCH', '/v1/me/settings', { messageRequests: requests.value }); } catch (error) { session.fail(error); }
  } }, h('option', { value: 'followers' }, 'People you follow or have messaged'),
  h('option', { value: 'everyone' }, 'Everyone (others arrive as message requests)'));
  session.api.call('GET', '/v1/me/settings').then((s) => { requests.value = s.messageRequests; }, (error) => session.fail(error));
  const sessions = h('ul', { class: 'list', 'aria-label': 'Sessions' });
  const current = h('input', { type: 'password', autocomplete: 'current-password' });
  const next = h('input', { type: 'password', autocomplete: 'new-password', minlength: 8 });
  const confirmPassword = h('input', { type: 'password', autocomplete: 'current-password' });

  async function loadSessions() {
    try {
      const reply = await session.api.sessions();
      sessions.replaceChildren(...reply.items.map((s) => h('li', { class: 'row' },
        h('span', {}, `${s.userAgent || 'Unknown device'}, since ${new Date(s.createdAt).toLocaleString()}${s.current ? ' (this one)' : ''}`),
        s.current ? null : h('button', { type: 'button', class: 'secondary small', onclick: async () => {
          try { await session.api.endSession(s.id); loadSessions(); } catch (error) { session.fail(error); }
        } }, 'End session'))));
    } catch (error) { session.fail(error); }
  }

  const exportStatus = h('p', { role: 'status' });
  const exportButton = h('button', { type: 'button', onclick: async () => {
    exportButton.disabled = true;
    try {
      await downloadMyData(session, (text) => { exportStatus.textContent = text; });
    } catch (error) {
      exportStatus.textContent = '';
      session.fail(error);
    } finally { exportButton.disabled = false; }
  } }, 'Download my data');

  const el = h('section', { class: 'screen' },
    h('h1', { tabindex: -1 }, 'Settings'), themes, notificationsSection(session).el, field('Who may message you first', requests),
    h('button', { type: 'button', onclick: () => session.signOut() }, 'Log out'),
    h('h2', {}, 'Sessions'), sessions,
    h('form', { class: 'card', onsubmit: async (event) => {
      event.preventDefault();
      try {
        await session.api.changePassword(current.value, next.value);
        current.value = next.value = '';
        session.dispatch({ type: 'banner', banner: 'Password changed; your other sessions have ended.' });
        loadSessions();
      } catch (error) { session.fail(error); }
    } }, h('h2', {}, 'Change password'), field('Current password', current), field('New password', next), h('button', { type: 'submit' }, 'Change password')),
    h('section', { class: 'card' }, h('h2', {}, 'Your data'),
      h('p', {}, 'An archive of your profile, follows, blocks, tweets, conversations, messages and media.'), exportButton, exportStatus),
    h('form', { class: 'card danger', onsubmit: async (event) => {
      event.preventDefault();
      if (!confirm('Delete your account for good?')) return;
      try { await session.api.deleteAccount(confirmPassword.value); session.signOut(false, true); } catch (error) { session.fail(error); }
    } }, h('h2', {}, 'Delete account'), field('Password to confirm', confirmPassword), h('button', { type: 'submit' }, 'Delete account')));
  loadSessions();
  return { el, update() {}, focus: () => themes.querySelector(':checked')?.focus() };
}
