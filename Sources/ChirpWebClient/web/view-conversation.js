// One conversation: the log (virtual; it shows the newest stretch of history held whole, and
// the gap below it, marked at the top, is read when scrolled to), delivery
// marks as words, who is typing, the actions on a message (message-row.js), and the input
// (Enter sends, Shift-Enter is a new line) with the message it answers and the files to send
// (the Attach button, or files dropped on the conversation). What is open on a row (picker,
// editor, long-press actions) is kept here in `ui`, by row key, never in the row itself: a
// row is drawn again whenever its message changes. Actions still in the outbox show at once.
// A group's conversation (`g:ID`, groups.js) shows its title, who sent each message, "read by
// N" on mine (a button that shows who, group-readers.js), who of the group is typing, and its
// members (group-members.js) instead of Follow, Block and Report; a group I was removed from
// stays readable, without the input.
// An encrypted conversation shows a lock by its title, a notice when a member's devices
// change, and (direct) its safety number (safety-panel.js); one that is not offers "Turn on
// encryption" (in a group, to its admins). Its messages come opened (encryption.js).
import { h, field, time } from './dom.js';
import { MessageList } from './message-list.js';
import { messageRow } from './message-row.js';
import { size } from './media-view.js';
import { MAX_ATTACHMENTS, isDeletedAccount } from './session.js';
import { withReaction, isEncrypted } from './store.js';
import { tombstone, sealedNote } from './message-state.js';
import { ApiError } from './api.js';
import { newest } from './history-stretches.js';
import { runOf } from './message-runs.js';

/** The row that marks the gap above the newest stretch held whole. */
const GAP = { key: 'gap', gap: true };

