// One row of a conversation's log: the date line when it begins a day, the sender's avatar at
// the start of their run (others' messages), then the bubble: the quoted message it answers,
// its text (or the inline editor, or the "message unsent" tombstone), its attachments, its
// reactions, its time and delivery mark, and the actions (react, reply, edit, unsend) shown on
// hover, on focus or after a long press, beside the bubble (below it in a narrow log, after a
// click or tap on the message), never over its text. In a group (`ctx.group`) a run names its sender, and my message says how many
// of the others read it ("read by 2", from `readCount`), a button that shows who.
// What is open (the emoji picker, the editor, the readers) lives in the view's `ui`, keyed by
// the row's key, so a row drawn again shows it again.
import { h, time } from './dom.js';
import { EDIT_WINDOW_MS } from './session.js';
import { attachmentsView, uploadsView } from './media-view.js';
import { tombstoneNote, sealedNote } from './message-state.js';
import { avatar } from './avatar.js';

export const EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

/** `ctx`: {me, ui, cache, progress, quoted(m), group, act: {retry, picker, react, reply, edit,
 * save, cancelEdit, unsend, show, touch, readers, fail}}; `run`: {day, continued} (message-runs.js). */
export function messageRow(m, ctx, run = { day: null, continued: false }) {
  const { ui, act } = ctx;
  const mine = m.state !== 'received';
  const isMe = (u) => u.toLowerCase() === ctx.me.toLowerCase();
  const editing = ui.editing?.key === m.key;
  const meta = [h('time', { datetime: m.createdAt }, time(m.createdAt))];
  if (m.editedAt && !m.deleted) meta.push(' · ', h('span', { class: 'edited' }, 'edited'));
  const readBy = ctx.group && mine && m.readCount > 0 && !m.deleted ? `read by ${m.readCount}` : null;
  if (mine) meta.push(' · ', readBy ? h('button', { type: 'button', class: 'mark read small secondary', 'aria-label': `Read by ${m.readCount}: show who`,
    'aria-expanded': String(ui.readers === m.key), 'data-focus': `reads ${m.key}`, onclick: () => act.readers(m) }, readBy) : h('span', { class: `mark ${m.state}` }, m.state));
  if (m.state === 'failed') meta.push(' ', h('button', { type: 'button', class: 'small', onclick: () => act.retry(m) }, 'Retry'));

  const quoted = m.replyTo && !m.deleted ? ctx.quoted(m.replyTo) : null;
  const quote = m.replyTo && !m.deleted ? h('button', { type: 'button', class: 'quote', onclick: () => quoted && act.show(quoted) },
    h('span', { class: 'sr' }, 'In reply to '),
    quoted ? `${isMe(quoted.sender || ctx.me) ? 'You' : quoted.sender}: ${quoted.deleted ? tombstoneNote(quoted) : sealedNote(quoted) || quoted.text || '📎'}` : 'an earlier message') : null;

  // Every row has its `.text` (empty when there is none, hidden while the editor is open); an
  // encrypted message that was not opened says why instead, never any of its text.
  const sealed = !m.deleted && sealedNote(m);
  const body = [m.deleted ? h('p', { class: 'text unsent' }, tombstoneNote(m))
    : sealed ? h('p', { class: `text sealed ${m.sealed}` }, m.sealed === 'unverifiable' ? h('span', { 'aria-hidden': 'true' }, '⚠ ') : null, sealed)
      : h('p', { class: 'text', hidden: editing }, m.text)];
  if (editing && !m.deleted) {
    body.push(h('div', { class: 'editor' }, ui.editing.input, h('div', { class: 'row' },
      h('button', { type: 'button', class: 'small', onclick: () => act.save(m) }, 'Save'),
      h('button', { type: 'button', class: 'small secondary', onclick: () => act.cancelEdit() }, 'Cancel'))));
  }

  const reactions = m.deleted || !m.reactions?.length ? null : h('div', { class: 'reactions' }, m.reactions.map((r) => {
    const own = r.users.some(isMe);
    return h('button', { type: 'button', class: 'reaction', 'aria-pressed': String(own), title: r.users.join(', '),
      onclick: () => act.react(m, r.emoji, !own) }, `${r.emoji} ${r.count}`);
  }));

  const canEdit = mine && !m.deleted && !sealed && m.state !== 'failed' && Date.now() - Date.parse(m.createdAt) < EDIT_WINDOW_MS;
  const actions = m.deleted || m.state === 'failed' ? null : h('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Message actions' },
    h('button', { type: 'button', class: 'small secondary', 'aria-expanded': String(ui.picker === m.key), onclick: () => act.picker(m) }, 'React'),
    h('button', { type: 'button', class: 'small secondary', onclick: () => act.reply(m) }, 'Reply'),
    canEdit && !editing ? h('button', { type: 'button', class: 'small secondary', onclick: () => act.edit(m) }, 'Edit') : null,
    mine ? h('button', { type: 'button', class: 'small secondary', onclick: () => act.unsend(m) }, 'Unsend') : null);

  const picker = ui.picker === m.key && !m.deleted ? h('div', { class: 'picker', role: 'group', 'aria-label': 'Choose a reaction' }, EMOJI.map((emoji) => {
    const own = (m.reactions || []).some((r) => r.emoji === emoji && r.users.some(isMe));
    return h('button', { type: 'button', class: 'reaction', 'aria-pressed': String(own), 'data-focus': `pick ${emoji}`,
      onclick: () => act.react(m, emoji, !own) }, emoji);
  })) : null;

  // Focusable by a click (not by Tab): in a narrow log that shows its actions.
  const row = h('div', { class: `msg ${mine ? 'mine' : 'theirs'}${ui.touched === m.key ? ' touched' : ''}${ui.highlight === m.key ? ' found' : ''}`, tabindex: -1 },
    ctx.group && !mine && !run.continued ? h('p', { class: 'sender' }, h('strong', {}, m.sender), h('span', { class: 'sr' }, ': '))
      : h('span', { class: 'sr' }, mine ? 'You: ' : `${m.sender}: `),
    quote, body,
    m.deleted ? null : attachmentsView(m.media || [], ctx.cache, act.fail),
    m.deleted ? null : uploadsView(m.attachments, ctx.progress),
    reactions, h('p', { class: 'meta' }, ...meta), actions, picker);
  longPress(row, () => act.touch(m));
  const face = mine ? null : run.continued ? h('span', { class: 'avatar-space' }) : avatar(m.sender);
  return h('div', { class: `entry ${mine ? 'mine' : 'theirs'}${run.continued ? ' continued' : ''}` },
    run.day ? h('p', { class: 'day' }, h('span', {}, run.day)) : null,
    h('div', { class: 'line' }, face, row));
}

/** Calls `then` after a finger rests on `el` for half a second (touch screens have no hover). */
function longPress(el, then) {
  let timer = null, x = 0, y = 0;
  const stop = () => { clearTimeout(timer); timer = null; };
  el.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    stop();
    [x, y] = [event.clientX, event.clientY];
    timer = setTimeout(then, 500);
  });
  el.addEventListener('pointermove', (event) => { if (Math.hypot(event.clientX - x, event.clientY - y) > 10) stop(); });
  for (const type of ['pointerup', 'pointercancel']) el.addEventListener(type, stop);
  el.addEventListener('contextmenu', (event) => { if (timer !== null || el.classList.contains('touched')) event.preventDefault(); });
}
