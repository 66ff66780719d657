// Sends what the user did, exactly once and in order: each message, and each action on a
// message (react, edit, unsend) or a conversation (pin, mute, their undoing), waits in the
// IndexedDB outbox under a client id until the server has it (every call is idempotent, so a
// retry after a cut, from this tab, a reopened tab or a second tab, applies it once). A
// message's attachments are uploaded first, from the files kept in IndexedDB, so a reload
// resumes them. An action on a message still in the outbox waits behind it. Refusals (not
// allowed, too long) mark a message failed for a retry by hand, and drop an action; an
// unreachable server keeps everything waiting.
// In an encrypted conversation (encryption.js) a message is sealed when it is sent: each
// attachment is encrypted once (its ciphertext replaces the file here) and uploaded, then the
// plaintext is sealed and the envelope kept with the item, so a retry sends the same envelope;
// when the members' devices changed (409) it is sealed again to the ones the server lists.
// The plaintext stays in the outbox until the server has the message, as any message's does.
import { ApiError } from './api.js';

export class Outbox {
  /** `resolve(ref)`: the server id of a message referred to as `{id}` or, for one of mine, as
   * `{clientMessageId}` (null while it has none).
   * `encryption()`: encryption.js's instance, loaded on demand; `isEncrypted(peer)`: whether
   * the conversation is known to be encrypted; `onEncrypted(peer)`: the server said it is. */
  constructor({ api, db, resolve, onSent, onApplied, onChange, onRefused, onProgress, onUploaded, encryption, isEncrypted, onEncrypted }) {
    Object.assign(this, { api, db, resolve, onSent, onApplied, onChange, onRefused, onProgress, onUploaded, encryption, isEncrypted, onEncrypted });
    this.running = null;
    this.timer = null;
  }

  /** Queues a message; `files` (at most 4) are kept here until they are uploaded. */
  async add(peer, clientMessageId, text, { replyTo = null, files = [] } = {}) {
    const attachments = [];
    for (const file of files) {
      const clientMediaId = `${clientMessageId}-${attachments.length}`;
      await this.db.put('files', file, clientMediaId);
      attachments.push({ clientMediaId, name: file.name || 'file', type: file.type, size: file.size, mediaId: null });
    }
    await this.queue({ clientMessageId, kind: 'message', peer, text, replyTo, attachments });
  }

  /** Queues an action on a message: `{kind: 'react', emoji, on}`, `{kind: 'edit', text}` or
   * `{kind: 'unsend'}`, under an id of its own. */
  act(peer, clientId, target, action) { return this.queue({ clientMessageId: clientId, peer, target, ...action }); }

  async queue(item) {
    await this.db.put('outbox', { ...item, createdAt: new Date().toISOString(), failed: false });
    await this.onChange();
    this.flush();
  }

  async retry(clientMessageId) {
    const item = await this.db.get('outbox', clientMessageId);
    if (!item) return;
    await this.db.put('outbox', { ...item, failed: false, error: undefined });
    await this.onChange();
    this.flush();
  }

  /** Sends everything waiting, oldest first; one run at a time. */
  flush() {
    if (!this.running) this.running = this.send().finally(() => { this.running = null; });
    return this.running;
  }

