// The client's state and the one way it changes: `dispatch(action)` runs the reducer, then
// every subscriber renders from the new state. Every action is idempotent (applying an event
// or a page twice leaves the same state), as in the Swift kit's ChirpStore.
import { advanced, isTombstone, tombstone } from './message-state.js';
import { isMark, peerOf, withMark, withServerMarks } from './conversation-marks.js';

export const byId = (a, b) => (a.id === b.id ? 0 : a.id.length - b.id.length || (a.id < b.id ? -1 : 1));

/** The local form of an API Message as `me` sees it (in a group: `peer` `g:ID`, `readCount`).
 * A message of an encrypted conversation comes opened (encryption.js): `sealed` says how
 * ('opened', 'unverifiable', 'not-sealed' or 'pending'), `sealedSig` which envelope. */
export function localMessage(me, m, state) {
  const mine = m.sender.toLowerCase() === me.toLowerCase();
  const sealed = m.sealed || (m.envelope ? 'pending' : null);
  return {
    key: `${m.sender.toLowerCase()}/${m.clientMessageId}`, peer: m.group ? 'g:' + m.group : (mine ? m.recipient : m.sender).toLowerCase(),
    id: m.id, clientMessageId: m.clientMessageId, sender: m.sender, recipient: m.recipient,
    text: m.text, createdAt: m.createdAt,
    state: mine ? (m.readByRecipient ? 'read' : state) : 'received',
    media: m.media || [], replyTo: m.replyTo ?? null, reactions: m.reactions || [], editedAt: m.editedAt ?? null, deleted: !!m.deleted,
    removedByOperators: !!m.removedByOperators, readCount: m.readCount, fromBlocked: m.fromBlocked,
    ...(sealed ? { text: m.text ?? '', sealed, sealedSig: m.sealedSig ?? m.envelope?.signature } : {}),
  };
}

/** Whether the conversation `peer` is encrypted, as this client knows. */
export const isEncrypted = (state, peer) => !!state.encrypted[peer];

/** `encrypted` with `peers` added (once on, encryption stays on). */
function withEncrypted(encrypted, peers) {
  const fresh = peers.filter((p) => !encrypted[p]);
  return fresh.length ? { ...encrypted, ...Object.fromEntries(fresh.map((p) => [p, true])) } : encrypted;
}

/** `m` with `me`'s reaction `emoji` added (`on`) or removed, as the server will show it. */
export function withReaction(m, me, emoji, on) {
  const isMe = (u) => u.toLowerCase() === me.toLowerCase();
  const reactions = (m.reactions || []).map((r) => (r.emoji === emoji ? { ...r, users: r.users.filter((u) => !isMe(u)) } : r));
  const at = reactions.findIndex((r) => r.emoji === emoji);
  if (on && at >= 0) reactions[at].users.push(me);
  else if (on) reactions.push({ emoji, users: [me] });
  return { ...m, reactions: reactions.map((r) => ({ ...r, count: r.users.length })).filter((r) => r.count > 0) };
}

/** `incoming` as it should replace `old` (an unsent message stays unsent, an older edit never
 * replaces a newer one, whatever order pages and events arrive in), or `old` when they show
 * the same thing. */
function merged(old, incoming) {
  const state = advanced(old.state, incoming.state);
  let m = old.deleted ? tombstone({ ...incoming, state }) : { ...old, ...incoming, state };
  if (!m.deleted && old.editedAt && (!incoming.editedAt || incoming.editedAt < old.editedAt)) m = { ...m, text: old.text, editedAt: old.editedAt, sealed: old.sealed, sealedSig: old.sealedSig };
  const same = m.state === old.state && m.text === old.text && m.sealed === old.sealed && m.editedAt === old.editedAt && m.deleted === old.deleted && m.id === old.id && m.readCount === old.readCount
    && JSON.stringify(m.reactions) === JSON.stringify(old.reactions) && (m.media || []).length === (old.media || []).length;
  return same ? old : m;
}

