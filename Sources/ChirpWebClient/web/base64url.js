// base64url (RFC 4648 §5), written without padding: the bytes of device keys, envelopes,
// attachment keys and the server's push key. The decoder takes text with or without padding
// (as the Swift side's Data(base64URLEncoded:) does) and refuses any other alphabet.

const SHAPE = /^[A-Za-z0-9_-]*$/;

/** The base64url text (no padding) of `bytes` (a Uint8Array, ArrayBuffer or other view). */
export function encode(bytes) {
  const view = bytes instanceof Uint8Array ? bytes : ArrayBuffer.isView(bytes)
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url `text`; throws a TypeError when it is not base64url. */
export function decode(text) {
  if (typeof text !== 'string') throw new TypeError('base64url: not a string');
  let body = text;
  if (body.endsWith('=')) {
    if (body.length % 4 !== 0) throw new TypeError('base64url: bad padding');
    body = body.replace(/={1,2}$/, '');
  }
  if (!SHAPE.test(body) || body.length % 4 === 1) throw new TypeError('base64url: not base64url');
  const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(body.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
