// HPKE (RFC 9180), base mode only, with the one KEM and KDF Chirp uses: DHKEM(X25519,
// HKDF-SHA256) (0x0020) and HKDF-SHA256 (0x0001), with AES-128-GCM (AEAD 1) or AES-256-GCM
// (AEAD 2, Chirp's; the default). Every primitive is WebCrypto's (X25519 deriveBits, HMAC-SHA256,
// AES-GCM); this module only composes them as RFC 9180 §4–§5 describe. The envelope seals
// each message's content key to each device with the single-shot seal/open below.

const KEM_ID = 0x0020;
const KDF_ID = 0x0001;
const AEADS = { 1: { nk: 16 }, 2: { nk: 32 } };
const NN = 12; // AES-GCM nonce
const NH = 32; // SHA-256 output, also Nsecret and Npk of X25519
const X25519 = { name: 'X25519' };
const ZEROS = new Uint8Array(NH); // HMAC's key for an empty salt (WebCrypto refuses an empty HMAC key)
const PKCS8_X25519 = Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20);

/** Chirp's suite: AES-256-GCM. */
export const AES_256_GCM = 2;
export const AES_128_GCM = 1;

const utf8 = (text) => new TextEncoder().encode(text);
const i2osp = (n, length) => { const out = new Uint8Array(length); for (let i = length - 1; i >= 0 && n > 0; i--, n = Math.floor(n / 256)) out[i] = n % 256; return out; };
const concat = (...parts) => {
  const views = parts.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p)));
  const out = new Uint8Array(views.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of views) { out.set(p, at); at += p.length; }
  return out;
};
const bytesOf = (value) => (value instanceof Uint8Array ? value : ArrayBuffer.isView(value)
  ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint8Array(value));

const KEM_SUITE = concat(utf8('KEM'), i2osp(KEM_ID, 2));
const hpkeSuite = (aead) => concat(utf8('HPKE'), i2osp(KEM_ID, 2), i2osp(KDF_ID, 2), i2osp(aead, 2));

async function hmac(key, data) {
  const k = await crypto.subtle.importKey('raw', key.length ? key : ZEROS, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data));
}

/** HKDF-Extract (RFC 5869): HMAC-SHA256 keyed with `salt` over `ikm`. */
const extract = (salt, ikm) => hmac(salt, ikm);

/** HKDF-Expand for L ≤ 32: the first L bytes of T(1) = HMAC(prk, info || 0x01). */
async function expand(prk, info, length) {
  if (length > NH) throw new RangeError(`HPKE: expand of ${length} bytes (at most ${NH} here)`);
  return (await hmac(prk, concat(info, [1]))).slice(0, length);
}

const labeledExtract = (suite, salt, label, ikm) => extract(salt, concat(utf8('HPKE-v1'), suite, utf8(label), ikm));
const labeledExpand = (suite, prk, label, info, length) =>
  expand(prk, concat(i2osp(length, 2), utf8('HPKE-v1'), suite, utf8(label), info), length);

/** The raw 32 bytes of an X25519 public key given as bytes or a CryptoKey. */
async function rawPublic(key) {
  return key instanceof CryptoKey ? new Uint8Array(await crypto.subtle.exportKey('raw', key)) : bytesOf(key);
}

/** An X25519 private key from its 32 raw bytes (wrapped in PKCS #8, WebCrypto's only private
 * import form for X25519). For tests and fixtures; devices generate theirs (device-keys.js). */
export function importX25519PrivateKey(raw, extractable = false) {
  const bytes = bytesOf(raw);
  if (bytes.length !== 32) throw new RangeError('X25519 private key: 32 bytes expected');
  return crypto.subtle.importKey('pkcs8', concat(PKCS8_X25519, bytes), X25519, extractable, ['deriveBits']);
}

/** The 32 raw bytes of an extractable X25519 private key (tests only). */
export async function exportX25519PrivateKey(key) {
  return new Uint8Array(await crypto.subtle.exportKey('pkcs8', key)).slice(PKCS8_X25519.length);
}

async function dh(privateKey, publicRaw) {
  const publicKey = await crypto.subtle.importKey('raw', publicRaw, X25519, true, []);
  // WebCrypto refuses an all-zero shared secret (RFC 9180 §7.1.4's check).
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'X25519', public: publicKey }, privateKey, 256));
}

async function extractAndExpand(dhBytes, kemContext) {
  const prk = await labeledExtract(KEM_SUITE, new Uint8Array(0), 'eae_prk', dhBytes);
  return labeledExpand(KEM_SUITE, prk, 'shared_secret', kemContext, NH);
}

