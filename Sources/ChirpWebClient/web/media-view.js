// A message's attachments: the four image types inline, in a frame of fixed size (the list's
// rows keep their height while an image loads, so nothing moves under the pointer), fetched
// only when their row is drawn (the list draws only rows near the viewport); other files as
// links that fetch with the token on first click and then download from a blob: URL. Files
// still uploading show their progress.
import { h } from './dom.js';

const INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The attachments of a sent message. */
export function attachmentsView(media, cache, onError) {
  if (!media.length) return null;
  return h('div', { class: 'attachments' }, media.map((m) => (INLINE.has(m.contentType) ? image(m, cache) : file(m, cache, onError))));
}

function image(media, cache) {
  const name = media.filename || 'image';
  const img = h('img', { class: 'media-image', alt: name, width: 240, height: 180, loading: 'lazy', decoding: 'async' });
  const ready = cache.ready(media.id);
  if (ready) img.src = ready;
  else cache.url(media).then((url) => { img.src = url; }, (error) => { img.alt = `${name} (${error?.code === 'media_unverifiable' ? 'could not be verified' : 'cannot be loaded now'})`; });
  return img;
}

function file(media, cache, onError) {
  const name = media.filename || 'file';
  const link = h('a', { class: 'file', href: '#', download: name }, `📎 ${name} (${size(media.size)})`);
  link.addEventListener('click', async (event) => {
    if (link.href.startsWith('blob:')) return; // fetched: the browser downloads it
    event.preventDefault();
    try {
      link.href = await cache.url(media);
      link.click();
    } catch (error) { onError(error); }
  });
  return link;
}

/** The attachments of a message still in the outbox, with how much of each is uploaded. */
export function uploadsView(attachments, progress) {
  if (!attachments?.length) return null;
  return h('ul', { class: 'attachments uploads', 'aria-label': 'Attachments' }, attachments.map((a) => {
    const sent = a.mediaId ? a.size : Math.min(progress[a.clientMediaId] || 0, a.size);
    return h('li', {}, `📎 ${a.name} (${size(a.size)}) `,
      h('progress', { max: a.size || 1, value: a.size ? sent : 1, 'aria-label': `${a.name} uploaded` }),
      ` ${a.size ? Math.floor((sent / a.size) * 100) : 100}%`);
  }));
}
