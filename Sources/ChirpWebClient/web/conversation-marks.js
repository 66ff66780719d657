// Pinned and muted conversations: a row has `pinned`, `muted` and `pinOrder` (the server's list
// order for its pins, the time for a newer pin; 0 unpinned). A mark the outbox holds wins.
const FIELDS = { pin: ['pinned', true], unpin: ['pinned', false], mute: ['muted', true], unmute: ['muted', false] };
export const isMark = (item) => !!FIELDS[item.kind];
/** The store's key of an API Conversation. */
export const peerOf = (c) => (c.group ? 'g:' + c.group.id : c.peer.username.toLowerCase());

/** Pinned first, the latest pin first, then the latest message first. */
export const listOrder = (a, b) => (b.pinOrder || 0) - (a.pinOrder || 0) || (b.lastMessage.createdAt || '').localeCompare(a.lastMessage.createdAt || '');

/** `rows` with the queued mark on its row. */
export function withMark(rows, { peer, kind, createdAt }) {
  const [field, on] = FIELDS[kind];
  const c = rows[peer];
  if (!c || !!c[field] === on) return rows;
  return { ...rows, [peer]: { ...c, [field]: on, pinOrder: field === 'muted' ? c.pinOrder : on ? Date.parse(createdAt) : 0 } };
}

/** `rows` with the marks of `items`, API Conversations: the list's first page (pins first), or
 * one at the time `at`; a mark queued in `outbox` keeps what `old` showed. */
export function withServerMarks(rows, old, items, outbox, at) {
  const pins = items.filter((c) => c.pinned).length;
  const out = { ...rows };
  items.forEach((c, i) => {
    const peer = peerOf(c);
    const was = old[peer] || {};
    const queued = (field) => Object.values(outbox).some((q) => q.peer === peer && FIELDS[q.kind]?.[0] === field);
    const [pinned, muted] = [queued('pinned') ? !!was.pinned : c.pinned, queued('muted') ? !!was.muted : c.muted];
    const pinOrder = !pinned ? 0 : queued('pinned') || (at && was.pinned) ? was.pinOrder : at || pins - i;
    out[peer] = { ...out[peer], pinned, muted, pinOrder };
  });
  return out;
}
