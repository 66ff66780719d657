// Group conversations (API.md part 3), loaded on demand, out of the first load: the group
// events the session hands over (reads, typing, members, removal, marks), and the calls the
// group screens make. A group's conversation is keyed `g:ID` in the store, the local database
// and the outbox, so its messages go the way direct ones go (offline-first, in the outbox).
import { newClientId, pathOf } from './api.js';
import { peerOf } from './conversation-marks.js';

/** The store key of the group `id`. */
export const groupKey = (id) => `g:${id}`;

/** The group `id` as known here (`state.groups`, else the conversation list's copy), or null. */
export function groupOf(state, id) {
  return state.groups?.[id] || state.conversations[groupKey(id)]?.group || null;
}

/** Who is typing in the conversation `peer` now (typing keys `g:ID/username`). */
export function typingIn(state, peer) {
  const now = Date.now();
  return Object.entries(state.typing).filter(([key, until]) => key.startsWith(`${peer}/`) && until > now).map(([key]) => key.slice(peer.length + 1));
}

const rereads = new Map(); // peer → a re-read of its newest page under way

/** Applies the group events of a batch (its messages' `message.created` and `.updated` go the
 * direct way, by their `g:ID` key). */
export async function applyGroupEvents(session, events) {
  const state = () => session.store.state;
  const me = session.me.toLowerCase();
  let refresh = false;
  for (const { type, data } of events) {
    const id = typeof data?.group === 'string' ? data.group : null;
    const peer = id && groupKey(id);
    switch (type) {
      case 'message.created': // a group not in the list yet (new to me, or its first message)
        if (id && !state().conversations[peer]?.group) refresh = true;
        break;
      case 'message.deleted': if (id) await session.unsent(peer, data.id, !!data.removedByOperators); break;
      case 'message.read':
        if (!id) break;
        if (data.reader.toLowerCase() === me) session.dispatch({ type: 'unread', peer }); // read on another device
        else if (state().messages[peer]) reread(session, peer); // the newest page brings the read counts
        break;
      case 'typing': {
        if (!id) break;
        const key = `${peer}/${data.from}`;
        const until = Date.now() + 5000;
        session.dispatch({ type: 'typing', peer: key, until });
        setTimeout(() => { if (state().typing[key] === until) session.dispatch({ type: 'typing', peer: key, until: 0 }); }, 5100);
        break;
      }
      case 'group.created': case 'group.updated':
        session.dispatch({ type: 'groups', groups: { [data.id]: data } });
        // a new group joins the list; a known row shows the new title
        if (type === 'group.created' || state().conversations[groupKey(data.id)]) refresh = true;
        break;
      case 'group.removed': // removed, or left on another device: readable, nothing more to send
        session.dispatch({ type: 'groups', groups: { [id]: { ...groupOf(state(), id), id, removed: true } } });
        break;
      case 'conversation.updated': // a group's pin, mute, accept or decline on another device
        if (data.group && data.declined) session.dispatch({ type: 'forget', peer: peerOf(data) });
        else if (data.group) await session.showConversations([data], Date.now());
        break;
      default: break;
    }
  }
  if (refresh) session.refresh();
}

/** Re-reads the newest page of `peer`'s messages, once at a time (read counts change often). */
function reread(session, peer) {
  if (rereads.has(peer)) { rereads.set(peer, true); return; }
  rereads.set(peer, false);
  session.readPage(peer, {}).catch(() => {}).finally(() => {
    const again = rereads.get(peer);
    rereads.delete(peer);
    if (again) reread(session, peer);
  });
}

/** Reads the group `id` into the store; null (with the banner unless `quiet`) on failure. */
export async function loadGroup(session, id, quiet = false) {
  try {
    const group = await session.api.call('GET', pathOf(groupKey(id)));
    session.dispatch({ type: 'groups', groups: { [id]: group } });
    return group;
  } catch (error) {
    if (error.status === 404) session.dispatch({ type: 'groups', groups: { [id]: { ...groupOf(session.store.state, id), id, removed: true } } });
    else if (!quiet) session.fail(error);
    return null;
  }
}

/** Creates a group titled `title` with `members` (usernames); the Group, or null with the banner. */
export async function createGroup(session, title, members) {
  try {
    const group = await session.api.call('PUT', `/v1/groups/${newClientId()}`, { title, members });
    session.dispatch({ type: 'groups', groups: { [group.id]: group } });
    return group;
  } catch (error) {
    session.fail(error, { peer: error.field, user: error.field });
    return null;
  }
}

/** One change to the group `id` (`method`, the path after the group's, `body`); then reads the
 * group again. True when the server made it. */
export async function changeGroup(session, id, method, path, body) {
  try {
    await session.api.call(method, pathOf(groupKey(id)) + path, body);
  } catch (error) {
    session.fail(error, { peer: error.field, user: error.field });
    return false;
  }
  await loadGroup(session, id, true);
  return true;
}

/** The people I may add to a group: my followers and the people I have direct conversations with. */
export function candidates(state) {
  const names = new Map();
  for (const u of state.followers) names.set(u.username.toLowerCase(), u.username);
  for (const [peer, c] of Object.entries(state.conversations)) if (c.peer?.username && !c.request && !c.group && peer[1] !== ':') names.set(peer, c.peer.username);
  names.delete(state.me?.username?.toLowerCase());
  return [...names.values()].sort((a, b) => a.localeCompare(b));
}
