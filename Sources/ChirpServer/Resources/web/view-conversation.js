// One conversation: the log (virtual, older pages load when scrolled to the top), delivery
// marks as words, who is typing, and the input (Enter sends, Shift-Enter is a new line).
import { h, field, time } from './dom.js';
import { MessageList } from './message-list.js';

export function conversationView(session, peer) {
  const log = h('div', { role: 'log', 'aria-label': `Messages with ${peer}`, class: 'log', tabindex: 0 });
  const typing = h('p', { class: 'typing', 'aria-live': 'polite' });
  const text = h('textarea', { rows: 2, 'aria-describedby': 'compose-hint' });
  const title = h('h1', { tabindex: -1 }, peer);
  let loading = false;
  const pendingRows = new WeakMap();

  const list = new MessageList(log, renderRow, async () => {
    if (loading) return;
    loading = true;
    await session.loadOlder(peer);
    loading = false;
  });

  function renderRow(m) {
    const mine = m.state !== 'received';
    const meta = [h('time', { datetime: m.createdAt }, time(m.createdAt))];
    if (mine) meta.push(' · ', h('span', { class: `mark ${m.state}` }, m.state));
    if (m.state === 'failed') meta.push(' ', h('button', { type: 'button', class: 'small', onclick: () => session.retry(m.clientMessageId) }, 'Retry'));
    return h('div', { class: `msg ${mine ? 'mine' : 'theirs'}` },
      h('span', { class: 'sr' }, mine ? 'You: ' : `${m.sender}: `),
      h('p', { class: 'text' }, m.text), h('p', { class: 'meta' }, ...meta));
  }

  async function send() {
    const value = text.value;
    if (!value.trim()) return;
    if (await session.send(peer, value)) text.value = '';
  }

  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); send(); }
  });
  text.addEventListener('input', () => { if (text.value.trim()) session.typing(peer); });

  const follow = h('button', { type: 'button', class: 'secondary small', hidden: true, onclick: async () => {
    const on = follow.textContent === 'Follow';
    if (await session.follow(peer, on)) showFollow(on);
  } });
  const showFollow = (following) => { follow.hidden = following === null; follow.textContent = following ? 'Unfollow' : 'Follow'; };
  session.follows(peer).then(showFollow);

  const el = h('section', { class: 'screen conversation' },
    h('div', { class: 'bar' }, title, follow,
      h('button', { type: 'button', class: 'secondary small', onclick: () => session.block(peer) }, 'Block'),
      h('button', { type: 'button', class: 'secondary small', onclick: () => session.report(peer) }, 'Report')),
    log, typing,
    h('form', { class: 'compose', onsubmit: (event) => { event.preventDefault(); send(); } },
      field('Message', text),
      h('button', { type: 'submit' }, 'Send')),
    h('p', { id: 'compose-hint', class: 'hint' }, 'Enter sends, Shift-Enter starts a new line.'));

  let shown = null;
  function update(state) {
    const c = state.conversations[peer];
    if (c) title.textContent = c.peer.username;
    const messages = state.messages[peer] || [];
    const pending = Object.values(state.outbox).filter((o) => o.peer === peer)
      .filter((o) => !messages.some((m) => m.clientMessageId === o.clientMessageId && m.state !== 'received'))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((o) => pendingRows.get(o) || pendingRows.set(o, { key: `out/${o.clientMessageId}`, clientMessageId: o.clientMessageId, text: o.text, createdAt: o.createdAt, state: o.failed ? 'failed' : 'sending' }).get(o));
    const rows = messages.concat(pending);
    if (rows !== shown) { list.set(rows); shown = rows; }
    typing.textContent = (state.typing[peer] || 0) > Date.now() ? `${c ? c.peer.username : peer} is typing…` : '';
    if (c && c.unreadCount > 0) session.markRead(peer);
  }
  session.openConversation(peer);
  return { el, update, focus: () => text.focus() };
}
