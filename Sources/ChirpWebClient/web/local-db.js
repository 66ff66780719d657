// One user's data in this browser: an IndexedDB database per user ("chirp-<username>") with
// the messages seen, the outbox (unsent messages, keyed by their client message id) and small
// values (last applied event seq, conversations, timeline, each conversation's history
// stretches under `history:<peer>`), and the files of attachments not
// uploaded yet (keyed by their client media id, so an upload survives a reload). The session's
// only writer.

import { emptyHistory } from './history-stretches.js';

const VERSION = 2;
const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

export class LocalDB {
  static name(username) { return `chirp-${username.toLowerCase()}`; }

  static async open(username) {
    const open = indexedDB.open(LocalDB.name(username), VERSION);
    open.onupgradeneeded = (event) => {
      const db = open.result;
      if (event.oldVersion < 1) {
        db.createObjectStore('messages', { keyPath: 'key' }).createIndex('peer', 'peer');
        db.createObjectStore('outbox', { keyPath: 'clientMessageId' });
        db.createObjectStore('values');
      }
      if (event.oldVersion < 2) db.createObjectStore('files');
    };
    return new LocalDB(await request(open));
  }

  /** Deletes everything stored for `username` in this browser. */
  static async wipe(username) {
    const r = indexedDB.deleteDatabase(LocalDB.name(username));
    await new Promise((resolve) => { r.onsuccess = r.onerror = r.onblocked = () => resolve(); });
  }

  constructor(db) { this.db = db; }
  close() { this.db.close(); }

  async run(stores, mode, body) {
    const tx = this.db.transaction(stores, mode);
    const result = body(tx);
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = tx.onabort = () => reject(tx.error); });
    return result instanceof IDBRequest ? result.result : result;
  }

  get(store, key) { return this.run(store, 'readonly', (tx) => tx.objectStore(store).get(key)); }
  /** The values of `keys` in `store` (undefined where there is none), in one transaction. */
  getMany(store, keys) {
    return this.run(store, 'readonly', (tx) => { const s = tx.objectStore(store); return keys.map((k) => s.get(k)); }).then((rs) => rs.map((r) => r.result));
  }
  all(store) { return this.run(store, 'readonly', (tx) => tx.objectStore(store).getAll()); }
  put(store, value, key) { return this.run(store, 'readwrite', (tx) => { tx.objectStore(store).put(value, key); }); }
  delete(store, key) { return this.run(store, 'readwrite', (tx) => { tx.objectStore(store).delete(key); }); }
  putMany(store, values) { return this.run(store, 'readwrite', (tx) => { const s = tx.objectStore(store); for (const v of values) s.put(v); }); }
  /** The stretches of the conversation with `peer` held whole (history-stretches.js). */
  async history(peer) { return (await this.get('values', `history:${peer}`)) || emptyHistory(); }
  putHistory(peer, history) { return this.put('values', history, `history:${peer}`); }
  messagesWith(peer) { return this.run('messages', 'readonly', (tx) => tx.objectStore('messages').index('peer').getAll(peer)); }
}
