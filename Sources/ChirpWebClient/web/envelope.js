// The envelope of a message in an encrypted conversation (API.md part 4; the byte-level
// decisions in the e2ee spec, shared with the Swift kit): the plaintext JSON under AES-256-GCM
// with a fresh content key, that key sealed to every recipient device with HPKE, an HMAC
// commitment to the plaintext, and the sender device's Ed25519 signature over the canonical
// JSON of the rest, the conversation's id and the client message id. Opening answers one of
// three outcomes, never the text of an envelope that failed a check.
import { encode, decode } from './base64url.js';
import { seal as hpkeSeal, open as hpkeOpen } from './hpke.js';

const utf8 = (text) => new TextEncoder().encode(text);
const ENVELOPE_FIELDS = ['v', 'senderDevice', 'nonce', 'ciphertext', 'commitment', 'keys', 'signature'];
const SIZES = { nonce: 12, commitment: 32, signature: 64, enc: 32, wrappedKey: 48 };

/** The id of the direct conversation of the users with ids `a` and `b`: `d:` and the two ids
 * as decimal strings, sorted as strings, joined by `:`. */
export function directConversationId(a, b) {
  const ids = [String(a), String(b)].sort();
  return `d:${ids[0]}:${ids[1]}`;
}

/** The id of the group `groupId`'s conversation: `g:` and the id. */
export const groupConversationId = (groupId) => `g:${groupId}`;

/** Canonical JSON: object keys sorted by code point, no whitespace, arrays in order, strings
 * and integers as JSON writes them. */
export function canonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined)
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)); // ASCII keys: UTF-16 order is code point order
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new TypeError('canonical JSON: integers only');
  return JSON.stringify(value);
}

/** The envelope's signed fields only (any other field is not signed and not kept). */
const unsigned = (e) => ({
  v: e.v, senderDevice: e.senderDevice, nonce: e.nonce, ciphertext: e.ciphertext, commitment: e.commitment,
  keys: e.keys.map((k) => ({ device: k.device, enc: k.enc, wrappedKey: k.wrappedKey })),
});

/** The bytes the sender device signs: canonicalJSON(envelope without `signature`), "\n", the
 * conversation's id, "\n", the client message id (UTF-8). */
export const signingInput = (envelope, conversationId, clientMessageId) =>
  utf8(`${canonicalJSON(unsigned(envelope))}\n${conversationId}\n${clientMessageId}`);

const contentAad = (conversationId, clientMessageId) => utf8(`${conversationId}\n${clientMessageId}`);
const hpkeInfo = (conversationId) => utf8(`chirp-v1${conversationId}`);

const importContentKey = (raw, usages) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, usages);
const importCommitmentKey = (raw, usages) => crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, usages);

/** An Ed25519 public key given as a CryptoKey, raw bytes or base64url. */
async function identityKey(key) {
  if (key instanceof CryptoKey) return key;
  return crypto.subtle.importKey('raw', typeof key === 'string' ? decode(key) : key, { name: 'Ed25519' }, false, ['verify']);
}

/**
 * Seals a message. `plaintext`: the message object ({text, replyTo?, media}), written with
 * JSON.stringify; or `plaintextBytes`: the exact bytes to seal. `recipients`: [{id, encryptionKey
 * (base64url X25519)}], every current device of every member except `senderDeviceId`, in the
 * order the keys should list them. Resolves to {envelope, contentKey (base64url, for a report),
 * plaintext (the sealed bytes as a string), bytes}.
 */
export async function sealEnvelope({ plaintext, plaintextBytes, conversationId, clientMessageId, senderDeviceId, senderIdentityPrivateKey, recipients }) {
  const ids = recipients.map((r) => r.id);
  if (ids.includes(senderDeviceId) || new Set(ids).size !== ids.length) throw new TypeError('envelope: the sender device or a device twice among the recipients');
  const bytes = plaintextBytes ? new Uint8Array(plaintextBytes) : utf8(JSON.stringify(plaintext));
  const contentKey = crypto.getRandomValues(new Uint8Array(32));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: contentAad(conversationId, clientMessageId) },
    await importContentKey(contentKey, ['encrypt']), bytes);
  const commitment = await crypto.subtle.sign('HMAC', await importCommitmentKey(contentKey, ['sign']), bytes);
  const info = hpkeInfo(conversationId);
  const keys = [];
  for (const recipient of recipients) {
    const { enc, ct } = await hpkeSeal(decode(recipient.encryptionKey), info, new Uint8Array(0), contentKey);
    keys.push({ device: recipient.id, enc: encode(enc), wrappedKey: encode(ct) });
  }
  const envelope = { v: 1, senderDevice: senderDeviceId, nonce: encode(nonce), ciphertext: encode(ciphertext), commitment: encode(commitment), keys };
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, senderIdentityPrivateKey, signingInput(envelope, conversationId, clientMessageId));
  envelope.signature = encode(signature);
  return { envelope, contentKey: encode(contentKey), plaintext: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), bytes };
}

