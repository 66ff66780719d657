// The one façade the views use, as UserSession is in Swift: it owns the API client, the
// local database (its only writer), the outbox and the event stream, and turns their results
// into store actions. A BroadcastChannel keeps the user's other tabs in step (they re-read
// the outbox; every apply is idempotent). Encrypted conversations (encryption.js, loaded
// after start: this browser's device, sealing, opening) open every message that arrives
// before it is stored or shown.
import { ApiClient, ApiError, newClientId } from './api.js';
import { LocalDB } from './local-db.js';
import { Outbox } from './outbox.js';
import { EventStream } from './event-stream.js';
import { localMessage, withReaction, isEncrypted } from './store.js';
import { isTombstone, tombstone } from './message-state.js';
import { explain } from './errors.js';
import { MediaCache } from './media-cache.js';
import { addPage, addStreamed, newest, reachesFirst } from './history-stretches.js';
import { isMark, peerOf } from './conversation-marks.js';

/** Whether `peer` is a deleted account (`deleted-ID`) as its peers see it: read-only. */
export const isDeletedAccount = (peer) => /^deleted-[1-9][0-9]*$/.test(peer);

const SAVED = 'chirp.session';
/** Messages asked of the server per page of history (the API's most). */
const PAGE = 100;
export const MAX_MESSAGE = 10000;
export const MAX_ATTACHMENTS = 4;
const MAX_MEDIA_BYTES = 25 * 1024 * 1024;
/** How long after sending a message its sender may edit it (API.md). */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

export class UserSession {
  /** The session saved in this browser, or null. */
  static saved() { try { return JSON.parse(localStorage.getItem(SAVED)); } catch { return null; } }

  /** Logs in (or creates the account) and saves the token in this browser. */
  static async signIn(username, password, create) {
    const api = new ApiClient();
    const reply = create ? await api.register(username, password) : await api.login(username, password);
    const saved = { username: reply.user.username, token: reply.token };
    localStorage.setItem(SAVED, JSON.stringify(saved));
    return saved;
  }

  constructor(saved, store, onSignedOut) {
    this.username = saved.username;
    this.api = new ApiClient(saved.token);
    this.store = store;
    this.onSignedOut = onSignedOut;
    this.typingSent = 0;
    this.media = new MediaCache(this.api);
    this.historyWrites = Promise.resolve();
  }

  get me() { return this.username; }
  dispatch(action) { if (!this.ended) this.store.dispatch(action); }
  fail(error, context) { this.dispatch({ type: 'banner', banner: explain(error, context) }); }

  async start() {
    this.db = await LocalDB.open(this.username);
    const [me, since, conversations, followers, timeline] = await Promise.all(
      ['me', 'lastSeq', 'conversations', 'followers', 'timeline'].map((k) => this.db.get('values', k)));
    this.dispatch({ type: 'signedIn', me: me || { username: this.username } });
    if (conversations) this.dispatch({ type: 'conversations', items: conversations });
    if (followers) this.dispatch({ type: 'followers', items: followers });
    if (timeline) this.dispatch({ type: 'timeline', items: timeline });
    await this.reloadOutbox();
    this.channel = new BroadcastChannel(LocalDB.name(this.username));
    this.channel.onmessage = ({ data }) => this.heard(data);
    this.outbox = new Outbox({
      api: this.api, db: this.db,
      resolve: (ref) => this.resolve(ref),
      onSent: (m) => { this.broadcast({ kind: 'message', message: m }); return this.storeMessages([localMessage(this.me, m, 'sent')]); },
      onApplied: (item, id) => this.applied(item, id),
      onChange: () => { this.broadcast({ kind: 'outbox' }); return this.reloadOutbox(); },
      onRefused: (error, item) => {
        this.fail(error, { peer: item.peer });
        if (isMark(item)) this.reloadOutbox().then(() => this.refresh()); // its list undoes the mark
      },
      onProgress: (clientMediaId, sent) => this.dispatch({ type: 'progress', clientMediaId, sent }),
      onUploaded: (media, file) => this.media.put(media.id, file),
      encryption: () => this.encryption(),
      isEncrypted: (peer) => isEncrypted(this.store.state, peer),
      onEncrypted: (peer) => this.dispatch({ type: 'encrypted', peer }),
    });
    this.stream = new EventStream({
      api: this.api, since: since ?? await this.head(),
      apply: (event) => this.apply(event),
      onMode: (mode) => {
        const was = this.store.state.stream;
        this.dispatch({ type: 'stream', mode });
        if (mode !== was && mode !== 'offline') { this.outbox.flush(); this.refresh(); } // (re)connected
      },
      onUnauthorized: () => this.signOut(false),
    });
    this.stream.start();
    this.encryption().catch(() => {}); // this browser's device, registered (or rotated) now
    this.outbox.flush();
    this.onlineListener = () => this.outbox.flush();
    addEventListener('online', this.onlineListener);
    this.ready = true;
  }

