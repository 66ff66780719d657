// Who read one of my messages in a group (loaded when its "read by N" is first clicked): each
// reader's display name, username and when they read it (`GET /v1/groups/{id}/messages/
// {messageId}/reads`), under a heading, with Close; Escape closes it too. One panel serves
// every message of the conversation: `show(m)` reads the list of `m` again.
import { h, time } from './dom.js';
import { pathOf } from './api.js';

/** Today's times as in the log; other days with their date, as in search results. */
const when = (iso) => (new Date(iso).toDateString() === new Date().toDateString() ? time(iso) : `${new Date(iso).toLocaleDateString()} ${time(iso)}`);

/** `close`: called by Close and by Escape within the panel. */
export function readersPanel(session, groupId, close) {
  const heading = h('h2', { id: 'readers-heading' }, 'Read by');
  const quote = h('q');
  const list = h('ul', { class: 'list', tabindex: -1, 'aria-labelledby': 'readers-heading' });
  const el = h('section', { class: 'card readers', 'aria-labelledby': 'readers-heading', onkeydown: (event) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  } }, heading, h('p', { class: 'hint' }, 'Your message: ', quote), list,
  h('button', { type: 'button', class: 'secondary small', onclick: close }, 'Close'));

  const panel = { el, count: 0, focus: () => list.focus(), show };
  /** Reads who read `m` into the panel; false (with the banner) when the server did not answer. */
  async function show(m) {
    panel.count = m.readCount; // once, however often the view asks while this reads
    let reads;
    try {
      reads = await session.api.call('GET', `${pathOf(`g:${groupId}`)}/messages/${encodeURIComponent(m.id)}/reads`);
    } catch (error) {
      session.fail(error);
      return false;
    }
    heading.textContent = `Read by ${reads.length}`;
    quote.textContent = m.text || '📎';
    list.replaceChildren(...reads.map(({ user, readAt }) => h('li', { class: 'row' },
      h('span', {}, h('span', { class: 'name' }, user.displayName || user.username), ` @${user.username}`),
      h('time', { datetime: readAt }, when(readAt)))));
    return true;
  }
  return panel;
}
