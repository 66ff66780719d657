// The safety number of a direct conversation (the e2ee spec): 60 digits from both users'
// identity keys, the same on both sides, shown as 12 groups of 5. Each user's 30 digits come
// from SHA-512 over "chirp-safety-v1" 0x00 username 0x00 and the raw identity keys of all their
// current devices (sorted by their base64url text); the user whose username sorts first (byte
// order of UTF-8) comes first. A device added, removed or re-keyed changes it.
import { decode } from './base64url.js';

const utf8 = (text) => new TextEncoder().encode(text);

/** Byte-order comparison of two byte arrays. */
function compareBytes(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** A user's 30 digits: `username` as registered (User.username), `identityKeys` the base64url
 * identity keys of all their current devices. */
export async function userDigits(username, identityKeys) {
  const keys = [...identityKeys].map((k) => [utf8(k), decode(k)]).sort((x, y) => compareBytes(x[0], y[0]));
  const parts = [utf8('chirp-safety-v1'), [0], utf8(username), [0], ...keys.map(([, raw]) => raw)];
  const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { input.set(p, at); at += p.length; }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', input));
  let digits = '';
  for (let chunk = 0; chunk < 6; chunk++) {
    let value = 0;
    for (const byte of digest.subarray(chunk * 5, chunk * 5 + 5)) value = value * 256 + byte; // < 2^40: exact
    digits += String(value % 100000).padStart(5, '0');
  }
  return digits;
}

/** The safety number of the direct conversation of `a` and `b` (each {username, identityKeys}):
 * 60 digits as 12 groups of 5 separated by spaces. */
export async function safetyNumber(a, b) {
  const [first, second] = compareBytes(utf8(a.username), utf8(b.username)) <= 0 ? [a, b] : [b, a];
  const digits = await userDigits(first.username, first.identityKeys) + await userDigits(second.username, second.identityKeys);
  return digits.match(/\d{5}/g).join(' ');
}