/** Why `envelope` is not an envelope v1 (null when it is one): types and byte lengths. */
function malformation(e) {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return 'not an object';
  if (e.v !== 1) return 'not version 1';
  for (const field of ENVELOPE_FIELDS.filter((f) => f !== 'v' && f !== 'keys')) if (typeof e[field] !== 'string') return `${field} missing`;
  if (!Array.isArray(e.keys) || e.keys.some((k) => !k || typeof k !== 'object' || ['device', 'enc', 'wrappedKey'].some((f) => typeof k[f] !== 'string'))) return 'keys malformed';
  try {
    for (const [field, size] of Object.entries(SIZES)) {
      const values = field === 'enc' || field === 'wrappedKey' ? e.keys.map((k) => k[field]) : [e[field]];
      if (values.some((v) => decode(v).length !== size)) return `${field} is not ${size} bytes`;
    }
    if (decode(e.ciphertext).length < 16) return 'ciphertext too short';
  } catch {
    return 'not base64url';
  }
  return null;
}

const unverifiable = (reason) => ({ status: 'unverifiable', reason });

/**
 * Opens `envelope` on this device. `deviceId`: this device's id; `encryptionKeys`: its X25519
 * keys, the current first, then the retired ones kept, each {privateKey: CryptoKey, publicKey:
 * raw bytes or CryptoKey}; `senderIdentityKey`: the identity key (CryptoKey, raw or base64url)
 * of the device named by `envelope.senderDevice`. Resolves to
 *  {status: 'opened', plaintext (the parsed object), bytes, contentKey (base64url, for a report)},
 *  {status: 'not-sealed-to-this-device'} (a device added after it was sent), or
 *  {status: 'unverifiable', reason}: shown as "could not be verified", never its text.
 */
export async function openEnvelope({ envelope, conversationId, clientMessageId, deviceId, encryptionKeys, senderIdentityKey }) {
  const malformed = malformation(envelope);
  if (malformed) return unverifiable(`malformed: ${malformed}`);
  try {
    const verified = await crypto.subtle.verify({ name: 'Ed25519' }, await identityKey(senderIdentityKey),
      decode(envelope.signature), signingInput(envelope, conversationId, clientMessageId));
    if (!verified) return unverifiable('signature');
  } catch {
    return unverifiable('signature');
  }
  const entry = envelope.keys.find((k) => k.device === deviceId);
  if (!entry) return { status: 'not-sealed-to-this-device' };
  let contentKey = null;
  for (const key of encryptionKeys) {
    try {
      contentKey = await hpkeOpen(key, decode(entry.enc), hpkeInfo(conversationId), new Uint8Array(0), decode(entry.wrappedKey));
      break;
    } catch { /* sealed to another of this device's keys, or not at all */ }
  }
  if (!contentKey || contentKey.length !== 32) return unverifiable('content key');
  let bytes;
  try {
    bytes = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: decode(envelope.nonce), additionalData: contentAad(conversationId, clientMessageId) },
      await importContentKey(contentKey, ['decrypt']), decode(envelope.ciphertext)));
  } catch {
    return unverifiable('decryption');
  }
  // HMAC verify compares in constant time.
  if (!await crypto.subtle.verify('HMAC', await importCommitmentKey(contentKey, ['verify']), decode(envelope.commitment), bytes)) return unverifiable('commitment');
  let plaintext;
  try {
    plaintext = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return unverifiable('plaintext');
  }
  if (!plaintext || typeof plaintext !== 'object' || Array.isArray(plaintext)) return unverifiable('plaintext');
  return { status: 'opened', plaintext, bytes, contentKey: encode(contentKey) };
}
