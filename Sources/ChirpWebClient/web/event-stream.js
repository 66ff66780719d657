// The user's event stream: a WebSocket on /v1/events/stream (token in `?token=`, resuming
// after the last applied seq), and a long-poll on /v1/events when the socket keeps failing.
// Events are handed to `apply` in order, in batches; `onMode` hears
// 'websocket' | 'long-poll' | 'offline', and `onUnauthorized` a token the server refused.

export class EventStream {
  constructor({ api, since, apply, onMode, onUnauthorized }) {
    Object.assign(this, { api, since, apply, onMode, onUnauthorized });
    this.stopped = false;
    this.failures = 0;
    this.queue = Promise.resolve();
  }

  start() { this.connect(); }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }

  /** Applies events after `since`, in order, skipping any already applied; events that
   * arrive while a batch is being applied form the next batch. */
  deliver(events) {
    (this.pending ||= []).push(...events);
    this.queue = this.queue.then(async () => {
      if (this.stopped) return;
      const batch = this.pending.filter((e) => e.seq == null || e.seq > this.since);
      this.pending = [];
      if (!batch.length) return;
      await this.apply(batch);
      for (const e of batch) if (e.seq != null && e.seq > this.since) this.since = e.seq;
    }).catch((e) => console.error('apply failed', e));
    return this.queue;
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}/v1/events/stream?since=${this.since}&token=${encodeURIComponent(this.api.token)}`;
    let opened = false;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => { opened = true; this.failures = 0; this.onMode('websocket'); };
    socket.onmessage = (message) => { try { this.deliver([JSON.parse(message.data)]); } catch { /* not an event */ } };
    socket.onclose = () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      if (opened) this.onMode('offline'); // a socket that never opened: the poll below tells
      this.failures = opened ? 1 : this.failures + 1;
      if (this.failures >= 3) this.poll(); else this.retry(() => this.connect());
    };
  }

  retry(next) {
    const delay = Math.min(5000, 250 * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.timer = setTimeout(next, delay);
  }

  /** Long-polls until it has worked for a while, then tries the socket again. */
  async poll() {
    const until = Date.now() + 30000;
    let wait = 0; // the first answer comes at once: it tells whether the server is there
    while (!this.stopped) {
      try {
        const reply = await this.api.events(this.since, wait);
        wait = 20;
        this.failures = 0;
        this.onMode('long-poll');
        await this.deliver(reply.events);
        if (Date.now() > until) break;
      } catch (error) {
        if (error.status === 401) { this.onUnauthorized(); return; }
        this.onMode('offline');
        this.failures += 1;
        await new Promise((resolve) => { this.timer = setTimeout(resolve, Math.min(5000, 250 * 2 ** this.failures)); });
      }
    }
    this.connect();
  }
}