  async send() {
    clearTimeout(this.timer);
    const waiting = (await this.db.all('outbox')).filter((i) => !i.failed).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const item of waiting) {
      try {
        if (!item.kind || item.kind === 'message') await this.sendMessage(item);
        else if (!(await this.apply(item))) continue; // its message is not sent yet
        await this.db.delete('outbox', item.clientMessageId);
      } catch (error) {
        if (error.transient) { this.timer = setTimeout(() => this.flush(), 3000); break; }
        if (error.status === 401) break;
        // As kept by the run (an attachment's ciphertext and key, the envelope), marked failed.
        if (!item.kind || item.kind === 'message') await this.db.put('outbox', { ...(await this.db.get('outbox', item.clientMessageId) || item), failed: true, error: error.code });
        else await this.db.delete('outbox', item.clientMessageId);
        this.onRefused(error, item);
      }
      await this.onChange();
    }
  }

  async sendMessage(item) {
    if (item.sealed || item.attachments?.some((a) => a.sealedMedia) || this.isEncrypted(item.peer)) return this.sendSealed(item);
    item = await this.upload(item, null);
    const extra = {};
    if (item.attachments?.length) extra.mediaIds = item.attachments.map((a) => a.mediaId);
    if (item.replyTo) {
      const replyTo = await this.resolve(item.replyTo);
      if (replyTo) extra.replyTo = replyTo;
    }
    let message;
    try {
      message = await this.api.send(item.peer, item.clientMessageId, item.text, extra);
    } catch (error) {
      if (error.code !== 'encryption_required') throw error;
      this.onEncrypted(item.peer); // turned on since this client last heard
      return this.sendSealed(item);
    }
    await this.onSent(message);
    await this.dropFiles(item);
  }

  /** Uploads the attachments not uploaded yet; with `e2ee` (encryption.js) each is encrypted
   * first, once: its ciphertext replaces the file here, so an upload resumed after a reload
   * sends the same bytes. One uploaded in the clear before the conversation was known to be
   * encrypted is uploaded again, encrypted, under an id of its own (the server drops the
   * unused copy after a day). Resolves to the item as kept. */
  async upload(item, e2ee) {
    for (let index = 0; index < (item.attachments || []).length; index++) {
      let attachment = item.attachments[index];
      if (attachment.mediaId && (!e2ee || attachment.sealedMedia)) continue;
      // Loaded here, out of the first load; a server out of reach keeps the message waiting.
      const { uploadMedia } = await import('./media-upload.js').catch(() => { throw new ApiError(0, 'unreachable', ''); });
      let file = await this.db.get('files', attachment.clientMediaId);
      let plain = file;
      if (e2ee && !attachment.sealedMedia) {
        if (!file) throw new ApiError(422, 'invalid_media', `The file ${attachment.name} is no longer in this browser. Attach it again.`);
        const { upload, media } = await e2ee.encryptFile(file, attachment);
        const clientMediaId = attachment.mediaId ? `${attachment.clientMediaId}-e` : attachment.clientMediaId;
        await this.db.put('files', upload, clientMediaId);
        if (clientMediaId !== attachment.clientMediaId) await this.db.delete('files', attachment.clientMediaId);
        attachment = { ...attachment, clientMediaId, mediaId: null, sealedMedia: media };
        item = await this.keep({ ...item, attachments: item.attachments.map((a, i) => (i === index ? attachment : a)) });
        file = upload;
      } else if (attachment.sealedMedia) plain = null; // the ciphertext, kept from an earlier run
      // The browser reports progress many times a second; the view redraws the row only when
      // the whole percent changes.
      let shown = -1;
      const as = attachment.sealedMedia ? { type: 'application/octet-stream' } : { type: attachment.type, filename: attachment.name };
      const media = await uploadMedia(this.api, attachment, file, (sent) => {
        const percent = attachment.size > 0 ? Math.min(100, Math.floor((sent * 100) / attachment.size)) : 100;
        if (percent !== shown) { shown = percent; this.onProgress(attachment.clientMediaId, sent); }
      }, as);
      if (plain) this.onUploaded(media, plain);
      item = await this.keep({ ...item, attachments: item.attachments.map((a, i) => (i === index ? { ...attachment, mediaId: media.id } : a)) });
      await this.onChange();
    }
    return item;
  }

  async keep(item) {
    await this.db.put('outbox', item);
    return item;
  }

  async dropFiles(item) {
    for (const a of item.attachments || []) await this.db.delete('files', a.clientMediaId);
  }

  /** A message of an encrypted conversation: its attachments encrypted and uploaded, its
   * plaintext ({text, replyTo?, media}) sealed once and kept, then sent. */
  async sendSealed(item) {
    const e2ee = await this.sealer();
    item = await this.upload(item, e2ee);
    const mediaIds = (item.attachments || []).map((a) => a.mediaId);
    if (!item.sealed) {
      const replyTo = item.replyTo ? await this.resolve(item.replyTo) : null;
      const media = (item.attachments || []).map((a) => ({ ...a.sealedMedia, id: a.mediaId }));
      const plaintext = e2ee.plaintext(item.text, replyTo, media);
      item = await this.keep({ ...item, sealed: await e2ee.seal(item.peer, item.clientMessageId, plaintext) });
    }
    let message;
    try {
      message = await this.sealedCall(item, item.clientMessageId, e2ee, (envelope) => this.api.sendSealed(item.peer, item.clientMessageId, envelope, mediaIds));
    } catch (error) {
      // An earlier envelope was stored (its answer lost in a cut), and the retry met a changed
      // device: the server checks the devices before it compares a retry, so it answered 409
      // devices_changed, and the envelope sealed again is another message under the same id.
      // The stored one holds the same plaintext: it is the message sent.
      if (error.code !== 'client_id_reused') throw error;
      message = (await this.api.messages(item.peer)).items.find((m) => m.clientMessageId === item.clientMessageId && m.envelope);
      if (!message) throw error;
    }
    await this.onSent(e2ee.sent(message, item.sealed.plaintext));
    await this.dropFiles(item);
  }

  /** A new envelope for my encrypted message `target` (stored here): the new text, the same
   * reply and attachments, sealed under its client message id. Resolves to the message. */
  async editSealed(item, target, id) {
    const e2ee = await this.sealer();
    if (!item.sealed) {
      const plaintext = e2ee.plaintext(item.text, target.replyTo, (target.media || []).map((m) => m.sealed).filter(Boolean));
      item = await this.keep({ ...item, sealed: await e2ee.seal(item.peer, target.clientMessageId, plaintext) });
    }
    const message = await this.sealedCall(item, target.clientMessageId, e2ee, (envelope) => this.api.editSealed(item.peer, id, envelope));
    return e2ee.sent(message, item.sealed.plaintext);
  }

  /** Calls `call(envelope)` with the item's envelope; when the members' devices changed since
   * it was sealed, seals the same plaintext again to the devices the 409 lists, keeps it, and
   * calls again (twice at most). */
  async sealedCall(item, clientMessageId, e2ee, call) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(item.sealed.envelope);
      } catch (error) {
        if (error.code !== 'devices_changed' || !error.devices || attempt >= 2) throw error;
        item.sealed = await e2ee.seal(item.peer, clientMessageId, item.sealed.plaintext, error.devices);
        await this.keep(item);
      }
    }
  }

  /** encryption.js's instance; a module that cannot be loaded now keeps the item waiting. */
  async sealer() {
    try {
      return await this.encryption();
    } catch (error) {
      throw error instanceof ApiError ? error : new ApiError(0, 'unreachable', '');
    }
  }

  /** Applies an action; false while its message has no server id yet. */
  async apply(item) {
    if (!item.target) { await this.api.mark(item.peer, item.kind); return true; } // a pin or mute
    const id = await this.resolve(item.target);
    if (!id) return false;
    if (item.kind === 'react') await this.api.react(item.peer, id, item.emoji, item.on);
    else if (item.kind === 'edit') {
      // An encrypted message gets a new envelope; a message sent in the clear before the
      // conversation was encrypted keeps being edited in the clear.
      const target = (await this.db.messagesWith(item.peer)).find((m) => m.id === id);
      if (item.sealed || target?.sealed) await this.onSent(await this.editSealed(item, target, id));
      else await this.onSent(await this.api.edit(item.peer, id, item.text));
      return true;
    }
    else await this.api.unsend(item.peer, id);
    await this.onApplied(item, id);
    return true;
  }
}
