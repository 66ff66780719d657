// This browser's device for encrypted conversations (the e2ee spec's "Device keys" and "Key
// storage"): a random id, an Ed25519 identity key and an X25519 encryption key, both private
// keys non-extractable CryptoKeys, kept in an IndexedDB database of their own per user
// ("chirp-keys-<username>"; no username has a hyphen, so it is never a LocalDB's name). The
// encryption key is replaced every 7 days (PUT again with the same identity key); a replaced
// key is kept, with when it was replaced, to open what was sealed to it, until dropped.
//
// A device: {id, createdAt, identity: {privateKey, public}, encryption: {privateKey, public,
// createdAt}, retired: [{privateKey, public, createdAt, retiredAt}]} (`public`: base64url of the
// raw key; times in ms since the epoch; retired newest first). Values are never changed in
// place.
import { encode, decode } from './base64url.js';

export const ROTATION_MS = 7 * 24 * 60 * 60 * 1000;
const VERSION = 1;
const STORE = 'device';
const KEY = 'device';
const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

const generate = (name, usages) => crypto.subtle.generateKey({ name }, false, usages); // private key: non-extractable
const rawPublic = async (key) => encode(await crypto.subtle.exportKey('raw', key));

async function newEncryptionKey(now) {
  const pair = await generate('X25519', ['deriveBits']);
  return { privateKey: pair.privateKey, public: await rawPublic(pair.publicKey), createdAt: now };
}

/** A new device (not stored): a 16-byte random id (base64url) and fresh keys. */
export async function createDevice(now = Date.now()) {
  const identity = await generate('Ed25519', ['sign', 'verify']);
  return {
    id: encode(crypto.getRandomValues(new Uint8Array(16))),
    createdAt: now,
    identity: { privateKey: identity.privateKey, public: await rawPublic(identity.publicKey) },
    encryption: await newEncryptionKey(now),
    retired: [],
  };
}

/** The identity key's Ed25519 signature over the 32 raw bytes of `encryptionKey` (base64url). */
export async function keySignature(identityPrivateKey, encryptionKey) {
  return encode(await crypto.subtle.sign({ name: 'Ed25519' }, identityPrivateKey, decode(encryptionKey)));
}

/** Whether a Device of the API ({identityKey, encryptionKey, keySignature}, base64url) is signed
 * by its own identity key. Seal to no device that is not. */
export async function verifyKeySignature({ identityKey, encryptionKey, keySignature: signature }) {
  try {
    const key = await crypto.subtle.importKey('raw', decode(identityKey), { name: 'Ed25519' }, false, ['verify']);
    const encryption = decode(encryptionKey);
    return encryption.length === 32 && await crypto.subtle.verify({ name: 'Ed25519' }, key, decode(signature), encryption);
  } catch {
    return false;
  }
}

/** The body of `PUT /v1/me/devices/{device.id}`. */
export async function registration(device, name) {
  return {
    name,
    identityKey: device.identity.public,
    encryptionKey: device.encryption.public,
    keySignature: await keySignature(device.identity.privateKey, device.encryption.public),
  };
}

/** Whether the device's encryption key is due for replacement. */
export const needsRotation = (device, now = Date.now()) => now - device.encryption.createdAt >= ROTATION_MS;

/** The keys to open envelopes with (envelope.js `encryptionKeys`): the current, then the
 * retired ones, newest first. */
export const openingKeys = (device) => [device.encryption, ...device.retired]
  .map((k) => ({ privateKey: k.privateKey, publicKey: decode(k.public) }));

/** `device` with `encryption` as its key and the current one retired at `now`. */
const rotated = (device, encryption, now) =>
  ({ ...device, encryption, retired: [{ ...device.encryption, retiredAt: now }, ...device.retired] });

// Storage.

const dbName = (username) => `chirp-keys-${username.toLowerCase()}`;

async function openDB(username) {
  const open = indexedDB.open(dbName(username), VERSION);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

/** Runs `body(store, done)` in one readwrite (or readonly) transaction; resolves to what it
 * passed to `done` once the transaction has committed. */
async function transact(username, mode, body) {
  const db = await openDB(username);
  try {
    const tx = db.transaction(STORE, mode);
    let result;
    body(tx.objectStore(STORE), (value) => { result = value; });
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = tx.onabort = () => reject(tx.error); });
    return result;
  } finally {
    db.close();
  }
}

/** The device stored for `username` in this browser, or null. */
export function loadDevice(username) {
  return transact(username, 'readonly', (store, done) => { store.get(KEY).onsuccess = (e) => done(e.target.result || null); });
}

/** Stores `device` for `username`, replacing any. */
export function saveDevice(username, device) {
  return transact(username, 'readwrite', (store, done) => { store.put(device, KEY); done(device); });
}

/** The stored device, or a new one stored now: {device, created}. Two tabs asking at once get
 * the same device (the check and the write are one transaction). */
export async function loadOrCreateDevice(username, now = Date.now()) {
  const stored = await loadDevice(username);
  if (stored) return { device: stored, created: false };
  const fresh = await createDevice(now);
  return transact(username, 'readwrite', (store, done) => {
    store.get(KEY).onsuccess = (e) => {
      if (e.target.result) { done({ device: e.target.result, created: false }); return; }
      store.put(fresh, KEY);
      done({ device: fresh, created: true });
    };
  });
}

/**
 * Replaces the stored device's encryption key when it is due (or always, with `force`),
 * keeping the old one as retired; resolves to the device as stored afterwards (PUT its
 * registration when its encryption key changed). A rotation another tab made meanwhile is kept.
 */
export async function rotateDevice(username, { now = Date.now(), force = false } = {}) {
  const before = await loadDevice(username);
  if (!before) throw new Error('no device keys in this browser');
  if (!force && !needsRotation(before, now)) return before;
  const encryption = await newEncryptionKey(now);
  return transact(username, 'readwrite', (store, done) => {
    store.get(KEY).onsuccess = (e) => {
      const current = e.target.result;
      if (!current || current.encryption.public !== before.encryption.public) { done(current); return; }
      const next = rotated(current, encryption, now);
      store.put(next, KEY);
      done(next);
    };
  });
}

/** Drops the retired keys replaced before `retiredBefore` (ms); resolves to the stored device. */
export function dropRetiredKeys(username, retiredBefore) {
  return transact(username, 'readwrite', (store, done) => {
    store.get(KEY).onsuccess = (e) => {
      const current = e.target.result;
      if (!current) { done(null); return; }
      const retired = current.retired.filter((k) => k.retiredAt >= retiredBefore);
      if (retired.length === current.retired.length) { done(current); return; }
      const next = { ...current, retired };
      store.put(next, KEY);
      done(next);
    };
  });
}

/** Deletes this browser's device keys for `username` (at log out, when the server removes the
 * device). */
export async function wipeDeviceKeys(username) {
  const r = indexedDB.deleteDatabase(dbName(username));
  await new Promise((resolve) => { r.onsuccess = r.onerror = r.onblocked = () => resolve(); });
}