export function initialState() {
  return {
    me: null, banner: null, stream: 'connecting', // or 'websocket', 'long-poll', 'offline'
    conversations: {}, // peer (lowercased; `g:ID` a group) → {peer: User or group: Group, lastMessage, unreadCount}
    messages: {},      // peer → local messages in ascending id
    history: {},       // peer → the stretches of its history held whole (history-stretches.js)
    outbox: {},        // clientMessageId → an outbox item (outbox.js): a message or an action on one
    unsent: {},        // message id → true: unsent before this client had the message
    progress: {},      // clientMediaId → bytes uploaded so far
    followers: [], timeline: [], typing: {},
    encrypted: {},     // peer → true: an encrypted conversation (API.md part 4)
    notices: {},       // peer → {text, at}: the latest change of a member's devices
  };
}

function mergeMessages(list = [], arriving, unsent) {
  const incoming = arriving.map((m) => (unsent[m.id] ? tombstone(m) : m));
  // The usual case, live messages newer than all shown: no index, no sort.
  const newer = incoming.every((m, i) => byId(i ? incoming[i - 1] : list[list.length - 1] || { id: '' }, m) < 0);
  if (newer) return list.concat(incoming);
  const index = new Map(list.map((m, i) => [m.key, i]));
  let out = list;
  let sorted = true;
  for (const m of incoming) {
    const at = index.get(m.key);
    if (at === undefined) {
      if (out === list) out = list.slice();
      if (out.length && byId(out[out.length - 1], m) > 0) sorted = false;
      index.set(m.key, out.length);
      out.push(m);
      continue;
    }
    const next = merged(out[at], m);
    if (next !== out[at]) { if (out === list) out = list.slice(); out[at] = next; }
  }
  if (!sorted) out.sort(byId);
  return out;
}

