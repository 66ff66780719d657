// Sends what the user did, exactly once and in order: each message, and each action on a
// message (react, edit, unsend) or a conversation (pin, mute, their undoing), waits in the
// IndexedDB outbox under a client id until the server has it (every call is idempotent, so a
// retry after a cut, from this tab, a reopened tab or a second tab, applies it once). A
// message's attachments are uploaded first, from the files kept in IndexedDB, so a reload
// resumes them. An action on a message still in the outbox waits behind it. Refusals (not
// allowed, too long) mark a message failed for a retry by hand, and drop an action; an
// unreachable server keeps everything waiting.
import { ApiError } from './api.js';

export class Outbox {
  /** `resolve(ref)`: the server id of a message referred to as `{id}` or, for one of mine, as
   * `{clientMessageId}` (null while it has none). */
  constructor({ api, db, resolve, onSent, onApplied, onChange, onRefused, onProgress, onUploaded }) {
    Object.assign(this, { api, db, resolve, onSent, onApplied, onChange, onRefused, onProgress, onUploaded });
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
        if (!item.kind || item.kind === 'message') await this.db.put('outbox', { ...item, failed: true, error: error.code });
        else await this.db.delete('outbox', item.clientMessageId);
        this.onRefused(error, item);
      }
      await this.onChange();
    }
  }

  async sendMessage(item) {
    for (const [index, attachment] of (item.attachments || []).entries()) {
      if (attachment.mediaId) continue;
      // Loaded here, out of the first load; a server out of reach keeps the message waiting.
      const { uploadMedia } = await import('./media-upload.js').catch(() => { throw new ApiError(0, 'unreachable', ''); });
      const file = await this.db.get('files', attachment.clientMediaId);
      // The browser reports progress many times a second; the view redraws the row only when
      // the whole percent changes.
      let shown = -1;
      const media = await uploadMedia(this.api, attachment, file, (sent) => {
        const percent = attachment.size > 0 ? Math.floor((sent * 100) / attachment.size) : 100;
        if (percent !== shown) { shown = percent; this.onProgress(attachment.clientMediaId, sent); }
      });
      this.onUploaded(media, file);
      item = { ...item, attachments: item.attachments.map((a, i) => (i === index ? { ...a, mediaId: media.id } : a)) };
      await this.db.put('outbox', item);
      await this.onChange();
    }
    const extra = {};
    if (item.attachments?.length) extra.mediaIds = item.attachments.map((a) => a.mediaId);
    if (item.replyTo) {
      const replyTo = await this.resolve(item.replyTo);
      if (replyTo) extra.replyTo = replyTo;
    }
    const message = await this.api.send(item.peer, item.clientMessageId, item.text, extra);
    await this.onSent(message);
    for (const a of item.attachments || []) await this.db.delete('files', a.clientMediaId);
  }

  /** Applies an action; false while its message has no server id yet. */
  async apply(item) {
    if (!item.target) { await this.api.mark(item.peer, item.kind); return true; } // a pin or mute
    const id = await this.resolve(item.target);
    if (!id) return false;
    if (item.kind === 'react') await this.api.react(item.peer, id, item.emoji, item.on);
    else if (item.kind === 'edit') { await this.onSent(await this.api.edit(item.peer, id, item.text)); return true; }
    else await this.api.unsend(item.peer, id);
    await this.onApplied(item, id);
    return true;
  }
}
