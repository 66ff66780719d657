// The session's side of encrypted conversations (API.md part 4), loaded after sign-in, out of
// the first load: this browser's device (this-device.js), the members' devices
// (member-devices.js), sealing a message's plaintext to them (the outbox sends it), and
// opening what arrives (`reveal`), for display, notifications and local search. An opened
// message keeps its text in the local database beside its envelope's signature, so it is
// opened once; my own messages are not sealed to the device that sent them, so their text is
// the one the outbox sealed (kept in the outbox item until the server has it, then in the
// local database). Nothing here shows the text of an envelope that failed a check.
import { sealEnvelope, openEnvelope, directConversationId, groupConversationId } from './envelope.js';
import { openingKeys } from './device-keys.js';
import { encryptAttachment } from './attachment-cipher.js';
import { registerDevice } from './this-device.js';
import { MemberDevices } from './member-devices.js';
import { ApiError, pathOf } from './api.js';

const lower = (name) => name.toLowerCase();
const DAY_MS = 24 * 60 * 60 * 1000;
const utf8 = (text) => new TextEncoder().encode(text);

/** What a message shows when it was not opened: `sealed` is 'unverifiable' (a check failed),
 * 'not-sealed' (sent before this device was added) or 'pending' (not opened yet: offline). */
const closed = (m, sealed) => ({ ...m, envelope: undefined, text: '', replyTo: null, media: [], sealed, sealedSig: m.envelope.signature });

/** The local form of a plaintext's media entries (media-view.js shows `contentType`,
 * `filename`, `size`; `sealed` keeps the entry, with its key, for the download and an edit). */
function mediaOf(entries) {
  if (!Array.isArray(entries)) return [];
  return entries.filter((e) => e && typeof e === 'object' && (typeof e.id === 'string' || typeof e.id === 'number') && typeof e.key === 'string')
    .map((e) => ({ id: String(e.id), contentType: typeof e.contentType === 'string' ? e.contentType : 'application/octet-stream',
      filename: typeof e.name === 'string' ? e.name : null, size: Number.isSafeInteger(e.byteCount) ? e.byteCount : 0, sealed: e }));
}

/** `m` (an API Message) with the plaintext `p` (parsed) it holds; null when `p` is not a
 * message's plaintext. */
function opened(m, p, signature) {
  if (!p || typeof p !== 'object' || typeof p.text !== 'string') return null;
  return { ...m, envelope: undefined, text: p.text, replyTo: typeof p.replyTo === 'string' ? p.replyTo : null, media: mediaOf(p.media), sealed: 'opened', sealedSig: signature };
}

export function start(session) { return new Encryption(session); }

class Encryption {
  constructor(session) {
    this.session = session;
    this.api = session.api;
    this.db = session.db;
    this.ids = new Map(); // username (lowercased) → user id (a string)
    this.devices = new MemberDevices({ api: this.api, db: this.db, onChange: (user, change) => this.changed(user, change) });
    this.registered = false;
    this.device = this.register();
    this.device.catch(() => {});
    // A tab left open for days rotates its key too (register rotates when due); never once
    // the session has ended (its keys are wiped: registering would make new ones).
    this.timer = setInterval(() => {
      if (this.session.ended) { clearInterval(this.timer); return; }
      this.device = this.register();
      this.device.catch(() => {});
    }, DAY_MS);
  }

  /** Registers this browser's device; resolves to it even when the server could not be told
   * (it opens what was sealed to it all the same; sealing tries again). */
  async register() {
    try {
      const device = await registerDevice(this.api, this.session.me);
      this.registered = true;
      return device;
    } catch (error) {
      if (!error.device) throw new ApiError(422, 'encryption_unsupported', String(error?.message || error));
      this.refused = error.transient ? null : error; // a refusal (too many devices) is told when sealing
      return error.device;
    }
  }

  /** This browser's device; with `registered`, once the server has it (else the error). */
  async own(registered = false) {
    if (registered && !this.registered) {
      await this.device.catch(() => {});
      if (!this.registered) this.device = this.register();
    }
    const device = await this.device;
    if (registered && !this.registered) throw this.refused || new ApiError(0, 'unreachable', 'The device is not registered yet.');
    return device;
  }

