// An attachment of an encrypted conversation (the e2ee spec's "Attachments"): the file's bytes
// under AES-256-GCM with a fresh 32-byte key and 12-byte nonce, no associated data; what is
// uploaded (as application/octet-stream) is the ciphertext followed by the tag. The message's
// plaintext carries the media entry {id, key, nonce, sha256, contentType, name?, byteCount},
// `sha256` being the digest of the uploaded (encrypted) bytes and `byteCount` the file's length.
import { encode, decode } from './base64url.js';

const UPLOAD_TYPE = 'application/octet-stream';

async function bytesOf(file) {
  if (file instanceof Blob) return new Uint8Array(await file.arrayBuffer());
  return file instanceof Uint8Array ? file : ArrayBuffer.isView(file)
    ? new Uint8Array(file.buffer, file.byteOffset, file.byteLength) : new Uint8Array(file);
}

const sha256 = async (bytes) => encode(await crypto.subtle.digest('SHA-256', bytes));

/**
 * Encrypts `file` (a Blob/File, ArrayBuffer or view). `contentType` defaults to the Blob's type;
 * `name` to the File's name. Resolves to {upload: Blob (application/octet-stream) to PUT,
 * bytes: Uint8Array of that upload, media: the media entry without `id` (set it to the id the
 * upload answers)}.
 */
export async function encryptAttachment(file, { contentType = file.type || UPLOAD_TYPE, name = file.name } = {}) {
  const plain = await bytesOf(file);
  const key = crypto.getRandomValues(new Uint8Array(32));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const aesKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  const bytes = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, aesKey, plain));
  const media = { key: encode(key), nonce: encode(nonce), sha256: await sha256(bytes), contentType, byteCount: plain.length };
  if (name) media.name = name;
  return { upload: new Blob([bytes], { type: UPLOAD_TYPE }), bytes, media };
}

/**
 * Decrypts the downloaded bytes (`downloaded`: Blob, ArrayBuffer or view) of the media entry
 * `media`. Resolves to {status: 'opened', blob (of media.contentType), bytes} or {status:
 * 'unverifiable', reason}: a digest that is not `sha256`, a failed decryption or a length other
 * than `byteCount`.
 */
export async function decryptAttachment(downloaded, media) {
  const bytes = await bytesOf(downloaded);
  if (await sha256(bytes) !== media?.sha256) return { status: 'unverifiable', reason: 'sha256' };
  let plain;
  try {
    const key = decode(media.key);
    const nonce = decode(media.nonce);
    if (key.length !== 32 || nonce.length !== 12) return { status: 'unverifiable', reason: 'key' };
    const aesKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    plain = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, aesKey, bytes));
  } catch {
    return { status: 'unverifiable', reason: 'decryption' };
  }
  if (media.byteCount !== undefined && plain.length !== media.byteCount) return { status: 'unverifiable', reason: 'byteCount' };
  return { status: 'opened', bytes: plain, blob: new Blob([plain], { type: media.contentType || UPLOAD_TYPE }) };
}
