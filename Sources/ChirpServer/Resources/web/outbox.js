// Sends what the user wrote, exactly once: each message waits in the IndexedDB outbox under
// its client message id until the server has it (the PUT is idempotent, so a retry after a
// cut, from this tab, a reopened tab or a second tab, stores it once). Refusals (not allowed,
// too long) mark it failed for a retry by hand; an unreachable server keeps it waiting.

export class Outbox {
  constructor({ api, db, onSent, onChange, onRefused }) {
    Object.assign(this, { api, db, onSent, onChange, onRefused });
    this.running = null;
    this.timer = null;
  }

  async add(peer, clientMessageId, text) {
    await this.db.put('outbox', { clientMessageId, peer, text, createdAt: new Date().toISOString(), failed: false });
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

  /** Sends every waiting message, oldest first; one run at a time. */
  flush() {
    if (!this.running) this.running = this.send().finally(() => { this.running = null; });
    return this.running;
  }

  async send() {
    clearTimeout(this.timer);
    const waiting = (await this.db.all('outbox')).filter((i) => !i.failed).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const item of waiting) {
      try {
        const message = await this.api.send(item.peer, item.clientMessageId, item.text);
        await this.onSent(message);
        await this.db.delete('outbox', item.clientMessageId);
      } catch (error) {
        if (error.transient) { this.timer = setTimeout(() => this.flush(), 3000); break; }
        if (error.status === 401) break;
        await this.db.put('outbox', { ...item, failed: true, error: error.code });
        this.onRefused(error, item);
      }
      await this.onChange();
    }
  }
}
