// Attachments fetched with the bearer token (an <img src> or a link cannot send it), held as
// blob: URLs by media id, the least recently used given up past a size cap. A file this
// browser just uploaded is put here and never downloaded again. An encrypted conversation's
// attachment (its plaintext entry in `sealed`) is decrypted once downloaded
// (attachment-cipher.js, loaded then); one whose bytes do not check out is an error.

import { ApiError } from './api.js';

const CAP = 64 * 1024 * 1024;
const INLINE = /^image\/(png|jpeg|gif|webp)$/;

async function decrypted(blob, entry) {
  const { decryptAttachment } = await import('./attachment-cipher.js');
  const result = await decryptAttachment(blob, entry);
  if (result.status !== 'opened') throw new ApiError(422, 'media_unverifiable', 'This attachment could not be verified.');
  // The sender names the type: only the four image types show as what they say they are
  // (as the server serves them); any other file is bytes to download, never a page to open.
  return new Blob([result.bytes], { type: INLINE.test(entry.contentType) ? entry.contentType : 'application/octet-stream' });
}

export class MediaCache {
  constructor(api) {
    this.api = api;
    this.entries = new Map(); // id → {url: Promise<string>, size}; Map order is use order
    this.bytes = 0;
  }

  /** A blob: URL of the media `{id, size}`; fetched once. */
  url(media) {
    const known = this.entries.get(media.id);
    if (known) { this.entries.delete(media.id); this.entries.set(media.id, known); return known.url; }
    const url = this.api.media(media.id).then((blob) => (media.sealed ? decrypted(blob, media.sealed) : blob)).then((blob) => URL.createObjectURL(blob));
    url.catch(() => this.forget(media.id));
    return this.add(media.id, url, media.size);
  }

  /** The URL at once when it is already fetched (a row drawn again shows its image without a
   * blank frame), else null. */
  ready(id) { return this.entries.get(id)?.ready || null; }

  put(id, blob) { if (!this.entries.has(id)) this.add(id, Promise.resolve(URL.createObjectURL(blob)), blob.size); }

  add(id, url, size) {
    const entry = { url, size, ready: null };
    url.then((u) => { entry.ready = u; }, () => {});
    this.entries.set(id, entry);
    this.bytes += size;
    for (const [old] of this.entries) {
      if (this.bytes <= CAP || old === id) break;
      this.forget(old);
    }
    return url;
  }

  forget(id) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.size;
    entry.url.then((u) => URL.revokeObjectURL(u), () => {});
  }

  clear() { for (const id of [...this.entries.keys()]) this.forget(id); }
}