  /** The newest seq of the user's stream: a browser new to this user starts there (the lists
   * come from `refresh`) instead of replaying the whole history. */
  async head() {
    try { return (await this.api.events(Number.MAX_SAFE_INTEGER, 0)).lastSeq; } catch { return 0; }
  }

  broadcast(data) { try { this.channel.postMessage(data); } catch { /* closed */ } }

  heard(data) {
    if (data.kind === 'outbox') this.reloadOutbox();
    else if (data.kind === 'message') this.storeMessages([localMessage(this.me, data.message, 'sent')]);
    else if (data.kind === 'read') this.dispatch({ type: 'unread', peer: data.peer });
    else if (data.kind === 'logout') this.signOut(false, true);
  }

  async reloadOutbox() { this.dispatch({ type: 'outbox', items: await this.db.all('outbox') }); }

  async storeMessages(messages, extra = {}) {
    await this.db.putMany('messages', messages);
    this.dispatch({ type: 'messages', messages, ...extra });
  }

  /** encryption.js's side of the session, loaded once (again after a failed load). */
  encryption() {
    if (!this.e2ee) {
      this.e2ee = import('./encryption.js').then((m) => m.start(this));
      this.e2ee.catch(() => { this.e2ee = null; });
    }
    return this.e2ee;
  }

  /** `messages` (API Messages) with what their envelopes hold; as they are when none is
   * sealed (or encryption.js cannot be loaded now: they show as not opened yet). */
  async opened(messages) {
    if (!messages.some((m) => m?.envelope)) return messages;
    try { return await (await this.encryption()).reveal(messages); } catch { return messages; }
  }

  /** Shows API Conversations, their last messages opened; resolves to them as shown. */
  async showConversations(items, at) {
    const last = await this.opened(items.map((c) => c.lastMessage));
    const shown = items.map((c, i) => (last[i] === c.lastMessage ? c : { ...c, lastMessage: last[i] }));
    this.dispatch({ type: 'conversations', items: shown, at });
    return shown;
  }

  /** Turns encryption on in `peer`'s conversation; false (with the banner) when refused. */
  async encrypt(peer) {
    try {
      await this.api.encrypt(peer);
    } catch (error) {
      this.fail(error, { user: error.field, peer: error.field });
      return false;
    }
    this.dispatch({ type: 'encrypted', peer });
    return true;
  }

  /** Re-reads the lists the stream does not carry in full (after a (re)connect; events.pruned). */
  async refresh() {
    try {
      const [me, conversations, followers] = await Promise.all([this.api.me(), this.api.conversations(), this.api.followers(this.me)]);
      await this.db.put('values', me, 'me');
      const items = await this.showConversations(conversations.items);
      await Promise.all([this.db.put('values', items, 'conversations'), this.db.put('values', followers.items, 'followers')]);
      this.dispatch({ type: 'followers', items: followers.items });
    } catch (error) {
      if (error.status === 401) this.signOut(false);
    }
  }