  /** The user id of `username` (the conversation ids are made of them). */
  async userId(username) {
    const key = lower(username);
    if (!this.ids.has(key)) {
      const state = this.session.store.state;
      const known = lower(state.me?.username || '') === key ? state.me.id : state.conversations[key]?.peer?.id;
      this.ids.set(key, String(known ?? (lower(this.session.me) === key ? await this.api.me() : await this.api.user(username)).id));
    }
    return this.ids.get(key);
  }

  /** The id an envelope of the conversation `peer` (a username, or `g:ID`) is bound to. */
  async conversationId(peer) {
    if (peer.startsWith('g:')) return groupConversationId(peer.slice(2));
    return directConversationId(await this.userId(this.session.me), await this.userId(peer));
  }

  /** The usernames of the members of `peer`'s conversation, as known here (the server's 409
   * names the others). */
  async members(peer) {
    if (!peer.startsWith('g:')) return [this.session.me, peer];
    const id = peer.slice(2);
    const state = this.session.store.state;
    let group = state.groups?.[id] || state.conversations[peer]?.group;
    if (!group?.members) group = await this.api.call('GET', pathOf(peer));
    return group.members.map((m) => m.user.username);
  }

  /**
   * Seals `plaintext` (the exact JSON text) as the message `clientMessageId` of `peer`'s
   * conversation, to every current device of its members but this one: those known here, or
   * `listed` (a 409's devices by username, learnt first). Resolves to {envelope, plaintext}.
   */
  async seal(peer, clientMessageId, plaintext, listed = null) {
    const device = await this.own(true);
    const conversationId = await this.conversationId(peer);
    const recipients = [];
    if (listed) {
      for (const [user, devices] of Object.entries(listed)) {
        const checked = await this.devices.learn(user, devices);
        if (checked.length !== devices.length) {
          throw new ApiError(409, 'device_unverified', `A device of ${user} does not prove its keys.`, user);
        }
        recipients.push(...checked);
      }
    } else {
      for (const user of await this.members(peer)) recipients.push(...await this.devices.current(user));
    }
    const { envelope } = await sealEnvelope({
      plaintextBytes: utf8(plaintext), conversationId, clientMessageId, senderDeviceId: device.id,
      senderIdentityPrivateKey: device.identity.privateKey,
      recipients: recipients.filter((d) => d.id !== device.id).map((d) => ({ id: d.id, encryptionKey: d.encryptionKey })),
    });
    return { envelope, plaintext };
  }

  /** The plaintext JSON of a message: `text`, `replyTo` (a server id) when it answers one,
   * `media` the entries of its encrypted attachments. */
  plaintext(text, replyTo, media) {
    return JSON.stringify(replyTo ? { text, replyTo, media } : { text, media });
  }

  /** Encrypts an attachment before its upload: {upload (a Blob of ciphertext), media (its
   * plaintext entry but its id)}. */
  encryptFile(file, attachment) {
    return encryptAttachment(file, { contentType: attachment.type || file.type || 'application/octet-stream', name: attachment.name });
  }

  /** `message` (the server's answer to my send or edit) with the plaintext I sealed. */
  sent(message, plaintext) {
    return opened(message, JSON.parse(plaintext), message.envelope?.signature) || closed(message, 'unverifiable');
  }