/** `at`: the id of a message to scroll to once it is loaded (a search result). */
export function conversationView(session, peer, at = null) {
  const me = session.me;
  const groupId = peer[1] === ':' ? peer.slice(2) : null;
  const groups = groupId ? import('./groups.js') : null;
  const log = h('div', { role: 'log', 'aria-label': groupId ? 'Messages in the group' : `Messages with ${peer}`, class: 'log', tabindex: 0 });
  const typing = h('p', { class: 'typing', 'aria-live': 'polite' });
  const text = h('textarea', { rows: 2, 'aria-describedby': 'compose-hint' });
  const title = h('h1', { tabindex: -1 }, groupId ? 'Group' : peer);
  const ui = { picker: null, editing: null, replyTo: null, touched: null, highlight: null, readers: null, files: [] };
  let loading = false;
  let rows = [];
  let index = null; // message id → row, built when a quote first needs it
  const pendingRows = new WeakMap();
  const derived = new WeakMap();

  const act = {
    retry: (m) => session.retry(m.clientMessageId),
    picker: (m) => open('picker', ui.picker === m.key ? null : m.key, () => log.querySelector('.picker button')?.focus()),
    react: (m, emoji, on) => { open('picker', null); session.react(peer, m, emoji, on); },
    reply: (m) => { ui.replyTo = m; showReply(); text.focus(); },
    edit: (m) => {
      const input = h('textarea', { class: 'edit', rows: 2, 'aria-label': 'Edit message' });
      input.value = m.text;
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); act.save(m); }
      });
      open('editing', { key: m.key, input }, () => { input.focus(); input.setSelectionRange(input.value.length, input.value.length); });
    },
    save: async (m) => { if (ui.editing && await session.edit(peer, m, ui.editing.input.value)) open('editing', null, () => text.focus()); },
    cancelEdit: () => open('editing', null, () => text.focus()),
    unsend: (m) => { if (confirm('Unsend this message? It is removed for both of you.')) session.unsend(peer, m); },
    show: (m) => { if (list.scrollTo(m.key)) highlight(m.key); },
    touch: (m) => open('touched', m.key),
    readers: (m) => (ui.readers === m.key ? closeReaders() : showReaders(m)),
    fail: (error) => session.fail(error),
  };
  const ctx = { me, ui, act, cache: session.media, progress: {}, quoted, group: !!groupId };
  const gapRow = () => h('p', { class: 'gap', role: 'status' }, 'Loading older messages…');
  const list = new MessageList(log, (m, run) => (m.gap ? gapRow() : messageRow(m, ctx, run)), async () => {
    if (loading) return;
    loading = true;
    await session.loadOlder(peer);
    loading = false;
  }, runOf);

  /** Sets what is open (`picker`, `editing`, `touched`), draws the rows it concerns again. */
  function open(what, value, then) {
    const before = ui[what]?.key ?? ui[what];
    ui[what] = value;
    const after = value?.key ?? value;
    keepFocus(() => { if (before) list.redraw(before); if (after && after !== before) list.redraw(after); });
    then?.();
  }

  function highlight(key) {
    open('highlight', key);
    setTimeout(() => { if (ui.highlight === key) open('highlight', null); }, 4000);
  }

  /** Runs `draw` (which may replace rows) and gives focus back to what had it. */
  function keepFocus(draw) {
    const active = document.activeElement;
    const editing = ui.editing && active === ui.editing.input ? [active.selectionStart, active.selectionEnd] : null;
    const tag = log.contains(active) ? active.dataset.focus : null;
    draw();
    if (editing && ui.editing?.input.isConnected && document.activeElement !== ui.editing.input) {
      ui.editing.input.focus();
      ui.editing.input.setSelectionRange(...editing);
    } else if (tag && !active.isConnected) log.querySelector(`[data-focus="${CSS.escape(tag)}"]`)?.focus();
  }

  /** The message a reply refers to: a server id, or `{clientMessageId}` of one of mine not sent yet. */
  function quoted(ref) {
    if (typeof ref !== 'string' && !ref.id) return rows.find((r) => r.clientMessageId === ref.clientMessageId && r.state !== 'received') || null;
    index ||= new Map(rows.filter((r) => r.id).map((r) => [r.id, r]));
    return index.get(ref.id || ref) || null;
  }

  /** `m` as it will be once the actions waiting for it in the outbox are applied. */
  function withPending(m, actions) {
    if (!actions?.length) return m;
    const sig = actions.map((a) => a.clientMessageId).join();
    const known = derived.get(m);
    if (known && known.sig === sig) return known.row;
    let row = m;
    for (const a of actions) {
      if (a.kind === 'react') row = withReaction(row, me, a.emoji, a.on);
      else if (a.kind === 'edit' && !row.deleted) row = { ...row, text: a.text, editedAt: a.createdAt };
      else if (a.kind === 'unsend') row = tombstone(row);
    }
    derived.set(m, { sig, row });
    return row;
  }

  function pendingRow(o, progress) {
    const sig = (o.attachments || []).map((a) => progress[a.clientMediaId] || 0).join();
    const known = pendingRows.get(o);
    if (known && known.sig === sig) return known.row;
    const row = {
      key: `${me.toLowerCase()}/${o.clientMessageId}`, clientMessageId: o.clientMessageId, sender: me, text: o.text, createdAt: o.createdAt,
      state: o.failed ? 'failed' : 'sending', replyTo: o.replyTo ? o.replyTo.id || o.replyTo : null,
      reactions: [], media: [], attachments: o.attachments, editedAt: null, deleted: false,
    };
    pendingRows.set(o, { sig, row });
    return row;
  }

  async function send() {
    const value = text.value;
    if (!value.trim() && !ui.files.length) return;
    if (await session.send(peer, value, { replyTo: ui.replyTo, files: ui.files })) {
      text.value = '';
      ui.replyTo = null;
      ui.files = [];
      showReply();
      showFiles();
    }
  }

  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); send(); }
  });
  text.addEventListener('input', () => { if (text.value.trim()) session.typing(peer); });

  const replyBar = h('div', { class: 'replying', hidden: true });
  function showReply() {
    const m = ui.replyTo;
    replyBar.hidden = !m;
    if (m) replyBar.replaceChildren(h('p', {}, `Replying to ${m.state === 'received' ? m.sender : 'yourself'}: `, h('q', {}, sealedNote(m) || m.text || '📎')),
      h('button', { type: 'button', class: 'small secondary', onclick: () => { ui.replyTo = null; showReply(); } }, 'Cancel reply'));
  }

  const tray = h('ul', { class: 'tray', 'aria-label': 'Files to send', hidden: true });
  function showFiles() {
    tray.hidden = !ui.files.length;
    tray.replaceChildren(...ui.files.map((f, i) => h('li', {}, `📎 ${f.name} (${size(f.size)}) `,
      h('button', { type: 'button', class: 'small secondary', 'aria-label': `Remove ${f.name}`, onclick: () => { ui.files.splice(i, 1); showFiles(); } }, '×'))));
  }
  function addFiles(files) {
    ui.files.push(...files);
    if (ui.files.length > MAX_ATTACHMENTS) { session.fail(new ApiError(422, 'too_many_files', '')); ui.files.length = MAX_ATTACHMENTS; }
    showFiles();
    text.focus();
  }
  const picker = h('input', { type: 'file', multiple: true, class: 'sr', tabindex: -1, 'aria-label': 'Files to attach',
    onchange: () => { addFiles([...picker.files]); picker.value = ''; } });

  const follow = h('button', { type: 'button', class: 'secondary small', hidden: true, onclick: async () => {
    const on = follow.textContent === 'Follow';
    if (await session.follow(peer, on)) showFollow(on);
  } });
  const showFollow = (following) => { follow.hidden = following === null; follow.textContent = following ? 'Unfollow' : 'Follow'; };
  if (!groupId) session.follows(peer).then(showFollow);

  /** The group module `module`, loaded on demand; null (with the banner) when it cannot be. */
  const lazy = (module) => import(module).catch(() => { session.fail(new ApiError(0, 'unreachable', '')); return null; });

  // A group's members, loaded when first shown.
  const membersBox = h('div', { hidden: true });
  let members = null;
  const membersButton = h('button', { type: 'button', class: 'secondary small', 'aria-expanded': 'false', onclick: async () => {
    membersBox.hidden = !membersBox.hidden;
    membersButton.setAttribute('aria-expanded', String(!membersBox.hidden));
    if (members || membersBox.hidden) return;
    const loaded = await lazy('./group-members.js');
    if (!loaded) return;
    members = loaded.membersPanel(session, groupId, () => { session.dispatch({ type: 'forget', peer }); location.hash = '#/conversations'; });
    membersBox.replaceChildren(members.el);
    members.update(session.store.state);
  } }, 'Members');

  // Who read one of my messages (`ui.readers`, its row's key), from its "read by N" button.
  const readersBox = h('div', { hidden: true });
  let readers = null; // group-readers.js's panel, once loaded
  async function showReaders(m) {
    readers ||= (await lazy('./group-readers.js'))?.readersPanel(session, groupId, () => closeReaders(true));
    if (!readers || !await readers.show(m)) return;
    open('readers', m.key);
    readersBox.replaceChildren(readers.el);
    readersBox.hidden = false;
    readers.focus();
  }
  /** Closes the readers; `back` (Close, or Escape in them): focus goes back to the button that
   * opened them (else to the log). */
  function closeReaders(back = false) {
    const key = ui.readers;
    if (!key) return;
    readersBox.hidden = true;
    open('readers', null);
    if (back) (log.querySelector(`[data-focus="${CSS.escape(`reads ${key}`)}"]`) || log).focus();
  }

  // Encryption: the lock, the switch, the notice of a member's changed devices, the safety number.
  const lock = h('span', { class: 'lock', hidden: true }, h('span', { 'aria-hidden': 'true' }, '🔒 '), 'Encrypted');
  const encryptButton = h('button', { type: 'button', class: 'secondary small', hidden: true, onclick: async () => {
    if (!confirm('Turn on encryption? From then on only the members\' devices can read what is sent here, not the server. It cannot be turned off.')) return;
    encryptButton.disabled = true;
    await session.encrypt(peer);
    encryptButton.disabled = false;
  } }, 'Turn on encryption');
  const notice = h('p', { class: 'notice-line', role: 'status', hidden: true });
  const safetyBox = h('div', { hidden: true });
  let safety = null; // safety-panel.js's panel, once loaded
  const safetyButton = h('button', { type: 'button', class: 'secondary small', hidden: true, 'aria-expanded': 'false', onclick: async () => {
    if (!safetyBox.hidden) { closeSafety(); return; }
    safety ||= (await lazy('./safety-panel.js'))?.safetyPanel(session, peer, () => closeSafety(true));
    if (!safety) return;
    safetyBox.replaceChildren(safety.el);
    safetyBox.hidden = false;
    safetyButton.setAttribute('aria-expanded', 'true');
    safety.focus();
    safety.show();
  } }, 'Safety number');
  function closeSafety(back = false) {
    safetyBox.hidden = true;
    safetyButton.setAttribute('aria-expanded', 'false');
    if (back) safetyButton.focus();
  }
  let watched = false; // the members' devices read once the conversation shows as encrypted

  const el = h('section', { class: 'screen conversation' },
    h('div', { class: 'bar' }, title, lock, encryptButton, ...(groupId ? [membersButton] : [safetyButton, follow,
      h('button', { type: 'button', class: 'secondary small', onclick: () => session.block(peer) }, 'Block'),
      h('button', { type: 'button', class: 'secondary small', onclick: () => session.report(peer) }, 'Report')])),
    notice, safetyBox, membersBox, readersBox, log, typing, replyBar, tray,
    h('form', { class: 'compose', onsubmit: (event) => { event.preventDefault(); send(); } },
      field('Message', text), picker,
      h('button', { type: 'button', class: 'secondary', onclick: () => picker.click() }, 'Attach'),
      h('button', { type: 'submit' }, 'Send')),
    h('p', { id: 'compose-hint', class: 'hint' }, 'Enter sends, Shift-Enter starts a new line. Drop files here to attach them.'));

  if (isDeletedAccount(peer)) { // the account was deleted: its conversation is read-only
    el.querySelector('form.compose').hidden = true;
    el.querySelector('#compose-hint').textContent = 'This account was deleted. You can read the conversation, but nothing can be sent to it.';
  }

  const dragging = (event) => [...(event.dataTransfer?.types || [])].includes('Files');
  el.addEventListener('dragover', (event) => { if (dragging(event)) { event.preventDefault(); el.classList.add('dropping'); } });
  el.addEventListener('dragleave', (event) => { if (!el.contains(event.relatedTarget)) el.classList.remove('dropping'); });
  el.addEventListener('drop', (event) => {
    if (!dragging(event)) return;
    event.preventDefault();
    el.classList.remove('dropping');
    addFiles([...event.dataTransfer.files]);
  });
  el.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    if (ui.editing) act.cancelEdit();
    else if (ui.picker) open('picker', null, () => text.focus());
    else closeReaders();
  });
  el.addEventListener('pointerdown', (event) => {
    if (ui.picker && !event.target.closest('.picker, .actions')) open('picker', null);
    if (ui.touched && !event.target.closest('.touched')) open('touched', null);
  });

  let shown = null;
  let group = null; // groups.js, once loaded (a group's conversation only)
  groups?.then((m) => { group = m; m.loadGroup(session, groupId); update(session.store.state); }, () => {});
  function update(state) {
    const c = state.conversations[peer];
    const about = group?.groupOf(state, groupId);
    if (groupId) {
      title.textContent = about?.title || c?.group?.title || 'Group';
      log.setAttribute('aria-label', `Messages in ${title.textContent}`);
      const gone = !!about?.removed;
      el.querySelector('form.compose').hidden = gone;
      el.querySelector('#compose-hint').textContent = gone ? 'You are no longer in this group. You can read what you saw, but nothing can be sent to it.'
        : 'Enter sends, Shift-Enter starts a new line. Drop files here to attach them.';
      members?.update(state);
    } else if (c) title.textContent = c.peer.username;
    const encrypted = isEncrypted(state, peer);
    const admin = about?.members?.find((m) => m.user.username.toLowerCase() === me.toLowerCase())?.role === 'admin';
    lock.hidden = !encrypted;
    encryptButton.hidden = encrypted || isDeletedAccount(peer) || (groupId ? !admin || !!about?.removed : false);
    safetyButton.hidden = !encrypted || !!groupId;
    const change = state.notices[peer];
    notice.hidden = !change;
    if (change) notice.textContent = `${change.text}${groupId ? '' : ' Compare the safety number to be sure.'} (${time(change.at)})`;
    if (encrypted && !watched) {
      watched = true;
      session.encryption().then((e) => e.watch(peer), () => {});
    }
    // The newest stretch held whole (and what was sent since); what lies below a gap waits.
    const top = newest(state.history[peer]);
    const stored = groupId ? (state.messages[peer] || []).filter((m) => !m.fromBlocked) : state.messages[peer] || [];
    const messages = top ? stored.filter((m) => !m.id || Number(m.id) >= top.low) : stored;
    const gap = top && top.low !== 0 ? [GAP] : [];
    const outbox = Object.values(state.outbox).filter((o) => o.peer === peer).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const actions = new Map(); // 'id:ID' or 'c:CLIENT ID' → the actions waiting for that message
    for (const o of outbox) {
      if (!o.kind || o.kind === 'message' || o.failed) continue;
      const target = o.target.id ? `id:${o.target.id}` : `c:${o.target.clientMessageId}`;
      actions.set(target, [...(actions.get(target) || []), o]);
    }
    const waiting = (m) => (actions.size ? [...(m.id ? actions.get(`id:${m.id}`) || [] : []), ...(m.state !== 'received' ? actions.get(`c:${m.clientMessageId}`) || [] : [])] : null);
    ctx.progress = state.progress;
    const pending = outbox.filter((o) => (!o.kind || o.kind === 'message'))
      .filter((o) => !messages.some((m) => m.clientMessageId === o.clientMessageId && m.state !== 'received'))
      .map((o) => pendingRow(o, state.progress));
    const next = gap.concat(actions.size ? messages.map((m) => withPending(m, waiting(m))) : messages, actions.size ? pending.map((m) => withPending(m, waiting(m))) : pending);
    if (next.length !== rows.length || next.some((r, i) => r !== rows[i]) || !shown) {
      rows = next;
      index = null;
      shown = true;
      keepFocus(() => list.set(rows));
      const reading = ui.readers && rows.find((r) => r.key === ui.readers);
      if (ui.readers && !(reading?.readCount > 0 && !reading.deleted)) closeReaders(); // unsent, or gone
      else if (reading && reading.readCount !== readers.count) readers.show(reading); // read by more since
    }
    if (groupId) {
      const who = group ? group.typingIn(state, peer) : [];
      typing.textContent = who.length ? `${who.join(', ')} ${who.length > 1 ? 'are' : 'is'} typing…` : '';
    } else typing.textContent = (state.typing[peer] || 0) > Date.now() ? `${c ? c.peer.username : peer} is typing…` : '';
    if (c && c.unreadCount > 0) session.markRead(peer);
  }
  if (at) {
    session.openAt(peer, at).then((found) => {
      const m = found && rows.find((r) => r.id === at);
      if (m) act.show(m); else session.dispatch({ type: 'banner', banner: 'That message is no longer in this conversation.' });
    });
  } else session.openConversation(peer);
  return { el, update, focus: () => text.focus() };
}
