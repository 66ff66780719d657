// The devices of the people this user talks to in encrypted conversations, as the server last
// listed them (`GET /v1/users/{username}/devices`, or a 409 `devices_changed`), each checked:
// its key signature must verify, and a device id keeps the identity key first seen for it
// (a server that swapped one is not believed). Kept in the local database per user
// (`devices:<username>`), with every identity key ever seen (`identities:<username>`), so a
// message from a device since removed still verifies. A change of a user's devices (one
// added or removed, not a rotated encryption key) is reported to `onChange(username, change)`.
import { verifyKeySignature } from './device-keys.js';

/** How long a list is used for sealing before it is read again (a device.changed event, or
 * the server's 409, refreshes it sooner). */
const FRESH_MS = 10 * 60 * 1000;

const lower = (name) => name.toLowerCase();

export class MemberDevices {
  constructor({ api, db, onChange }) {
    Object.assign(this, { api, db, onChange });
    this.lists = new Map();      // username (lowercased) → {devices, at}
    this.identities = new Map(); // username (lowercased) → {deviceId: identityKey}
    this.reading = new Map();    // username (lowercased) → the read under way
  }

  async known(username) {
    const key = lower(username);
    if (!this.identities.has(key)) {
      const [list, identities] = await Promise.all([this.db.get('values', `devices:${key}`), this.db.get('values', `identities:${key}`)]);
      if (!this.identities.has(key)) {
        this.identities.set(key, identities || {});
        if (list && !this.lists.has(key)) this.lists.set(key, { devices: list, at: 0 });
      }
    }
    return this.identities.get(key);
  }

  /** `username`'s current devices, checked; read again when older than `maxAge` ms. */
  async current(username, maxAge = FRESH_MS) {
    await this.known(username);
    const list = this.lists.get(lower(username));
    return list && Date.now() - list.at < maxAge ? list.devices : this.refresh(username);
  }

  /** Reads `username`'s devices from the server (once at a time: a page of messages from a
   * new device asks many times at once). */
  refresh(username) {
    const key = lower(username);
    if (!this.reading.has(key)) {
      this.reading.set(key, this.api.devices(username).then((devices) => this.learn(username, devices))
        .finally(() => this.reading.delete(key)));
    }
    return this.reading.get(key);
  }

  /** Whether a list of `username`'s devices is held (then a change is worth reading). */
  async holds(username) {
    await this.known(username);
    return this.lists.has(lower(username));
  }

  /** Takes `devices` (API Devices) as `username`'s current ones; resolves to those that check
   * out (the others are left out: nothing is sealed to them). */
  async learn(username, devices) {
    const key = lower(username);
    const identities = { ...await this.known(username) };
    const checked = [];
    for (const d of devices) {
      if (identities[d.id] && identities[d.id] !== d.identityKey) continue; // a swapped identity key
      if (!await verifyKeySignature(d)) continue;
      identities[d.id] = d.identityKey;
      checked.push({ id: d.id, name: d.name, identityKey: d.identityKey, encryptionKey: d.encryptionKey, keySignature: d.keySignature, createdAt: d.createdAt });
    }
    const before = this.lists.get(key)?.devices;
    this.lists.set(key, { devices: checked, at: Date.now() });
    this.identities.set(key, identities);
    await Promise.all([this.db.put('values', checked, `devices:${key}`), this.db.put('values', identities, `identities:${key}`)]);
    if (before) {
      const ids = (list) => new Set(list.map((d) => `${d.id} ${d.identityKey}`));
      const [was, now] = [ids(before), ids(checked)];
      const added = [...now].filter((d) => !was.has(d)).length;
      const removed = [...was].filter((d) => !now.has(d)).length;
      if (added || removed) this.onChange(username, { added, removed });
    }
    return checked;
  }

  /** The identity key of `username`'s device `deviceId`, current or since removed; null when
   * it was never seen (after reading the list once more). */
  async identityKey(username, deviceId) {
    const key = (await this.known(username))[deviceId];
    if (key) return key;
    await this.refresh(username); // a network failure is thrown: the message is opened later
    return (await this.known(username))[deviceId] || null;
  }
}
