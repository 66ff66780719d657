// The message requests waiting for my answer (loaded when first opened, out of the first
// load): who wrote and their last message, with Accept, Decline, Block and Report buttons
// named for whom they answer. Accept and decline go to the server at once; the list follows
// the store (conversation.updated answers made in another tab or device). A group I was added
// to by someone who may not message me is a request too (`g:ID`): Accept joins it, Decline
// leaves it; Block and Report answer whoever wrote its last message (Block leaves it too).
import { h } from './dom.js';
import { pathOf } from './api.js';

export function requestsView(session) {
  const list = h('ul', { class: 'list', 'aria-label': 'Message requests' });
  const el = h('section', { class: 'screen' }, h('h1', { tabindex: -1 }, 'Message requests'), list);
  const answered = new Set(); // peers answered here: gone before their event arrives
  let shown = null;
  session.requests();

  /** Sends an answer (`call` resolves true when it was given); its row goes at once. */
  async function answer(peer, call) {
    if (!(await call())) return;
    answered.add(peer);
    session.refresh(); // an accepted conversation joins the list
    shown = null;
    update(session.store.state);
  }
  const send = (peer, method, path) => () => session.api.call(method, path).then(() => true, (error) => session.fail(error, { peer }));
  const block = (peer, name) => async () => {
    if (!(await session.block(name))) return false;
    session.dispatch({ type: 'forget', peer }); // the server's lists leave it out too
    return true;
  };
  const button = (label, name, onclick) => h('button', { type: 'button', class: 'secondary small', 'aria-label': name, onclick }, label);

  function update(state) {
    if (state.conversations === shown) return;
    shown = state.conversations;
    const rows = Object.entries(state.conversations).filter(([peer, c]) => c.request && !answered.has(peer))
      .sort(([, a], [, b]) => (b.lastMessage.createdAt || '').localeCompare(a.lastMessage.createdAt || ''));
    list.replaceChildren(...rows.map(([peer, c]) => {
      const group = peer[1] === ':';
      const name = group ? c.group?.title || 'a group' : c.peer.username;
      const from = group ? c.lastMessage.sender || c.group?.createdBy : name; // whom Block and Report answer
      const unread = c.unreadCount > 0 ? `, ${c.unreadCount} unread` : '';
      return h('li', { class: 'row' },
        h('a', { href: `#/c/${encodeURIComponent(peer)}`, class: 'conversation' }, h('span', { class: 'name' }, name),
          h('span', { class: 'unread' }, unread), h('span', { class: 'preview' }, `: ${(c.lastMessage.text || '').slice(0, 80)}`)),
        h('span', {},
          button('Accept', `Accept request from ${name}`, () => answer(peer, send(peer, 'POST', `${pathOf(peer)}/accept`))), ' ',
          button('Decline', `Decline request from ${name}`, () => answer(peer, send(peer, 'DELETE', pathOf(peer) + (group ? '/request' : '')))), ' ',
          button('Block', `Block ${from}`, () => answer(peer, group ? async () => !!(await session.block(from)) && send(peer, 'DELETE', `${pathOf(peer)}/request`)() : block(peer, name))), ' ',
          button('Report', `Report ${from}`, () => session.report(from))));
    }));
    if (!rows.length) list.append(h('li', { class: 'empty' }, 'No message requests. With "everyone" in Settings, people you do not follow can write to you: their first messages wait here.'));
  }
  return { el, update };
}