  /** `messages` (API Messages) with what their envelopes hold (the others as they are). */
  async reveal(messages) {
    const sealed = messages.filter((m) => m?.envelope && !m.deleted);
    if (!sealed.length) return messages;
    const device = await this.device.catch(() => null);
    const keys = sealed.map((m) => `${lower(m.sender)}/${m.clientMessageId}`);
    const stored = new Map((await this.db.getMany('messages', keys)).filter(Boolean).map((m) => [m.key, m]));
    let outbox = null; // the outbox's sealed items by signature, read when one of mine is not stored yet
    const open = async (m) => {
      const signature = m.envelope.signature;
      const local = stored.get(`${lower(m.sender)}/${m.clientMessageId}`);
      if (local?.sealed === 'opened' && local.sealedSig === signature) {
        return { ...m, envelope: undefined, text: local.text, replyTo: local.replyTo, media: local.media, sealed: 'opened', sealedSig: signature };
      }
      if (!device) return closed(m, 'pending');
      if (m.envelope.senderDevice === device.id) {
        outbox ||= new Map((await this.db.all('outbox')).filter((i) => i.sealed).map((i) => [i.sealed.envelope.signature, i.sealed.plaintext]));
        if (outbox.has(signature)) return this.sent(m, outbox.get(signature));
      }
      let senderIdentityKey;
      try {
        senderIdentityKey = await this.devices.identityKey(m.sender, m.envelope.senderDevice);
      } catch {
        return closed(m, 'pending'); // the devices could not be read now
      }
      if (!senderIdentityKey) return closed(m, 'unverifiable');
      const conversationId = m.group ? groupConversationId(m.group) : directConversationId(await this.userId(m.sender), await this.userId(m.recipient));
      const result = await openEnvelope({ envelope: m.envelope, conversationId, clientMessageId: m.clientMessageId, deviceId: device.id,
        encryptionKeys: openingKeys(device), senderIdentityKey });
      if (result.status === 'opened') return opened(m, result.plaintext, signature) || closed(m, 'unverifiable');
      return closed(m, result.status === 'not-sealed-to-this-device' ? 'not-sealed' : 'unverifiable');
    };
    const done = new Map(await Promise.all(sealed.map(async (m) => [m, await open(m).catch(() => closed(m, 'pending'))])));
    return messages.map((m) => done.get(m) || m);
  }

  /** Reads again the devices of the members of `peer`'s conversation (opened on screen; the
   * server tells device.changed to the user alone): a change since they were last read shows
   * as a notice. Lists read in the last minute are taken as they are. */
  async watch(peer) {
    try {
      for (const user of await this.members(peer)) await this.devices.current(user, 60 * 1000);
    } catch { /* offline: read when sealing */ }
  }

  /** A `device.changed` event: `user`'s devices are read again if they matter here. */
  async deviceChanged(user) {
    if (lower(user) === lower(this.session.me) || await this.devices.holds(user)) await this.devices.refresh(user).catch(() => {});
  }

  /** `user`'s devices changed: a notice in each encrypted conversation they are in. */
  changed(user, { added, removed }) {
    const state = this.session.store.state;
    const mine = lower(user) === lower(this.session.me);
    const count = (n, what) => (n === 1 ? `a device was ${what}` : `${n} devices were ${what}`);
    const what = [added && count(added, 'added'), removed && count(removed, 'removed')].filter(Boolean).join(' and ');
    const peers = Object.keys(state.encrypted || {}).filter((peer) => {
      if (mine) return true;
      if (!peer.startsWith('g:')) return peer === lower(user);
      const group = state.groups?.[peer.slice(2)] || state.conversations[peer]?.group;
      return !!group?.members?.some((m) => lower(m.user.username) === lower(user));
    });
    const text = mine ? `Your devices changed: ${what}.` : `${user}'s devices changed: ${what}.`;
    if (peers.length) this.session.dispatch({ type: 'notice', peers, notice: { text, at: new Date().toISOString() } });
  }

  /** The safety number of the direct conversation with `peer` (safety-number.js), from both
   * users' current devices. */
  async safetyNumber(peer) {
    const { safetyNumber } = await import('./safety-number.js');
    const state = this.session.store.state;
    const name = state.conversations[peer]?.peer?.username || (await this.api.user(peer)).username;
    const [mine, theirs] = await Promise.all([this.devices.refresh(this.session.me), this.devices.refresh(peer)]);
    return safetyNumber({ username: this.session.me, identityKeys: mine.map((d) => d.identityKey) },
      { username: name, identityKeys: theirs.map((d) => d.identityKey) });
  }
}

export { Encryption };