  /** Applies a batch of the stream's events (idempotent) and remembers the last seq; new
   * messages go to `onArrived` too (the app's notifications while its tab is hidden). */
  async apply(events) {
    const messages = async (type) => (await this.opened(events.filter((e) => e.type === type).map((e) => e.data)))
      .map((m) => localMessage(this.me, m, 'delivered'));
    const created = await messages('message.created');
    // A first message from someone may be a request: the requests say.
    const fresh = created.some((m) => m.state === 'received' && !this.store.state.conversations[m.peer]);
    if (created.length) {
      await this.storeMessages(created, { live: true });
      this.onArrived?.(created);
      if (fresh) this.requests();
      const byPeer = new Map();
      for (const m of created) {
        if (!byPeer.has(m.peer)) byPeer.set(m.peer, []);
        byPeer.get(m.peer).push(Number(m.id));
      }
      for (const [peer, ids] of byPeer) await this.updateHistory(peer, (h) => ids.reduce(addStreamed, h));
    }
    const updated = await messages('message.updated');
    if (updated.length) await this.storeMessages(updated);
    // Groups' own events (reads, typing, members): groups.js, loaded for them.
    if (events.some((e) => e.data?.group || e.type.startsWith('group.'))) await (await import('./groups.js')).applyGroupEvents(this, events);
    for (const { type, data } of events) {
      if (data?.group) continue;
      switch (type) {
        case 'message.deleted': await this.unsent(data.sender.toLowerCase() === this.me.toLowerCase() ? data.recipient : data.sender, data.id, !!data.removedByOperators); break;
        case 'message.read': {
          const peer = data.reader.toLowerCase();
          const mine = (await this.db.messagesWith(peer)).filter((m) => m.state !== 'received' && m.id && BigInt(m.id) <= BigInt(data.upTo));
          await this.db.putMany('messages', mine.map((m) => ({ ...m, state: 'read' })));
          this.dispatch({ type: 'read', peer, upTo: data.upTo });
          break;
        }
        case 'typing': {
          const peer = data.from.toLowerCase();
          const until = Date.now() + 5000;
          this.dispatch({ type: 'typing', peer, until });
          setTimeout(() => { if (this.store.state.typing[peer] === until) this.dispatch({ type: 'typing', peer, until: 0 }); }, 5100);
          break;
        }
        case 'follow.created': this.dispatch({ type: 'follower', user: data.follower }); break;
        case 'user.deleted': await this.forgetDeleted(data.username); break;
        case 'block.created': this.dispatch({ type: 'forget', peer: data.username.toLowerCase() }); break; // blocked elsewhere: out of the lists
        case 'tweet.created': this.dispatch({ type: 'tweet', tweet: data }); break;
        case 'events.pruned': await this.refresh(); break;
        case 'conversation.updated': // marked, accepted or declined elsewhere, or encrypted
          if (!data.lastMessage && !data.group) { // encrypted before its first message: not listed yet
            if (data.encrypted) this.dispatch({ type: 'encrypted', peer: peerOf(data) });
          } else if (data.declined) this.dispatch({ type: 'forget', peer: peerOf(data) }); else await this.showConversations([data], Date.now());
          break;
        case 'device.changed': this.encryption().then((e) => e.deviceChanged(data.user), () => {}); break;
        default: break;
      }
    }
    const last = events.reduce((seq, e) => (e.seq != null && e.seq > seq ? e.seq : seq), 0);
    if (last) await this.db.put('values', last, 'lastSeq');
  }

  /** `username` deleted their account: the conversation under that name (free for someone
   * else now) leaves this browser; the server keeps it as `deleted-ID`, which the refresh brings. */
  async forgetDeleted(username) {
    const peer = username.toLowerCase();
    const stored = await this.db.messagesWith(peer);
    await Promise.all(stored.map((m) => this.db.delete('messages', m.key)));
    this.dispatch({ type: 'forget', peer });
    await this.refresh();
  }

  /** Makes the message `id` with `peer` a tombstone (`removed`: by the operators), here and in
   * this browser's database. */
  async unsent(peer, id, removed = false) {
    peer = peer.toLowerCase();
    const stored = (await this.db.messagesWith(peer)).find((m) => m.id === id);
    if (stored && !isTombstone(stored, removed)) await this.db.put('messages', tombstone(stored, removed));
    this.dispatch({ type: 'deleted', peer, id, removed });
  }

  /** The server id of a message the outbox refers to (`{id}`, or `{clientMessageId}` for one
   * of mine): null while it waits in the outbox, an error when it is gone. */
  async resolve(ref) {
    if (ref.id) return ref.id;
    const stored = await this.db.get('messages', `${this.me.toLowerCase()}/${ref.clientMessageId}`);
    if (stored?.id) return stored.id;
    if (await this.db.get('outbox', ref.clientMessageId)) return null;
    throw new ApiError(404, 'not_found', 'That message is no longer here.');
  }

