// The conversations: the search box, then the conversations latest first with unread counts,
// then the followers not written to yet.
import { h } from './dom.js';
import { searchForm } from './search-form.js';
import { tombstoneNote } from './message-state.js';

export function conversationsView(navigate) {
  const list = h('ul', { class: 'list', 'aria-label': 'Conversations' });
  const followers = h('ul', { class: 'list', 'aria-label': 'Followers you have not written to' });
  const followersHeading = h('h2', {}, 'Followers you have not written to');
  const el = h('section', { class: 'screen' },
    h('div', { class: 'bar' }, h('h1', { tabindex: -1 }, 'Conversations'), h('button', { type: 'button', onclick: () => navigate('#/new') }, 'New message')),
    searchForm(navigate).form, list, followersHeading, followers);

  let shown = {};
  const rows = new Map(); // peer → {c, li, link}: a link survives updates (keeps focus)
  function update(state) {
    if (state.conversations === shown.conversations && state.followers === shown.followers) return;
    shown = state;
    const all = Object.entries(state.conversations)
      .sort(([, a], [, b]) => (b.lastMessage.createdAt || '').localeCompare(a.lastMessage.createdAt || ''));
    const items = all.map(([peer, c]) => {
      const known = rows.get(peer);
      if (known && known.c === c) return known.li;
      const unread = c.unreadCount > 0 ? `${c.unreadCount} unread` : '';
      const last = c.lastMessage;
      const preview = (last.sender.toLowerCase() === peer ? '' : 'You: ') + (last.deleted ? tombstoneNote(last) : last.text || (last.media?.length ? '📎 attachment' : ''));
      const link = known ? known.link : h('a', { href: `#/c/${encodeURIComponent(peer)}`, class: 'conversation' });
      link.replaceChildren(h('span', { class: 'name' }, c.peer.deleted ? `${c.peer.displayName} (${c.peer.username})` : c.peer.username),
        unread ? h('span', { class: 'badge' }, `, ${unread}`) : '',
        h('span', { class: 'preview' }, `: ${preview.slice(0, 80)}`));
      const li = known ? known.li : h('li', {}, link);
      rows.set(peer, { c, li, link });
      return li;
    });
    if (items.length !== list.children.length || items.some((li, i) => list.children[i] !== li)) list.replaceChildren(...items);
    if (!all.length) list.append(h('li', { class: 'empty' }, 'No conversations yet. Use New message to write to someone.'));
    const fresh = state.followers.filter((u) => !state.conversations[u.username.toLowerCase()]);
    followersHeading.hidden = followers.hidden = fresh.length === 0;
    followers.replaceChildren(...fresh.map((u) => h('li', {}, h('a', { href: `#/c/${encodeURIComponent(u.username.toLowerCase())}`, class: 'conversation' },
      h('span', { class: 'name' }, u.username), h('span', { class: 'preview' }, ' follows you')))));
  }
  return { el, update };
}
