// A new message to a username.
import { h, field } from './dom.js';

export function newMessageView(session, navigate) {
  const to = h('input', { autocapitalize: 'none', spellcheck: false, required: true, maxlength: 15 });
  const text = h('textarea', { rows: 4, required: true });
  const el = h('form', { class: 'screen card', onsubmit: async (event) => {
    event.preventDefault();
    const peer = to.value.trim().replace(/^@/, '');
    if (!peer || !text.value.trim()) return;
    if (!(await session.userExists(peer))) return;
    if (await session.send(peer, text.value)) navigate(`#/c/${encodeURIComponent(peer.toLowerCase())}`);
  } },
  h('h1', { tabindex: -1 }, 'Write to someone'), field('To', to), field('Message', text),
  h('button', { type: 'submit' }, 'Send'));
  return { el, focus: () => to.focus() };
}