/** The AEAD context of the key schedule in base mode (RFC 9180 §5.1). */
async function keySchedule(sharedSecret, info, aead, reveal) {
  if (!AEADS[aead]) throw new RangeError(`HPKE: AEAD ${aead} not supported`);
  const suite = hpkeSuite(aead);
  const empty = new Uint8Array(0);
  const pskIdHash = await labeledExtract(suite, empty, 'psk_id_hash', empty);
  const infoHash = await labeledExtract(suite, empty, 'info_hash', bytesOf(info));
  const context = concat([0], pskIdHash, infoHash);
  const secret = await labeledExtract(suite, sharedSecret, 'secret', empty);
  const key = await labeledExpand(suite, secret, 'key', context, AEADS[aead].nk);
  const baseNonce = await labeledExpand(suite, secret, 'base_nonce', context, NN);
  const aesKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt', 'decrypt']);
  return new Context(aesKey, baseNonce, reveal ? { sharedSecret, key, baseNonce } : undefined);
}

class Context {
  constructor(key, baseNonce, secrets) {
    this.aesKey = key;
    this.baseNonce = baseNonce;
    this.seq = 0;
    if (secrets) this.secrets = secrets; // only when asked for (tests)
  }

  nonce() {
    const nonce = this.baseNonce.slice();
    const seq = i2osp(this.seq, NN);
    for (let i = 0; i < NN; i++) nonce[i] ^= seq[i];
    return nonce;
  }

  /** AES-GCM of `pt` with the next nonce: ciphertext || tag. */
  async seal(aad, pt) {
    const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: this.nonce(), additionalData: bytesOf(aad) }, this.aesKey, bytesOf(pt));
    this.seq += 1;
    return new Uint8Array(ct);
  }

  /** The plaintext of `ct` under the next nonce; throws (an OperationError) when it does not open. */
  async open(aad, ct) {
    const pt = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: this.nonce(), additionalData: bytesOf(aad) }, this.aesKey, bytesOf(ct));
    this.seq += 1;
    return new Uint8Array(pt);
  }
}

/**
 * SetupBaseS: a sender's context to the X25519 public key `recipientPublic` (32 raw bytes or a
 * CryptoKey) with `info`. Resolves to {enc, context}. Options: `aead` (1 or 2, default 2);
 * for tests only, `ephemeral` ({privateKey: CryptoKey, publicKey: raw bytes}) in place of a fresh
 * key pair, and `reveal` to keep the schedule's secrets on `context.secrets`.
 */
export async function setupSender(recipientPublic, info, { aead = AES_256_GCM, ephemeral, reveal = false } = {}) {
  const pkR = await rawPublic(recipientPublic);
  let skE = ephemeral?.privateKey;
  let enc = ephemeral && await rawPublic(ephemeral.publicKey);
  if (!ephemeral) {
    const pair = await crypto.subtle.generateKey(X25519, false, ['deriveBits']);
    skE = pair.privateKey;
    enc = await rawPublic(pair.publicKey);
  }
  const sharedSecret = await extractAndExpand(await dh(skE, pkR), concat(enc, pkR));
  return { enc, context: await keySchedule(sharedSecret, info, aead, reveal) };
}

/**
 * SetupBaseR: the recipient's context for `enc` with `info`. `recipient` is {privateKey:
 * CryptoKey (X25519, deriveBits), publicKey: raw bytes or CryptoKey}: the KEM binds the
 * recipient's public key, which WebCrypto cannot derive from a (non-extractable) private key.
 */
export async function setupRecipient(recipient, enc, info, { aead = AES_256_GCM, reveal = false } = {}) {
  const pkR = await rawPublic(recipient.publicKey);
  const encBytes = bytesOf(enc);
  if (encBytes.length !== NH) throw new RangeError('HPKE: enc is not 32 bytes');
  const sharedSecret = await extractAndExpand(await dh(recipient.privateKey, encBytes), concat(encBytes, pkR));
  return keySchedule(sharedSecret, info, aead, reveal);
}

/** Single-shot seal (RFC 9180 §6.1): resolves to {enc, ct} (ct = ciphertext || tag). */
export async function seal(recipientPublic, info, aad, pt, options) {
  const { enc, context } = await setupSender(recipientPublic, info, options);
  return { enc, ct: await context.seal(aad, pt) };
}

/** Single-shot open: the plaintext; throws when `ct` does not open for `recipient` (see
 * setupRecipient) with `enc`, `info` and `aad`. */
export async function open(recipient, enc, info, aad, ct, options) {
  return (await setupRecipient(recipient, enc, info, options)).open(aad, ct);
}