export function reduce(state, action) {
  switch (action.type) {
    case 'signedIn': return { ...initialState(), me: action.me, stream: 'connecting' };
    case 'banner': return { ...state, banner: action.banner };
    case 'stream': // going offline replaces an older error with the unreachable notice
      return state.stream === action.mode ? state : { ...state, stream: action.mode, banner: action.mode === 'offline' ? null : state.banner };
    case 'messages': {
      const byPeer = {};
      for (const m of action.messages) (byPeer[m.peer] ||= []).push(m);
      const messages = { ...state.messages };
      const conversations = { ...state.conversations };
      for (const [peer, list] of Object.entries(byPeer)) {
        messages[peer] = mergeMessages(messages[peer], list, state.unsent);
        const last = messages[peer][messages[peer].length - 1];
        const c = conversations[peer];
        // The list's count is the server's as of its last message: only newer ones add to it,
        // whichever of the list, a page or the stream brought them first.
        const newIncoming = action.live ? list.filter((m) => m.state === 'received' && (!c || !c.lastMessage.id || byId(m, c.lastMessage) > 0)
          && !(state.messages[peer] || []).some((o) => o.key === m.key)).length : 0;
        const peerUser = c ? c.peer : { username: last.sender.toLowerCase() === peer ? last.sender : last.recipient };
        // A change to an old message (a reaction, an edit) leaves the newer last message in place.
        const lastMessage = c && c.lastMessage.id && last.id && byId(last, c.lastMessage) < 0 ? c.lastMessage : last;
        // A reply of mine accepts a request (on the server too).
        conversations[peer] = { ...c, peer: peerUser, lastMessage, unreadCount: (c ? c.unreadCount : 0) + newIncoming,
          request: c?.request && list.every((m) => m.state === 'received') };
      }
      const history = action.history === undefined ? state.history : { ...state.history, [action.peer]: action.history };
      // An envelope proves the conversation encrypted (the server takes none in another).
      const encrypted = withEncrypted(state.encrypted, Object.keys(byPeer).filter((peer) => byPeer[peer].some((m) => m.sealed)));
      return { ...state, messages, conversations, history, encrypted };
    }
    case 'read': { // my messages to `peer` up to `upTo` were read
      const list = state.messages[action.peer];
      if (!list) return state;
      const n = BigInt(action.upTo);
      const next = list.map((m) => (m.state !== 'received' && m.id && BigInt(m.id) <= n && m.state !== 'read' ? { ...m, state: 'read' } : m));
      return { ...state, messages: { ...state.messages, [action.peer]: next } };
    }
    case 'deleted': { // the message `id` with `peer` was unsent
      const list = state.messages[action.peer] || [];
      const at = list.findIndex((m) => m.id === action.id);
      const unsent = state.unsent[action.id] ? state.unsent : { ...state.unsent, [action.id]: true };
      if (at < 0 || isTombstone(list[at], action.removed)) return unsent === state.unsent ? state : { ...state, unsent };
      const next = list.slice();
      next[at] = tombstone(list[at], !!action.removed);
      const c = state.conversations[action.peer];
      const conversations = c && c.lastMessage.id === action.id ? { ...state.conversations, [action.peer]: { ...c, lastMessage: next[at] } } : state.conversations;
      return { ...state, unsent, conversations, messages: { ...state.messages, [action.peer]: next } };
    }
    case 'forget': { // `peer` deleted their account: their conversation goes (see UserSession.forgetDeleted)
      const { [action.peer]: _c, ...conversations } = state.conversations;
      const { [action.peer]: _m, ...messages } = state.messages;
      return { ...state, conversations, messages };
    }
    case 'progress': return { ...state, progress: { ...state.progress, [action.clientMediaId]: action.sent } };
    case 'conversations': { // a row already showing a newer last message (from the stream) stays
      const conversations = { ...state.conversations };
      const me = state.me.username;
      for (const c of action.items) {
        const peer = peerOf(c);
        const lastMessage = c.lastMessage ? localMessage(me, c.lastMessage, 'delivered') : { createdAt: c.group.members.find((m) => m.user.username === me)?.joinedAt };
        const known = conversations[peer];
        if (known && known.lastMessage.id && lastMessage.id && byId(known.lastMessage, lastMessage) > 0) continue;
        conversations[peer] = { ...c, lastMessage };
      }
      const encrypted = withEncrypted(state.encrypted, action.items.filter((c) => c.encrypted || c.group?.encrypted).map(peerOf));
      return { ...state, encrypted, conversations: withServerMarks(conversations, state.conversations, action.items, state.outbox, action.at) };
    }
    case 'encrypted': {
      const encrypted = withEncrypted(state.encrypted, [action.peer]);
      return encrypted === state.encrypted ? state : { ...state, encrypted };
    }
    case 'notice': return { ...state, notices: { ...state.notices, ...Object.fromEntries(action.peers.map((p) => [p, action.notice])) } };
    case 'history': return { ...state, history: { ...state.history, [action.peer]: action.history } };
    case 'unread': {
      const c = state.conversations[action.peer];
      return c && c.unreadCount !== 0 ? { ...state, conversations: { ...state.conversations, [action.peer]: { ...c, unreadCount: 0 } } } : state;
    }
    case 'outbox': { // a pin or mute shows once queued, by this tab or another
      const fresh = action.items.filter((i) => isMark(i) && !state.outbox[i.clientMessageId]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const conversations = fresh.reduce(withMark, state.conversations);
      return { ...state, conversations, outbox: Object.fromEntries(action.items.map((i) => [i.clientMessageId, i])) };
    }
    case 'followers': return { ...state, followers: action.items };
    case 'follower': return state.followers.some((u) => u.username === action.user.username) ? state : { ...state, followers: [action.user, ...state.followers] };
    case 'timeline': return { ...state, timeline: action.items };
    case 'tweet': return state.timeline.some((t) => t.id === action.tweet.id) ? state : { ...state, timeline: [action.tweet, ...state.timeline] };
    case 'typing': return { ...state, typing: { ...state.typing, [action.peer]: action.until } };
    case 'groups': return { ...state, groups: { ...state.groups, ...action.groups }, // id → Group (groups.js)
      encrypted: withEncrypted(state.encrypted, Object.values(action.groups).filter((g) => g?.encrypted).map((g) => 'g:' + g.id)) };
    default: return state;
  }
}

/** Holds the state; views subscribe and render. */
export class Store {
  constructor() { this.state = initialState(); this.listeners = new Set(); }
  dispatch(action) {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener(next);
  }
  subscribe(listener) { this.listeners.add(listener); return () => this.listeners.delete(listener); }
}