  /** What an accepted reaction or unsend changes here before its event arrives. */
  async applied(item, id) {
    if (item.kind === 'unsend') return this.unsent(item.peer, id);
    const stored = (await this.db.messagesWith(item.peer)).find((m) => m.id === id);
    if (stored) await this.storeMessages([withReaction(stored, this.me, item.emoji, item.on)]);
  }

  /** A reference to `m` that the outbox can resolve once `m` is sent. */
  static ref(m) { return m.id ? { id: m.id } : { clientMessageId: m.clientMessageId }; }

  /** Adds (`on`) or removes my reaction `emoji` on `m`; waits behind `m` until it is sent. */
  react(peer, m, emoji, on) { return this.outbox.act(peer, newClientId(), UserSession.ref(m), { kind: 'react', emoji, on }); }

  /** Replaces the text of my message `m`; false (with the banner) when it cannot be. */
  async edit(peer, m, text) {
    const trimmed = text.trim();
    if (!trimmed || trimmed === m.text) return true;
    if ([...trimmed].length > MAX_MESSAGE) { this.fail(new ApiError(422, 'too_long', ''), { limit: MAX_MESSAGE }); return false; }
    await this.outbox.act(peer, newClientId(), UserSession.ref(m), { kind: 'edit', text: trimmed });
    return true;
  }

  unsend(peer, m) { return this.outbox.act(peer, newClientId(), UserSession.ref(m), { kind: 'unsend' }); }

  /** Pins, unpins, mutes or unmutes (`kind`) `peer`'s conversation: shown once queued. */
  markConversation(peer, kind) { return this.outbox.act(peer, newClientId(), null, { kind }); }

  /** Reads the message requests waiting for my answer (`request` rows, left out of the list). */
  async requests() {
    try { await this.showConversations((await this.api.call('GET', '/v1/conversations?limit=100&requests=true')).items); } catch (error) { this.fail(error); }
  }

  /** Opens the conversation with `peer` and pages back until the message `id` is loaded (at
   * most 10,000 messages back); true when it is. */
  async openAt(peer, id) {
    await this.openConversation(peer);
    const shown = (m) => { const top = newest(this.store.state.history[peer]); return !top || Number(m.id) >= top.low; };
    const has = () => (this.store.state.messages[peer] || []).some((m) => m.id === id && shown(m));
    for (let page = 0; page < 100 && !has(); page++) if (!(await this.loadOlder(peer))) break;
    return has();
  }

  /** Changes the stored history stretches of `peer`'s conversation, one change at a time (a
   * page and the stream may both be writing), and shows them, with `messages` when given (the
   * page they came in: shown together, a page never shows beside the wrong stretches). */
  updateHistory(peer, change, messages = null) {
    this.historyWrites = this.historyWrites.then(async () => {
      const history = change(await this.db.history(peer));
      await this.db.putHistory(peer, history);
      this.dispatch(messages ? { type: 'messages', messages, peer, history } : { type: 'history', peer, history });
    }).catch(() => {});
    return this.historyWrites;
  }

  /** Reads one page of `peer`'s history at `bound` (`{}`, `{before}` or `{after}`), stores it
   * and adds its stretch: it joins what it meets and leaves a gap where it meets nothing. */
  async readPage(peer, bound) {
    const query = bound.before != null ? `&before=${bound.before}` : bound.after != null ? `&after=${bound.after}` : '';
    const page = await this.api.messages(peer, query);
    const messages = (await this.opened(page.items)).map((m) => localMessage(this.me, m, 'delivered'));
    await this.db.putMany('messages', messages);
    await this.updateHistory(peer, (h) => addPage(h, page.items.map((m) => Number(m.id)), bound, PAGE), messages);
  }

  /** Shows what this browser has for `peer`, then the newest page from the server. */
  async openConversation(peer) {
    const [local, history] = await Promise.all([this.db.messagesWith(peer), this.db.history(peer)]);
    this.dispatch({ type: 'history', peer, history });
    if (local.length) this.dispatch({ type: 'messages', messages: local });
    try {
      await this.readPage(peer, {});
      this.markRead(peer);
    } catch (error) {
      this.fail(error, { user: peer });
    }
  }

