// One attachment's upload (PUT /v1/media/{clientMediaId}): a small file in one request, a large
// one in parts with Content-Range, resuming after a cut (or a reload) from what the server
// says it holds. The client media id makes every attempt idempotent. The outbox loads it when
// a message with attachments is sent (it is not part of the first load).
import { ApiError } from './api.js';

const PART = 4 * 1024 * 1024;

/** Uploads `file` as `attachment` ({clientMediaId, name, type, size}); resolves to the Media.
 * `as`: the type and file name the server is told (an encrypted attachment is told neither:
 * application/octet-stream, no name). */
export async function uploadMedia(api, attachment, file, onProgress, as = { type: attachment.type, filename: attachment.name }) {
  if (!file) throw new ApiError(422, 'invalid_media', `The file ${attachment.name} is no longer in this browser. Attach it again.`);
  const options = { type: as.type, filename: as.filename, onProgress };
  if (file.size <= PART) return api.upload(attachment.clientMediaId, file, options);
  let first = 0;
  try { first = (await api.uploadStatus(attachment.clientMediaId)).received; } catch (error) { if (error.status !== 404) throw error; }
  while (first < file.size) {
    const part = file.slice(first, Math.min(first + PART, file.size));
    try {
      const reply = await api.upload(attachment.clientMediaId, part, { ...options, first, total: file.size });
      if (reply && reply.id) return reply; // the part that completed it: the Media
      first = reply.received;
    } catch (error) {
      if (error.code !== 'upload_offset_mismatch' || !/^\d+$/.test(error.field || '')) throw error;
      first = Number(error.field); // another tab sent some: go on from where the server is
    }
  }
  // Complete before this run sent its last part (a cut after it): the whole file again answers the Media.
  return api.upload(attachment.clientMediaId, file, options);
}
