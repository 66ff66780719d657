// The conversations: the search box, then the conversations, pinned first, with unread counts
// (highlighted, the only alert, unless muted), then the followers not written to yet. Message
// requests are listed apart (view-requests.js). A group's row (`g:ID`) shows its title. Each
// row has its avatar; on a wide screen the list stays beside the open conversation, whose row
// is marked current (`select`). An encrypted conversation has a lock after its name.
import { h } from './dom.js';
import { avatar } from './avatar.js';
import { searchForm } from './search-form.js';
import { tombstoneNote, sealedNote } from './message-state.js';
import { listOrder } from './conversation-marks.js';

export function conversationsView(session, navigate) {
  const list = h('ul', { class: 'list', 'aria-label': 'Conversations' });
  const followers = h('ul', { class: 'list', 'aria-label': 'Followers you have not written to' });
  const followersHeading = h('h2', {}, 'Followers you have not written to');
  const el = h('section', { class: 'screen' },
    h('div', { class: 'bar' }, h('h1', { tabindex: -1 }, 'Conversations'), h('a', { href: '#/requests' }, 'Message requests'), h('button', { type: 'button', onclick: () => navigate('#/new') }, 'New message'), h('button', { type: 'button', onclick: () => navigate('#/new-group') }, 'New group')),
    searchForm(navigate).form, list, followersHeading, followers);

  let shown = {};
  let selected = null;
  const rows = new Map(); // peer → {c, li, link, pin, mute}: these survive updates (keep focus)
  function update(state) {
    if (state.conversations === shown.conversations && state.followers === shown.followers && state.encrypted === shown.encrypted) return;
    shown = state;
    const all = Object.entries(state.conversations).filter(([, c]) => !c.request).sort(([, a], [, b]) => listOrder(a, b));
    const items = all.map(([peer, c]) => {
      const known = rows.get(peer);
      const locked = !!state.encrypted[peer];
      if (known && known.c === c && known.locked === locked) return known.li;
      const unread = c.unreadCount > 0 ? `${c.unreadCount} unread` : '';
      const last = c.lastMessage;
      const name = peer[1] === ':' ? c.group?.title || 'Group' : c.peer.deleted ? `${c.peer.displayName} (${c.peer.username})` : c.peer.username;
      const preview = !last.sender ? 'no messages yet' : (last.sender.toLowerCase() === session.me.toLowerCase() ? 'You: ' : peer[1] === ':' ? `${last.sender}: ` : '') + (last.deleted ? tombstoneNote(last) : sealedNote(last) || last.text || (last.media?.length ? '📎 attachment' : ''));
      const link = known ? known.link : h('a', { href: `#/c/${encodeURIComponent(peer)}`, class: 'conversation' });
      link.replaceChildren(avatar(name), h('span', { class: 'summary' }, h('span', { class: 'name' }, c.pinned ? '📌 ' : '', c.muted ? '🔕 ' : '', name,
        locked ? h('span', { class: 'lock', role: 'img', 'aria-label': ', encrypted' }, ' 🔒') : ''),
        unread ? h('span', { class: c.muted ? 'unread' : 'unread badge' }, `, ${unread}`) : '',
        h('span', { class: 'preview' }, `: ${preview.slice(0, 80)}`)));
      if (peer === selected) link.setAttribute('aria-current', 'page');
      const [pin, mute] = known ? [known.pin, known.mute] : [0, 0].map(() => h('button', { type: 'button', class: 'secondary small',
        onclick: (e) => session.markConversation(peer, e.currentTarget.textContent.toLowerCase()) })); // says what it does
      pin.textContent = c.pinned ? 'Unpin' : 'Pin';
      mute.textContent = c.muted ? 'Unmute' : 'Mute';
      for (const b of [pin, mute]) b.setAttribute('aria-label', `${b.textContent} conversation with ${name}`);
      const li = known ? known.li : h('li', { class: 'row' }, link, h('span', {}, pin, ' ', mute));
      rows.set(peer, { c, li, link, pin, mute, locked });
      return li;
    });
    if (items.length !== list.children.length || items.some((li, i) => list.children[i] !== li)) {
      const focused = document.activeElement; // moving a row drops the focus
      list.replaceChildren(...items);
      focused?.focus();
    }
    if (!all.length) list.append(h('li', { class: 'empty' }, 'No conversations yet. Use New message to write to someone.'));
    const fresh = state.followers.filter((u) => !state.conversations[u.username.toLowerCase()]);
    followersHeading.hidden = followers.hidden = fresh.length === 0;
    followers.replaceChildren(...fresh.map((u) => h('li', {}, h('a', { href: `#/c/${encodeURIComponent(u.username.toLowerCase())}`, class: 'conversation' },
      avatar(u.username), h('span', { class: 'summary' }, h('span', { class: 'name' }, u.username), h('span', { class: 'preview' }, ' follows you'))))));
  }
  /** Marks the row of the conversation `peer` (null: none) as the one open beside the list. */
  function select(peer) {
    selected = peer;
    for (const [key, row] of rows) {
      if (key === peer) row.link.setAttribute('aria-current', 'page'); else row.link.removeAttribute('aria-current');
    }
  }
  return { el, update, select };
}