  /** Reads the gap below the newest stretch shown (the page just older than its oldest
   * message); false when it starts at the first message. */
  async loadOlder(peer) {
    const top = newest(this.store.state.history[peer]);
    if (!top || reachesFirst(top)) return false;
    try {
      await this.readPage(peer, { before: top.low });
      return true;
    } catch (error) { this.fail(error, { peer }); return false; }
  }

  async markRead(peer) {
    const list = this.store.state.messages[peer] || [];
    const last = [...list].reverse().find((m) => m.state === 'received');
    const c = this.store.state.conversations[peer];
    if (!last || document.hidden || (c && c.unreadCount === 0 && this.readUpTo?.[peer] === last.id)) return;
    (this.readUpTo ||= {})[peer] = last.id;
    this.dispatch({ type: 'unread', peer });
    this.broadcast({ kind: 'read', peer });
    try { await this.api.markRead(peer, last.id); } catch { delete this.readUpTo[peer]; }
  }

  /** Queues a message (`replyTo`: the message it answers; `files`: its attachments); false
   * (with the banner) when it cannot be sent as it is. */
  async send(peer, text, { replyTo = null, files = [] } = {}) {
    const trimmed = text.trim();
    if (!trimmed && !files.length) return false;
    if (isDeletedAccount(peer)) { this.fail(new ApiError(403, 'account_deleted', '')); return false; }
    if ([...trimmed].length > MAX_MESSAGE) {
      this.fail(new ApiError(422, 'too_long', ''), { limit: MAX_MESSAGE });
      return false;
    }
    if (files.length > MAX_ATTACHMENTS) { this.fail(new ApiError(422, 'too_many_files', '')); return false; }
    const large = files.find((f) => f.size > MAX_MEDIA_BYTES);
    if (large) { this.fail(new ApiError(413, 'media_too_large', ''), { name: large.name }); return false; }
    await this.outbox.add(peer.toLowerCase(), newClientId(), trimmed, { replyTo: replyTo && UserSession.ref(replyTo), files });
    return true;
  }

  retry(clientMessageId) { return this.outbox.retry(clientMessageId); }

  /** Starts a conversation: checks that the user exists (when the server can say). */
  async userExists(username) {
    try { await this.api.user(username); return true; } catch (error) {
      if (error.status === 404) { this.fail(error, { user: username }); return false; }
      return true;
    }
  }

  typing(peer) {
    if (Date.now() - this.typingSent < 3000) return;
    this.typingSent = Date.now();
    this.api.typing(peer).catch(() => {});
  }

  /** Whether the viewer follows `username` (null when the server cannot say now). */
  async follows(username) {
    try { return (await this.api.user(username)).followedByYou; } catch { return null; }
  }

  async follow(username, on) {
    try { await this.api.follow(username, on); return true; } catch (error) { this.fail(error, { user: username }); return false; }
  }

  async block(peer) {
    if (!confirm(`Block ${peer}? They can no longer message or follow you.`)) return;
    try { await this.api.block(peer); this.dispatch({ type: 'banner', banner: `You blocked ${peer}.` }); return true; } catch (error) { this.fail(error, { user: peer }); }
  }

  async report(peer) {
    if (!confirm(`Report ${peer} to the server's operators?`)) return;
    try { await this.api.report(peer, undefined, 'abuse'); this.dispatch({ type: 'banner', banner: `Thank you: your report about ${peer} was sent.` }); } catch (error) { this.fail(error, { user: peer }); }
  }

  /** Ends the session: on the server (`remote`), and this user's data in this browser. */
  async signOut(remote = true, heard = false) {
    if (this.ended) return;
    this.ended = true;
    if (remote) await this.api.logout().catch(() => {});
    this.stream?.stop();
    removeEventListener('online', this.onlineListener);
    if (!heard) this.broadcast({ kind: 'logout' });
    this.channel?.close();
    this.db?.close();
    this.media.clear();
    await LocalDB.wipe(this.username);
    // The server forgets the device with the session; its keys go too.
    await import('./device-keys.js').then((m) => m.wipeDeviceKeys(this.username)).catch(() => {});
    const saved = UserSession.saved();
    if (saved && saved.username === this.username) localStorage.removeItem(SAVED);
    this.onSignedOut(remote || heard ? null : 'Your session has ended. Log in again.');
  }
}
