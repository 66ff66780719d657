// Search results (GET /v1/search/messages): my messages containing every word, newest first,
// a page at a time; a result opens its conversation scrolled to that message. The server
// cannot search encrypted conversations: their opened copies in this browser are searched
// here (local-search.js) and listed apart.
import { h, time } from './dom.js';
import { searchForm } from './search-form.js';
import { searchOpened } from './local-search.js';

export function searchView(session, navigate, query) {
  const { form, input } = searchForm(navigate, query);
  const results = h('ul', { class: 'list', 'aria-label': 'Search results' });
  const status = h('p', { class: 'hint', 'aria-live': 'polite' }, 'Searching…');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true, onclick: () => load(more.cursor) }, 'More results');
  const me = session.me.toLowerCase();

  const sealedHeading = h('h2', { hidden: true }, 'In encrypted conversations (searched on this device)');
  const sealedResults = h('ul', { class: 'list', 'aria-label': 'Results in encrypted conversations', hidden: true });

  /** A result: an API Message, or a local one (`peer` set) from an encrypted conversation. */
  function result(m) {
    const peer = m.peer || (m.group ? `g:${m.group}` : (m.sender.toLowerCase() === me ? m.recipient : m.sender).toLowerCase());
    const who = m.sender.toLowerCase() === me ? 'You' : m.sender;
    return h('li', {}, h('a', { class: 'conversation result', href: `#/c/${encodeURIComponent(peer)}/${encodeURIComponent(m.id)}` },
      h('span', { class: 'name' }, peer.startsWith('g:') ? session.store.state.conversations[peer]?.group?.title || 'Group' : peer), ' ', h('time', { datetime: m.createdAt }, `${new Date(m.createdAt).toLocaleDateString()} ${time(m.createdAt)}`),
      h('span', { class: 'preview' }, `: ${who}: ${m.text.slice(0, 160)}`)));
  }

  async function load(cursor) {
    more.disabled = true;
    let page = null; // one page of my messages matching the query, newest first
    try { page = await session.api.search(query, cursor); } catch (error) { session.fail(error); }
    more.disabled = false;
    if (!page) { status.textContent = 'The search did not work. Try again.'; return; }
    results.append(...page.items.map(result));
    more.cursor = page.nextCursor;
    more.hidden = !page.nextCursor;
    say();
  }

  /** How many results, once the server has answered (the encrypted ones are counted too). */
  function say() {
    if (more.cursor === undefined) return;
    const n = results.children.length + sealedResults.children.length;
    status.textContent = n ? `${n}${more.cursor ? '+' : ''} message${n === 1 ? '' : 's'} with “${query}”.` : `No messages with “${query}”.`;
  }

  async function loadSealed() {
    const found = await searchOpened(session, query).catch(() => []);
    sealedHeading.hidden = sealedResults.hidden = !found.length;
    sealedResults.replaceChildren(...found.map(result));
    say();
  }

  const el = h('section', { class: 'screen' }, h('h1', { tabindex: -1 }, 'Search'), form, status, results, more, sealedHeading, sealedResults);
  load(null);
  loadSealed();
  return { el, focus: () => input.focus() };
}
