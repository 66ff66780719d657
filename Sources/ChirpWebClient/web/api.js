// The HTTP API of API.md, one method per call. Every failure is an ApiError: `status` 0 and
// code "unreachable" when the server could not be reached at all.

export class ApiError extends Error {
  constructor(status, code, message, field, devices) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.devices = devices; // devices_changed: every member's current devices, by username
  }
  /** Worth trying again later with the same ids (unreachable, unavailable, rate limited). */
  get transient() { return this.status === 0 || this.status === 503 || this.status === 429 || this.status >= 500; }
}

const seg = encodeURIComponent;
/** A conversation's path: `peer` a username, or `g:ID` for a group. */
export const pathOf = (peer) => (peer[1] === ':' ? `/v1/groups/${seg(peer.slice(2))}` : `/v1/conversations/${seg(peer)}`);

export class ApiClient {
  constructor(token = null) { this.token = token; }

  async call(method, path, body) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch {
      throw new ApiError(0, 'unreachable', 'The server cannot be reached.');
    }
    if (response.status === 204 || response.status === 202) return null;
    const json = await response.json().catch(() => null);
    if (!response.ok) throw failure(response.status, json, response.statusText);
    return json;
  }

  register(username, password) { return this.call('POST', '/v1/accounts', { username, password }); }
  login(username, password) { return this.call('POST', '/v1/sessions', { username, password }); }
  logout() { return this.call('DELETE', '/v1/sessions/current'); }
  me() { return this.call('GET', '/v1/me'); }
  user(username) { return this.call('GET', `/v1/users/${seg(username)}`); }
  follow(username, on) { return this.call(on ? 'PUT' : 'DELETE', `/v1/users/${seg(username)}/follow`); }
  followers(username) { return this.call('GET', `/v1/users/${seg(username)}/followers?limit=100`); }
  conversations() { return this.call('GET', '/v1/conversations?limit=100'); }
  messages(peer, query = '') { return this.call('GET', `${pathOf(peer)}/messages?limit=100${query}`); }
  /** `extra`: `{mediaIds, replyTo}` when the message has them. */
  send(peer, clientMessageId, text, extra = {}) { return this.call('PUT', `${pathOf(peer)}/messages/${seg(clientMessageId)}`, { text, ...extra }); }
  react(peer, messageId, emoji, on) { return this.call(on ? 'PUT' : 'DELETE', `${pathOf(peer)}/messages/${seg(messageId)}/reactions/${seg(emoji)}`); }
  edit(peer, messageId, text) { return this.call('PATCH', `${pathOf(peer)}/messages/${seg(messageId)}`, { text }); }
  // Encrypted conversations (API.md part 4): the text and the reply travel in the envelope.
  sendSealed(peer, clientMessageId, envelope, mediaIds) { return this.call('PUT', `${pathOf(peer)}/messages/${seg(clientMessageId)}`, mediaIds?.length ? { envelope, mediaIds } : { envelope }); }
  editSealed(peer, messageId, envelope) { return this.call('PATCH', `${pathOf(peer)}/messages/${seg(messageId)}`, { envelope }); }
  encrypt(peer) { return this.call('PUT', `${pathOf(peer)}/encryption`); }
  putDevice(id, body) { return this.call('PUT', `/v1/me/devices/${seg(id)}`, body); }
  devices(username) { return this.call('GET', `/v1/users/${seg(username)}/devices`); }
  unsend(peer, messageId) { return this.call('DELETE', `${pathOf(peer)}/messages/${seg(messageId)}`); }
  search(q, cursor) { return this.call('GET', `/v1/search/messages?limit=20&q=${seg(q)}${cursor ? `&cursor=${seg(cursor)}` : ''}`); }
  uploadStatus(clientMediaId) { return this.call('GET', `/v1/media/${seg(clientMediaId)}/upload`); }

  /** An attachment's bytes as a Blob (an <img> or a link cannot send the bearer token). */
  async media(id) {
    let response;
    try {
      response = await fetch(`/v1/media/${seg(id)}`, { headers: { Authorization: `Bearer ${this.token}` } });
    } catch {
      throw new ApiError(0, 'unreachable', 'The server cannot be reached.');
    }
    if (!response.ok) throw failure(response.status, await response.json().catch(() => null), response.statusText);
    return response.blob();
  }

  /** `POST /v1/me/export`: the server starts writing an archive of the user's data. */
  prepareExport() { return this.call('POST', '/v1/me/export'); }

  /** `GET /v1/me/export`: the archive as a Blob once it is ready, null while it is written. */
  async exportArchive() {
    let response;
    try {
      response = await fetch('/v1/me/export', { headers: { Authorization: `Bearer ${this.token}` }, cache: 'no-store' });
    } catch {
      throw new ApiError(0, 'unreachable', 'The server cannot be reached.');
    }
    if (response.status === 202) return null;
    if (!response.ok) throw failure(response.status, await response.json().catch(() => null), response.statusText);
    return response.blob();
  }

  /** PUTs `blob` as (a part of) the media `clientMediaId`, reporting bytes sent to `onProgress`
   * (fetch cannot report an upload's progress; XMLHttpRequest can). With `total`, the part
   * starts at byte `first` of that many (`Content-Range`). Resolves to the reply's JSON. */
  upload(clientMediaId, blob, { type, filename, first = 0, total, onProgress }) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `/v1/media/${seg(clientMediaId)}${filename ? `?filename=${seg(filename)}` : ''}`);
      xhr.setRequestHeader('Authorization', `Bearer ${this.token}`);
      xhr.setRequestHeader('Content-Type', type || 'application/octet-stream');
      if (total !== undefined) xhr.setRequestHeader('Content-Range', `bytes ${first}-${first + blob.size - 1}/${total}`);
      xhr.upload.onprogress = (event) => onProgress?.(first + event.loaded);
      xhr.onload = () => {
        let json = null;
        try { json = JSON.parse(xhr.responseText); } catch { /* empty */ }
        if (xhr.status >= 200 && xhr.status < 300) resolve(json); else reject(failure(xhr.status, json, xhr.statusText));
      };
      xhr.onerror = xhr.onabort = () => reject(new ApiError(0, 'unreachable', 'The server cannot be reached.'));
      xhr.send(blob);
    });
  }
  /** `kind`: pin, unpin, mute or unmute. */
  mark(peer, kind) { return this.call(kind.startsWith('un') ? 'DELETE' : 'PUT', `${pathOf(peer)}/${kind.replace(/^un/, '')}`); }
  markRead(peer, upTo) { return this.call('POST', `${pathOf(peer)}/read`, { upTo }); }
  typing(peer) { return this.call('POST', `${pathOf(peer)}/typing`); }
  timeline() { return this.call('GET', '/v1/timeline?limit=50'); }
  tweet(clientTweetId, text) { return this.call('PUT', `/v1/tweets/${seg(clientTweetId)}`, { text }); }
  events(since, wait) { return this.call('GET', `/v1/events?since=${since}&limit=100&wait=${wait}`); }
  block(username) { return this.call('PUT', `/v1/users/${seg(username)}/block`); }
  report(username, messageId, reason) { return this.call('POST', '/v1/reports', { username, messageId, reason }); }
  sessions() { return this.call('GET', '/v1/sessions'); }
  endSession(id) { return this.call('DELETE', `/v1/sessions/${seg(id)}`); }
  changePassword(currentPassword, newPassword) { return this.call('PUT', '/v1/me/password', { currentPassword, newPassword }); }
  deleteAccount(password) { return this.call('DELETE', '/v1/me', { password }); }
  // Operators only (403 `not_operator` for everyone else).
  adminReports(status) { return this.call('GET', `/v1/admin/reports?limit=100&status=${seg(status)}`); }
  resolveReport(id, action) { return this.call('POST', `/v1/admin/reports/${seg(id)}/resolve`, { action }); }
  suspend(username, on) { return this.call(on ? 'PUT' : 'DELETE', `/v1/admin/users/${seg(username)}/suspension`); }
  adminAudit() { return this.call('GET', '/v1/admin/audit?limit=100'); }
  adminStats() { return this.call('GET', '/v1/admin/stats'); }
}

/** The ApiError of a refused request, from the API's error envelope when there is one. */
function failure(status, json, statusText) {
  const e = json && json.error;
  return new ApiError(status, e ? e.code : 'http_' + status, e ? e.message : statusText, e && e.field, e && e.devices);
}

/** A fresh client id (1–64 of [A-Za-z0-9_-]); works outside secure contexts too. */
export function newClientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
