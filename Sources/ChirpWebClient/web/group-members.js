// A group's members (loaded when first opened from its conversation): each member with their
// role; for an admin, the actions on the others (remove, make admin, remove as admin), adding
// someone and renaming the group; for everyone, leaving it. Every button is named for whom it
// acts on ("Remove carol", "Make bob admin").
import { h, field } from './dom.js';
import { changeGroup, groupOf } from './groups.js';
import { ApiError } from './api.js';

/** `onLeft`: called once I left the group. */
export function membersPanel(session, id, onLeft) {
  const me = session.me.toLowerCase();
  const list = h('ul', { class: 'list', 'aria-label': 'Members' });
  const add = h('input', { autocapitalize: 'none', spellcheck: false, maxlength: 15 });
  const rename = h('input', { maxlength: 80 });
  const change = (method, path, body) => changeGroup(session, id, method, path, body);
  const button = (label, onclick, secondary = true) => h('button', { type: 'button', class: secondary ? 'secondary small' : 'small', onclick }, label);
  const seg = encodeURIComponent;

  const adminTools = h('div', {},
    h('form', { class: 'row', onsubmit: async (event) => {
      event.preventDefault();
      const name = add.value.trim().replace(/^@/, '');
      if (name && await change('PUT', `/members/${seg(name)}`)) add.value = '';
    } }, field('Add member', add), h('button', { type: 'submit', class: 'small' }, 'Add')),
    h('form', { class: 'row', onsubmit: async (event) => {
      event.preventDefault();
      const title = rename.value.trim();
      if (!title) return;
      if ([...title].length > 80) { session.fail(new ApiError(422, 'too_long', ''), { limit: 80 }); return; }
      await change('PATCH', '', { title });
    } }, field('Group title', rename), h('button', { type: 'submit', class: 'small' }, 'Rename')));

  const leave = button('Leave group', async () => {
    if (!confirm('Leave this group? You keep what you saw, but get nothing new.')) return;
    if (await change('DELETE', `/members/${seg(session.me)}`)) onLeft();
  });
  const el = h('section', { class: 'card members', 'aria-label': 'Group members' }, h('h2', {}, 'Members'), list, adminTools, leave);

  let shown = null;
  function update(state) {
    const group = groupOf(state, id);
    if (!group || group === shown) return;
    shown = group;
    const admin = (group.members || []).some((m) => m.user.username.toLowerCase() === me && m.role === 'admin');
    adminTools.hidden = !admin || group.removed;
    leave.hidden = !!group.removed;
    if (document.activeElement !== rename) rename.value = group.title || '';
    list.replaceChildren(...(group.members || []).map((m) => {
      const name = m.user.username;
      const self = name.toLowerCase() === me;
      const tools = admin && !self && !group.removed ? [
        m.role === 'admin' ? button('Remove as admin', () => change('DELETE', `/admins/${seg(name)}`)) : button('Make admin', () => change('PUT', `/admins/${seg(name)}`)),
        ' ', button('Remove', () => { if (confirm(`Remove ${name} from the group?`)) change('DELETE', `/members/${seg(name)}`); }),
      ] : [];
      for (const b of tools) if (b.setAttribute) b.setAttribute('aria-label', b.textContent === 'Make admin' ? `Make ${name} admin` : `${b.textContent.replace('Remove', `Remove ${name}`)}`);
      return h('li', { class: 'row' }, h('span', { class: 'name' }, self ? `${name} (you)` : name, m.role === 'admin' ? ', admin' : ''), h('span', {}, ...tools));
    }));
  }
  return { el, update };
}
